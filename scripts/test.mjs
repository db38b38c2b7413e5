/**
 * `npm test` after its `pretest` (scripts/build-checked.mjs: the build, failing at once on a stale
 * snap.manifest.json): jest over all three projects, the lint steps of `npm run lint` and
 * the type-check (`tsgo --noEmit`), in lanes that run at the same time. Each lane runs its steps in order and stops
 * at the first that fails. Jest's own output is shown as it comes; every other step's output is
 * held and printed whole when the step ends, so lanes never interleave lines. A failed step ends
 * its lane; the other lanes run to their end (a stopped jest would leave its suites' servers
 * running), then a summary lists every step, and this script exits with the first failing step's
 * code. Ctrl-C reaches every step, as they share this script's process group. Arguments go to
 * jest (`npm test -- --maxWorkers=1`).
 *
 * Why lanes: the suites that start anvil, Alto or an IPFS node spend much of their time waiting on
 * those servers and on injected delays, leaving CPU idle. The lint and type-check lanes run at the
 * lowest priority (`nice -n 19`; not on Windows), so they take that idle CPU without slowing jest,
 * then both cores once jest has ended (docs/testing.md, "Lanes"). The lanes share no output file: the build that wrote dist/ and snap.manifest.json has ended, and ESLint
 * and Prettier ignore both (eslint.config.mjs, .prettierignore). `npm run lint` runs the same lint
 * steps one after another.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm puts node_modules/.bin on PATH for its scripts; this does the same when the script is run
// directly (`node scripts/test.mjs`). Windows spells the variable `Path`: the existing key is kept.
const pathKey =
  Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ??
  'PATH';
const env = {
  ...process.env,
  [pathKey]: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env[pathKey] ?? ''}`,
};

/**
 * One step: a label and a command line, run through the shell from the project root with
 * `node_modules/.bin` on PATH; `live` shows its output as it comes instead of when it ends;
 * `nodeOptions` are added to NODE_OPTIONS for that step.
 *
 * @typedef {{ label: string, command: string, live?: boolean, nodeOptions?: string }} Step
 */

const jestArgs = process.argv.slice(2);

/** @type {Step[][]} */
const LANES = [
  [
    {
      label: 'jest',
      command: [
        'jest',
        ...(jestArgs.length > 0 ? jestArgs : ['--maxWorkers=2']),
      ]
        .map((arg) => JSON.stringify(arg))
        .join(' '),
      live: true,
      // The same for jest and its workers: 9 % less CPU for the integration and snap projects in
      // two paired runs (docs/testing.md, "Lanes").
      nodeOptions: '--max-semi-space-size=64',
    },
  ],
  [
    // A larger young generation: typed linting allocates heavily, and with 64 MiB semi-spaces
    // ESLint spends 8 % less CPU here (docs/testing.md, "Lanes").
    {
      label: 'eslint',
      command: 'eslint .',
      nodeOptions: '--max-semi-space-size=64',
    },
  ],
  [
    { label: 'tsgo', command: 'tsgo --noEmit' },
    { label: 'prettier', command: 'prettier --check .' },
    { label: 'layers', command: 'node .dependency-cruiser.cjs' },
    { label: 'knip', command: 'knip --no-progress' },
    { label: 'changelog', command: 'auto-changelog validate' },
  ],
];

/** @type {{ step: Step, code: number, seconds: string }[]} */
const results = [];

/**
 * Run one step; print its held output when it ends.
 *
 * @param {Step} step - The step to run.
 * @returns {Promise<number>} The exit code (1 when it was ended by a signal or could not start).
 */
async function runStep(step) {
  const began = Date.now();
  // The steps beside jest yield the CPU to it (`nice`, where there is one): they fill the time
  // jest's suites spend waiting instead of slowing the suites down (docs/testing.md, "Lanes").
  const command =
    step.live || process.platform === 'win32'
      ? step.command
      : `nice -n 19 ${step.command}`;
  const child = spawn(command, {
    shell: true,
    cwd: root,
    env: step.nodeOptions
      ? {
          ...env,
          NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} ${step.nodeOptions}`.trim(),
        }
      : env,
    stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  const chunks = [];
  child.stdout?.on('data', (chunk) => chunks.push(chunk));
  child.stderr?.on('data', (chunk) => chunks.push(chunk));
  const code = await new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  const output = Buffer.concat(chunks).toString('utf8').trimEnd();
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  results.push({ step, code, seconds });
  if (!step.live) {
    process.stdout.write(
      `> ${step.label}: ${code === 0 ? 'ok' : `failed (exit ${code})`}, ${seconds} s\n${output ? `${output}\n` : ''}`,
    );
  }
  return code;
}

/**
 * Run a lane's steps in order, up to the first that fails.
 *
 * @param {Step[]} lane - The steps.
 * @returns {Promise<void>} When the lane has ended.
 */
async function runLane(lane) {
  for (const step of lane) {
    if ((await runStep(step)) !== 0) {
      return;
    }
  }
}

await Promise.all(LANES.map(runLane));
process.stdout.write(
  `\n${results.map(({ step, code, seconds }) => `${code === 0 ? 'ok    ' : 'FAILED'} ${step.label} (${seconds} s)`).join('\n')}\n`,
);
process.exitCode = results.find(({ code }) => code !== 0)?.code ?? 0;
