/**
 * The published package: `npm pack` holds exactly what MetaMask installs from npm (the bundle, the
 * icon, the manifest) plus README, LICENSE and package.json; and the manifest's shasum matches the
 * built bundle (`mm-snap manifest` refuses a stale one). Run after the build (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');

/** What `npm pack --json` reports of one package. */
type NpmPackReport = {
  /** The files packed. */
  files: {
    /** The path inside the package. */
    path: string;
  }[];
};

describe('package', () => {
  it('npm pack holds exactly dist/bundle.js, images, the manifest, README, LICENSE and package.json', () => {
    const result = spawnSync(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(0);
    const [pack] = JSON.parse(result.stdout) as [NpmPackReport];
    expect(pack.files.map((file) => file.path).sort()).toStrictEqual([
      'LICENSE',
      'README.md',
      'dist/bundle.js',
      'images/icon.svg',
      'package.json',
      'snap.manifest.json',
    ]);
  });

  it('the manifest shasum matches the built bundle', () => {
    const result = spawnSync(
      'node',
      ['scripts/with-tmpdir.mjs', 'npx', 'mm-snap', 'manifest'],
      { cwd: ROOT, encoding: 'utf8', timeout: 120_000 },
    );
    expect(`${result.stdout}${result.stderr}`).toContain(
      'The Snap manifest file is valid',
    );
    expect(result.status).toBe(0);
  });
});
