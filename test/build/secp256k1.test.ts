/**
 * The bundle's secp256k1 for @ethereumjs/tx and util 10 (build/stubs/secp256k1-v2.js: @noble/curves
 * 2.x's contract over viem's 1.x copy, swapped in by snap.config.ts) against the 2.x copy it
 * replaces: same signatures, keys, points and recoveries byte for byte, same refusals; and the
 * packages routed to it read nothing else. Also viem's @noble/hashes 1.8 `sha2`/`utils` functions,
 * given to the same packages, against their 2.x forms.
 */
/* eslint-disable import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports -- it loads the adapter and the installed copies of @noble by path */
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { fuzzRuns } from '../fixtures/fuzz';
import { sources } from '../fixtures/package-sources';

/** A point, in 2.x's shape. */
type Point = {
  /** SEC 1 bytes: 33 when compressed (the default), 65 when not. */
  toBytes: (compressed?: boolean) => Uint8Array;
};
/** A signature, in 2.x's shape. */
type Signature = {
  /** r. */
  r: bigint;
  /** s. */
  s: bigint;
  /** The recovery id, when known. */
  recovery?: number;
  /** The same signature with a recovery id. */
  addRecoveryBit: (recovery: number) => Signature;
  /** The signer's public point for a 32-byte hash. */
  recoverPublicKey: (hash: Uint8Array) => Point;
};
/** The members of @noble/curves 2.x's `secp256k1` that the adapter provides. */
type Curve = {
  /** Sign a hash; the signature's bytes in `format`. */
  sign: (
    hash: Uint8Array,
    key: Uint8Array,
    options: {
      /** Must be false (the message is a hash). */ prehash: false;
      /** `compact` (r ++ s) or `recovered` (id ++ r ++ s). */ format?: string;
      /** Hedging: true (random), bytes, or false. */ extraEntropy?:
        boolean | Uint8Array;
    },
  ) => Uint8Array;
  /** A private key's public key. */
  getPublicKey: (key: Uint8Array, compressed?: boolean) => Uint8Array;
  /** Signatures from bytes. */
  // eslint-disable-next-line @typescript-eslint/naming-convention -- noble's name
  Signature: {
    /** From `compact` (the default) or `recovered` bytes. */
    fromBytes: (bytes: Uint8Array, format?: string) => Signature;
  };
  /** Points. */
  // eslint-disable-next-line @typescript-eslint/naming-convention -- noble's name
  Point: {
    /** The curve parameters. */
    // eslint-disable-next-line @typescript-eslint/naming-convention -- noble's name
    CURVE: () => Record<string, bigint>;
    /** From SEC 1 bytes, checked on the curve. */
    fromBytes: (bytes: Uint8Array) => Point;
  };
  /** Key checks. */
  utils: {
    /** Whether bytes are a private key. */
    isValidSecretKey: (key: unknown) => boolean;
  };
};

const ROOT = path.join(__dirname, '../..');
const NODE_MODULES = path.join(ROOT, 'node_modules');
const nobleV2Shaped = require(
  path.join(ROOT, 'build/stubs/secp256k1-v2.js'),
) as (curve: unknown) => Curve;
/** What the bundle holds: the adapter over viem's copy (1.9). */
const adapter = nobleV2Shaped(
  (
    require(
      path.join(NODE_MODULES, 'viem/node_modules/@noble/curves/secp256k1.js'),
    ) as {
      /** The 1.x curve. */ secp256k1: unknown;
    }
  ).secp256k1,
);
/** What it replaces: the top-level copy (2.x, @ethereumjs/tx and util 10's). */
const nobleV2 = (
  require(path.join(NODE_MODULES, '@noble/curves/secp256k1.js')) as {
    /** The 2.x curve. */ secp256k1: Curve;
  }
).secp256k1;

/**
 * @param bytes - Bytes.
 * @returns Their hex, for readable failures.
 */
