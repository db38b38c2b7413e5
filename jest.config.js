/**
 * Three projects: `unit` runs the pure tests beside the code (src/, no server but an in-process
 * one); `integration` runs the library suites against real servers in Node (anvil, Alto, the
 * paymaster service, the IPFS node, the limits proxy); `snap` runs the snaps-jest suites against
 * the built bundle (dist/bundle.js, built by `pretest`). `npx jest --selectProjects unit` is fast.
 */
const shared = {
  resolver: '<rootDir>/jest.resolver.js',
  transformIgnorePatterns: [],
  // @swc/jest strips types without checking them (tsc --noEmit in pretest does that); ES2022 keeps
  // class fields as fields (a lower target turns `static name = ...` into an assignment that throws).
  transform: {
    '^.+\\.(ts|tsx|js|mjs)$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          transform: {
            react: {
              runtime: 'automatic',
              importSource: '@metamask/snaps-sdk',
            },
          },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  setupFiles: ['<rootDir>/jest.setup.js'],
};

module.exports = {
  testTimeout: 120000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx'],
    },
    {
      ...shared,
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/node/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'snap',
      preset: '@metamask/snaps-jest',
      testMatch: ['<rootDir>/test/snap/**/*.test.ts'],
    },
  ],
};
