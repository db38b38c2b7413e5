/**
 * The two build-time changes on the EIP-712 path (docs/performance.md, "Typed data: errors built
 * and dropped"): build/loaders/abi-utils-asserts.js, which makes abi-utils build its
 * `ParserError`s only when an assertion fails, and the `createBytes` shortcut in
 * build/stubs/metamask-utils.mjs. Each against the unchanged library: same hashes, same bytes,
 * same errors (class and message), over generated inputs, good and bad.
 */
/* eslint-disable import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports -- it loads the loader and a rewritten copy of the libraries by path */
import { createBytes as libraryCreateBytes } from '@metamask/utils';
import * as fc from 'fast-check';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { fuzzRuns } from '../fixtures/fuzz';

/** The loader's exports. */
type Loader = {
  /** Rewrite one file of the package. */
  rewrite: (source: string, file: string) => string;
  /** Check the installed package (version and counts). */
  checkInstalled: (packageDir: string) => void;
  /** Calls per file. */
  // eslint-disable-next-line @typescript-eslint/naming-convention -- the loader's export name
  EXPECTED: Record<string, number>;
};
/** What the test reads from eth-sig-util and abi-utils. */
type Libraries = {
  /** `TypedDataUtils.eip712Hash`. */
  eip712Hash: (data: unknown, version: string) => Uint8Array;
  /** abi-utils' `encode`. */
  encode: (types: string[], values: unknown[]) => Uint8Array;
  /** The text of the copy's `pack` function. */
  packSource: string;
};

const ROOT = path.join(__dirname, '../..');
/**
 * The packages' real directories: `require.resolve` answers real paths, so a `node_modules` that is
 * a symbolic link (a git worktree sharing one install) must be resolved too, or the two copies'
 * inner `require`s fall through to the ordinary, shared modules.
 */
const ABI_UTILS = realpathSync(
  path.join(ROOT, 'node_modules/@metamask/abi-utils'),
);
const ETH_SIG_UTIL = realpathSync(
  path.join(ROOT, 'node_modules/@metamask/eth-sig-util'),
);
const loader = require(
  path.join(ROOT, 'build/loaders/abi-utils-asserts.js'),
) as Loader;

/**
 * eth-sig-util's typed-data module and abi-utils, each file of those two packages evaluated
 * afresh by a small CommonJS loader (other packages come from the ordinary `require`), abi-utils'
 * files passed through the loader when `rewritten`: two separate copies in one process.
 *
 * @param rewritten - Whether to apply the rewrite.
 * @returns The functions under test.
 */
function loadLibraries(rewritten: boolean): Libraries {
  const own = [ETH_SIG_UTIL, ABI_UTILS];
  const cache = new Map<string, { exports: unknown }>();
  /**
   * Evaluate one file of the two packages, once.
   *
   * @param file - Its path.
   * @returns Its exports.
   */
  const load = (file: string): unknown => {
    const cached = cache.get(file);
    if (cached) {
      return cached.exports;
    }
    const commonJsModule = { exports: {} };
    cache.set(file, commonJsModule);
    let source = readFileSync(file, 'utf8');
    if (rewritten && file.startsWith(`${ABI_UTILS}${path.sep}`)) {
      source = loader.rewrite(
        source,
        path.relative(ABI_UTILS, file).split(path.sep).join('/'),
      );
    }
    /**
     * The file's `require`: the two packages' files through `load`, others as usual.
     *
     * @param request - What it requires.
     * @returns The exports.
     */
    const localRequire = (request: string): unknown => {
      const resolved = require.resolve(request, {
        paths: [path.dirname(file)],
      });
      return own.some((dir) => resolved.startsWith(`${dir}${path.sep}`))
        ? load(resolved)
        : require(resolved);
    };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval, no-new-func -- the packages' own CommonJS files
    new Function(
      'exports',
      'require',
      'module',
      '__filename',
      '__dirname',
      source,
    )(
      commonJsModule.exports,
      localRequire,
      commonJsModule,
      file,
      path.dirname(file),
    );
    return commonJsModule.exports;
  };
  const sigUtil = load(path.join(ETH_SIG_UTIL, 'dist/sign-typed-data.js')) as {
    // eslint-disable-next-line @typescript-eslint/naming-convention -- the library's export name
    TypedDataUtils: Pick<Libraries, 'eip712Hash'>;
  };
  const abiUtils = load(path.join(ABI_UTILS, 'dist/index.js')) as Pick<
    Libraries,
    'encode'
  >;
  const packer = load(path.join(ABI_UTILS, 'dist/packer.js')) as {
    pack: () => unknown;
  };
  return {
    eip712Hash: sigUtil.TypedDataUtils.eip712Hash,
    encode: abiUtils.encode,
    packSource: String(packer.pack),
  };
}

