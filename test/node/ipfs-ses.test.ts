import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { addJson, bigFile, startIpfsNode } from '../../devnet/ipfs-node';
import type { IpfsNode } from '../../devnet/ipfs-node';

/**
 * src/ipfs in snap-like conditions: a browser build (so multiformats hashes
 * with `crypto.subtle`, not node:crypto) evaluated in a SES Compartment after
 * `lockdown()`, with only the globals a snap has (no Buffer, process, Event).
 * The real check is `mm-snap build` loading it (done by the lead); this one is
 * close and runs without building the snap. esbuild comes with tsx.
 */

const runner = join(__dirname, '..', 'fixtures', 'ses-ipfs-run.mjs');
let node: IpfsNode;
let dir: string;
let bundle: string;

describe('src/ipfs in a SES compartment', () => {
  beforeAll(async () => {
    node = await startIpfsNode();
    dir = mkdtempSync(join(tmpdir(), 'ipfs-ses-'));
    bundle = join(dir, 'ipfs.js');
    await build({
      entryPoints: [join(__dirname, '..', '..', 'src', 'ipfs', 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'ipfsLib',
      conditions: ['browser', 'import'],
      outfile: bundle,
      logLevel: 'silent',
    });
  });
  afterAll(async () => {
    await node?.close();
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** What the SES runner reports for one CID. */
  type Result = {
    /** The CID read. */
    cid: string;
    /** Whether the read succeeded. */
    ok: boolean;
    /** The value read, on success. */
    value?: unknown;
    /** The error, on failure. */
    error?: {
      /** The error class name. */
      name: string;
      /** The error message. */
      message: string;
    };
  };

  it('reads and verifies CIDv0 and CIDv1 content under SES lockdown with browser crypto, with and without block/get', async () => {
    const big = bigFile();
    const sum = big.reduce((acc, byte) => (acc + byte) % 1_000_000_007, 0);
    const v0 = await node.add(big);
    const v1 = await node.add(big, { cidVersion: 1 });
    const doc = await addJson(node, { version: 1, name: 'SES' }, 'v1-raw');
    const tampered = await addJson(node, { version: 1, name: 'honest' });
    await node.tamper(tampered, '{"version":1,"name":"forged"}');
    const reads = [
      { cid: v0, kind: 'cat' },
      { cid: v1, kind: 'cat' },
      { cid: doc, kind: 'json' },
      { cid: tampered, kind: 'json' },
      { cid: v0, kind: 'object' },
    ];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [runner, bundle, node.apiUrl, JSON.stringify(reads)],
      {
        timeout: 60_000,
      },
    );
    const results = JSON.parse(stdout) as Result[];
    expect(results[0]).toStrictEqual({
      cid: v0,
      ok: true,
      value: { length: 700_000, sum },
    });
    expect(results[1]).toStrictEqual({
      cid: v1,
      ok: true,
      value: { length: 700_000, sum },
    });
    expect(results[2]).toStrictEqual({
      cid: doc,
      ok: true,
      value: { version: 1, name: 'SES' },
    });
    expect(results[3]).toMatchObject({
      ok: false,
      error: { name: 'ContentVerificationError' },
    });
    expect(results[4]).toMatchObject({
      ok: true,
      value: { Links: [{ Size: 262158 }, { Size: 262158 }, { Size: 175726 }] },
    });

    // A provider without block/get: dag-pb nodes through object/get (re-encoded, hashed), raw leaves through cat.
    await node.setBlockGetStatus(404);
    try {
      const { stdout: fallback } = await promisify(execFile)(
        process.execPath,
        [runner, bundle, node.apiUrl, JSON.stringify(reads)],
        { timeout: 60_000 },
      );
      // The forged bytes of `tampered` are not dag-pb, so object/get serves its real node: the honest document.
      const honest = {
        cid: tampered,
        ok: true,
        value: { version: 1, name: 'honest' },
      };
      expect(JSON.parse(fallback)).toStrictEqual([
        results[0],
        results[1],
        results[2],
        honest,
        results[4],
      ]);
    } finally {
      await node.setBlockGetStatus(null);
    }
  });
});
