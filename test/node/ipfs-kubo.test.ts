import { create } from 'kubo-rpc-client';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { request } from 'node:http';

import { addJson, bigFile, startIpfsNode } from '../../devnet/ipfs-node';
import type { IpfsNode } from '../../devnet/ipfs-node';

/**
 * The embedded IPFS node (devnet/ipfs-node.ts) speaks the IPFS HTTP API
 * as real clients expect: kubo-rpc-client, the official client, adds, cats and
 * gets blocks through it; raw HTTP shows the statuses of the Kubo RPC API and the
 * `X-Stream-Error` trailer after streaming began.
 */

/** A reply read with node:http. */
type RawReply = {
  /** The HTTP status. */
  status: number;
  /** The body, whole. */
  body: Buffer;
  /** The HTTP trailers. */
  trailers: NodeJS.Dict<string>;
  /** The HTTP headers. */
  headers: NodeJS.Dict<string | string[]>;
};

let node: IpfsNode;
let kubo: KuboRPCClient;

describe('the embedded IPFS node', () => {
  beforeAll(async () => {
    node = await startIpfsNode();
    kubo = create({ url: `${node.apiUrl}/api/v0` });
  });
  afterAll(async () => node?.close());

  /**
   * Concatenate an async iterable of chunks.
   *
   * @param source - Chunks.
   * @returns The bytes.
   */
  async function collect(
    source: AsyncIterable<Uint8Array>,
  ): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for await (const part of source) {
      parts.push(part);
    }
    return new Uint8Array(Buffer.concat(parts));
  }

  /**
   * POST (or another method) to the API with node:http, reading body and trailers.
   *
   * @param path - Path and query after the origin.
   * @param method - HTTP method.
   * @param headers - Extra headers.
   * @returns Status, body text and trailers.
   */
  async function raw(
    path: string,
    method = 'POST',
    headers: Record<string, string> = {},
  ): Promise<RawReply> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${node.apiUrl}${path}`,
        { method, headers, timeout: 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks),
              trailers: res.trailers,
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
  }

  describe('kubo-rpc-client against the embedded node', () => {
    it('adds with Kubo-identical CIDs and cats them back', async () => {
      const { cid, size } = await kubo.add('hello world', {
        cidVersion: 0,
        rawLeaves: false,
      });
      expect(cid.toString()).toBe(
        'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
      );
      expect(size).toBe(19);
      expect(new TextDecoder().decode(await collect(kubo.cat(cid)))).toBe(
        'hello world',
      );

      const v1 = await kubo.add('hello world', { cidVersion: 1 });
      expect(v1.cid.toString()).toBe(
        'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
      );
    });

    it('adds a multi-block file (256 KiB chunks) and reads it back by cat and block.get', async () => {
      const big = bigFile();
      const { cid } = await kubo.add(big, { cidVersion: 0, rawLeaves: false });
      expect(cid.toString()).toBe(await node.add(big));
      expect(
        Buffer.from(await collect(kubo.cat(cid))).equals(Buffer.from(big)),
      ).toBe(true);
      const root = await kubo.block.get(cid);
      expect(root.length).toBeLessThan(300); // links only: the data is in 3 leaves
    });

    it('adds JSON documents as CIDv0 dag-pb and CIDv1 raw', async () => {
      const doc = { version: 1, name: 'Fixture' };
      const v0 = await addJson(node, doc);
      const v1 = await addJson(node, doc, 'v1-raw');
      expect(v0).toMatch(/^Qm/u);
      expect(v1).toMatch(/^bafkrei/u);
      expect(
        JSON.parse(new TextDecoder().decode(await collect(kubo.cat(v1)))),
      ).toStrictEqual(doc);
    });

    it('surfaces the server message of a 500 through kubo-rpc-client', async () => {
      const missing = 'QmZ4tDuvesekSs4qM5ZBKpXiZGun7S2CYtEZRB3DYXkjGx';
      await expect(collect(kubo.cat(missing))).rejects.toThrow(
        /not found locally/u,
      );
    });
  });

  describe('statuses and streaming of the embedded node (Kubo RPC API)', () => {
    it('answers 405 to GET, 404 to an unknown command, 400 to a bad argument, 500 with a JSON error body', async () => {
      expect((await raw('/api/v0/cat?arg=x', 'GET')).status).toBe(405);
      expect((await raw('/api/v0/no/such/command')).status).toBe(404);
      const bad = await raw('/api/v0/cat?arg=not-a-cid');
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body.toString())).toMatchObject({
        Type: 'error',
        Message: expect.stringContaining('not-a-cid'),
      });
      const missing = await raw(
        '/api/v0/block/get?arg=QmZ4tDuvesekSs4qM5ZBKpXiZGun7S2CYtEZRB3DYXkjGx',
      );
      expect(missing.status).toBe(500);
      expect(JSON.parse(missing.body.toString())).toStrictEqual({
        Message: expect.stringContaining('not found locally'),
        Code: 0,
        Type: 'error',
      });
    });

    it('answers 403 to wrong or missing basic credentials when they are on', async () => {
      const cid = await node.add('guarded');
      await node.setCredentials({ apiKey: 'key', apiKeySecret: 'secret' });
      try {
        /**
         * A basic authorization header.
         *
         * @param user - The user name.
         * @param pass - The password.
         * @returns The header, by name.
         */
        const basic = (user: string, pass: string): Record<string, string> => ({
          authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
        });
        expect((await raw(`/api/v0/cat?arg=${cid}`)).status).toBe(403);
        expect(
          (await raw(`/api/v0/cat?arg=${cid}`, 'POST', basic('key', 'wrong')))
            .status,
        ).toBe(403);
        const ok = await raw(
          `/api/v0/cat?arg=${cid}`,
          'POST',
          basic('key', 'secret'),
        );
        expect(ok.status).toBe(200);
        expect(ok.body.toString()).toBe('guarded');
      } finally {
        await node.setCredentials(null);
      }
    });

    it('sends the X-Stream-Error trailer when a stream fails after its 200', async () => {
      const cid = await node.add(bigFile());
      await node.failStreamAfter('cat', 1000, 'disk on fire');
      const failed = await raw(`/api/v0/cat?arg=${cid}`);
      expect(failed.status).toBe(200);
      expect(failed.headers.trailer).toBe('X-Stream-Error');
      expect(failed.body).toHaveLength(1000);
      expect(failed.trailers['x-stream-error']).toBe('disk on fire');

      const whole = await raw(`/api/v0/cat?arg=${cid}`); // the failure was one-shot
      expect(whole.body).toHaveLength(700_000);
      expect(whole.trailers['x-stream-error']).toBeUndefined();
    });

    it('ends an NDJSON stream that failed with an error object as the last item', async () => {
      const cid = await node.add(bigFile());
      await node.failStreamAfter('refs', 60, 'walk failed');
      const failed = await raw(`/api/v0/refs?arg=${cid}`);
      expect(failed.status).toBe(200);
      const lines = failed.body.toString().trim().split('\n');
      expect(JSON.parse(lines[lines.length - 1])).toStrictEqual({
        Message: 'walk failed',
        Code: 0,
        Type: 'error',
      });
      expect(failed.trailers['x-stream-error']).toBe('walk failed');
    });
  });
});
