/**
 * The part of `@metamask/utils` that `@metamask/eth-sig-util` and `@metamask/abi-utils` use.
 * Both are CommonJS and `require` the whole package, which webpack cannot tree-shake: that
 * brought the library's CommonJS build in full (semver, the BIP-39 word list, superstruct's
 * CommonJS build). This ES module re-exports the same functions from the ES build the rest
 * of the snap already uses, so webpack keeps only these. snap.config.ts applies it to
 * requests from those two packages; test/node/bundle-size.test.ts checks that every member
 * they read is listed here.
 */
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
  createBytes,
  hasProperty,
  hexToBytes,
  isObject,
  isStrictHexString,
  numberToBytes,
  numberToHex,
  remove0x,
  signedBigIntToBytes,
  stringToBytes,
} from '@metamask/utils';
