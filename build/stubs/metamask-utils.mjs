/**
 * The part of `@metamask/utils` that `@metamask/eth-sig-util` and `@metamask/abi-utils` use.
 * Both are CommonJS and `require` the whole package, which webpack cannot tree-shake: that
 * brought the library's CommonJS build in full (semver, the BIP-39 word list, superstruct's
 * CommonJS build). This ES module re-exports the same functions from the ES build the rest
 * of the snap already uses, so webpack keeps only these. snap.config.ts applies it to
 * requests from those two packages; test/node/bundle-size.test.ts checks that every member
 * they read is listed here.
 *
 * `createBytes` is the library's own, with one shortcut in front: a `Uint8Array` (a Buffer
 * too) is returned as it is, without the superstruct coercion. For such a value the library's
 * `create(value, BytesCoercer)` first tests it against its hex-string struct, which fails and
 * builds a `StructError` (an `Error`, whose stack is captured: 10-30 µs each in the snap's SES
 * sandbox), then checks `value instanceof Uint8Array` and returns the same object. abi-utils
 * calls it for every `bytes32` and address it encodes (11 times for one small EIP-712 message).
 * Every other value goes to the library's function unchanged. test/build/abi-utils-asserts.test.ts
 * compares the two over generated values (docs/performance.md).
 */
import { createBytes as libraryCreateBytes } from '@metamask/utils';

export {
  StrictHexStruct,
  add0x,
  assert,
  bigIntToBytes,
  bytesToBigInt,
  bytesToHex,
  bytesToNumber,
  bytesToSignedBigInt,
  bytesToString,
  concatBytes,
  createBigInt,
  hasProperty,
  hexToBytes,
  isObject,
  isStrictHexString,
  isValidHexAddress,
  numberToBytes,
  numberToHex,
  remove0x,
  signedBigIntToBytes,
  stringToBytes,
} from '@metamask/utils';

/**
 * `@metamask/utils`' `createBytes`, returning a `Uint8Array` at once (see above).
 *
 * @param {unknown} value - A `Uint8Array`, a `0x` hex string, or anything the library accepts.
 * @returns {Uint8Array} The bytes: the same object for a `Uint8Array`.
 * @throws {Error} As the library's function, for values it refuses.
 */
export function createBytes(value) {
  if (value instanceof Uint8Array) {
    return value;
  }
  return libraryCreateBytes(value);
}
