import type { SnapConfig } from '@metamask/snaps-cli';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** webpack's configuration, as snaps-cli hands it to `customizeWebpackConfig`. */
type Configuration = Parameters<
  NonNullable<SnapConfig['customizeWebpackConfig']>
>[0];
/** A webpack module rule of the kinds used here. */
type Rule = {
  /** The files it applies to. */
  test: RegExp;
  /** `false`: the files have no side effects, so webpack may drop what nothing imports. */
  sideEffects?: boolean;
  /** Resolution settings for requests made from those files (aliases to build/stubs/). */
  resolve?: Record<string, unknown>;
  /** Loaders for those files (build/loaders/). */
  use?: { loader: string }[];
};

const STUBS = path.join(__dirname, 'build/stubs');
/** build/loaders/abi-utils-asserts.js: its `checkInstalled` runs on every build (below). */
const ABI_UTILS_ASSERTS = path.join(
  __dirname,
  'build/loaders/abi-utils-asserts.js',
);

/**
 * A rule's `test` for the files of one installed package copy.
 *
 * @param packagePath - The copy's path under node_modules (`a/node_modules/b` for a nested one).
 * @returns A pattern matching its files but not those of packages nested under it.
 */
function filesOf(packagePath: string): RegExp {
  const parts = packagePath
    .split('/')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
  return new RegExp(
    `[\\\\/]node_modules[\\\\/]${parts.join('[\\\\/]')}[\\\\/](?!node_modules[\\\\/])`,
    'u',
  );
}

/**
 * The folder of a package as another package resolves it.
 *
 * @param name - The package.
 * @param from - The resolving package's folder, relative to the project.
 * @returns The resolved copy's folder, with a trailing separator.
 */
function packageDir(name: string, from: string): string {
  const entry = require.resolve(name, { paths: [path.join(__dirname, from)] });
  return entry.slice(
    0,
    entry.lastIndexOf(`${path.sep}${name.replace('/', path.sep)}${path.sep}`) +
      name.length +
      1,
  );
}

/** viem's @noble/hashes 1.8 (ES build), which @metamask/utils' own copy of the same version duplicates. */
const NOBLE_HASHES_ESM = path.join(
  packageDir('@noble/hashes', 'node_modules/viem'),
  'esm',
);

/** viem's @noble/curves 1.9 secp256k1 (ES build), which ethereum-cryptography's 1.4 copy duplicates. */
const NOBLE_CURVES_SECP256K1 = path.join(
  packageDir('@noble/curves', 'node_modules/viem'),
  'esm',
  'secp256k1.js',
);

/** viem's @noble/hashes 1.8 ES modules that @ethereumjs/util 10 also reads in their 2.x form (same functions). */
const NOBLE_HASHES_V2 = {
  '@noble/hashes/sha2.js$': path.join(NOBLE_HASHES_ESM, 'sha2.js'),
  '@noble/hashes/utils.js$': path.join(NOBLE_HASHES_ESM, 'utils.js'),
};

/** ethereum-cryptography's `utils` for its readers: the two functions they use, from viem's @noble/hashes 1.8. */
const ETHEREUM_CRYPTOGRAPHY_UTILS = path.join(
  STUBS,
  'ethereum-cryptography-utils.mjs',
);

/** The `@ethereumjs/rlp` 10 of @ethereumjs/tx (ES build), for util 8's `RLP.encode`/`RLP.decode` (same functions as its 4.0). */
const RLP_ESM = path.join(
  packageDir('@ethereumjs/rlp', '.'),
  'dist/esm/index.js',
);

/** `@noble/hashes`' Keccak module (1.x: `sha3`, 2.x: `sha3.js`) → the js-sha3 adapter (build/stubs/keccak.js). */
const KECCAK = {
  '@noble/hashes/sha3$': path.join(STUBS, 'keccak.js'),
  '@noble/hashes/sha3.js$': path.join(STUBS, 'keccak.js'),
};

