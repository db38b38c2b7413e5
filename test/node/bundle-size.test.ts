import * as superstruct from '@metamask/superstruct';
import * as metamaskUtils from '@metamask/utils';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { membersUsed, sources } from '../fixtures/package-sources';

/**
 * The size budget of the built snap, and the contracts of the modules snap.config.ts swaps in
 * (build/stubs): each replaces code the snap provably never reaches, or gives a package exactly
 * the members it uses. Deterministic checks on files, no timing.
 */
const ROOT = path.join(__dirname, '../..');
const BUNDLE = path.join(ROOT, 'dist/bundle.js');
const STUBS = path.join(ROOT, 'build/stubs');

/**
 * The directory of an installed package.
 *
 * @param name - The package name.
 * @param from - The directory whose node_modules holds it (the repository root by default).
 * @returns The path of the package directory.
 */
function packageDir(name: string, from = ROOT): string {
  return path.join(from, 'node_modules', name);
}

describe('bundle size', () => {
  it('gzip -9 of dist/bundle.js stays within package.json bundleBudget.gzipBytes', () => {
    expect(existsSync(BUNDLE)).toBe(true); // built by `npm test`'s pretest (mm-snap build)
    const budget = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        /** The size budget of the built snap. */
        bundleBudget: {
          /** The most bytes of `gzip -9` of dist/bundle.js. */
          gzipBytes: number;
        };
      }
    ).bundleBudget.gzipBytes;
    expect(budget).toBeGreaterThan(0);
    const gzipBytes = gzipSync(readFileSync(BUNDLE), { level: 9 }).length;
    expect(gzipBytes).toBeLessThanOrEqual(budget);
  });

  it('holds no viem Client: createClient throws under SES lockdown (docs/decisions.md)', () => {
    const bundle = readFileSync(BUNDLE, 'utf8');
    // createClient's default name, and a key bindActionDecorators assigns onto a function
    // (`wrapped.call = …`, refused once Function.prototype is frozen). The chain goes through
    // src/chain's own transport; only viem's pure utilities are bundled.
    expect(bundle.indexOf('Base Client')).toBe(-1);
    expect(bundle.indexOf('callWithPeriod')).toBe(-1);
  });

  it("abi-utils' asserts reach the bundle rewritten (build/loaders/abi-utils-asserts.js applied)", () => {
    const bundle = readFileSync(BUNDLE, 'utf8');
    // Before the rewrite, each of the 19 checks minified to `(0,x.assert)(condition,new y.ParserError(…))`.
    expect(bundle).not.toMatch(/,new [\w$]+\.ParserError\(/u);
    expect(bundle).toMatch(
      /throw new [\w$]+\.ParserError\("Invalid pack state\."\)/u,
    );
  });
});

