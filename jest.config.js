/**
 * Two projects: `unit` runs library and keyring tests in Node; `snap` runs the
 * snaps-jest suites against the built bundle (dist/bundle.js, built by `pretest`).
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
};

module.exports = {
  testTimeout: 120000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx', '<rootDir>/test/node/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'snap',
      preset: '@metamask/snaps-jest',
      testMatch: ['<rootDir>/test/snap/**/*.test.ts'],
    },
  ],
};
