/**
 * What `npm test` runs before jest (`pretest`): the lint steps of `npm run lint`, the checked build
 * (scripts/build-checked.mjs) and `tsc --noEmit`, in two lanes that run at the same time. Each lane
 * runs its steps in order and stops at the first that fails. ESLint is a lane of its own because
 * it is the longest step (typed rules over the whole tree); the other lane builds first, so that a
 * stale snap.manifest.json fails fast, then type-checks and runs the shorter lint steps.
 *
 * The lanes share no output file: the build writes dist/ and snap.manifest.json, which ESLint
 * and Prettier ignore (eslint.config.mjs, .prettierignore). Each step's output is held and
 * printed whole when the step ends, so the two lanes never interleave lines. When a step fails,
 * the other lane is stopped (its process group is signalled) and this script exits with the
 * failing step's code. Run `npm run lint` for the same lint steps one after another.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm puts node_modules/.bin on PATH for its scripts; this does the same when the script is run
// directly (`node scripts/pretest.mjs`).
const env = {
  ...process.env,
  PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
};

/**
 * One step: a label and a command line, run through the shell from the project root with
 * `node_modules/.bin` on PATH.
 *
 * @typedef {{ label: string, command: string }} Step
 */

/** @type {Step[][]} */
const LANES = [
  [{ label: 'eslint', command: 'eslint .' }],
  [
    { label: 'build', command: 'node scripts/build-checked.mjs' },
    { label: 'tsc', command: 'tsc --noEmit' },
    { label: 'prettier', command: 'prettier --check .' },
    { label: 'layers', command: 'node .dependency-cruiser.cjs' },
    { label: 'knip', command: 'knip --no-progress' },
    { label: 'changelog', command: 'auto-changelog validate' },
  ],
];

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
let failed = false;
let firstFailure = 0;

/**
 * Run one step and print its output when it ends.
 *
 * @param {Step} step - The step to run.
 * @returns {Promise<number>} The exit code (1 when it was ended by a signal).
 */
async function runStep(step) {
  const began = Date.now();
  const child = spawn(step.command, {
    shell: true,
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const chunks = [];
  child.stdout.on('data', (chunk) => chunks.push(chunk));
  child.stderr.on('data', (chunk) => chunks.push(chunk));
  const code = await new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  running.delete(child);
  const output = Buffer.concat(chunks).toString('utf8').trimEnd();
  const seconds = ((Date.now() - began) / 1000).toFixed(1);
  if (!(failed && code !== 0)) {
    process.stdout.write(
      `> ${step.label} (${step.command}): ${code === 0 ? 'ok' : `exit ${code}`}, ${seconds} s\n${output ? `${output}\n` : ''}`,
    );
  }
  return code;
}

/**
 * Run a lane's steps in order; on a failure, stop the other lane.
 *
 * @param {Step[]} lane - The steps.
 * @returns {Promise<void>} When the lane has ended or was stopped.
 */
async function runLane(lane) {
  for (const step of lane) {
    if (failed) {
      return;
    }
    const code = await runStep(step);
    if (code !== 0) {
      if (!failed) {
        failed = true;
        firstFailure = code;
        for (const child of running) {
          try {
            process.kill(-child.pid, 'SIGTERM');
          } catch {
            // Already gone.
          }
        }
      }
      return;
    }
  }
}

await Promise.all(LANES.map(runLane));
process.exitCode = firstFailure;
