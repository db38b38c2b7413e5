/**
 * Run a command with TMPDIR set to a fresh temporary folder, and remove the folder afterwards:
 * `node scripts/with-tmpdir.mjs mm-snap build`. snaps-cli's SES evaluation check writes a
 * `snaps-*` folder under TMPDIR on every build and leaves it there.
 * Exits with the command's exit code; SIGINT/SIGTERM are passed on to it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-tmpdir.mjs <command> [args...]');
  process.exit(2);
}
const folder = mkdtempSync(path.join(tmpdir(), 'keyring-snap-tmp-'));
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: folder },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  rmSync(folder, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
child.on('error', (error) => {
  rmSync(folder, { recursive: true, force: true });
  console.error(error.message);
  process.exit(1);
});
