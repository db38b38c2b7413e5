/**
 * The bundle's Keccak (build/stubs/keccak.js: js-sha3 behind @noble/hashes' `keccak_*` contract,
 * swapped in by snap.config.ts) against each copy of @noble/hashes it replaces: same bytes for
 * random messages (0-500 bytes, lengths around the rates included), one-shot and incremental,
 * bytes and strings; same refusals; and the replaced modules' importers read only `keccak_*`.
 */
/* eslint-disable import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports -- it loads the adapter and the installed copies of @noble/hashes by path */
import * as fc from 'fast-check';
import path from 'node:path';

import { fuzzRuns } from '../fixtures/fuzz';
import { membersUsed } from '../fixtures/package-sources';

/** A noble-style hash function: one-shot, with `create()` for an incremental hash. */
type Hash = ((message: Uint8Array | string) => Uint8Array) & {
  /** Digest length, bytes. */
  outputLen: number;
  /** Rate, bytes. */
  blockLen: number;
  /** A fresh incremental hash. */
  create: () => {
    /** Absorb more of the message. */
    update: (message: Uint8Array | string) => unknown;
    /** The digest of everything absorbed. */
    digest: () => Uint8Array;
  };
};
/** The members of a `sha3` module the adapter provides. */
type Sha3Module = Record<
  'keccak_224' | 'keccak_256' | 'keccak_384' | 'keccak_512',
  Hash
>;

const ROOT = path.join(__dirname, '../..');
const adapter = require(path.join(ROOT, 'build/stubs/keccak.js')) as Sha3Module;
/** ethereum-cryptography's copy (1.4, eth-sig-util's signatures) and viem's (1.8, also @metamask/utils'). */
const nobleV14 = require(
  path.join(
    ROOT,
    'node_modules/ethereum-cryptography/node_modules/@noble/hashes/sha3.js',
  ),
) as Sha3Module;
const nobleV18 = require(
  path.join(ROOT, 'node_modules/viem/node_modules/@noble/hashes/sha3.js'),
) as Sha3Module;
/** The top-level copy (2.x, @ethereumjs/tx and util 10's). */
const nobleV2 = require(
  path.join(ROOT, 'node_modules/@noble/hashes/sha3.js'),
) as Sha3Module;

const NAMES = ['keccak_224', 'keccak_256', 'keccak_384', 'keccak_512'] as const;
/**
 * @param bytes - A digest.
 * @returns Its hex, for readable failures.
 */
function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** 0-500 bytes, with the lengths around one and two Keccak-256 blocks (rate 136) drawn often. */
const message = fc
  .oneof(
    fc.integer({ min: 0, max: 500 }),
    fc.constantFrom(0, 1, 135, 136, 137, 271, 272, 273),
  )
  .chain((length) => fc.uint8Array({ minLength: length, maxLength: length }));

describe('Keccak adapter (js-sha3) against @noble/hashes', () => {
  it('keccak_256: the same digest as noble 1.4, 1.8 and 2.x for any message', () => {
    fc.assert(
      fc.property(message, (bytes) => {
        const digest = adapter.keccak_256(bytes);
        expect(digest).toBeInstanceOf(Uint8Array);
        expect(digest).toHaveLength(32);
        expect(toHex(digest)).toBe(toHex(nobleV14.keccak_256(bytes)));
        expect(toHex(digest)).toBe(toHex(nobleV18.keccak_256(bytes)));
        expect(toHex(digest)).toBe(toHex(nobleV2.keccak_256(bytes)));
      }),
      { numRuns: fuzzRuns(500) },
    );
  });

  it('keccak_224, keccak_384, keccak_512: the same digests as noble', () => {
    fc.assert(
      fc.property(message, fc.constantFrom(...NAMES), (bytes, name) => {
        expect(toHex(adapter[name](bytes))).toBe(toHex(nobleV14[name](bytes)));
      }),
    );
  });

  it('a Buffer is hashed as its bytes, a string as its UTF-8 bytes (noble 1.x)', () => {
    fc.assert(
      fc.property(
        message,
        fc.string({ unit: 'binary', maxLength: 200 }),
        (bytes, text) => {
          expect(toHex(adapter.keccak_256(Buffer.from(bytes)))).toBe(
            toHex(nobleV14.keccak_256(bytes)),
          );
          expect(toHex(adapter.keccak_256(text))).toBe(
            toHex(nobleV14.keccak_256(text)),
          );
        },
      ),
    );
  });

  it('create(): update in any chunks, then digest, equals the one-shot hash', () => {
    fc.assert(
      fc.property(
        message,
        fc.array(fc.nat(), { maxLength: 4 }),
        (bytes, cuts) => {
          const points = [
            ...new Set(cuts.map((cut) => cut % (bytes.length + 1))),
          ].sort((a, b) => a - b);
          const incremental = adapter.keccak_256.create();
          let from = 0;
          for (const to of [...points, bytes.length]) {
            incremental.update(bytes.subarray(from, to));
            from = to;
          }
          expect(toHex(incremental.digest())).toBe(
            toHex(nobleV14.keccak_256(bytes)),
          );
        },
      ),
    );
  });

  it('outputLen and blockLen as noble gives them', () => {
    for (const name of NAMES) {
      expect([adapter[name].outputLen, adapter[name].blockLen]).toStrictEqual([
        nobleV14[name].outputLen,
        nobleV14[name].blockLen,
      ]);
    }
  });

  it('refuses what noble refuses: arrays, ArrayBuffers, numbers, undefined', () => {
    for (const input of [
      [1, 2, 3],
      new ArrayBuffer(4),
      new Uint16Array(2),
      7,
      undefined,
    ]) {
      expect(() => nobleV14.keccak_256(input as never)).toThrow(
        /Uint8Array expected/u,
      );
      expect(() => adapter.keccak_256(input as never)).toThrow(
        'Uint8Array expected',
      );
    }
  });
});

describe('what the adapter replaces (snap.config.ts)', () => {
  it('the packages routed to it read only keccak_224/256/384/512 of @noble/hashes/sha3', () => {
    const packages = [
      'viem',
      'ethereum-cryptography',
      '@ethereumjs/util',
      '@ethereumjs/tx',
      '@metamask/utils',
    ];
    // membersUsed throws for a file that mentions the module in a form it does not read.
    const used = new Set(
      packages.flatMap((name) =>
        ['@noble/hashes/sha3', '@noble/hashes/sha3.js'].flatMap((request) => [
          ...membersUsed(path.join(ROOT, 'node_modules', name), request),
        ]),
      ),
    );
    expect(used.size).toBeGreaterThan(0);
    expect(
      [...used].filter(
        (name) => !NAMES.includes(name as (typeof NAMES)[number]),
      ),
    ).toStrictEqual([]);
    // What ethereum-cryptography copies from keccak_256 exists on the adapter's too.
    expect(typeof adapter.keccak_256.create).toBe('function');
  });
});
