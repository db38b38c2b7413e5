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
  it("lodash: @metamask/utils uses memoize alone, and the stub gives lodash's own memoize", () => {
    expect([
      ...membersUsed(
        path.join(packageDir('@metamask/utils'), 'dist'),
        'lodash',
      ),
    ]).toStrictEqual(['memoize']);
    // eslint-disable-next-line @typescript-eslint/no-require-imports, import-x/no-dynamic-require, n/global-require -- loads the stub file the bundler swaps in, by its path
    const stub = require(path.join(STUBS, 'lodash.js')) as {
      /** The stub's memoize. */
      memoize: unknown;
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports, n/global-require -- lodash is a dependency of @metamask/utils, compared against the stub
    expect(stub.memoize).toBe(require('lodash/memoize'));
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
});
