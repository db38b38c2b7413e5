// @ts-check
// ESLint 9 flat config with MetaMask's shared configs (@metamask/eslint-config 15).
import base, { createConfig } from '@metamask/eslint-config';
import jest from '@metamask/eslint-config-jest';
import nodejs from '@metamask/eslint-config-nodejs';
import typescript from '@metamask/eslint-config-typescript';
import * as typescriptResolver from 'eslint-import-resolver-typescript';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const config = createConfig([
  {
    ignores: [
      'dist/',
      'dev/',
      'coverage/',
      'node_modules/',
      '.stryker-tmp/',
      'reports/',
      'site/vendor/',
    ],
  },

  {
    extends: base,
    languageOptions: {
      sourceType: 'module',
      parserOptions: {
        tsconfigRootDir: dirname(fileURLToPath(import.meta.url)),
      },
    },
    settings: {
      'import-x/extensions': ['.js', '.mjs'],
    },
  },

  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    extends: typescript,
  },

  // MetaMask's config asks for a docstring on every property signature and every arrow function,
  // including those of inline types (casts, parameter shapes) and of object literals that
  // implement a documented type. Here: named types document each of their own properties, and
  // arrow functions bound to a variable or exported are documented; the rest is documented
  // where its type is declared. (docs/decisions.md, "Lint")
  {
    rules: {
      'jsdoc/require-jsdoc': [
        'error',
        {
          require: {
            ArrowFunctionExpression: false,
            ClassDeclaration: true,
            FunctionDeclaration: true,
            FunctionExpression: true,
            MethodDefinition: true,
          },
          contexts: [
            'TSInterfaceDeclaration',
            'TSTypeAliasDeclaration',
            'TSEnumDeclaration',
            'TSInterfaceBody > TSPropertySignature',
            'TSTypeAliasDeclaration > TSTypeLiteral > TSPropertySignature',
            'VariableDeclarator > ArrowFunctionExpression',
            'ExportDefaultDeclaration > ArrowFunctionExpression',
          ],
        },
      ],
    },
  },

  // Node.js code: scripts, the local devnet, tests, build configuration and stubs.
  {
    files: [
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      'scripts/**',
      'devnet/**',
      'test/**',
      'snap.config*.ts',
      // Unit tests beside the code run in Node.js under jest, not in the snap.
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
    ],
    extends: nodejs,
    rules: {
      // `fetch` is unflagged since Node.js 18 and the project needs Node.js >= 20 (`engines`);
      // eslint-plugin-n calls it (and its Response) experimental until 21, when it was marked stable.
      'n/no-unsupported-features/node-builtins': [
        'error',
        { ignores: ['fetch', 'Response'] },
      ],
    },
  },

  // ES modules in Node.js (the nodejs config treats plain .js files as CommonJS scripts).
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
    // import-x's default resolver cannot read packages that only declare `exports` (the ES-module
    // IPFS packages); the TypeScript resolver can, as it does for the TypeScript files.
    settings: {
      'import-x/resolver': { name: 'typescript', resolver: typescriptResolver },
    },
  },

  // The companion site (site/): plain ES modules run by the browser, with no build step.
  {
    files: ['site/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: { window: 'readonly', document: 'readonly' },
    },
    rules: {
      // browser globals, and module paths with their extension as the browser loads them
      'no-restricted-globals': 'off',
      'import-x/extensions': 'off',
    },
  },

  // Build configuration, scripts and tests run on a developer's machine or in CI, never in the
  // snap: synchronous file access, exit codes and settings from environment variables are the
  // plain way to write them there.
  {
    files: [
      'scripts/**',
      'devnet/**',
      'test/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'snap.config*.ts',
      'jest.*.js',
    ],
    rules: {
      'n/no-sync': 'off',
      'n/no-process-exit': 'off',
      'n/no-process-env': 'off',
    },
  },

  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**/*.ts'],
    extends: jest,
    rules: {
      // Tests that assert through a helper (`expectRecovered`, `assertNoSecret`, ...) or through
      // fast-check's `fc.assert`, which throws on a counterexample.
      'jest/expect-expect': [
        'error',
        {
          assertFunctionNames: [
            'expect',
            'expect*',
            'assert*',
            '*.expect*',
            'fc.assert',
          ],
        },
      ],
    },
  },

  // What the snaps simulation returns is equal in data to the expected values but not made of plain
  // objects, so toStrictEqual reports "serializes to the same string"; toEqual compares the data.
  {
    files: ['test/snap/**/*.ts'],
    rules: {
      'jest/prefer-strict-equal': 'off',
    },
  },

  // Speed (docs/testing.md, "Lint"): formatting is checked once, by `prettier --check .` in
  // `npm run lint`, not a second time per file inside ESLint; and import-x rules that TypeScript
  // already enforces for TypeScript files (a missing named or namespace member is a tsc error)
  // are off there, as typescript-eslint's performance guide advises
  // (https://typescript-eslint.io/troubleshooting/typed-linting/performance).
  {
    rules: {
      'prettier/prettier': 'off',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    rules: {
      'import-x/named': 'off',
      'import-x/namespace': 'off',
      'import-x/default': 'off',
      'import-x/no-named-as-default-member': 'off',
    },
  },
]);

export default config;
