import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { benchActivity } from './bench/activity';
import { benchChain } from './bench/chain';
import { benchColdStart } from './bench/coldstart';
import type { BenchTarget } from './bench/coldstart';
import { benchErc4337 } from './bench/erc4337';
import { benchEvaluate } from './bench/evaluate';
import { benchGasToken } from './bench/gasToken';
import { benchLatency } from './bench/latency';
import { benchPermissions } from './bench/permissions';
import { benchRecovery } from './bench/recovery';
import { benchSend } from './bench/send';
import { benchSesLatency } from './bench/ses-latency';
import { BUNDLE_STATS_FILE, benchSize } from './bench/size';

const ROOT = path.join(__dirname, '..');
const RESULTS = path.join(ROOT, 'bench/results.json');

/**
 * Read the command line.
 *
 * @param argv - The arguments after the script's name.
 * @returns `anchor`: with `--anchor <folder>`, a built reference keyring snap's folder
 * (snap.manifest.json, its bundle, package.json), resolved.
 * @throws If `--anchor` has no folder after it.
 */
function parseArgs(argv: string[]): {
  anchor?: string;
  only?: 'logs' | 'recovery' | 'send' | 'activity' | 'gasToken' | 'permissions';
} {
  const only = argv.indexOf('--only');
  if (only !== -1) {
    const section = argv[only + 1];
    if (
      section !== 'logs' &&
      section !== 'recovery' &&
      section !== 'send' &&
      section !== 'activity' &&
      section !== 'gasToken' &&
      section !== 'permissions'
    ) {
      throw new Error(
        '--only takes `logs` (the getLogs section alone), `recovery` (Find my accounts, on the built bundle), `send` (sendUserOperation per EntryPoint version, on the built bundle), `activity` (the Activity list, on the built bundle) `gasToken` (a token-paid send beside a self-paid one, on the built bundle) or `permissions` (ERC-7715 grant round trips and redemption gas, on the built bundle)',
      );
    }
    return { only: section };
  }
  const index = argv.indexOf('--anchor');
  if (index === -1) {
    return {};
  }
  const folder = argv[index + 1];
  if (!folder) {
    throw new Error(
      '--anchor needs a folder: a built snap with snap.manifest.json, its bundle and package.json',
    );
  }
  return { anchor: path.resolve(folder) };
}

/**
 * An installed package's version.
 *
 * @param name - The package.
 * @param from - The project whose node_modules holds it.
 * @returns Its version, or `?` when not installed.
 */
function version(name: string, from = ROOT): string {
  try {
    return (
      JSON.parse(
        readFileSync(
          path.join(from, 'node_modules', name, 'package.json'),
          'utf8',
        ),
      ) as { version: string }
    ).version;
  } catch {
    return '?';
  }
}

/**
 * A snap's package name and version.
 *
 * @param folder - The snap's folder.
 * @returns From its package.json.
 */
function describeSnap(folder: string): { name: string; version: string } {
  const pkg = JSON.parse(
    readFileSync(path.join(folder, 'package.json'), 'utf8'),
  ) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/**
 * Build dist/bundle.js with `npm run build`, having it also write webpack-bundle-analyzer's
 * report (snap.config.ts, `SNAP_BUNDLE_STATS`) for the largest-packages table.
 *
 * @throws If the build fails.
 */
function buildWithReport(): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, SNAP_BUNDLE_STATS: BUNDLE_STATS_FILE },
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) {
    throw new Error(`npm run build failed (exit ${String(build.status)})`);
  }
}

/**
 * `npm run bench [-- --anchor <folder>]` (or `npm run bench -- --only logs` for the getLogs
 * section alone, about a minute; `-- --only recovery` for Find my accounts alone, on the bundle
 * as built): build figures, printed and written to bench/results.json
 * with the machine and versions. Sections: bundle size and its largest packages; evaluation of
 * the bundle in SES; cold start; signing latency through the simulation beside the floor and the
 * libraries alone (and beside the anchor snap when given); the snap's own work per request in SES
 * without the simulation; the chain adapter's getLogs; ERC-4337 prepare round trips and
 * signUserOperation latency; sendUserOperation's round trips and calls per EntryPoint version
 * (v0.6, v0.7, v0.8: chain and bundler, deploying and deployed); Find my accounts' round trips and calls for 2 kinds × 40 indices. Medians after warm-up; nothing here is a test.
 */
