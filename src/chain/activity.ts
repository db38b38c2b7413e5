import type { Hex } from 'viem';

import type { FetchLike, RpcCall } from './transportTypes';
import { readHexData, readQuantity } from './untrusted';

/**
 * Whether an address was ever used on a chain, read in batches (a plain library: addresses in,
 * booleans out). Two reads an address, both at `latest`:
 * - an externally owned account (`eoa`): `eth_getTransactionCount` and `eth_getBalance`; used when
 *   it sent a transaction (nonce > 0) or holds wei;
 * - a contract account (`contract`, e.g. an ERC-4337 smart account's counterfactual address):
 *   `eth_getCode` and `eth_getBalance`; used when code is deployed there or it holds wei.
 * Every reply is untrusted: a quantity must be hex of at most 32 bytes, code must be hex bytes
 * (the transport bounds a reply's size), or the read fails with TransportError (malformed).
 */

/** What kind of address a probe reads. */
export type ProbeKind = 'eoa' | 'contract';

/** One address to read, and how. */
export type ActivityProbe = {
  /** The address (20 bytes hex). */
  address: Hex;
  /** `eoa`: nonce and balance; `contract`: code and balance. */
  kind: ProbeKind;
};

/** JSON-RPC calls each probe takes (the length of what `activityCalls` returns per probe). */
export const CALLS_PER_PROBE = 2;

/**
 * The JSON-RPC calls (EIP-1474) that tell whether the probes were used, CALLS_PER_PROBE per probe,
 * in probe order: for one batch (`RpcClient.batch`).
 *
 * @param probes - The addresses and their kinds.
 * @returns `[first read, balance]` of each probe, flattened.
 */
export function activityCalls(probes: readonly ActivityProbe[]): RpcCall[] {
  return probes.flatMap(({ address, kind }) => [
    {
      method: kind === 'eoa' ? 'eth_getTransactionCount' : 'eth_getCode',
      params: [address, 'latest'],
    },
    { method: 'eth_getBalance', params: [address, 'latest'] },
  ]);
}

/** A nonce above this is not believed (2^64 - 1, EIP-2681). */
const MAX_NONCE = 2n ** 64n - 1n;

/**
 * Read the replies to `activityCalls(probes)`.
 *
 * @param probes - The probes, in the order their calls were sent.
 * @param replies - The batch's results, in call order.
 * @param origin - The endpoint's origin, for errors.
 * @returns Per probe, whether the address was used (nonce > 0 or code, or balance > 0).
 * @throws TransportError (malformed) when a reply is missing or not what its method returns.
 */
export function readActivity(
  probes: readonly ActivityProbe[],
  replies: readonly unknown[],
  origin?: string,
): boolean[] {
  return probes.map(({ kind }, at) => {
    const first = replies[at * CALLS_PER_PROBE];
    const balance = readQuantity(
      replies[at * CALLS_PER_PROBE + 1],
      'eth_getBalance',
      {},
      origin,
    );
    const touched =
      kind === 'eoa'
        ? readQuantity(
            first,
            'eth_getTransactionCount',
            { max: MAX_NONCE },
            origin,
          ) > 0n
        : readHexData(first, 'eth_getCode', origin) !== '0x';
    return touched || balance > 0n;
  });
}

/** Round trips and calls counted by {@link countingFetch}. */
export type RequestCount = {
  /** HTTP requests sent (retries included). */
  roundTrips: number;
  /** JSON-RPC calls in them (a batch counts its members). */
  calls: number;
};

/**
 * A `fetch` for `createRpcClient` that counts the round trips and JSON-RPC calls sent through it.
 *
 * @param count - Where to add them up.
 * @param inner - The fetch to send with (default `globalThis.fetch`).
 * @returns The counting fetch.
 */
export function countingFetch(
  count: RequestCount,
  inner: FetchLike = globalThis.fetch,
): FetchLike {
  return async (input, init) => {
    count.roundTrips += 1;
    const body: unknown = JSON.parse(init.body);
    count.calls += Array.isArray(body) ? body.length : 1;
    return inner(input, init);
  };
}
