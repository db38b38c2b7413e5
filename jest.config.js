/**
 * Three projects: `unit` runs the pure tests beside the code (src/, no server but an in-process
 * one); `integration` runs the library suites against real servers in Node (anvil, Alto, the
 * paymaster service, the IPFS node, the limits proxy); `snap` runs the snaps-jest suites against
 * the built bundle (dist/bundle.js, built by `pretest`). `npx jest --selectProjects unit` is fast.
 */
/**
 * The ESM-only packages the tests load (through jest.resolver.js's `import` fallback, or by path):
 * the only files under node_modules that need compiling to CommonJS. Everything else in
 * node_modules is CommonJS already and is loaded as is. Found by logging every node_modules file
 * the transform saw in a full cold run whose package is `"type": "module"` (docs/testing.md,
 * "Transforming node_modules"); a package missing here fails with "Cannot use import statement
 * outside a module" naming its file. Matched on the innermost node_modules segment, so a nested
 * copy (helia/node_modules/multiformats) is matched by its own name.
 */
const ESM_PACKAGES = [
  '@chainsafe/is-ip',
  '@ipld/dag-cbor',
  '@ipld/dag-json',
  '@ipld/dag-pb',
  '@libp2p/crypto',
  '@libp2p/interface',
  '@libp2p/logger',
  '@libp2p/peer-id',
  '@multiformats/multiaddr',
  '@multiformats/multiaddr-to-uri',
  '@multiformats/murmur3',
  '@noble/curves',
  '@noble/hashes',
  'any-signal',
  'blob-to-it',
  'browser-readablestream-to-it',
  'cborg',
  'dag-jose',
  'hamt-sharding',
  'ipfs-unixfs',
  'ipfs-unixfs-exporter',
  'it-all',
  'it-first',
  'it-glob',
  'it-last',
  'it-map',
  'it-merge',
  'it-parallel',
  'it-peekable',
  'it-pipe',
  'it-pushable',
  'it-queueless-pushable',
  'it-to-buffer',
  'kubo-rpc-client',
  'main-event',
  'ms',
  'multiformats',
  'nanoid',
  'p-defer',
  'p-queue',
  'p-timeout',
  'parse-duration',
  'progress-events',
  'protons-runtime',
  'race-signal',
  'stream-to-it',
  'supports-color',
  'uint8-varint',
  'uint8arraylist',
  'uint8arrays',
  'weald',
  'wherearewe',
];

const shared = {
  resolver: '<rootDir>/jest.resolver.js',
  transformIgnorePatterns: [
    `/node_modules/(?!(?:${ESM_PACKAGES.join('|')})/)(?:@[^/]+/)?[^/]+/(?!.*/node_modules/)`,
  ],
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
  // Stryker's sandboxes (`npm run test:mutation`) are copies of the project.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  setupFiles: ['<rootDir>/jest.setup.js'],
};

module.exports = {
  testTimeout: 120000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: [
        '<rootDir>/src/**/*.test.ts',
        '<rootDir>/src/**/*.test.tsx',
        '<rootDir>/test/build/**/*.test.ts',
      ],
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