/**
 * Where the bundle's size goes, and what each rule removes (gzip -9 of dist/bundle.js; docs/performance.md):
 * - keyring-api, keyring-utils and keyring-snap-sdk are pure ES modules that do not declare
 *   `sideEffects: false`; declaring it lets webpack drop the modules the snap never imports
 *   (keyring-api's v2 wrapper with @ethereumjs/tx 5 and all of eth-sig-util, the BTC/SOL/TRX structs).
 * - CommonJS `require`s of `@metamask/utils` by eth-sig-util and abi-utils go to an ES facade of
 *   the functions they use (build/stubs/metamask-utils.mjs), tree-shaken with the ES build.
 * - abi-utils' `require('@metamask/superstruct')` goes to an ES facade of the seven functions
 *   it uses (build/stubs/superstruct.mjs): superstruct's CommonJS build leaves the bundle, the
 *   ES build the rest of the snap imports stays.
 * - @metamask/utils' `import lodash` gets a bounded one-argument `memoize` (build/stubs/lodash.js)
 *   instead of lodash's, whose cache classes cost about 3.5 kB gzip.
 * - eth-sig-util's `require('@ethereumjs/util')` (8.1: its index loads every module, with
 *   `AsyncEventEmitter` and Node's `events` polyfill) goes to build/stubs/ethereumjs-util-8.js,
 *   the twelve functions it reads taken from the files that hold them (about 6 kB gzip less).
 * - ethereum-cryptography's `utils` (with its own @noble/hashes 1.4 `utils` and `_assert`) goes,
 *   for its `keccak` module and eth-sig-util's @ethereumjs/util 8, to
 *   build/stubs/ethereum-cryptography-utils.mjs: the two functions they read (`wrapHash`,
 *   `bytesToHex`) from viem's @noble/hashes 1.8 ES build. Called once per hash, not inside it.
 * - eth-sig-util's @ethereumjs/util 8 takes @ethereumjs/tx's @ethereumjs/rlp 10 (ES build, the same
 *   `RLP.encode`/`RLP.decode`) instead of its own 4.0 copy, for its `account` module's RLP helpers,
 *   which eth-sig-util never calls (one RLP copy instead of two).
 * - eth-sig-util's @ethereumjs/util 8 gets a throwing `micro-ftch` (build/stubs/micro-ftch.js):
 *   that drops Node's `url`/`util` polyfills, `qs`, `object-inspect` and `get-intrinsic`.
 * - @metamask/utils' ES build imports viem's copy of @noble/hashes 1.8 instead of its own copy
 *   of the same version. (ethereum-cryptography keeps its @noble/hashes 1.4 copy: it `require`s
 *   it, and pointing a CommonJS `require` at viem's ES copy made webpack reach every noble function
 *   through an accessor call, slowing signing; its `_assert` default export is gone in 1.8 too.)
 * - ethereum-cryptography's `require("@noble/curves/secp256k1")` (eth-sig-util's signing, through
 *   `@ethereumjs/util` 8) takes viem's @noble/curves 1.9 ES copy instead of its own 1.4 copy: the
 *   same `secp256k1` API within 1.x, one copy of the curve code instead of two (about 11 kB gzip
 *   less). Only the entry module is required from CommonJS, so the curve internals stay
 *   concatenated (the accessor cost above is paid once per call, not inside the arithmetic).
 * - @ethereumjs/tx and util 10's `@noble/curves/secp256k1.js` (the 2.x copy, about 45 kB parsed)
 *   goes to build/stubs/secp256k1.mjs: 2.x's contract (the members they read) over viem's 1.9
 *   copy, glue only (build/stubs/secp256k1-v2.js); their `@noble/hashes/sha2.js` and `utils.js`
 *   take viem's 1.8 ES modules of the same functions. One copy of the curve and of SHA-2 instead
 *   of two: about 15 kB gzip less (test/build/secp256k1.test.ts checks the contract).
 * - Keccak: the `@noble/hashes/sha3` imports of viem, @metamask/utils, ethereum-cryptography
 *   (eth-sig-util's) and @ethereumjs/util and tx 10 go to build/stubs/keccak.js, which backs
 *   noble's `keccak_*` functions with js-sha3 (plain-array state): in SES, noble's Uint32Array
 *   state made every Keccak-256 5-10 times slower (endojs/endo#1563; docs/performance.md).
 * - (speed, typed data) abi-utils' files go through build/loaders/abi-utils-asserts.js, which turns
 *   each `assert(condition, new ParserError(message))` into `if (!condition) throw new
 *   ParserError(message)`: the error was built, its stack captured (15-60 µs in SES), on every
 *   check, passing or not. Exact-match for abi-utils 3.0.0: a changed package fails the build.
 *   The facade's `createBytes` returns a `Uint8Array` as it is instead of through a superstruct
 *   coercion that built and dropped a `StructError`. Together: typed-data signing in SES about
 *   half as long (docs/performance.md, "Typed data: errors built and dropped").
 * - src/accounts/eoa.ts `require`s its signing libraries lazily; its `require`s take the
 *   packages' ES builds (the `import` condition), which webpack tree-shakes, not their CommonJS builds.
 * test/node/bundle-size.test.ts checks each stub's contract and the gzip budget.
 */
