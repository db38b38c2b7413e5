const fc = require('fast-check');

const manifest = require('./snap.manifest.json');

// The snap's build compiles the manifest's companion origins in (snap.config.ts); Node tests that
// import src/ get the same list from the same manifest.
process.env.COMPANION_ORIGINS =
  manifest.initialPermissions['endowment:keyring'].allowedOrigins.join(',');

// Property tests (fast-check) run with a fixed seed, so CI is repeatable; set FUZZ_SEED to another
// number to explore other cases, or FUZZ_SEED=random for a fresh one (printed on failure).
if (process.env.FUZZ_SEED !== 'random') {
  fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20261123) });
}
