import { assertNonceKey, MAX_NONCE_KEY, readNonceOfKey } from './nonce';

/**
 * The EntryPoint's nonce (ERC-4337: key in the high 192 bits, sequence in the low 64), read from an
 * untrusted `getNonce` reply, as both the v0.6 and the v0.7/v0.8 drafts read it.
 */

const ORIGIN = 'https://rpc.example';

/**
 * A getNonce reply.
 *
 * @param nonce - The nonce.
 * @returns One 32-byte word, hex.
 */
const word = (nonce: bigint): string =>
  `0x${nonce.toString(16).padStart(64, '0')}`;

describe('readNonceOfKey', () => {
  it('reads the nonce of the key asked for, up to its last sequence', () => {
    const key = 7n;
    expect(readNonceOfKey(word(key * 2n ** 64n + 3n), key, ORIGIN)).toBe(
      key * 2n ** 64n + 3n,
    );
    expect(
      readNonceOfKey(word(key * 2n ** 64n + 2n ** 64n - 1n), key, ORIGIN),
    ).toBe(key * 2n ** 64n + 2n ** 64n - 1n);
  });

  it('refuses a nonce of another key, and one that is not a word', () => {
    expect(() => readNonceOfKey(word(6n * 2n ** 64n), 7n, ORIGIN)).toThrow(
      /^EntryPoint\.getNonce: the provider returned a nonce of another key \(https:\/\/rpc\.example\)$/u,
    );
    expect(() => readNonceOfKey(word(8n * 2n ** 64n), 7n, ORIGIN)).toThrow(
      /EntryPoint\.getNonce/u,
    );
    expect(() => readNonceOfKey('0x12', 7n, ORIGIN)).toThrow(
      /EntryPoint\.getNonce/u,
    );
  });
});

describe('assertNonceKey', () => {
  it('takes 0 to 2^192-1 and refuses what lies outside', () => {
    expect(() => assertNonceKey(0n)).not.toThrow();
    expect(() => assertNonceKey(MAX_NONCE_KEY)).not.toThrow();
    expect(MAX_NONCE_KEY).toBe(2n ** 192n - 1n);
    expect(() => assertNonceKey(-1n)).toThrow(RangeError);
    expect(() => assertNonceKey(2n ** 192n)).toThrow(RangeError);
  });
});
