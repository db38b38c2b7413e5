// @ts-check
// ESLint 9 flat config with MetaMask's shared configs (@metamask/eslint-config 15).
import base, { createConfig } from '@metamask/eslint-config';
import jest from '@metamask/eslint-config-jest';
import nodejs from '@metamask/eslint-config-nodejs';
import typescript from '@metamask/eslint-config-typescript';

const config = createConfig([
  {
    ignores: ['dist/', 'dev/', 'coverage/', 'node_modules/'],
  },

  {
    extends: base,
    languageOptions: {
      sourceType: 'module',
      parserOptions: {
        tsconfigRootDir: import.meta.dirname,
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
    ],
    extends: nodejs,
    rules: {
      // `fetch` is unflagged since Node.js 18 and the project needs Node.js >= 20 (`engines`);
      // eslint-plugin-n calls it experimental until 21, when it was only marked stable.
      'n/no-unsupported-features/node-builtins': [
        'error',
        { ignores: ['fetch'] },
      ],
    },
  },

  // Scripts and test fixtures run once, on a developer's machine or in CI: synchronous file
  // access and exit codes are the plain way to write them there.
  {
    files: [
      'scripts/**',
      'devnet/**',
      'test/**',
      '**/*.test.ts',
      '**/*.test.tsx',
    ],
    rules: {
      'n/no-sync': 'off',
      'n/no-process-exit': 'off',
    },
  },

  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**'],
    extends: jest,
    rules: {
      // Tests that assert through a helper (`expectRecovered`, `assertNoSecret`, ...).
      'jest/expect-expect': [
        'error',
        { assertFunctionNames: ['expect', 'expect*', 'assert*', '*.expect*'] },
      ],
    },
  },
]);

export default config;
