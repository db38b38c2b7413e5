/**
 * StrykerJS (https://stryker-mutator.io) for `npm run test:mutation` (scripts/mutation.mjs), one
 * module per run: `STRYKER_MODULE=<name>` picks a row of MODULES (unset: all of them in one run).
 * The jest runner runs the `unit` project's settings of jest.config.js as one flat config
 * (Stryker's per-test coverage needs its own test environment, which a multi-project config would
 * not use) over the module's own test files. `coverageAnalysis: perTest` runs only the tests that
 * reach a mutant; `thresholds.break` fails the run below the module's goal. Stryker 10 needs
 * Node >= 22: scripts/mutation.mjs starts it through scripts/node24.mjs.
 */
import { createRequire } from 'node:module';

const jestConfig = createRequire(import.meta.url)('../jest.config');

/**
 * The modules under mutation: the source file, the lowest mutation score accepted (percent), and
 * the test files run against its mutants: the unit suites that test it (a new `<module>.*.test.ts`
 * beside it is picked up), and for settings its `integration` suite (which starts no server). Not
 * the whole unit project: on the shared 2-core machine its dry run alone outlasted Stryker's
 * 5-minute limit, and suites that only pass through a module kill little of it.
 *
 * @type {Record<string, { file: string, goal: number, tests: string[] }>}
 */
export const MODULES = {
  typedData: {
    file: 'src/accounts/typedData.ts',
    goal: 90,
    tests: ['src/accounts/typedData*.test.ts'],
  },
  callData: {
    file: 'src/accounts/callData.ts',
    goal: 90,
    tests: [
      'src/accounts/callData*.test.ts',
      'src/ui/dialogs/sendConfirmation.test.tsx',
      'src/keyring/requestSummary.test.ts',
    ],
  },
  secrets: {
    file: 'src/utils/secrets.ts',
    goal: 90,
    tests: ['src/utils/secrets*.test.ts'],
  },
  mask: {
    file: 'src/chain/mask.ts',
    goal: 90,
    tests: ['src/chain/mask*.test.ts', 'src/chain/helpers.test.ts'],
  },
  keys: {
    file: 'src/keyring/keys.ts',
    goal: 90,
    tests: ['src/keyring/keys*.test.ts', 'src/keyring/keyUniqueness.test.ts'],
  },
  consent: {
    file: 'src/consent.ts',
    goal: 90,
    tests: ['src/consent*.test.ts', 'src/ui/dialogs/consent.test.tsx'],
  },
  state: {
    file: 'src/state/store.ts',
    goal: 90,
    tests: ['src/state/*.test.ts'],
  },
  settings: {
    file: 'src/settings.ts',
    goal: 80,
    tests: [
      'src/settings*.test.ts',
      'src/metadata.test.ts',
      'test/node/settings.test.ts',
    ],
  },
};

// Unset (`npx stryker run` by hand): every module in one run, failing below the lowest goal.
const name = process.env.STRYKER_MODULE;
if (name !== undefined && !Object.hasOwn(MODULES, name)) {
  throw new Error(
    `STRYKER_MODULE must name one of ${Object.keys(MODULES).join(', ')}`,
  );
}
const chosen = name === undefined ? Object.values(MODULES) : [MODULES[name]];
const goal = Math.min(...chosen.map((row) => row.goal));
const report = `reports/mutation/${name ?? 'all'}`;
const unit = jestConfig.projects.find(
  (project) => project.displayName === 'unit',
);

/** Stryker's options (https://stryker-mutator.io/docs/stryker-js/configuration/). */
const config = {
  testRunner: 'jest',
  plugins: ['@stryker-mutator/jest-runner'],
  mutate: chosen.map((row) => row.file),
  coverageAnalysis: 'perTest',
  concurrency: 1,
  jest: {
    projectType: 'custom',
    enableFindRelatedTests: false,
    config: {
      ...unit,
      displayName: undefined,
      projects: undefined,
      testTimeout: jestConfig.testTimeout,
      testMatch: chosen.flatMap((row) =>
        row.tests.map((glob) => `<rootDir>/${glob}`),
      ),
    },
  },
  thresholds: { high: goal, low: goal, break: goal },
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `${report}.json` },
  // `npm run test:mutation -- --incremental`: scripts/mutation.mjs copies the last JSON report
  // (the same schema) to this base first. Not the JSON reporter's own file: Stryker writes both at
  // once, without waiting for either, and two writes to one file leave it corrupt.
  incremental: process.env.STRYKER_INCREMENTAL === '1',
  incrementalFile: `${report}.incremental.json`,
  htmlReporter: { fileName: `${report}.html` },
  tempDirName: '.stryker-tmp',
  ignorePatterns: [
    'dist',
    'dev',
    'coverage',
    'reports',
    'bench',
    'images',
    '.stryker-tmp',
  ],
  // generous: on the shared machine a busy minute made healthy runs of 10 s time out (counted as
  // detected); a mutant that really loops still ends, a minute later
  timeoutMS: 60000,
  dryRunTimeoutMinutes: 30,
};

export default config;
