/**
 * The bundle's SHA-256 and HMAC-SHA256 (build/stubs/sha256.js: js-sha256 behind @noble/hashes'
 * `sha256` and `hmac` contract, swapped in by snap.config.ts for the secp256k1 files of three
 * copies of @noble/curves) against each copy of @noble/hashes it replaces: same bytes for random
 * messages and keys (lengths around the 64-byte block drawn often), one-shot, incremental and
 * HMAC; the same signatures from noble 1.4's secp256k1 built on it; same refusals; and the routed
 * files read only `sha256` and `hmac(hash, key, message)` of those modules.
 */
/* eslint-disable import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports -- it loads the adapter and the installed copies of @noble/hashes and @noble/curves by path */
import * as fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { SHA256_IMPORTERS } from '../snap.config';

/** A noble-style hash function: one-shot, with `create()` for an incremental hash. */
type Hash = ((message: Uint8Array | string) => Uint8Array) & {
  /** Digest length, bytes. */
  outputLen: number;
  /** Block length, bytes. */
  blockLen: number;
  /** A fresh incremental hash. */
  create: () => {
    /** Absorb more of the message. */
    update: (message: Uint8Array | string) => unknown;
    /** The digest of everything absorbed. */
    digest: () => Uint8Array;
  };
};
/** noble's one-shot HMAC. */
type Hmac = (hash: Hash, key: Uint8Array, message: Uint8Array) => Uint8Array;
/** A noble SHA-2 module and its HMAC, as the tests use them. */
type Noble = {
  /** SHA-256. */
  sha256: Hash;
  /** SHA-512, a hash the adapter's HMAC must refuse. */
  sha512: Hash;
  /** HMAC over any of its hashes. */
  hmac: Hmac;
};

const ROOT = path.join(__dirname, '..');
const adapter = require(path.join(ROOT, 'build/stubs/sha256.js')) as {
  sha256: Hash;
  hmac: Hmac;
};

/**
 * @param dir - A copy of @noble/hashes, relative to the project.
 * @param sha - Its SHA-256 module's file (1.x `sha256.js` beside `sha512.js`, or `sha2.js` with both).
 * @returns Its sha256, sha512 and hmac.
 */
function noble(dir: string, sha: string): Noble {
  const folder = path.join(ROOT, dir);
  return {
    sha256: (require(path.join(folder, sha)) as Noble).sha256,
    sha512: (
      require(
        path.join(folder, sha === 'sha256.js' ? 'sha512.js' : sha),
      ) as Noble
    ).sha512,
    hmac: (require(path.join(folder, 'hmac.js')) as Noble).hmac,
  };
}
/** ethereum-cryptography's copy (1.4, eth-sig-util's signatures), viem's (1.8) and the top-level one (2.x, @ethereumjs/tx 10's). */
const NOBLE: Record<string, Noble> = {
  '1.4': noble(
    'node_modules/ethereum-cryptography/node_modules/@noble/hashes',
    'sha256.js',
  ),
  '1.8': noble('node_modules/viem/node_modules/@noble/hashes', 'sha2.js'),
  '2.x': noble('node_modules/@noble/hashes', 'sha2.js'),
};
const VERSIONS = Object.keys(NOBLE);

/**
 * @param bytes - A digest.
 * @returns Its hex, for readable failures.
 */
function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/**
 * Byte strings of 0 to `max` bytes, with the lengths around the 64-byte block (and SHA-256's
 * 55/56-byte padding boundary) drawn often.
 *
 * @param max - Longest length.
 * @returns The arbitrary.
 */
function bytesUpTo(max: number): fc.Arbitrary<Uint8Array> {
  return fc
    .oneof(
      fc.integer({ min: 0, max }),
      fc.constantFrom(0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129),
    )
    .chain((length) => fc.uint8Array({ minLength: length, maxLength: length }));
}
const message = bytesUpTo(300);
/** HMAC keys: the same, up to 150 bytes (a key over 64 bytes is hashed first). */
const key = bytesUpTo(150);

