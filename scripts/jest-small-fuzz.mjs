/**
 * Runs jest with its arguments and generated (fast-check) tests scaled down: `FUZZ_SCALE` defaults
 * to 0.1 here (test/fixtures/fuzz.ts), unless already set. A script rather than `FUZZ_SCALE=0.1
 * jest` in package.json so that it works in every shell, Windows' included. `npm test` and CI do
 * not use it: they run every generated test at full size.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const resolveFrom = createRequire(import.meta.url);
const jest = resolveFrom.resolve('jest/bin/jest');
const run = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SCALE: process.env.FUZZ_SCALE || '0.1' },
});
process.exitCode = run.status ?? 1;