describe('modules snap.config.ts swaps in (build/stubs)', () => {
  it('lodash: @metamask/utils uses memoize alone; the stub answers as the function it wraps, once per key, and keeps a bounded number of entries', () => {
    expect([
      ...membersUsed(
        path.join(packageDir('@metamask/utils'), 'dist'),
        'lodash',
      ),
    ]).toStrictEqual(['memoize']);
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- loads the stub file the bundler swaps in, by its path
    const stub = require(path.join(STUBS, 'lodash.js')) as {
      /** The stub's memoize. */
      memoize: <Key, Value>(fn: (key: Key) => Value) => (key: Key) => Value;
      /** How many results it keeps. */
      maxEntries: number;
    };
    const address: `0x${string}` = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
    const checksum = stub.memoize(metamaskUtils.getChecksumAddress);
    expect(checksum(address)).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', // EIP-55's own example
    );
    const calls: string[] = [];
    const counted = stub.memoize((key: string) => {
      calls.push(key);
      return `${key}!`;
    });
    expect([counted('a'), counted('a'), counted('b')]).toStrictEqual([
      'a!',
      'a!',
      'b!',
    ]);
    expect(calls).toStrictEqual(['a', 'b']);
    for (let index = 0; index < stub.maxEntries; index += 1) {
      counted(`k${index}`);
    }
    calls.length = 0;
    // 'a' was the oldest entry and is gone; the newest stays
    expect([counted('a'), counted(`k${stub.maxEntries - 1}`)]).toStrictEqual([
      'a!',
      `k${stub.maxEntries - 1}!`,
    ]);
    expect(calls).toStrictEqual(['a']);
  });

  it("noble curves: what eth-sig-util's @ethereumjs/util 8 uses of secp256k1 answers the same from viem's 1.9 copy as from ethereum-cryptography's 1.4 copy", () => {
    /* eslint-disable @typescript-eslint/naming-convention */
    /** The members of `@noble/curves/secp256k1` that `@ethereumjs/util` 8 reaches (noble's own names). */
    type Curve = {
      /** The curve. */
      secp256k1: {
        /** Sign a 32-byte hash: low-s, RFC 6979 nonce. */
        sign: (
          hash: Uint8Array,
          key: Uint8Array,
        ) => {
          /** The signature, r ++ s. */ toCompactRawBytes: () => Uint8Array;
          /** 0 or 1. */ recovery: number;
        };
        /** Signatures from their bytes. */
        Signature: {
          /** From r ++ s. */
          fromCompact: (bytes: Uint8Array) => {
            /** With the recovery bit. */
            addRecoveryBit: (bit: number) => {
              /** The signer's point. */
              recoverPublicKey: (hash: Uint8Array) => {
                /** SEC1 bytes. */ toRawBytes: (
                  compressed: boolean,
                ) => Uint8Array;
              };
            };
          };
        };
        /** Points. */
        ProjectivePoint: {
          /** The public point of a key. */
          fromPrivateKey: (key: Uint8Array) => {
            /** SEC1 bytes. */ toRawBytes: (compressed: boolean) => Uint8Array;
          };
        };
        /** The group order. */
        CURVE: {
          /** n. */ n: bigint;
        };
        /** Key checks. */
        utils: {
          /** Whether a key is in [1, n-1]. */
          isValidPrivateKey: (key: Uint8Array) => boolean;
        };
      };
    };
    /* eslint-enable @typescript-eslint/naming-convention */
    /**
     * One installed copy of the curve.
     *
     * @param from - The package whose copy to load.
     * @returns Its `@noble/curves/secp256k1`.
     */
    const load = (from: string): Curve =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- the two installed copies, by their folders
      require(
        path.join(
          packageDir('@noble/curves', packageDir(from)),
          'secp256k1.js',
        ),
      ) as Curve;
    const ours = load('viem');
    const theirs = load('ethereum-cryptography');
    expect(ours).not.toBe(theirs);
    const hash = new Uint8Array(32).fill(7);
    const key = new Uint8Array(32).fill(1);
    const results = [ours, theirs].map(({ secp256k1 }) => {
      const signature = secp256k1.sign(hash, key);
      const compact = signature.toCompactRawBytes();
      return {
        compact: Buffer.from(compact).toString('hex'),
        recovery: signature.recovery,
        recovered: Buffer.from(
          secp256k1.Signature.fromCompact(compact)
            .addRecoveryBit(signature.recovery)
            .recoverPublicKey(hash)
            .toRawBytes(false),
        ).toString('hex'),
        publicKey: Buffer.from(
          secp256k1.ProjectivePoint.fromPrivateKey(key).toRawBytes(false),
        ).toString('hex'),
        order: secp256k1.CURVE.n,
        valid: [key, new Uint8Array(32)].map(secp256k1.utils.isValidPrivateKey),
      };
    });
    expect(results[0]).toStrictEqual(results[1]);
    expect(results[0]?.recovered).toBe(results[0]?.publicKey);
    expect(results[0]?.valid).toStrictEqual([true, false]);
  });

  it('micro-ftch: only fetchFromProvider calls it, and neither eth-sig-util nor the snap calls that', () => {
    const util = packageDir(
      '@ethereumjs/util',
      packageDir('@metamask/eth-sig-util'),
    );
    const callers = sources(path.join(util, 'dist')).filter((file) =>
      readFileSync(file, 'utf8').includes('require("micro-ftch")'),
    );
    expect(callers.map((file) => path.relative(util, file))).toStrictEqual([
      'dist/provider.js',
    ]);
    expect(membersUsed(path.join(util, 'dist'), 'micro-ftch').size).toBe(0); // only `.default`, inside fetchFromProvider
    const provider = readFileSync(path.join(util, 'dist/provider.js'), 'utf8');
    expect(provider.match(/micro_ftch_1/gu)).toHaveLength(2); // its require, and its one call in fetchFromProvider
    expect(provider).toMatch(
      /const fetchFromProvider = async \(url, params\) => \{\s+const res = await \(0, micro_ftch_1\.default\)/u,
    );
    const users = [
      ...sources(path.join(packageDir('@metamask/eth-sig-util'), 'dist')),
      ...sources(path.join(ROOT, 'src')),
    ].filter((file) =>
      /fetchFromProvider|getProvider\(/u.test(readFileSync(file, 'utf8')),
    );
    expect(users).toStrictEqual([]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- loads the stub file the bundler swaps in, by its path
    const stub = require(path.join(STUBS, 'micro-ftch.js')) as {
      /** The stub's default export, which throws. */
      default: () => unknown;
    };
    expect(() => stub.default()).toThrow(
      'micro-ftch is not bundled in this snap',
    );
  });

  it('@metamask/utils facade: exports every member eth-sig-util and abi-utils read, each a real export', () => {
    const used = new Set([
      ...membersUsed(
        path.join(packageDir('@metamask/eth-sig-util'), 'dist'),
        '@metamask/utils',
      ),
      ...membersUsed(
        path.join(packageDir('@metamask/abi-utils'), 'dist'),
        '@metamask/utils',
      ),
    ]);
    const facade = readFileSync(path.join(STUBS, 'metamask-utils.mjs'), 'utf8');
    const exported = new Set(
      (/export \{([^}]*)\} from '@metamask\/utils';/u.exec(facade)?.[1] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
    // Its own functions in front of the library's (createBytes; test/build/abi-utils-asserts.test.ts).
    for (const [, name] of facade.matchAll(/^export function (\w+)\(/gmu)) {
      exported.add(name);
    }
    expect([...used].filter((name) => !exported.has(name))).toStrictEqual([]);
    const utils: Record<string, unknown> = metamaskUtils;
    expect(
      [...exported].filter((name) => utils[name] === undefined),
    ).toStrictEqual([]);
  });

  it("@ethereumjs/util 8 facade: lists every member eth-sig-util reads, each the index's own function from the file named", () => {
    const sigUtil = packageDir('@metamask/eth-sig-util');
    const used = membersUsed(path.join(sigUtil, 'dist'), '@ethereumjs/util');
    const facade = readFileSync(
      path.join(STUBS, 'ethereumjs-util-8.js'),
      'utf8',
    );
    const files = new Map(
      [
        ...facade.matchAll(
          /^const (\w+) = require\('@ethereumjs\/util\/dist\/(\w+)'\);$/gmu,
        ),
      ].map(([, variable, file]) => [variable, file]),
    );
    const listed = [...facade.matchAll(/^ {2}(\w+): (\w+)\.(\w+),$/gmu)];
    expect(listed.map(([, name]) => name).sort()).toStrictEqual(
      [...used].sort(),
    );
    const util = packageDir('@ethereumjs/util', sigUtil);
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- eth-sig-util's copy, by its folder
    const index = require(util) as Record<string, unknown>;
    for (const [, name, variable, member] of listed) {
      expect(member).toBe(name);
      // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- the file the facade names
      const holder = require(
        path.join(util, 'dist', files.get(variable) ?? 'missing'),
      ) as Record<string, unknown>;
      expect([name, typeof holder[name]]).toStrictEqual([name, 'function']);
      expect(holder[name]).toBe(index[name]);
    }
  });

  it("ethereum-cryptography utils facade: its readers use wrapHash and bytesToHex alone; both answer as the package's own", () => {
    const cryptography = packageDir('ethereum-cryptography');
    const keccak = readFileSync(path.join(cryptography, 'keccak.js'), 'utf8');
    expect(
      new Set(
        [...keccak.matchAll(/utils_js_1\.(\w+)/gu)].map(([, name]) => name),
      ),
    ).toStrictEqual(new Set(['wrapHash']));
    const util8 = packageDir(
      '@ethereumjs/util',
      packageDir('@metamask/eth-sig-util'),
    );
    expect([
      ...membersUsed(path.join(util8, 'dist'), 'ethereum-cryptography/utils'),
    ]).toStrictEqual(['bytesToHex']);
    const facade = readFileSync(
      path.join(STUBS, 'ethereum-cryptography-utils.mjs'),
      'utf8',
    );
    expect(facade).toContain(
      "export { bytesToHex } from '@noble/hashes/utils.js';",
    );
    const source = /^export function wrapHash\(hash\) \{\n[\s\S]*?\n\}$/mu.exec(
      facade,
    )?.[0];
    /** viem's copy of @noble/hashes 1.8, which the facade imports from. */
    type NobleUtils = {
      /** Throws unless a Uint8Array. */ abytes: (value: unknown) => void;
      /** Lower-case hex without 0x. */ bytesToHex: (
        bytes: Uint8Array,
      ) => string;
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- viem's copy, by its folder
    const noble = require(
      path.join(packageDir('@noble/hashes', packageDir('viem')), 'utils.js'),
    ) as NobleUtils;
    /** The package's own module, which the facade replaces. */
    type Own = {
      /** Its wrapper. */ wrapHash: (
        hash: (bytes: Uint8Array) => Uint8Array,
      ) => (message: unknown) => Uint8Array;
      /** Its hex. */ bytesToHex: (bytes: Uint8Array) => string;
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- the replaced module, by its path
    const own = require(path.join(cryptography, 'utils.js')) as Own;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval, no-new-func -- the stub's own text, bound to the function it imports
    const wrapHash = new Function(
      'abytes',
      `${source?.replace(/^export /u, '') ?? ''}\nreturn wrapHash;`,
    )(noble.abytes) as Own['wrapHash'];
    /**
     * A stand-in hash: the bytes reversed, in a copy.
     *
     * @param bytes - The message.
     * @returns Its bytes in reverse order.
     */
    const reverse = (bytes: Uint8Array): Uint8Array =>
      Uint8Array.from(bytes).reverse();
    /**
     * What a wrapped hash gives for a message.
     *
     * @param wrapper - A `wrapHash`.
     * @param message - The message.
     * @returns The digest's hex, or the error's message.
     */
    const answer = (wrapper: Own['wrapHash'], message: unknown): string => {
      try {
        return own.bytesToHex(wrapper(reverse)(message));
      } catch (error) {
        return `threw ${(error as Error).message}`;
      }
    };
    for (const message of [
      Uint8Array.of(1, 2, 3),
      Buffer.from('abcd', 'hex'),
      new Uint8Array(0),
      'abc',
      [1, 2],
      new Uint16Array(2),
      undefined,
    ]) {
      expect(answer(wrapHash, message)).toBe(answer(own.wrapHash, message));
    }
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    expect(noble.bytesToHex(bytes)).toBe(own.bytesToHex(bytes));
  });

  it("@ethereumjs/rlp: util 8 reads RLP.encode and RLP.decode alone, which rlp 10 (the bundle's copy) answers as its own 4.0", () => {
    const sigUtil = packageDir('@metamask/eth-sig-util');
    const util8 = path.join(packageDir('@ethereumjs/util', sigUtil), 'dist');
    expect([...membersUsed(util8, '@ethereumjs/rlp')]).toStrictEqual(['RLP']);
    const account = readFileSync(path.join(util8, 'account.js'), 'utf8');
    expect(
      new Set(
        [...account.matchAll(/rlp_1\.RLP\.(\w+)/gu)].map(([, name]) => name),
      ),
    ).toStrictEqual(new Set(['encode', 'decode']));
    /** The members compared. */
    type Rlp = {
      /** RLP's own object. */
      // eslint-disable-next-line @typescript-eslint/naming-convention -- the library's export name
      RLP: {
        /** Encode. */ encode: (input: unknown) => Uint8Array;
        /** Decode. */ decode: (input: Uint8Array) => unknown;
      };
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- util 8's own copy, by its folder
    const own = require(packageDir('@ethereumjs/rlp', sigUtil)) as Rlp;
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- the bundle's copy, by its folder
    const bundled = require(packageDir('@ethereumjs/rlp')) as Rlp;
    expect(bundled).not.toBe(own);
    const inputs: unknown[] = [
      new Uint8Array(0),
      Uint8Array.of(0x7f),
      Uint8Array.of(0x80),
      new Uint8Array(56).fill(1),
      [],
      [Uint8Array.of(1), [Uint8Array.of(2), []], new Uint8Array(60).fill(3)],
      Array.from({ length: 20 }, (_, index) => Uint8Array.of(index)),
    ];
    for (const input of inputs) {
      const encoded = own.RLP.encode(input);
      expect(Buffer.from(bundled.RLP.encode(input)).toString('hex')).toBe(
        Buffer.from(encoded).toString('hex'),
      );
      expect(bundled.RLP.decode(encoded)).toStrictEqual(
        own.RLP.decode(encoded),
      );
    }
  });

  it('@metamask/superstruct facade: exports exactly the members abi-utils reads, each a real export', () => {
    const used = membersUsed(
      path.join(packageDir('@metamask/abi-utils'), 'dist'),
      '@metamask/superstruct',
    );
    const facade = readFileSync(path.join(STUBS, 'superstruct.mjs'), 'utf8');
    const exported = (
      /export \{([^}]*)\} from '@metamask\/superstruct';/u.exec(facade)?.[1] ??
      ''
    )
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    expect(exported.sort()).toStrictEqual([...used].sort());
    const library: Record<string, unknown> = superstruct;
    expect(
      exported.filter((name) => typeof library[name] !== 'function'),
    ).toStrictEqual([]);
  });
});
