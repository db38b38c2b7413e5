/**
 * What ethereum-cryptography 2's `utils` module gives the bundle's two readers of it: `wrapHash`
 * (its `keccak` module, for eth-sig-util's typed-data hashes) and `bytesToHex` (the copy of
 * `@ethereumjs/util` 8 under eth-sig-util). The module itself loads its own @noble/hashes 1.4 `utils` and `_assert`
 * (a second copy of functions viem's 1.8 copy has); this one takes them from viem's ES build
 * (snap.config.ts resolves `@noble/hashes/utils.js` here to it). `wrapHash` is ethereum-cryptography's:
 * the hash of a Uint8Array, anything else refused with noble's "Uint8Array expected".
 * test/node/bundle-size.test.ts checks that those readers use nothing else.
 */
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import -- viem's copy, by the alias in snap.config.ts
import { abytes } from '@noble/hashes/utils.js';

// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import -- viem's copy, by the alias in snap.config.ts
export { bytesToHex } from '@noble/hashes/utils.js';

/**
 * A hash function that takes bytes only, as ethereum-cryptography wraps noble's.
 *
 * @param {(message: Uint8Array) => Uint8Array} hash - A noble hash function.
 * @returns {(message: Uint8Array) => Uint8Array} The same hash, refusing anything but a Uint8Array.
 */
export function wrapHash(hash) {
  return (message) => {
    abytes(message);
    return hash(message);
  };
}
