/**
 * `npm start`: rebuild the snap on every change (`mm-snap watch`, whose own server is disabled in
 * snap.config.ts because it listens on every interface) and serve the project folder on 127.0.0.1
 * with scripts/serve.ts, as `npm run serve` does. Ctrl-C stops both; if either exits, so does the other.
 */
import { spawn } from 'node:child_process';

const children = [
  spawn('node', ['scripts/with-tmpdir.mjs', 'mm-snap', 'watch'], {
    stdio: 'inherit',
  }),
  spawn(
    'node',
    ['--import', 'tsx', 'scripts/serve.ts', ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  ),
];
let stopping = false;
/**
 * Stop every child that still runs, then exit.
 *
 * @param {number} code - The exit code.
 */
function stopAll(code) {
  if (!stopping) {
    stopping = true;
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
      }
    }
  }
  process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => stopAll(0));
}
for (const child of children) {
  child.on('exit', (code) => stopAll(code ?? 1));
}
