/**
 * Three projects: `unit` runs the pure tests beside the code (src/, no server but an in-process
 * one); `integration` runs the library suites against real servers in Node (anvil, Alto, the
 * paymaster service, the IPFS node, the limits proxy); `snap` runs the snaps-jest suites against
 * the built bundle (dist/bundle.js, built by `pretest`). `npx jest --selectProjects unit` is fast.
 */
const shared = {
  resolver: '<rootDir>/jest.resolver.js',
  transformIgnorePatterns: [],
  transform: {
    '^.+\\.(ts|tsx|js|mjs)$': [
      'ts-jest',
      {
        tsconfig: {
          allowJs: true,
          target: 'ES2022',
          isolatedModules: true,
          jsx: 'react-jsx',
          jsxImportSource: '@metamask/snaps-sdk',
        },
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
