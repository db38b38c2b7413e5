/**
 * Per-suite jest times, slowest first: `npm run test:times [-- jest args]` runs jest with
 * `--json --outputFile` and prints one row per test file (seconds from the report's
 * `startTime`/`endTime`, the jest project, the number of tests, pass/fail), then the total.
 * `node scripts/test-times.mjs --report FILE` only prints the table of an existing report.
 * Other arguments go to jest (e.g. `-- --selectProjects unit`); the default is `--runInBand` over
 * all three projects, what `npm test` runs (without its lint/build/tsc pretest, so the snap project
 * needs a fresh `npm run build` first). docs/testing.md says what each suite starts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const resolveFrom = createRequire(import.meta.url);
const began = Date.now();
const args = process.argv.slice(2);
const reportAt = args.indexOf('--report');
let reportFile;
let tmp;
let status = 0;
if (reportAt === -1) {
  tmp = mkdtempSync(join(tmpdir(), 'test-times-'));
  reportFile = join(tmp, 'report.json');
  const jestArgs = args.length > 0 ? args : ['--runInBand'];
  const run = spawnSync(
    process.execPath,
    [
      resolveFrom.resolve('jest/bin/jest'),
      ...jestArgs,
      '--json',
      `--outputFile=${reportFile}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  status = run.status ?? 1;
} else {
  reportFile = args[reportAt + 1];
}

const report = JSON.parse(readFileSync(reportFile, 'utf8'));
if (tmp) {
  rmSync(tmp, { recursive: true, force: true });
}
/**
 * The jest project of a test file, from its path (jest.config.js: src/ unit, test/node/
 * integration, test/snap/ snap); the JSON report does not name it.
 *
 * @param {string} file - The test file, relative to the repository.
 * @returns {string} The project's name.
 */
function projectOf(file) {
  if (file.startsWith('test/node/')) {
    return 'integration';
  }
  return file.startsWith('test/snap/') ? 'snap' : 'unit';
}

const rows = report.testResults
  .map((suite) => ({
    file: relative(process.cwd(), suite.name),
    project: projectOf(relative(process.cwd(), suite.name)),
    seconds: (suite.endTime - suite.startTime) / 1000,
    tests: suite.assertionResults.length,
    status: suite.status,
  }))
  .sort((a, b) => b.seconds - a.seconds);

const width = Math.max(4, ...rows.map((row) => row.file.length));
console.log(
  `| ${'suite'.padEnd(width)} | project     | seconds | tests | status |`,
);
console.log(
  `|${'-'.repeat(width + 2)}|-------------|--------:|------:|--------|`,
);
for (const row of rows) {
  console.log(
    `| ${row.file.padEnd(width)} | ${row.project.padEnd(11)} | ${row.seconds.toFixed(1).padStart(7)} | ${String(row.tests).padStart(5)} | ${row.status.padEnd(6)} |`,
  );
}
const sum = rows.reduce((total, row) => total + row.seconds, 0);
const wall = (Date.now() - began) / 1000;
console.log(
  `\n${rows.length} suites, ${report.numPassedTests}/${report.numTotalTests} tests passed; sum of suite times ${sum.toFixed(1)} s${
    reportAt === -1 ? `, wall clock ${wall.toFixed(1)} s` : ''
  }`,
);
process.exitCode = status || (report.success ? 0 : 1);
