const fc = require('fast-check');

const manifest = require('./snap.manifest.json');
// eslint-disable-next-line import-x/no-unresolved -- a TypeScript module; jest's transform compiles it
const { fuzzRuns } = require('./test/fixtures/fuzz');

// The snap's build compiles the manifest's companion origins in (snap.config.ts); Node tests that
// import src/ get the same list from the same manifest.
process.env.COMPANION_ORIGINS =
  manifest.initialPermissions['endowment:keyring'].allowedOrigins.join(',');

// Property tests (fast-check) run with a fixed seed, so CI is repeatable; set FUZZ_SEED to another
// number to explore other cases, or FUZZ_SEED=random for a fresh one (printed on failure).
// FUZZ_SCALE (test/fixtures/fuzz.ts) scales fast-check's default of 100 runs; suites that pass
// their own numRuns scale it with fuzzRuns().
fc.configureGlobal({
  numRuns: fuzzRuns(100),
  ...(process.env.FUZZ_SEED === 'random'
    ? {}
    : { seed: Number(process.env.FUZZ_SEED ?? 20261123) }),
});
