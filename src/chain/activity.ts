import { numberToHex } from 'viem';
import type { Hex } from 'viem';

import type { RpcClient } from './client';
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

/** An address's state at a block, as far as ETH moving shows in it. */
export type BalanceState = {
  /** The block (-1: before the first block, nothing held). */
  block: bigint;
  /** The balance at the end of that block, wei. */
  balance: bigint;
  /** The nonce at the end of that block (an EOA's; 0 for a contract account). */
  nonce: bigint;
};

/** A block where an address's balance, or an EOA's nonce, changed: its state before and after. */
export type BalanceChange = {
  /** The block. */
  block: bigint;
  /** The state at the end of the block before. */
  before: BalanceState;
  /** The state at the end of the block. */
  after: BalanceState;
};

/** What {@link findBalanceChanges} found. */
export type ChangeSearch = {
  /** The blocks where the state changed, oldest first. */
  changes: BalanceChange[];
  /** The last block searched through: every change up to it is in `changes`. */
  searchedTo: bigint;
};

/** Blocks whose state is read in one round trip (one batch) of {@link findBalanceChanges}. */
const CHANGE_PROBES_PER_ROUND = 40;

/** Probes one range gets in a round: it is cut in ten parts. */
const PARTS_PER_RANGE = 10;

/** Round trips {@link findBalanceChanges} makes at most, after its first: 10^12 blocks narrowed to one. */
const CHANGE_ROUNDS = 12;

/**
 * The blocks where an address's balance (or an EOA's nonce) changed in a block range, found with
 * the state at past blocks (`eth_getBalance`, and for an EOA `eth_getTransactionCount`, at block
 * numbers; a provider must serve that state): the state is read at both ends, a range whose ends
 * differ is cut in ten parts and read again, oldest ranges first, until each change is one block.
 * A range whose ends hold the same balance and nonce is taken as unchanged, so ETH received and
 * spent again within it without the nonce moving (a contract account's, or an EIP-7702 account's
 * user operation) is not seen. Bounded: {@link CHANGE_PROBES_PER_ROUND} blocks per round trip, at
 * most {@link CHANGE_ROUNDS} round trips after the first, and at most `maxChanges` changes; what
 * the bounds leave is said by `searchedTo` (every change up to it was found), the oldest range
 * first, so a later search from `searchedTo + 1` goes on where this one stopped.
 *
 * @param client - The chain's RPC adapter.
 * @param address - The address.
 * @param kind - `eoa` (balance and nonce) or `contract` (balance).
 * @param from - First block, inclusive.
 * @param to - Last block, inclusive.
 * @param maxChanges - The most changes returned.
 * @returns The changes, oldest first, and how far the search went.
 * @throws The adapter's errors (a provider without the past state: ChainRpcError); TransportError
 * (malformed) for a reply that is not a bounded quantity.
 */
export async function findBalanceChanges(
  client: RpcClient,
  address: Hex,
  kind: ProbeKind,
  from: bigint,
  to: bigint,
  maxChanges: number,
): Promise<ChangeSearch> {
  if (from > to) {
    return { changes: [], searchedTo: to };
  }
  /**
   * The address's state at some blocks, in one batch.
   *
   * @param blocks - The blocks.
   * @returns The balance and nonce at the end of each.
   */
  const read = async (blocks: bigint[]): Promise<BalanceState[]> => {
    const replies = await client.batch(
      blocks.flatMap((block) => [
        { method: 'eth_getBalance', params: [address, numberToHex(block)] },
        ...(kind === 'eoa'
          ? [
              {
                method: 'eth_getTransactionCount',
                params: [address, numberToHex(block)],
              },
            ]
          : []),
      ]),
    );
    const width = kind === 'eoa' ? 2 : 1;
    return blocks.map((block, at) => ({
      block,
      balance: readQuantity(
        replies[at * width],
        'eth_getBalance',
        {},
        client.origin,
      ),
      nonce:
        kind === 'eoa'
          ? readQuantity(
              replies[at * width + 1],
              'eth_getTransactionCount',
              { max: MAX_NONCE },
              client.origin,
            )
          : 0n,
    }));
  };
  const ends =
    from === 0n
      ? [{ block: -1n, balance: 0n, nonce: 0n }, ...(await read([to]))]
      : await read([from - 1n, to]);
  let ranges: [BalanceState, BalanceState][] = [[ends[0], ends[1]]];
  const changes: BalanceChange[] = [];
  for (let round = 0; ; round += 1) {
    // A range with the same state at both ends is unchanged; one of one block is a change.
    ranges = ranges.filter(([before, after]) => {
      if (before.balance === after.balance && before.nonce === after.nonce) {
        return false;
      }
      if (after.block - before.block === 1n) {
        changes.push({ block: after.block, before, after });
        return false;
      }
      return true;
    });
    if (ranges.length === 0 || round === CHANGE_ROUNDS) {
      break;
    }
    const cuts: bigint[][] = [];
    let budget = CHANGE_PROBES_PER_ROUND;
    for (const [before, after] of ranges) {
      const span = after.block - before.block;
      const parts =
        span < BigInt(PARTS_PER_RANGE) ? span : BigInt(PARTS_PER_RANGE);
      const blocks: bigint[] = [];
      for (let part = 1n; part < parts && budget > 0; part += 1n) {
        blocks.push(before.block + (span * part) / parts);
        budget -= 1;
      }
      cuts.push(blocks);
    }
    const states = await read(cuts.flat());
    let at = 0;
    ranges = ranges.flatMap(([before, after], index) => {
      const inside = states.slice(at, at + cuts[index].length);
      at += cuts[index].length;
      const points = [before, ...inside, after];
      return points
        .slice(1)
        .map((point, part): [BalanceState, BalanceState] => [
          points[part],
          point,
        ]);
    });
  }
  changes.sort((left, right) => (left.block < right.block ? -1 : 1));
  // Complete up to the first range still open, and up to the change after the last one kept.
  let searchedTo = ranges.length === 0 ? to : ranges[0][0].block;
  const kept = changes.filter((change) => change.block <= searchedTo);
  if (kept.length > maxChanges) {
    searchedTo = kept[maxChanges].block - 1n;
  }
  return { changes: kept.slice(0, maxChanges), searchedTo };
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
