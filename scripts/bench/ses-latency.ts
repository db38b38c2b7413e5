import path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { BenchTarget } from './coldstart';
import { bundleOf } from './evaluate';
import { TYPED_DATA } from './latency';
import { formatMs, summarize } from './stats';
import type { Summary } from './stats';
import { companionOrigin } from '../lib/snap-sim';

const ROOT = path.join(__dirname, '../..');

/**
 * A worker thread: SES lockdown as in the snaps execution environment, each bundle in its own
 * Compartment with an in-memory `snap.request` (snap_manageState, snap_manageAccounts), then
 * `onKeyringRequest` called directly: no simulation, no JSON-RPC streams. The snaps alternate
 * call by call. Posts the samples (ms) per snap and operation.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.ses);
lockdown({ consoleTaming: 'unsafe', errorTaming: 'unsafe', overrideTaming: 'severe' });
const fs = require('node:fs');
const { key, address, typedData, runs, warmup } = workerData;
function load({ bundle, origin }) {
  let state = null;
  const snap = { request: async ({ method, params }) => {
    if (method === 'snap_manageState') { if (params.operation === 'get') return state; state = params.newState; return null; }
    if (method === 'snap_manageAccounts') return null;
    throw new Error('not provided here: ' + method);
  } };
  const module = { exports: {} };
  new Compartment({ module, exports: module.exports, console, snap, crypto: globalThis.crypto, TextEncoder, TextDecoder, setTimeout, clearTimeout, Date, Math, atob, btoa })
    .evaluate(fs.readFileSync(bundle, 'utf8'));
  const handler = module.exports.onKeyringRequest;
  let count = 0;
  let account;
  const call = (method, params, from) => handler({ origin: from, request: { jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) } });
  const submit = (method, params) => {
    count += 1;
    const id = 'c0000000-0000-4000-8000-' + String(count).padStart(12, '0');
    return call('keyring_submitRequest', { id, scope: 'eip155:1', account: account.id, origin: 'https://dapp.example', request: { method, params } }, 'metamask');
  };
  return {
    init: async () => { account = await call('keyring_createAccount', { options: { privateKey: key } }, origin); },
    ops: {
      keyring_listAccounts: () => call('keyring_listAccounts', undefined, 'metamask'),
      personal_sign: () => submit('personal_sign', ['0x48656c6c6f2c20776f726c6421', address]),
      eth_signTypedData_v4: () => submit('eth_signTypedData_v4', [address, typedData]),
      eth_signTransaction: () => submit('eth_signTransaction', [{ from: address, to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0xde0b6b3a7640000', gasLimit: '0x5208', maxFeePerGas: '0x4a817c800', maxPriorityFeePerGas: '0x3b9aca00', nonce: '0x0', chainId: '0x1', type: '0x2', data: '0x', accessList: [] }]),
    },
  };
}
(async () => {
  const snaps = workerData.snaps.map(load);
  for (const snap of snaps) await snap.init();
  const samples = snaps.map(() => ({}));
  for (const name of Object.keys(snaps[0].ops)) {
    for (let call = 0; call < warmup + runs; call += 1) {
      for (const [index, snap] of snaps.entries()) {
        const started = performance.now();
        await snap.ops[name]();
        const elapsed = performance.now() - started;
        if (call >= warmup) (samples[index][name] ??= []).push(elapsed);
      }
    }
  }
  parentPort.postMessage(samples);
})().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

/**
 * The snap's own work per request in SES, without the simulation around it: each bundle in a
 * Compartment of one locked-down worker, `onKeyringRequest` awaited directly, the same key
 * imported in each. `keyring_listAccounts` is the floor here too.
 *
 * @param targets - Snaps to compare.
 * @param runs - Recorded calls per operation.
 * @param warmup - Unrecorded calls first.
 * @returns Medians per target and operation (ms), also printed.
 */
export async function benchSesLatency(
  targets: BenchTarget[],
  runs = 100,
  warmup = 20,
): Promise<{ label: string; operations: Record<string, Summary> }[]> {
  const ses = require.resolve('ses', {
    paths: [require.resolve('@metamask/snaps-simulation')],
  });
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      ses,
      snaps: targets.map((target) => ({
        bundle: bundleOf(target.root ?? ROOT),
        origin: companionOrigin(target.root),
      })),
      key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
      address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      typedData: TYPED_DATA,
      runs,
      warmup,
    },
  });
  let samples: Record<string, number[]>[];
  try {
    const message = await new Promise<
      Record<string, number[]>[] | { error: string }
    >((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (!Array.isArray(message)) {
      throw new Error(message.error);
    }
    samples = message;
  } finally {
    await worker.terminate();
  }
  const results = targets.map((target, index) => ({
    label: target.label,
    operations: Object.fromEntries(
      Object.entries(samples[index]).map(([name, list]) => [
        name,
        summarize(list),
      ]),
    ),
  }));
  console.log(
    `\n## The snap's own work per request in SES (onKeyringRequest called directly in a locked-down worker; medians of ${runs} after ${warmup} warm-up)`,
  );
  for (const result of results) {
    const floor = result.operations.keyring_listAccounts;
    console.log(`${result.label}:`);
    for (const [name, summary] of Object.entries(result.operations)) {
      console.log(
        `  ${name.padEnd(22)} ${formatMs(summary)}${name === 'keyring_listAccounts' ? '' : `  floor +${(summary.median - floor.median).toFixed(2)} ms`}`,
      );
    }
  }
  return results;
}