describe('SHA-256 adapter (js-sha256) against @noble/hashes', () => {
  it('sha256: the same digest as noble 1.4, 1.8 and 2.x for any message', () => {
    fc.assert(
      fc.property(message, (bytes) => {
        const digest = adapter.sha256(bytes);
        expect(digest).toBeInstanceOf(Uint8Array);
        expect(digest).toHaveLength(32);
        for (const version of VERSIONS) {
          expect(`${version}: ${toHex(digest)}`).toBe(
            `${version}: ${toHex(NOBLE[version].sha256(bytes))}`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it('hmac(sha256, key, message): the same tag as noble 1.4, 1.8 and 2.x', () => {
    fc.assert(
      fc.property(key, message, (secret, bytes) => {
        const tag = adapter.hmac(adapter.sha256, secret, bytes);
        expect(tag).toBeInstanceOf(Uint8Array);
        expect(tag).toHaveLength(32);
        for (const version of VERSIONS) {
          const { hmac, sha256 } = NOBLE[version];
          expect(`${version}: ${toHex(tag)}`).toBe(
            `${version}: ${toHex(hmac(sha256, secret, bytes))}`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a Buffer or a subarray is hashed as its bytes, a string as its UTF-8 bytes (noble 1.x)', () => {
    fc.assert(
      fc.property(
        message,
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 200 }),
        (bytes, cut, text) => {
          const reference = NOBLE['1.4'];
          expect(toHex(adapter.sha256(Buffer.from(bytes)))).toBe(
            toHex(reference.sha256(bytes)),
          );
          const tail = bytes.subarray(cut % (bytes.length + 1));
          expect(toHex(adapter.sha256(tail))).toBe(
            toHex(reference.sha256(tail)),
          );
          expect(toHex(adapter.sha256(text))).toBe(
            toHex(reference.sha256(text)),
          );
          expect(toHex(adapter.hmac(adapter.sha256, tail, bytes))).toBe(
            toHex(reference.hmac(reference.sha256, tail, bytes)),
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
          const incremental = adapter.sha256.create();
          let from = 0;
          for (const to of [...points, bytes.length]) {
            incremental.update(bytes.subarray(from, to));
            from = to;
          }
          expect(toHex(incremental.digest())).toBe(
            toHex(NOBLE['1.4'].sha256(bytes)),
          );
        },
      ),
    );
  });

  it('outputLen and blockLen as noble gives them, and noble 2.x accepts it as a hash', () => {
    for (const version of VERSIONS) {
      const { sha256 } = NOBLE[version];
      expect([adapter.sha256.outputLen, adapter.sha256.blockLen]).toStrictEqual(
        [sha256.outputLen, sha256.blockLen],
      );
    }
    const { ahash } = require(
      path.join(ROOT, 'node_modules/@noble/hashes/utils.js'),
    ) as { ahash: (hash: unknown) => void };
    expect(() => ahash(adapter.sha256)).not.toThrow();
  });

  it('secp256k1 signatures of noble curves 1.4 are the same with the adapter as its hash and HMAC', () => {
    const curves = path.join(
      ROOT,
      'node_modules/ethereum-cryptography/node_modules/@noble/curves',
    );
    const { secp256k1 } = require(path.join(curves, 'secp256k1.js')) as {
      secp256k1: {
        /** The curve's parameters and hooks. */
        // eslint-disable-next-line @typescript-eslint/naming-convention -- noble's property name
        CURVE: object;
        sign: (hash: Uint8Array, key: Uint8Array) => { toCompactHex(): string };
      };
    };
    const { weierstrass } = require(
      path.join(curves, 'abstract/weierstrass.js'),
    ) as { weierstrass: (curve: object) => typeof secp256k1 };
    const adapted = weierstrass({
      ...secp256k1.CURVE,
      hash: adapter.sha256,
      hmac: (secret: Uint8Array, ...messages: Uint8Array[]) =>
        adapter.hmac(adapter.sha256, secret, Buffer.concat(messages)),
    });
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.bigInt({ min: 1n, max: 2n ** 255n }),
        (hash, scalar) => {
          const privateKey = Buffer.from(
            scalar.toString(16).padStart(64, '0'),
            'hex',
          );
          expect(adapted.sign(hash, privateKey).toCompactHex()).toBe(
            secp256k1.sign(hash, privateKey).toCompactHex(),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses what noble refuses: arrays, ArrayBuffers, numbers, undefined', () => {
    for (const input of [
      [1, 2, 3],
      new ArrayBuffer(4),
      new Uint16Array(2),
      7,
      undefined,
    ]) {
      expect(() => NOBLE['1.4'].sha256(input as never)).toThrow(
        /Uint8Array expected/u,
      );
      expect(() => adapter.sha256(input as never)).toThrow(
        'Uint8Array expected',
      );
      expect(() =>
        adapter.hmac(adapter.sha256, input as never, new Uint8Array(1)),
      ).toThrow('Uint8Array expected');
      expect(() =>
        adapter.hmac(adapter.sha256, new Uint8Array(1), input as never),
      ).toThrow('Uint8Array expected');
    }
  });

  it('hmac refuses any hash but its own sha256, noble SHA-256 included', () => {
    for (const version of VERSIONS) {
      for (const hash of [NOBLE[version].sha256, NOBLE[version].sha512]) {
        expect(() =>
          adapter.hmac(hash, new Uint8Array(32), new Uint8Array(32)),
        ).toThrow(/for SHA-256 only/u);
      }
    }
  });
});

/** `@noble/hashes`' SHA-256 (1.x `sha256`, `sha2`; 2.x `sha2.js`) and HMAC module requests. */
const SHA_REQUEST = `["']@noble/hashes/(?:sha256|sha2)(?:\\.js)?["']`;
const HMAC_REQUEST = `["']@noble/hashes/hmac(?:\\.js)?["']`;

/**
 * The members a file reads of one module: `import { a, b as c } from …`, or
 * `const x = require(…)` and then `x.member`.
 *
 * @param text - The file's source.
 * @param request - A pattern for the module's request, quotes included.
 * @returns The imported names (the local name beside each), and how many imports of the module
 * were understood and found.
 */
function importsOf(
  text: string,
  request: string,
): {
  members: { name: string; local: string }[];
  understood: number;
  mentions: number;
} {
  const members: { name: string; local: string }[] = [];
  let understood = 0;
  for (const match of text.matchAll(
    new RegExp(`import \\{([^}]*)\\} from ${request}`, 'gu'),
  )) {
    understood += 1;
    for (const member of match[1].split(',').filter((part) => part.trim())) {
      const [name, local = name] = member.trim().split(/\s+as\s+/u);
      members.push({ name, local: local.trim() });
    }
  }
  for (const match of text.matchAll(
    new RegExp(`(?:const|var) ([\\w$]+) = require\\(${request}\\);`, 'gu'),
  )) {
    understood += 1;
    const binding = match[1].replace(/\$/gu, '\\$');
    for (const member of text.matchAll(
      new RegExp(`\\b${binding}\\.(\\w+)`, 'gu'),
    )) {
      members.push({ name: member[1], local: `${match[1]}.${member[1]}` });
    }
  }
  const mentions = (
    text.match(new RegExp(`(?:require\\(|from |import\\()${request}`, 'gu')) ??
    []
  ).length;
  return { members, understood, mentions };
}

/**
 * @param file - A source file.
 * @returns Its text without block comments and whole-line `//` comments (the JSDoc of noble 2.x
 * shows imports in its examples).
 */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//gu, '')
    .replace(/^\s*\/\/.*$/gmu, '');
}

/**
 * @param dir - An installed package's folder.
 * @returns Its .js/.cjs/.mjs files, outside its own node_modules.
 */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' ? [] : sources(file);
    }
    return /\.(c|m)?js$/u.test(entry.name) ? [file] : [];
  });
}

describe('what the adapter replaces (snap.config.ts SHA256_IMPORTERS)', () => {
  const routed = Object.entries(SHA256_IMPORTERS).flatMap(([copy, files]) =>
    files.map((file) => path.join(ROOT, 'node_modules', copy, file)),
  );

  it('the routed files exist, in the @noble/curves versions the rules were written for', () => {
    expect(
      Object.keys(SHA256_IMPORTERS).map(
        (copy) =>
          (
            require(path.join(ROOT, 'node_modules', copy, 'package.json')) as {
              version: string;
            }
          ).version,
      ),
    ).toStrictEqual(['1.4.2', '1.9.1', '2.4.0']);
    expect(routed.filter((file) => !existsSync(file))).toStrictEqual([]);
  });

  it('they read only sha256 of the SHA-2 module and only hmac of the HMAC module, called as hmac(hash, key, message)', () => {
    const readSha = new Set<string>();
    const readHmac = new Set<string>();
    let hmacCalls = 0;
    for (const file of routed) {
      const text = code(file);
      const where = path.relative(ROOT, file);
      const sha = importsOf(text, SHA_REQUEST);
      const mac = importsOf(text, HMAC_REQUEST);
      // Every mention of the modules is one of the two forms read.
      expect(`${where}: ${sha.understood} ${mac.understood}`).toBe(
        `${where}: ${sha.mentions} ${mac.mentions}`,
      );
      sha.members.forEach(({ name }) => readSha.add(name));
      for (const { name, local } of mac.members) {
        readHmac.add(name);
        const binding = local.replace(/[.$]/gu, '\\$&');
        // Every mention of the binding, besides its import and object keys named like it,
        // is a call with the hash first, then the key.
        const mentions = (
          text.match(new RegExp(`(?<![\\w$./])${binding}\\b(?!:)`, 'gu')) ?? []
        ).length;
        const calls = (
          text.match(
            new RegExp(`(?<![\\w$.])${binding}\\)?\\(hash_?, key, `, 'gu'),
          ) ?? []
        ).length;
        const imports = local.includes('.') ? 0 : 1;
        expect(`${where}: ${mentions - imports} uses`).toBe(
          `${where}: ${calls} uses`,
        );
        hmacCalls += calls;
      }
    }
    expect([...readSha]).toStrictEqual(['sha256']);
    expect([...readHmac]).toStrictEqual(['hmac']);
    expect(hmacCalls).toBeGreaterThanOrEqual(3);
  });

  it('in each routed copy, the routed files are the only importers of the HMAC module', () => {
    for (const copy of Object.keys(SHA256_IMPORTERS)) {
      const importers = sources(path.join(ROOT, 'node_modules', copy)).filter(
        (file) => importsOf(code(file), HMAC_REQUEST).mentions,
      );
      expect(importers.filter((file) => !routed.includes(file))).toStrictEqual(
        [],
      );
      expect(importers.length).toBeGreaterThan(0);
    }
  });
});
