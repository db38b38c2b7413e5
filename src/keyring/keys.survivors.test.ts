import { JsonRpcError } from '@metamask/rpc-errors';
import { privateKeyToAddress } from 'viem/accounts';

import { importedKeyPair } from './keys';

/**
 * An imported private key is checked before it becomes an account (each case found by mutation
 * testing, docs/testing.md "Mutation testing"; the snap suites import keys too, but mutation runs
 * only the unit suites): 32 bytes of hex with or without `0x`, a scalar in [1, n-1] of secp256k1
 * (SEC 2, section 2.4.1), the address computed independently with viem, and every refusal a
 * -32602 that names the problem and never the key.
 */

/** The secp256k1 group order n (SEC 2, section 2.4.1), written out here, not imported. */
const ORDER =
  0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * A scalar as a 32-byte private key.
 *
 * @param value - The scalar.
 * @returns 0x + 64 hex digits.
 */
const key = (value: bigint): `0x${string}` =>
  `0x${value.toString(16).padStart(64, '0')}`;

/**
 * The error importedKeyPair throws, or undefined when it accepts.
 *
 * @param privateKey - The key as given.
 * @returns The error.
 */
function refusal(privateKey: string): JsonRpcError<never> | undefined {
  try {
    importedKeyPair(privateKey);
    return undefined;
  } catch (error) {
    return error as JsonRpcError<never>;
  }
}

describe('importedKeyPair', () => {
  it('accepts a key with or without 0x, in either case, as the same lower-case key and address', () => {
    const lower = key(ORDER - 2n);
    const expected = {
      privateKey: lower,
      address: privateKeyToAddress(lower),
    };
    expect(importedKeyPair(lower)).toStrictEqual(expected);
    expect(importedKeyPair(lower.slice(2))).toStrictEqual(expected);
    expect(importedKeyPair(`0x${lower.slice(2).toUpperCase()}`)).toStrictEqual(
      expected,
    );
  });

  it('accepts the smallest and the largest scalar, 1 and n-1', () => {
    for (const value of [1n, ORDER - 1n]) {
      expect(importedKeyPair(key(value)).address).toBe(
        privateKeyToAddress(key(value)),
      );
    }
  });

  it.each([
    ['31 bytes', `0x${'11'.repeat(31)}`],
    ['33 bytes', `0x${'11'.repeat(33)}`],
    ['64 characters that are not hex', `0x${'zz'.repeat(32)}`],
    ['hex after junk', `zz${'11'.repeat(32)}`],
  ])('refuses %s as not 32 bytes of hex, naming no key', (_case, given) => {
    const error = refusal(given);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe(
      'Invalid private key: expected 32 bytes of hex',
    );
    expect(error?.data).toStrictEqual({ reason: 'invalidPrivateKey' });
    expect(JSON.stringify(error?.serialize())).not.toContain(given);
  });

  it('refuses an empty key', () => {
    expect(refusal('')?.message).toBe(
      'Invalid private key: expected 32 bytes of hex',
    );
  });

  it.each([
    ['0', 0n],
    ['n', ORDER],
    ['n+1', ORDER + 1n],
    ['2^256-1', 2n ** 256n - 1n],
  ])('refuses the scalar %s as out of range, naming no key', (_case, value) => {
    const error = refusal(key(value));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe(
      'Invalid private key: out of the secp256k1 range',
    );
    expect(error?.data).toStrictEqual({ reason: 'invalidPrivateKey' });
    expect(JSON.stringify(error?.serialize())).not.toContain(
      key(value).slice(2, 20),
    );
  });
});
