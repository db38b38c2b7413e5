import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { BenchTarget } from './coldstart';
import { formatMs, summarize } from './stats';
import type { Summary } from './stats';

const ROOT = path.join(__dirname, '../..');

/**
 * One fresh worker thread: SES lockdown with the snaps execution environment's options, then
 * the bundle evaluated once in a new Compartment (its top-level code runs: module bodies that
 * are not deferred behind a `require` inside a function). Posts the wall time of `evaluate`.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.ses);
lockdown({ consoleTaming: 'unsafe', errorTaming: 'unsafe', overrideTaming: 'severe' });
const source = require('node:fs').readFileSync(workerData.bundle, 'utf8');
const module = { exports: {} };
const compartment = new Compartment({ module, exports: module.exports, console, crypto: globalThis.crypto, TextEncoder, TextDecoder, setTimeout, clearTimeout, Date, Math, atob, btoa });
const started = performance.now();
compartment.evaluate(source);
parentPort.postMessage(performance.now() - started);
`;

/**
 * Evaluate a bundle once in a fresh locked-down worker.
 *
 * @param bundle - The bundle's path.
 * @param ses - The path of SES's lockdown module.
 * @returns `Compartment.evaluate`'s wall time, ms.
 */
async function evaluateOnce(bundle: string, ses: string): Promise<number> {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { bundle, ses },
    stderr: true,
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`evaluation worker exited with ${code}`)),
      );
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * The bundle file a snap's manifest names.
 *
 * @param root - The snap's folder (snap.manifest.json inside).
 * @returns The bundle's path.
 */
export function bundleOf(root: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'snap.manifest.json'), 'utf8'),
  ) as { source: { location: { npm: { filePath: string } } } };
  return path.join(root, manifest.source.location.npm.filePath);
}

/**
 * Evaluation time of each bundle in SES, each sample in a fresh worker (so the bundle is parsed
 * and compiled anew, as at a snap's start). Targets alternate sample by sample.
 *
 * @param targets - Snaps to compare.
 * @param runs - Recorded samples per target.
 * @param warmup - Unrecorded rounds first.
 * @returns Medians per target (ms), also printed.
 */
export async function benchEvaluate(
  targets: BenchTarget[],
  runs = 20,
  warmup = 2,
): Promise<{ label: string; evaluate: Summary }[]> {
  const ses = require.resolve('ses', {
    paths: [require.resolve('@metamask/snaps-simulation')],
  });
  const samples = targets.map(() => [] as number[]);
  for (let round = 0; round < warmup + runs; round += 1) {
    for (const [index, target] of targets.entries()) {
      const ms = await evaluateOnce(bundleOf(target.root ?? ROOT), ses);
      if (round >= warmup) {
        samples[index].push(ms);
      }
    }
  }
  const results = targets.map((target, index) => ({
    label: target.label,
    evaluate: summarize(samples[index]),
  }));
  console.log(
    `\n## Bundle evaluation in SES (lockdown as in the snaps execution environment; a fresh worker per sample; medians of ${runs} after ${warmup} warm-up)`,
  );
  for (const result of results) {
    console.log(
      `${result.label.padEnd(14)} Compartment.evaluate ${formatMs(result.evaluate)}`,
    );
  }
  return results;
}
