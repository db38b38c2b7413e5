/**
 * Keccak for the bundle's `@noble/hashes/sha3` importers (viem, @metamask/utils,
 * ethereum-cryptography for eth-sig-util, @ethereumjs/util and tx 10), backed by js-sha3
 * (emn178/js-sha3, pinned in package.json), whose Keccak state is plain JS arrays. Under SES
 * `lockdown()`, V8 sends every indexed store into a typed array down a slow path
 * (endojs/endo#1563), and noble's Keccak keeps its state in a Uint32Array: one Keccak-256 took
 * 400-800 µs in the snap's sandbox. This file is glue only, no hash arithmetic: it keeps noble's
 * contract (a Uint8Array, or a string as UTF-8, in; a Uint8Array out) for the members those
 * packages read. snap.config.ts applies it to their requests; test/build/keccak.test.ts checks
 * that they read nothing else, and that every output is noble's, byte for byte.
 */
const sha3 = require('js-sha3');

/**
 * The bytes noble 1.x `toBytes` would hash: a string's UTF-8 bytes, a Uint8Array as it is.
 *
 * @param {Uint8Array | string} message - What the caller hashes.
 * @returns {Uint8Array} Its bytes.
 * @throws {TypeError} For anything else, as noble refuses it.
 */
function bytes(message) {
  if (typeof message === 'string') {
    return new TextEncoder().encode(message);
  }
  const isBytes =
    message instanceof Uint8Array ||
    (ArrayBuffer.isView(message) && message.constructor.name === 'Uint8Array');
  if (!isBytes) {
    throw new TypeError('Uint8Array expected');
  }
  return message;
}

/**
 * One js-sha3 Keccak in noble's shape: `hash(message)`, `hash.create()` (an incremental hash
 * with `update(message)` and `digest()`), `outputLen` and `blockLen` in bytes. js-sha3's
 * `array()` gives the digest's bytes as numbers (no typed-array stores).
 *
 * @param {object} method - A js-sha3 method, e.g. `keccak_256`.
 * @param {number} outputLen - Its digest length, bytes.
 * @returns {Function} The noble-shaped hash function.
 */
function nobleShaped(method, outputLen) {
  const blockLen = 200 - 2 * outputLen;
  /**
   * The one-shot hash.
   *
   * @param {Uint8Array | string} message - The message.
   * @returns {Uint8Array} Its digest.
   */
  const hash = (message) => new Uint8Array(method.array(bytes(message)));
  hash.outputLen = outputLen;
  hash.blockLen = blockLen;
  /**
   * An incremental hash, as noble's `create()` gives.
   *
   * @returns {object} A fresh one.
   */
  hash.create = () => {
    const state = method.create();
    const incremental = {
      outputLen,
      blockLen,
      /**
       * Absorb more of the message.
       *
       * @param {Uint8Array | string} message - More of the message.
       * @returns {object} The same incremental hash.
       */
      update: (message) => {
        state.update(bytes(message));
        return incremental;
      },
      /**
       * Finish.
       *
       * @returns {Uint8Array} The digest of everything absorbed.
       */
      digest: () => new Uint8Array(state.array()),
    };
    return incremental;
  };
  return hash;
}

module.exports = {
  keccak_224: nobleShaped(sha3.keccak_224, 28),
  keccak_256: nobleShaped(sha3.keccak_256, 32),
  keccak_384: nobleShaped(sha3.keccak_384, 48),
  keccak_512: nobleShaped(sha3.keccak_512, 64),
};
