/**
 * `npm run test:mutation [-- <module> ...]`: StrykerJS on the modules of scripts/stryker.config.mjs
 * (MODULES; all of them when none is named), one module after another, each run failing below its
 * goal (`thresholds.break`). Stryker 10 needs Node >= 22, so it is started through
 * scripts/node24.mjs (the pinned Node 24, fetched and checked on first use); at the lowest
 * priority but one (`nice -n 10`, not on Windows), with one test runner (`concurrency: 1`).
 * Generated tests run at a tenth of their size (`FUZZ_SCALE=0.1`, test/fixtures/fuzz.ts) unless
 * FUZZ_SCALE is set: every mutant reruns the tests that reach it. Reports: reports/mutation/<module>.{json,html}.
 * `--incremental` (`npm run test:mutation -- --incremental mask`): Stryker's incremental mode, with
 * the module's last JSON report as its base (copied to reports/mutation/<module>.incremental.json):
 * only mutants whose code or covering tests changed since that report are run again, the others
 * keep their status (the dry run always runs). Mutants that timed out in the base are dropped from
 * it first, so they are run again (on a busy machine a healthy run can time out, and a timeout
 * counts as detected), and so are static mutants that were not killed (they have no per-test
 * coverage, so no new test would make Stryker run them again).
 * Prints a table of the scores, and exits 1 when any module is below its goal or did not run.
 * Not part of `npm test` or `.ci/run` (minutes per module; docs/testing.md, "Mutation testing").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MODULES } from './stryker.config.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const badFlags = flags.filter((flag) => flag !== '--incremental');
if (badFlags.length > 0) {
  console.error(`unknown option ${badFlags.join(', ')}; known: --incremental`);
  process.exit(2);
}
const incremental = flags.includes('--incremental');
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

/**
 * Whether an incremental run must test a mutant of the base again: one that timed out (on a busy
 * machine a healthy run can), and a static one that was not killed. A static mutant (in code run
 * once, when the module loads) has no per-test coverage, so Stryker's incremental mode finds no
 * new test for it and would keep its old "Survived" however the tests changed.
 *
 * @param {{ status: string, static?: boolean }} mutant - A mutant of the report.
 * @returns {boolean} True to run it again.
 */
const staleInBase = ({ status, static: isStatic }) =>
  status === 'Timeout' || (isStatic === true && status !== 'Killed');

/**
 * Write the base of an incremental run: the module's last JSON report without the mutants
 * {@link staleInBase} names.
 *
 * @param {string} report - The last JSON report (no base is written when it is absent).
 * @param {string} base - Stryker's `incrementalFile`.
 * @returns {number} How many mutants are left out, to be tested again.
 */
function writeBase(report, base) {
  if (!existsSync(report)) {
    rmSync(base, { force: true });
    return 0;
  }
  const parsed = JSON.parse(readFileSync(report, 'utf8'));
  let dropped = 0;
  for (const entry of Object.values(parsed.files)) {
    const kept = entry.mutants.filter((mutant) => !staleInBase(mutant));
    dropped += entry.mutants.length - kept.length;
    entry.mutants = kept;
  }
  writeFileSync(base, JSON.stringify(parsed));
  return dropped;
}

const rows = [];
for (const name of names) {
  const { file, goal } = MODULES[name];
  const report = path.join(root, 'reports', 'mutation', `${name}.json`);
  if (incremental) {
    const base = path.join(
      root,
      'reports',
      'mutation',
      `${name}.incremental.json`,
    );
    const dropped = writeBase(report, base);
    if (dropped > 0) {
      console.log(
        `${name}: ${dropped} timed-out or static unkilled mutant(s) of the base run again`,
      );
    }
  }
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
  console.log(
    `\n== ${name}: ${file} (goal ${goal} %)${incremental ? ', incremental' : ''}`,
  );
  const run = spawnSync(file0, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      STRYKER_MODULE: name,
      STRYKER_INCREMENTAL: incremental ? '1' : '',
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