/**
 * The facade's `createBytes`, taken from build/stubs/metamask-utils.mjs's text (an ES module,
 * which Jest does not load here) and bound to the library's function, as its import is.
 */
const facadeSource = readFileSync(
  path.join(ROOT, 'build/stubs/metamask-utils.mjs'),
  'utf8',
);
const facadeFunction =
  /^export function createBytes\(value\) \{\n[\s\S]*?\n\}$/mu.exec(
    facadeSource,
  )?.[0];
// eslint-disable-next-line @typescript-eslint/no-implied-eval, no-new-func -- the stub's own text, bound to the library function it imports
const facadeCreateBytes = new Function(
  'libraryCreateBytes',
  `${facadeFunction?.replace(/^export /u, '') ?? ''}\nreturn createBytes;`,
)(libraryCreateBytes) as typeof libraryCreateBytes;

const plain = loadLibraries(false);
const rewritten = loadLibraries(true);

/**
 * What a call gives: its bytes as hex, or its error's class and message.
 *
 * @param call - The call.
 * @returns A comparable outcome.
 */
function outcome(call: () => Uint8Array): string {
  try {
    return `ok ${Buffer.from(call()).toString('hex')}`;
  } catch (error) {
    return `throws ${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

/** Types abi-utils and EIP-712 know, and some they refuse. */
const abiType = fc.oneof(
  fc.constantFrom(
    'uint8',
    'uint16',
    'uint256',
    'int8',
    'int64',
    'int256',
    'bytes1',
    'bytes20',
    'bytes32',
    'address',
    'bool',
    'string',
    'bytes',
    'function',
    'uint7',
    'uint264',
    'int0',
    'bytes0',
    'bytes33',
    'uint256[]',
    'uint8[2]',
    'address[1]',
    'bytes32[]',
    '(uint256,address)',
    '(bool,bytes2)',
    '(uint8[2])',
    'Unknown',
  ),
  fc.string({ maxLength: 8 }),
);
/** Values as JSON-RPC params carry them (and a few JSON objects that are hard to print). */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.constantFrom(
      0,
      -1,
      255,
      256,
      -128,
      -129,
      2 ** 53,
      '0x',
      '0x00',
      '0xff',
      '0x1234567890123456789012345678901234567890',
      '0x123456789012345678901234567890123456789012',
      `0x${'ab'.repeat(32)}`,
      `0x${'ab'.repeat(33)}`,
      '115792089237316195423570985008687907853269984665640564039457584007913129639936',
      'true',
      'false',
      null,
      true,
      false,
      { toString: 1 },
      { length: 2 },
      { length: { toString: 1 } },
    ),
    fc.string({ maxLength: 12 }),
    fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
})).value;

describe('abi-utils assert rewrite (build/loaders/abi-utils-asserts.js)', () => {
  it('matches the installed abi-utils exactly, and fails on a changed file', () => {
    expect(() => loader.checkInstalled(ABI_UTILS)).not.toThrow();
    const packer = readFileSync(path.join(ABI_UTILS, 'dist/packer.js'), 'utf8');
    // One call written differently: not rewritten, so the build must stop.
    const changed = packer.replace(
      "new errors_1.ParserError('Invalid pack state.')",
      'new errors_1.ParserError("Invalid pack state.")',
    );
    expect(changed).not.toBe(packer);
    expect(() => loader.rewrite(changed, 'dist/packer.js')).toThrow(
      /has 2 assert.* expected 3, and some left unmatched/u,
    );
    // A file that gains a call.
    expect(() =>
      loader.rewrite(
        '    (0, utils_1.assert)(a, new errors_1.ParserError(`x`));',
        'dist/new-file.js',
      ),
    ).toThrow(/expected 0/u);
  });

  it('changes only the assert lines, and their messages interpolate only values the condition has checked', () => {
    const allowed = new Set([
      'type',
      'length',
      'value',
      'types.length',
      'values.length',
      'bytesValue.length',
      'bufferValue.length',
      'bytes.length',
      'fixedLength',
      'value.length',
      'result.length',
    ]);
    for (const file of Object.keys(loader.EXPECTED)) {
      const source = readFileSync(path.join(ABI_UTILS, file), 'utf8');
      const before = source.split('\n');
      const after = loader.rewrite(source, file).split('\n');
      expect(after).toHaveLength(before.length);
      const changed = after.filter((line, index) => line !== before[index]);
      expect(changed).toHaveLength(loader.EXPECTED[file] ?? -1);
      for (const line of changed) {
        expect(line).toMatch(
          /^\s*if \(!\(.+\)\) throw new errors_1\.ParserError\(.*\);$/u,
        );
        const interpolated = [...line.matchAll(/\$\{([^}]*)\}/gu)].map(
          ([, expression]) => expression,
        );
        expect(interpolated.filter((name) => !allowed.has(name))).toStrictEqual(
          [],
        );
      }
    }
    // number.js's `${value}` is the bigint `getBigInt` returned.
    const number = readFileSync(
      path.join(ABI_UTILS, 'dist/parsers/number.js'),
      'utf8',
    );
    expect(number).toContain(
      'const bigIntValue = (0, exports.getBigInt)(value);\n        (0, exports.assertNumberLength)(bigIntValue, type);',
    );
  });

  it('the rewritten copy really is another copy, rewritten', () => {
    expect(plain.encode).not.toBe(rewritten.encode);
    expect(plain.packSource).toContain('(0, utils_1.assert)(types.length');
    expect(rewritten.packSource).toContain('if (!(types.length');
  });

  it('abi-utils encode: same bytes or the same error as the library, for generated types and values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(abiType, jsonValue), { maxLength: 4 }),
        fc.boolean(),
        (pairs, dropOne) => {
          const types = pairs.map(([type]) => type);
          const values = pairs.map(([, value]) => value);
          if (dropOne && values.length > 0) {
            values.pop();
          }
          expect(outcome(() => rewritten.encode(types, values))).toBe(
            outcome(() => plain.encode(types, values)),
          );
        },
      ),
      { numRuns: fuzzRuns(2000), seed: 712 },
    );
  });

  it('eth-sig-util eip712Hash (V3, V4): same hash or the same error as the library, for generated typed data', () => {
    const typedData = fc
      .tuple(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), abiType), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), jsonValue),
        fc.constantFrom('V3', 'V4'),
        fc.boolean(),
      )
      .map(([fields, message, version, nested]) => ({
        data: {
          types: {
            EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
            Inner: fields.map(([name, type]) => ({ name, type })),
            Outer: [
              { name: 'inner', type: nested ? 'Inner[]' : 'Inner' },
              { name: 'note', type: 'string' },
            ],
          },
          primaryType: 'Outer',
          domain: { chainId: 1 },
          message: { inner: nested ? [message, message] : message, note: 'x' },
        },
        version,
      }));
    fc.assert(
      fc.property(typedData, ({ data, version }) => {
        expect(outcome(() => rewritten.eip712Hash(data, version))).toBe(
          outcome(() => plain.eip712Hash(data, version)),
        );
      }),
      { numRuns: fuzzRuns(1500), seed: 712 },
    );
  });
});

describe('createBytes shortcut (build/stubs/metamask-utils.mjs)', () => {
  it("is the stub's function, in front of the library's", () => {
    expect(facadeSource).toContain(
      "import { createBytes as libraryCreateBytes } from '@metamask/utils';",
    );
    expect(facadeFunction).toContain('return libraryCreateBytes(value);');
    expect(/export \{[^}]*\bcreateBytes\b/u.test(facadeSource)).toBe(false);
    const bytes = Buffer.from([1, 2, 3]);
    expect(facadeCreateBytes(bytes)).toBe(bytes);
    expect(libraryCreateBytes(bytes)).toBe(bytes);
  });

  it('returns the same object for a Uint8Array or Buffer, and what the library returns or throws for anything else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 40 }),
          fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
          jsonValue,
          fc.anything({ withTypedArray: true }),
          fc
            .uint8Array({ minLength: 1, maxLength: 40 })
            .map((bytes) => bytes.subarray(1)),
          fc.constantFrom('0x', '0X', '0xabc', '0Xab', 'ab', 1, 1n),
        ),
        (value) => {
          /**
           * What `create` gives for the value, and for a Uint8Array whether it is the same object.
           *
           * @param create - The facade's or the library's function.
           * @returns A comparable outcome.
           */
          const same = (create: typeof libraryCreateBytes): string => {
            const created = outcome(() => create(value as never));
            return value instanceof Uint8Array
              ? `${created} ${String(create(value) === value)}`
              : created;
          };
          expect(same(facadeCreateBytes)).toBe(same(libraryCreateBytes));
        },
      ),
      { numRuns: fuzzRuns(2000), seed: 712 },
    );
  });
});
