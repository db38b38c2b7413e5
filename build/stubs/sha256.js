/**
 * SHA-256 and HMAC-SHA256 for the bundle's secp256k1 signers (the @noble/curves copies of
 * eth-sig-util's ethereum-cryptography, viem and @ethereumjs/tx 10), backed by js-sha256
 * (emn178/js-sha256, pinned in package.json), whose message schedule and state are plain JS
 * arrays and numbers. Under SES `lockdown()`, V8 sends every indexed store into a typed array
 * down a slow path (endojs/endo#1563), and noble's SHA-256 keeps its message schedule in a
 * Uint32Array: the RFC 6979 nonce of every signature (HMAC-DRBG over HMAC-SHA256) ran slowly in
 * the snap's sandbox. This file is glue only, no hash arithmetic: it keeps noble's contract (a
 * Uint8Array, or a string as UTF-8, in; a Uint8Array out) for the members those files read,
 * `sha256` of `@noble/hashes/sha256` / `sha2` and `hmac(hash, key, message)` of
 * `@noble/hashes/hmac`. snap.config.ts applies it to their requests; src/sha256Adapter.test.ts
 * checks that they read nothing else, and that every output is noble's, byte for byte.
 */
// The package's browser CommonJS build: pure JS, the same file in the bundle and in the tests
// (its Node entry point hands the work to Node's `crypto`).
const jsSha256 = require('js-sha256/build/sha256.cjs');

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
 * SHA-256 in noble's shape: `sha256(message)`, `sha256.create()` (an incremental hash with
 * `update(message)` and `digest()`), `outputLen` and `blockLen` in bytes. The digest comes from
 * js-sha256's `arrayBuffer()`, which writes it through a DataView: no indexed typed-array stores,
 * and cheaper in SES than copying its `array()` of numbers into a Uint8Array.
 *
 * @param {Uint8Array | string} message - The message.
 * @returns {Uint8Array} Its digest.
 */
const sha256 = (message) =>
  new Uint8Array(jsSha256.arrayBuffer(bytes(message)));
sha256.outputLen = 32;
sha256.blockLen = 64;
/**
 * An incremental hash, as noble's `create()` gives.
 *
 * @returns {object} A fresh one.
 */
sha256.create = () => {
  const state = jsSha256.create();
  const incremental = {
    outputLen: 32,
    blockLen: 64,
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
    digest: () => new Uint8Array(state.arrayBuffer()),
  };
  return incremental;
};

/**
 * HMAC in noble's one-shot shape, `hmac(hash, key, message)`, for this file's `sha256` only:
 * js-sha256's `hmac.arrayBuffer`. Any other hash is refused (noble's HMAC is not in this
 * module), so a caller the routing did not foresee fails loudly instead of hashing with the
 * wrong function.
 *
 * @param {Function} hash - Must be this module's `sha256`.
 * @param {Uint8Array | string} key - The key.
 * @param {Uint8Array | string} message - The message.
 * @returns {Uint8Array} The 32-byte tag.
 * @throws {TypeError} For any other hash.
 */
function hmac(hash, key, message) {
  if (hash !== sha256) {
    throw new TypeError(
      'hmac: this build routes HMAC to js-sha256, for SHA-256 only (build/stubs/sha256.js)',
    );
  }
  return new Uint8Array(jsSha256.hmac.arrayBuffer(bytes(key), bytes(message)));
}

module.exports = { sha256, hmac };
