import { encodeFunctionData } from 'viem';
import type { Hex } from 'viem';

import { entryPointAbi } from './constants';
import { SEND_NONCE_KEY } from './sendNonces';
import { readUintWord, TransportError } from '../../chain';
import type { RpcClient } from '../../chain';

/**
 * Largest ERC-4337 nonce key: the EntryPoint's `getNonce(sender, uint192 key)` (v0.6, v0.7 and
 * v0.8 alike).
 */
export const MAX_NONCE_KEY = 2n ** 192n - 1n;

/** Sequence numbers per nonce key: the sequence is the low 64 bits of the nonce (ERC-4337). */
const NONCE_SEQUENCES = 2n ** 64n;

/**
 * Refuse a nonce key outside uint192.
 *
 * @param nonceKey - The key (high 192 bits of the nonce).
 * @throws RangeError when it is negative or above 192 bits.
 */
export function assertNonceKey(nonceKey: bigint): void {
  if (nonceKey < 0n || nonceKey > MAX_NONCE_KEY) {
    throw new RangeError('The nonce key is not a uint192');
  }
}

/**
 * Read the EntryPoint's `getNonce(sender, nonceKey)` reply, untrusted: one 32-byte word holding a
 * nonce of `nonceKey` (its high 192 bits), with a sequence below 2^64.
 *
 * @param word - The `eth_call` result (hex).
 * @param nonceKey - The key asked for.
 * @param origin - The RPC's origin, for errors.
 * @returns The nonce (key << 64 | sequence).
 * @throws TransportError (malformed) when the reply is not such a word or holds another key.
 */
export function readNonceOfKey(
  word: unknown,
  nonceKey: bigint,
  origin: string,
): bigint {
  const nonce = readUintWord(
    word,
    'EntryPoint.getNonce',
    (nonceKey + 1n) * NONCE_SEQUENCES - 1n,
    origin,
  );
  if (nonce / NONCE_SEQUENCES !== nonceKey) {
    throw new TransportError(
      'malformed',
      `EntryPoint.getNonce: the provider returned a nonce of another key (${origin})`,
      { url: origin },
    );
  }
  return nonce;
}

/**
 * The EntryPoint's nonce of an account under the key every send of this snap uses
 * (`getNonce(sender, SEND_NONCE_KEY)`), read alone: whether the operation the bundler last
 * accepted has landed (see `SendNonces.run`).
 *
 * @param chain - The account's chain side.
 * @param chain.client - The chain's RPC adapter.
 * @param chain.entryPoint - The EntryPoint.
 * @param chain.sender - The account.
 * @returns The nonce (key << 64 | sequence).
 * @throws The adapter's errors; TransportError (malformed) for a reply that is not such a nonce.
 */
export async function readSendNonce(chain: {
  client: RpcClient;
  entryPoint: Hex;
  sender: Hex;
}): Promise<bigint> {
  const word = await chain.client.call(
    {
      to: chain.entryPoint,
      data: encodeFunctionData({
        abi: entryPointAbi,
        functionName: 'getNonce',
        args: [chain.sender, SEND_NONCE_KEY],
      }),
    },
    'latest',
  );
  return readNonceOfKey(word, SEND_NONCE_KEY, chain.client.origin);
}