async function main(): Promise<void> {
  const { anchor, only } = parseArgs(process.argv.slice(2));
  if (only === 'logs') {
    // `npm run bench -- --only logs`: the getLogs section alone, written into bench/results.json's `chain`.
    const chain = await benchChain();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, chain }, null, 2)}\n`,
    );
    console.log(`\nchain section written to ${path.relative(ROOT, RESULTS)}`);
    return;
  }
  if (only === 'permissions') {
    // `npm run bench -- --only permissions`: ERC-7715 grants and their redemption, on the bundle as built.
    const permissions = await benchPermissions();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, permissions }, null, 2)}\n`,
    );
    console.log(
      `\npermissions section written to ${path.relative(ROOT, RESULTS)}`,
    );
    return;
  }
  if (only === 'gasToken') {
    // `npm run bench -- --only gasToken`: a token-paid send beside a self-paid one, on the bundle as built.
    const gasToken = await benchGasToken();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, gasToken }, null, 2)}\n`,
    );
    console.log(
      `\ngasToken section written to ${path.relative(ROOT, RESULTS)}`,
    );
    return;
  }
  if (only === 'send') {
    // `npm run bench -- --only send`: sendUserOperation per EntryPoint version, on the bundle as built.
    const send = await benchSend();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, send }, null, 2)}\n`,
    );
    console.log(`\nsend section written to ${path.relative(ROOT, RESULTS)}`);
    return;
  }
  if (only === 'activity') {
    // `npm run bench -- --only activity`: the Activity list alone, on the bundle as built.
    const activity = await benchActivity();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, activity }, null, 2)}\n`,
    );
    console.log(
      `\nactivity section written to ${path.relative(ROOT, RESULTS)}`,
    );
    return;
  }
  if (only === 'recovery') {
    // `npm run bench -- --only recovery`: Find my accounts alone, on the bundle as built.
    const recovery = await benchRecovery();
    const previous = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...previous, recovery }, null, 2)}\n`,
    );
    console.log(
      `\nrecovery section written to ${path.relative(ROOT, RESULTS)}`,
    );
    return;
  }
  buildWithReport();
  const started = new Date();
  const targets: BenchTarget[] = [
    { label: 'this snap' },
    ...(anchor
      ? [
          {
            label: `${describeSnap(anchor).name}@${describeSnap(anchor).version}`,
            root: anchor,
          },
        ]
      : []),
  ];
  const results: Record<string, unknown> = {
    date: started.toISOString(),
    machine: {
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpu: os.cpus()[0]?.model ?? '?',
      cores: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverageAtStart: os
        .loadavg()
        .map((value) => Math.round(value * 100) / 100),
      node: process.version,
    },
    versions: {
      snap: describeSnap(ROOT),
      anchor: anchor ? describeSnap(anchor) : null,
      ...Object.fromEntries(
        [
          '@metamask/snaps-cli',
          '@metamask/snaps-simulation',
          '@metamask/keyring-api',
          '@metamask/keyring-snap-sdk',
          '@metamask/eth-sig-util',
          '@ethereumjs/tx',
          'viem',
          'webpack',
          'ses',
        ].map((name) => [name, version(name)]),
      ),
    },
  };
  results.size = await benchSize(anchor);
  results.evaluation = await benchEvaluate(targets);
  results.coldStart = await benchColdStart(targets);
  results.latency = await benchLatency(targets);
  results.sesLatency = await benchSesLatency(targets);
  results.chain = await benchChain();
  results.erc4337 = await benchErc4337();
  results.send = await benchSend();
  results.gasToken = await benchGasToken();
  results.permissions = await benchPermissions();
  results.recovery = await benchRecovery();
  results.activity = await benchActivity();
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\nwritten to ${path.relative(ROOT, RESULTS)} (${Math.round((Date.now() - started.getTime()) / 1000)} s)`,
  );
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
