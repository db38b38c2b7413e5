import { isHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { invalidParams } from './errors';

/** secp256k1 group order n: a private key must be in [1, n-1]. */
const SECP256K1_N = BigInt(
  '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
);

/**
 * The snap_getEntropy salt for account index `index`. Changing it changes every
 * derived address: it is part of the snap's public contract.
 *
 * @param index - Account index, 0-based.
 * @returns The salt string.
 */
export function derivationSalt(index: number): string {
  return `keyring-snap:account:${index}`;
}

/**
 * Derive the private key of account `index` from the user's Secret Recovery
 * Phrase through snap_getEntropy (version 1, a salt per index). The same SRP
 * gives the same keys in the same order after a reinstall.
 *
 * @param index - Account index, 0-based.
 * @returns 32-byte private key, 0x-prefixed hex, and its address.
 * @throws Error if the entropy is not a valid secp256k1 key (probability ~2^-128).
 */
export async function deriveKey(
  index: number,
): Promise<{ privateKey: string; address: string }> {
  const entropy = await snap.request({
    method: 'snap_getEntropy',
    params: { version: 1, salt: derivationSalt(index) },
  });
  return keyPair(entropy);
}

/**
 * Check an imported private key and compute its address.
 *
 * @param privateKey - 32-byte hex, with or without 0x.
 * @returns The normalised key (0x, lower case) and its checksummed address.
 * @throws JsonRpcError -32602 "Invalid private key" (the key itself is never echoed).
 */
export function importKey(privateKey: string): {
  privateKey: string;
  address: string;
} {
  const prefixed = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  if (!isHex(prefixed) || prefixed.length !== 66) {
    throw invalidParams('Invalid private key: expected 32 bytes of hex');
  }
  return keyPair(prefixed);
}

/**
 * The key pair of a 32-byte private key, once it is checked to be a valid secp256k1 scalar.
 *
 * @param keyHex - 0x-prefixed hex of 32 bytes.
 * @returns The key (lower case) and its checksummed address.
 * @throws JsonRpcError -32602 if the key is 0 or not below the secp256k1 group order.
 */
function keyPair(keyHex: string): { privateKey: string; address: string } {
  const value = BigInt(keyHex);
  if (value === 0n || value >= SECP256K1_N) {
    throw invalidParams('Invalid private key: out of the secp256k1 range');
  }
  const privateKey = keyHex.toLowerCase();
  return {
    privateKey,
    address: privateKeyToAddress(privateKey as `0x${string}`),
  };
}
