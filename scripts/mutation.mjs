/**
 * `npm run test:mutation [-- <module> ...]`: StrykerJS on the modules of scripts/stryker.config.mjs
 * (MODULES; all of them when none is named), one module after another, each run failing below its
 * goal (`thresholds.break`). Stryker 10 needs Node >= 22, so it is started through
 * scripts/node24.mjs (the pinned Node 24, fetched and checked on first use); at the lowest
 * priority but one (`nice -n 10`, not on Windows), with one test runner (`concurrency: 1`).
 * Generated tests run at a tenth of their size (`FUZZ_SCALE=0.1`, test/fixtures/fuzz.ts) unless
 * FUZZ_SCALE is set: every mutant reruns the tests that reach it. Reports: reports/mutation/<module>.{json,html}.
 * Prints a table of the scores, and exits 1 when any module is below its goal or did not run.
 * Not part of `npm test` or `.ci/run` (minutes per module; docs/testing.md, "Mutation testing").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MODULES } from './stryker.config.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !Object.hasOwn(MODULES, name));
if (unknown.length > 0) {
  console.error(
    `unknown module ${unknown.join(', ')}; known: ${Object.keys(MODULES).join(', ')}`,
  );
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(MODULES);

/**
 * The counts and score of one module's JSON report (mutation-testing-report-schema): the score is
 * (killed + timeout) / (killed + timeout + survived + no coverage), as Stryker computes it.
 *
 * @param {string} file - The report.
 * @returns {{ Killed: number, Timeout: number, Survived: number, NoCoverage: number, other: number, score: number } | undefined} The counts and the score in percent, or undefined when there is no report.
 */
function scoreOf(file) {
  if (!existsSync(file)) {
    return undefined;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const { mutants } of Object.values(report.files)) {
    for (const { status } of mutants) {
      count[Object.hasOwn(count, status) ? status : 'other'] += 1;
    }
  }
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  return { ...count, score: valid === 0 ? 0 : (100 * detected) / valid };
}

const rows = [];
for (const name of names) {
  const { file, goal } = MODULES[name];
  const report = path.join(root, 'reports', 'mutation', `${name}.json`);
  const began = Date.now();
  const command = [
    process.execPath,
    path.join(root, 'scripts', 'node24.mjs'),
    'stryker',
    'run',
    path.join('scripts', 'stryker.config.mjs'),
  ];
  const [file0, ...args] =
    process.platform === 'win32' ? command : ['nice', '-n', '10', ...command];
  console.log(`\n== ${name}: ${file} (goal ${goal} %)`);
  const run = spawnSync(file0, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      STRYKER_MODULE: name,
      FUZZ_SCALE: process.env.FUZZ_SCALE || '0.1',
    },
  });
  const minutes = ((Date.now() - began) / 60000).toFixed(1);
  const result = run.status === null ? undefined : scoreOf(report);
  rows.push({ name, file, goal, minutes, code: run.status, result });
}

console.log(
  '\n| module | score | goal | killed | timeout | survived | no coverage | minutes |',
);
console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
for (const { name, file, goal, minutes, code, result } of rows) {
  console.log(
    result
      ? `| \`${file}\` | ${result.score.toFixed(1)} % | ${goal} % | ${result.Killed} | ${result.Timeout} | ${result.Survived} | ${result.NoCoverage} | ${minutes} |${code === 0 ? '' : ' FAILED'}`
      : `| \`${file}\` (${name}) | no report | ${goal} % | | | | | ${minutes} | FAILED (exit ${code})`,
  );
}
process.exitCode = rows.every(({ code }) => code === 0) ? 0 : 1;
