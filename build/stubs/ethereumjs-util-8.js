/**
 * The part of @ethereumjs/util 8 that `@metamask/eth-sig-util` reads (its `personal-sign`,
 * `sign-typed-data` and `utils` modules): signing, recovery and byte helpers. eth-sig-util
 * `require`s the package's index, which loads every module of it, the unused ones included:
 * `AsyncEventEmitter` with Node's `events` polyfill, `Lock`, the JSON-RPC `fetchFromProvider`,
 * units, withdrawals and the RLP encoding helpers. This module takes the same functions from the
 * package's own files that hold them (snap.config.ts resolves `@ethereumjs/util` here to
 * eth-sig-util's copy and gives eth-sig-util this module for `@ethereumjs/util`).
 * test/node/bundle-size.test.ts checks that every member eth-sig-util reads is listed, each the
 * index's own function.
 */
/* eslint-disable import-x/no-unresolved -- eth-sig-util's copy, by the alias in snap.config.ts */
const account = require('@ethereumjs/util/dist/account');
const bytes = require('@ethereumjs/util/dist/bytes');
const internal = require('@ethereumjs/util/dist/internal');
const signature = require('@ethereumjs/util/dist/signature');
/* eslint-enable import-x/no-unresolved */

module.exports = {
  arrToBufArr: bytes.arrToBufArr,
  bufferToHex: bytes.bufferToHex,
  bufferToInt: bytes.bufferToInt,
  ecrecover: signature.ecrecover,
  ecsign: signature.ecsign,
  fromRpcSig: signature.fromRpcSig,
  fromSigned: bytes.fromSigned,
  hashPersonalMessage: signature.hashPersonalMessage,
  isHexString: internal.isHexString,
  publicToAddress: account.publicToAddress,
  toBuffer: bytes.toBuffer,
  toUnsigned: bytes.toUnsigned,
};