const RULES: Rule[] = [
  ...[
    '@metamask/keyring-api',
    '@metamask/keyring-utils',
    '@metamask/keyring-snap-sdk',
  ].map((name) => ({
    test: filesOf(name),
    sideEffects: false,
  })),
  ...['@metamask/eth-sig-util', '@metamask/abi-utils'].map((name) => ({
    test: filesOf(name),
    resolve: {
      alias: { '@metamask/utils$': path.join(STUBS, 'metamask-utils.mjs') },
    },
  })),
  {
    test: filesOf('@metamask/abi-utils'),
    use: [{ loader: ABI_UTILS_ASSERTS }],
    resolve: {
      alias: {
        '@metamask/superstruct$': path.join(STUBS, 'superstruct.mjs'),
      },
    },
  },
  {
    test: filesOf('@metamask/utils'),
    resolve: {
      alias: {
        lodash$: path.join(STUBS, 'lodash.js'),
        ...KECCAK,
        '@noble/hashes': NOBLE_HASHES_ESM,
      },
    },
  },
  {
    test: filesOf('ethereum-cryptography'),
    resolve: {
      alias: {
        '@noble/curves/secp256k1$': NOBLE_CURVES_SECP256K1,
        [`${path.join(packageDir('ethereum-cryptography', '.'), 'utils.js')}$`]:
          ETHEREUM_CRYPTOGRAPHY_UTILS,
      },
    },
  },
  {
    test: /[\\/]build[\\/]stubs[\\/]ethereum-cryptography-utils\.mjs$/u,
    resolve: {
      alias: {
        '@noble/hashes/utils.js$': path.join(NOBLE_HASHES_ESM, 'utils.js'),
      },
    },
  },
  {
    test: /[\\/]build[\\/]stubs[\\/]secp256k1\.mjs$/u,
    resolve: {
      alias: { '@noble/curves/secp256k1.js$': NOBLE_CURVES_SECP256K1 },
    },
  },
  ...['viem', 'ethereum-cryptography'].map((name) => ({
    test: filesOf(name),
    resolve: { alias: KECCAK },
  })),
  ...['@ethereumjs/util', '@ethereumjs/tx'].map((name) => ({
    test: filesOf(name),
    resolve: {
      alias: {
        ...KECCAK,
        ...NOBLE_HASHES_V2,
        '@noble/curves/secp256k1.js$': path.join(STUBS, 'secp256k1.mjs'),
      },
    },
  })),
  {
    test: filesOf('@metamask/eth-sig-util/node_modules/@ethereumjs/util'),
    resolve: {
      alias: {
        'micro-ftch$': path.join(STUBS, 'micro-ftch.js'),
        'ethereum-cryptography/utils$': ETHEREUM_CRYPTOGRAPHY_UTILS,
        '@ethereumjs/rlp$': RLP_ESM,
      },
    },
  },
  {
    test: filesOf('@metamask/eth-sig-util'),
    resolve: {
      alias: { '@ethereumjs/util$': path.join(STUBS, 'ethereumjs-util-8.js') },
    },
  },
  {
    test: /[\\/]build[\\/]stubs[\\/]ethereumjs-util-8\.js$/u,
    resolve: {
      alias: {
        '@ethereumjs/util': packageDir(
          '@ethereumjs/util',
          'node_modules/@metamask/eth-sig-util',
        ),
      },
    },
  },
  {
    test: /[\\/]src[\\/]accounts[\\/]eoa\.ts$/u,
    resolve: {
      byDependency: {
        commonjs: {
          conditionNames: [
            'import',
            'module',
            'webpack',
            'browser',
            'production',
            'default',
          ],
        },
      },
    },
  },
];

