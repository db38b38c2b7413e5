/**
 * `keccak256` for `@metamask/eth-sig-util` and its copy of `@ethereumjs/util` 8, in place of
 * `ethereum-cryptography/keccak` (whose only member they call is `keccak256`). It is Keccak-256
 * as Ethereum uses it (the original Keccak padding 0x01 .. 0x80, rate 136 bytes, 24 rounds of
 * Keccak-f[1600]; "The Keccak reference", version 3.0, and FIPS 202 for the permutation), and
 * the same computation as @noble/hashes' `keccak_256`, step for step, with one difference: the
 * 200-byte state and the theta column parities live behind DataViews instead of Uint32Arrays.
 *
 * Why: inside the snap, SES `lockdown()` freezes the intrinsics, and V8 then takes a slow path
 * for every indexed store into a typed array (tens of times slower; endojs/endo issue #1563),
 * which the permutation does thousands of times per hash. DataView stores are not affected.
 * test/node/bundle-size.test.ts compares this function with ethereum-cryptography's on every
 * input length from 0 to 700 bytes (each padding case) and on known digests.
 */
'use strict';

const RATE = 136;

// Round constants and offsets, computed as @noble/hashes computes them (FIPS 202, 3.2).
const PI = [];
const ROTL = [];
const IOTA_H = [];
const IOTA_L = [];
for (let round = 0, r = 1n, x = 1, y = 0; round < 24; round += 1) {
  [x, y] = [y, (2 * x + 3 * y) % 5];
  PI.push(2 * (5 * y + x));
  ROTL.push((((round + 1) * (round + 2)) / 2) % 64);
  let t = 0n;
  for (let j = 0; j < 7; j += 1) {
    r = ((r << 1n) ^ ((r >> 7n) * 0x71n)) % 256n;
    if (r & 2n) {
      t ^= 1n << ((1n << BigInt(j)) - 1n);
    }
  }
  IOTA_H.push(Number(t & 0xffffffffn));
  IOTA_L.push(Number((t >> 32n) & 0xffffffffn));
}

// 64-bit rotations of a lane held as two 32-bit words, in @noble/hashes' (h, l) order.
const rotlH = (h, l, s) => (s > 32 ? (l << (s - 32)) | (h >>> (64 - s)) : (h << s) | (l >>> (32 - s)));
const rotlL = (h, l, s) => (s > 32 ? (h << (s - 32)) | (l >>> (64 - s)) : (l << s) | (h >>> (32 - s)));

/**
 * Keccak-f[1600] on the state: word i is the little-endian 32-bit word at byte 4*i.
 *
 * @param {DataView} s - The 200-byte state.
 * @param {DataView} b - 40 bytes of scratch.
 */
function keccakP(s, b) {
  const get = (i) => s.getUint32(i << 2, true);
  const set = (i, v) => s.setUint32(i << 2, v >>> 0, true);
  for (let round = 0; round < 24; round += 1) {
    // theta
    for (let x = 0; x < 10; x += 1) {
      b.setUint32(x << 2, get(x) ^ get(x + 10) ^ get(x + 20) ^ get(x + 30) ^ get(x + 40), true);
    }
    for (let x = 0; x < 10; x += 2) {
      const idx1 = (x + 8) % 10;
      const idx0 = (x + 2) % 10;
      const b0 = b.getUint32(idx0 << 2, true);
      const b1 = b.getUint32((idx0 + 1) << 2, true);
      const th = rotlH(b0, b1, 1) ^ b.getUint32(idx1 << 2, true);
      const tl = rotlL(b0, b1, 1) ^ b.getUint32((idx1 + 1) << 2, true);
      for (let y = 0; y < 50; y += 10) {
        set(x + y, get(x + y) ^ th);
        set(x + y + 1, get(x + y + 1) ^ tl);
      }
    }
    // rho and pi
    let curH = get(2);
    let curL = get(3);
    for (let t = 0; t < 24; t += 1) {
      const shift = ROTL[t];
      const th = rotlH(curH, curL, shift);
      const tl = rotlL(curH, curL, shift);
      const pi = PI[t];
      curH = get(pi);
      curL = get(pi + 1);
      set(pi, th);
      set(pi + 1, tl);
    }
    // chi
    for (let y = 0; y < 50; y += 10) {
      for (let x = 0; x < 10; x += 1) {
        b.setUint32(x << 2, get(y + x), true);
      }
      for (let x = 0; x < 10; x += 1) {
        set(y + x, get(y + x) ^ (~b.getUint32(((x + 2) % 10) << 2, true) & b.getUint32(((x + 4) % 10) << 2, true)));
      }
    }
    // iota
    set(0, get(0) ^ IOTA_H[round]);
    set(1, get(1) ^ IOTA_L[round]);
  }
}

/**
 * Keccak-256 of `message`.
 *
 * @param {Uint8Array} message - The bytes to hash.
 * @returns {Uint8Array} The 32-byte digest.
 * @throws {Error} When `message` is not a Uint8Array (as ethereum-cryptography's wrapper).
 */
function keccak256(message) {
  if (!(message instanceof Uint8Array)) {
    throw new Error('Uint8Array expected');
  }
  const buffer = new ArrayBuffer(200);
  const state = new DataView(buffer);
  const scratch = new DataView(new ArrayBuffer(40));
  const input = new DataView(message.buffer, message.byteOffset, message.byteLength);
  let offset = 0;
  for (; offset + RATE <= message.length; offset += RATE) {
    for (let i = 0; i < RATE; i += 4) {
      state.setUint32(i, state.getUint32(i, true) ^ input.getUint32(offset + i, true), true);
    }
    keccakP(state, scratch);
  }
  const rest = message.length - offset;
  for (let i = 0; i < rest; i += 1) {
    state.setUint8(i, state.getUint8(i) ^ input.getUint8(offset + i));
  }
  state.setUint8(rest, state.getUint8(rest) ^ 0x01);
  state.setUint8(RATE - 1, state.getUint8(RATE - 1) ^ 0x80);
  keccakP(state, scratch);
  return new Uint8Array(buffer.slice(0, 32));
}

module.exports = { keccak256 };
