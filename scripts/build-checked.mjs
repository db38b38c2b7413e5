/**
 * Build the snap and check that the committed snap.manifest.json was already up to date:
 * `node scripts/build-checked.mjs`. `mm-snap build` rewrites the manifest's shasum to match the
 * bundle it just built, so a test that compares the two after a build can never fail; this script
 * compares the manifest from before the build with the one after it instead.
 * With CI set (CI runs `npm test` on a clean clone), a stale manifest fails the run; on a developer's
 * machine the build has already fixed it, so it only says to commit the new one.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifestPath = path.join(root, 'snap.manifest.json');
const before = readFileSync(manifestPath, 'utf8');
const build = spawnSync('npm', ['run', 'build', '--silent'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) {
  process.exit(build.status ?? 1);
}
const after = readFileSync(manifestPath, 'utf8');
if (after !== before) {
  const message =
    'snap.manifest.json was stale (its shasum did not match the bundle); the build rewrote it: commit the new snap.manifest.json';
  if (process.env.CI) {
    console.error(`error: ${message}`);
    process.exit(1);
  }
  console.warn(`note: ${message}`);
}