/**
 * The companion origins a build serves: the manifest's `endowment:keyring.allowedOrigins`, read
 * at build time and compiled into the bundle as `process.env.COMPANION_ORIGINS`, so the snap's
 * allow-list (src/handlers/permissions.ts) and the manifest cannot disagree.
 *
 * @param manifestPath - The manifest the build uses.
 * @returns The origins, comma-separated.
 */
export function companionOrigins(manifestPath: string): string {
  const manifest = JSON.parse(
    readFileSync(path.resolve(__dirname, manifestPath), 'utf8'),
  ) as {
    initialPermissions: { 'endowment:keyring': { allowedOrigins: string[] } };
  };
  return manifest.initialPermissions['endowment:keyring'].allowedOrigins.join(
    ',',
  );
}

/**
 * Build configuration for `mm-snap build` / `mm-snap serve` (snaps-cli 8).
 * The `buffer` polyfill serves @metamask/eth-sig-util and the ethereumjs libraries.
 * With SNAP_BUNDLE_STATS=<file> set, the build also writes webpack-bundle-analyzer's JSON
 * report (parsed bytes per module) there, for `npm run bench`.
 */
const config: SnapConfig = {
  input: 'src/index.ts',
  environment: { COMPANION_ORIGINS: companionOrigins('snap.manifest.json') },
  // `npm start` serves dist/ with scripts/serve.ts on 127.0.0.1 (snaps-cli's own server listens on every interface).
  server: { enabled: false, port: 8080 },
  polyfills: {
    buffer: true,
  },
  stats: {
    builtIns: {
      ignore: [
        'events',
        'http',
        'https',
        'zlib',
        'util',
        'url',
        'string_decoder',
        'punycode',
      ],
    },
  },
  customizeWebpackConfig: (webpackConfig: Configuration) => {
    // The abi-utils rewrite is exact-match: a changed package fails the build here.
    const { checkInstalled } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- a CommonJS build script, by its path
      require(ABI_UTILS_ASSERTS) as { checkInstalled: (dir: string) => void };
    checkInstalled(
      packageDir('@metamask/abi-utils', 'node_modules/@metamask/eth-sig-util'),
    );
    webpackConfig.module?.rules?.push(...(RULES as never[]));
    // Terser (snaps-cli's minimizer): three compress passes and ES2020 output (SES runs ES2020+).
    // Both keep the code's meaning; they take about 600 B off the gzip -9 bundle.
    for (const minimizer of webpackConfig.optimization?.minimizer ?? []) {
      const terser = (
        minimizer as {
          /** terser-webpack-plugin's options: `minimizer.options` are Terser's. */
          options?: { minimizer?: { options?: Record<string, unknown> } };
        }
      ).options?.minimizer;
      if (terser?.options) {
        terser.options = {
          ...terser.options,
          ecma: 2020,
          compress: { passes: 3, ecma: 2020 },
        };
      }
    }
    const statsFile = process.env.SNAP_BUNDLE_STATS;
    if (statsFile) {
      // snaps-cli's own dependency (its `--analyze` uses it), resolved from snaps-cli.
      const analyzer = require.resolve('webpack-bundle-analyzer', {
        paths: [require.resolve('@metamask/snaps-cli')],
      });
      // Loaded only when a report is asked for.
      // eslint-disable-next-line import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports
      const { BundleAnalyzerPlugin: Analyzer } = require(analyzer) as {
        // eslint-disable-next-line @typescript-eslint/naming-convention -- the library's class name
        BundleAnalyzerPlugin: new (options: object) => never;
      };
      webpackConfig.plugins?.push(
        new Analyzer({
          analyzerMode: 'json',
          reportFilename: path.resolve(statsFile),
          logLevel: 'silent',
        }),
      );
    }
    return webpackConfig;
  },
};

export default config;
