import { isHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { getEntropy } from '../platform';
import type { DerivationScheme } from '../state/schema';
import { invalidParams } from '../utils/errors';

/** secp256k1 group order n: a private key must be in [1, n-1]. */
const SECP256K1_N = BigInt(
  '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141',
);

export type { DerivationScheme };

/**
 * The snap_getEntropy salt of account index `index` in `scheme`. Changing it changes every derived
 * address: it is part of the snap's public contract (a reinstall on the same Secret Recovery
 * Phrase derives the same keys from the same salts).
 *
 * @param index - Account index in the scheme's own sequence, 0-based.
 * @param scheme - The salt scheme.
 * @returns The salt string: `keyring-snap:account:<index>` (legacy), `keyring-snap:eoa:<index>`
 * or `keyring-snap:erc4337-owner:<index>`.
 */
export function derivationSalt(
  index: number,
  scheme: DerivationScheme,
): string {
  return scheme === 'legacy'
    ? `keyring-snap:account:${index}`
    : `keyring-snap:${scheme}:${index}`;
}

/**
 * Derive the private key of account `index` of `scheme` from one of the user's Secret Recovery
 * Phrases through snap_getEntropy (SIP-6, version 1, the salt of {@link derivationSalt}, and the
 * entropy source of SIP-30). The same SRP gives the same key for the same index and scheme after a
 * reinstall.
 *
 * @param index - Account index in the scheme's sequence, 0-based.
 * @param scheme - The salt scheme (`eoa` or `erc4337-owner` for new accounts).
 * @param source - The entropy source's id (`snap_listEntropySources`); undefined for the primary SRP.
 * @returns 32-byte private key, 0x-prefixed hex, and its address.
 * @throws Error if the entropy is not a valid secp256k1 key (probability ~2^-128).
 */
export async function deriveKey(
  index: number,
  scheme: DerivationScheme,
  source?: string,
): Promise<{ privateKey: string; address: string }> {
  const entropy = await getEntropy(derivationSalt(index, scheme), source);
  return keyPair(entropy);
}

/**
 * Check an imported private key and compute its address.
 *
 * @param privateKey - 32-byte hex, with or without 0x.
 * @returns The normalised key (0x, lower case) and its checksummed address.
 * @throws JsonRpcError -32602 "Invalid private key" (the key itself is never echoed).
 */
export function importedKeyPair(privateKey: string): {
  privateKey: string;
  address: string;
} {
  const prefixed = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  if (!isHex(prefixed) || prefixed.length !== 66) {
    throw invalidParams('Invalid private key: expected 32 bytes of hex', {
      reason: 'invalidPrivateKey',
    });
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
    throw invalidParams('Invalid private key: out of the secp256k1 range', {
      reason: 'invalidPrivateKey',
    });
  }
  const privateKey = keyHex.toLowerCase();
  return {
    privateKey,
    address: privateKeyToAddress(privateKey as `0x${string}`),
  };
}