function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** One call on a curve copy. */
type Call = (curve: Curve) => Uint8Array | boolean | Signature;

/**
 * What a call gives: its result's hex, or that it threw.
 *
 * @param call - The call.
 * @returns `hex:<bytes>`, or `threw`.
 */
function outcome(call: () => ReturnType<Call>): string {
  try {
    const result = call();
    if (typeof result === 'object' && 'r' in result) {
      return `signature:${result.r}:${result.s}:${result.recovery}`;
    }
    return typeof result === 'boolean'
      ? String(result)
      : `hex:${toHex(result)}`;
  } catch {
    return 'threw';
  }
}

/** The group order n (a bigint in 2.x's CURVE()). */
const ORDER = nobleV2.Point.CURVE().n;
/** A private key: any 32 bytes in [1, n-1]. */
const secretKey = fc
  .bigInt({ min: 1n, max: ORDER - 1n })
  .map((value) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex'))
  .map((buffer) => new Uint8Array(buffer));
const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('secp256k1 adapter (viem 1.x copy) against @noble/curves 2.x', () => {
  it('sign: the same recovered and compact bytes, deterministic or with given extra entropy', () => {
    fc.assert(
      fc.property(
        hash,
        secretKey,
        fc.constantFrom<false | Uint8Array>(false, new Uint8Array(32).fill(9)),
        fc.constantFrom('recovered', 'compact'),
        (message, key, extraEntropy, format) => {
          const options = { prehash: false as const, format, extraEntropy };
          const ours = adapter.sign(message, key, options);
          expect(ours).toBeInstanceOf(Uint8Array);
          expect(toHex(ours)).toBe(toHex(nobleV2.sign(message, key, options)));
        },
      ),
      { numRuns: fuzzRuns(100) },
    );
  });

  it('sign with random extra entropy (what a transaction signature uses): low-s, and it recovers to the key', () => {
    fc.assert(
      fc.property(hash, secretKey, (message, key) => {
        const bytes = adapter.sign(message, key, {
          prehash: false,
          format: 'recovered',
          extraEntropy: true,
        });
        const theirs = nobleV2.Signature.fromBytes(bytes, 'recovered');
        expect(theirs.s <= ORDER / 2n).toBe(true);
        expect(toHex(theirs.recoverPublicKey(message).toBytes(false))).toBe(
          toHex(nobleV2.getPublicKey(key, false)),
        );
      }),
      { numRuns: fuzzRuns(30) },
    );
  });

  it('reads signatures (Signature.fromBytes) with the same r, s and recovery, and the same recovered key', () => {
    fc.assert(
      fc.property(hash, secretKey, (message, key) => {
        const recovered = nobleV2.sign(message, key, {
          prehash: false,
          format: 'recovered',
        });
        const compact = recovered.subarray(1);
        const [ours, theirs] = [adapter, nobleV2].map((curve) => {
          const fromRecovered = curve.Signature.fromBytes(
            recovered,
            'recovered',
          );
          const fromCompact = curve.Signature.fromBytes(compact);
          return {
            r: fromRecovered.r,
            s: fromRecovered.s,
            recovery: fromRecovered.recovery,
            compact: [fromCompact.r, fromCompact.s, fromCompact.recovery],
            key: toHex(fromRecovered.recoverPublicKey(message).toBytes(false)),
            viaBit: [0, 1].map((bit) =>
              outcome(() =>
                fromCompact
                  .addRecoveryBit(bit)
                  .recoverPublicKey(message)
                  .toBytes(),
              ),
            ),
          };
        });
        expect(ours).toStrictEqual(theirs);
      }),
      { numRuns: fuzzRuns(50) },
    );
  });

  it('answers getPublicKey, Point.fromBytes, utils.isValidSecretKey and Point.CURVE answer as 2.x', () => {
    fc.assert(
      fc.property(secretKey, (key) => {
        const [ours, theirs] = [adapter, nobleV2].map((curve) => {
          const compressed = curve.getPublicKey(key);
          const full = curve.getPublicKey(key, false);
          return [
            toHex(compressed),
            toHex(full),
            toHex(curve.Point.fromBytes(compressed).toBytes(false)),
            toHex(curve.Point.fromBytes(full).toBytes(false)),
            toHex(curve.Point.fromBytes(full).toBytes()),
            curve.utils.isValidSecretKey(key),
          ];
        });
        expect(ours).toStrictEqual(theirs);
      }),
      { numRuns: fuzzRuns(50) },
    );
    const curve = nobleV2.Point.CURVE();
    expect(adapter.Point.CURVE()).toStrictEqual(
      Object.fromEntries(
        ['p', 'n', 'h', 'a', 'b', 'Gx', 'Gy'].map((name) => [
          name,
          curve[name],
        ]),
      ),
    );
  });

  it('refuses what 2.x refuses', () => {
    const key = new Uint8Array(32).fill(1);
    const message = new Uint8Array(32).fill(7);
    const signature = nobleV2.sign(message, key, {
      prehash: false,
      format: 'recovered',
    });
    const order = Buffer.from(ORDER.toString(16), 'hex');
    const badRecovery = Uint8Array.from(signature);
    badRecovery[0] = 4;
    const calls: Record<string, Call> = {
      '63-byte compact signature': (curve) =>
        curve.Signature.fromBytes(signature.subarray(2)),
      'recovered signature without its id': (curve) =>
        curve.Signature.fromBytes(signature.subarray(1), 'recovered'),
      'recovery id 4': (curve) =>
        curve.Signature.fromBytes(badRecovery, 'recovered'),
      'recovery bit 4': (curve) =>
        curve.Signature.fromBytes(signature.subarray(1)).addRecoveryBit(4),
      'r = 0': (curve) => curve.Signature.fromBytes(new Uint8Array(64)),
      'a point off the curve': (curve) =>
        curve.Point.fromBytes(
          Uint8Array.of(4, ...new Uint8Array(64).fill(1)),
        ).toBytes(),
      'a 32-byte point': (curve) => curve.Point.fromBytes(key).toBytes(),
      'a hex-string point': (curve) =>
        curve.Point.fromBytes(
          toHex(curve.getPublicKey(key)) as never,
        ).toBytes(),
      'zero key': (curve) => curve.getPublicKey(new Uint8Array(32)),
      'key n': (curve) => curve.getPublicKey(new Uint8Array(order)),
      '31-byte key': (curve) => curve.getPublicKey(key.subarray(1)),
      'hex-string key': (curve) => curve.getPublicKey(toHex(key) as never),
      'hex-string hash': (curve) =>
        curve.sign(toHex(message) as never, key, { prehash: false }),
      'zero key signing': (curve) =>
        curve.sign(message, new Uint8Array(32), { prehash: false }),
    };
    for (const [name, call] of Object.entries(calls)) {
      expect([name, outcome(() => call(adapter))]).toStrictEqual([
        name,
        'threw',
      ]);
      expect([name, outcome(() => call(nobleV2))]).toStrictEqual([
        name,
        'threw',
      ]);
    }
    for (const candidate of [
      new Uint8Array(32),
      new Uint8Array(order),
      key.subarray(1),
      toHex(key),
      1n,
    ]) {
      expect(adapter.utils.isValidSecretKey(candidate)).toBe(
        nobleV2.utils.isValidSecretKey(candidate),
      );
    }
    // 2.x hashes the message first unless told not to, and writes DER: those packages ask for neither.
    expect(() => adapter.sign(message, key, {} as never)).toThrow(
      'prehash is not bundled in this snap',
    );
    expect(() =>
      adapter.sign(message, key, { prehash: false, format: 'der' }),
    ).toThrow('signature format "der" is not bundled in this snap');
  });
});

describe('what the adapter replaces (snap.config.ts)', () => {
  const files = ['@ethereumjs/tx', '@ethereumjs/util'].flatMap((name) =>
    sources(path.join(NODE_MODULES, name, 'dist/esm')),
  );

  it('@ethereumjs/tx and util read only these members of @noble/curves/secp256k1.js, and sign prehashed: false', () => {
    const users = files.filter((file) =>
      readFileSync(file, 'utf8').includes("'@noble/curves/secp256k1.js'"),
    );
    expect(users.length).toBeGreaterThan(0);
    const used = new Set<string>();
    for (const file of users) {
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(
        "import { secp256k1 } from '@noble/curves/secp256k1.js';",
      );
      for (const [, member] of text.matchAll(
        /(?<![/\w])secp256k1\.([\w.]+)/gu,
      )) {
        used.add(member);
      }
      // Every signing call passes prehash: false (the adapter signs hashes only).
      for (const call of text.matchAll(/\bsecp256k1\.sign\b/gu)) {
        expect(text.slice(call.index, call.index + 300)).toContain(
          'prehash: false',
        );
      }
    }
    expect([...used].sort()).toStrictEqual([
      'Point.CURVE',
      'Point.fromBytes',
      'Signature.fromBytes',
      'getPublicKey',
      'sign',
      'utils.isValidSecretKey',
    ]);
  });

  it("@noble/hashes sha2.js and utils.js: the members they read exist in viem's 1.8 copy and answer as 2.x", () => {
    const used = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, names, moduleName] of text.matchAll(
        /(?:import|export) \{([^}]*)\} from '@noble\/hashes\/(sha2|utils)\.js'/gu,
      )) {
        names
          .split(',')
          .map((name) => name.trim().split(' as ')[0])
          .filter(Boolean)
          .forEach((name) => used.add(`${moduleName}.${name}`));
      }
      // Nothing reads these modules in another form.
      expect(
        text.match(/from '@noble\/hashes\/(sha2|utils)\.js'/gu)?.length ?? 0,
      ).toBe(
        text.match(
          /(?:import|export) \{[^}]*\} from '@noble\/hashes\/(sha2|utils)\.js'/gu,
        )?.length ?? 0,
      );
    }
    expect([...used].sort()).toStrictEqual([
      'sha2.sha256',
      'utils.bytesToHex',
      'utils.hexToBytes',
      'utils.randomBytes',
      'utils.utf8ToBytes',
    ]);
    /** One module of each copy. */
    type Hashes = Record<string, (input: never) => Uint8Array | string>;
    /**
     * @param copy - The copy's folder under node_modules.
     * @param file - `sha2` or `utils`.
     * @returns That module of that copy.
     */
    const load = (copy: string, file: string): Hashes =>
      require(path.join(NODE_MODULES, copy, `${file}.js`)) as Hashes;
    const v18 = {
      sha2: load('viem/node_modules/@noble/hashes', 'sha2'),
      utils: load('viem/node_modules/@noble/hashes', 'utils'),
    };
    const v2 = {
      sha2: load('@noble/hashes', 'sha2'),
      utils: load('@noble/hashes', 'utils'),
    };
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.string({ maxLength: 50 }),
        (bytes, text) => {
          const encoded = Buffer.from(bytes).toString('hex');
          const answers = [v18, v2].map(({ sha2, utils }) => [
            toHex(sha2.sha256(bytes as never) as Uint8Array),
            utils.bytesToHex(bytes as never),
            toHex(utils.hexToBytes(encoded as never) as Uint8Array),
            outcome(
              () => utils.hexToBytes(`${encoded}0` as never) as Uint8Array,
            ),
            toHex(utils.utf8ToBytes(text as never) as Uint8Array),
            (utils.randomBytes(bytes.length as never) as Uint8Array).length,
          ]);
          expect(answers[0]).toStrictEqual(answers[1]);
        },
      ),
      { numRuns: fuzzRuns(100) },
    );
  });
});
