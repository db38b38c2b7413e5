/**
 * Two projects: `unit` runs library and keyring tests in Node; `snap` runs the
 * snaps-jest suites against the built bundle (dist/bundle.js, built by `pretest`).
 */
const shared = {
  resolver: '<rootDir>/jest.resolver.js',
  transformIgnorePatterns: [],
  transform: {
    '^.+\\.(ts|js|mjs)$': [
      'ts-jest',
      { tsconfig: { allowJs: true, target: 'ES2022', isolatedModules: true } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

module.exports = {
  testTimeout: 120000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/node/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'snap',
      preset: '@metamask/snaps-jest',
      testMatch: ['<rootDir>/test/snap/**/*.test.ts'],
    },
  ],
};
