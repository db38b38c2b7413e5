import { decode as decodePb } from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { create } from 'kubo-rpc-client';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { CID } from 'multiformats/cid';

import { bigFile, startIpfsNode } from '../../devnet/ipfs-node';
import type { IpfsNode } from '../../devnet/ipfs-node';
import {
  ContentVerificationError,
  createIpfsClient,
  InvalidCidError,
  InvalidContentError,
  IpfsApiError,
  IpfsTimeoutError,
  ResponseTooLargeError,
} from '../../src/ipfs';
import type { IpfsClientOptions } from '../../src/ipfs';
import { AccountMetadataError, parseAccountMetadata } from '../../src/metadata';

/**
 * The CID-verified IPFS client (src/ipfs) against the embedded
 * node, or against a real Kubo when IPFS_API_URL is set (optionally with
 * IPFS_API_KEY / IPFS_API_KEY_SECRET); tests needing the fixture's hooks
 * (tampering, injected failures, credentials on/off) are skipped then.
 */

const {
  IPFS_API_URL: external,
  IPFS_API_KEY: externalKey,
  IPFS_API_KEY_SECRET: externalKeySecret,
} = process.env;
/** `describe`, skipped against an external Kubo: these tests need the fixture's hooks. */
const describeWithFixture = external ? describe.skip : describe;

let node: IpfsNode | undefined;
let apiUrl: string;
let kubo: KuboRPCClient;
let base: IpfsClientOptions;

const HELLO_V0 = 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD';
const big = bigFile();
/**
 * Bytes decoded as UTF-8.
 *
 * @param bytes - The bytes.
 * @returns The text.
 */
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/**
 * Add content through kubo-rpc-client (works against the fixture and Kubo).
 *
 * @param content - Bytes or text.
 * @param cidVersion - 0 (dag-pb leaves) or 1 (raw leaves).
 * @returns The CID string.
 */
async function add(
  content: Uint8Array | string,
  cidVersion: 0 | 1 = 0,
): Promise<string> {
  const { cid } = await kubo.add(content, {
    cidVersion,
    rawLeaves: cidVersion === 1,
    pin: false,
  });
  return cid.toString();
}

/**
 * The error a promise rejects with.
 *
 * @param promise - Expected to reject.
 * @returns The error.
 */
async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('the IPFS client', () => {
  beforeAll(async () => {
    if (external) {
      apiUrl = external;
      base = {
        apiUrl,
        apiKey: externalKey,
        apiKeySecret: externalKeySecret,
      };
    } else {
      node = await startIpfsNode();
      apiUrl = node.apiUrl;
      base = { apiUrl };
    }
    const headers: Record<string, string> = {};
    if (base.apiKey !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${base.apiKey}:${base.apiKeySecret ?? ''}`).toString('base64')}`;
    }
    kubo = create({ url: `${apiUrl}/api/v0`, headers });
  });
  afterAll(async () => node?.close());

  describe('verified reads', () => {
    it('cats a single-block CIDv0 file', async () => {
      expect(await add('hello world')).toBe(HELLO_V0);
      expect(text(await createIpfsClient(base).cat(HELLO_V0))).toBe(
        'hello world',
      );
    });

    it('cats a multi-block file as CIDv0 (dag-pb leaves) and CIDv1 (raw leaves), and by its CIDv1 form', async () => {
      const client = createIpfsClient(base);
      const v0 = await add(big, 0);
      const v1 = await add(big, 1);
      expect(v1).toMatch(/^bafybei/u);
      expect(Buffer.from(await client.cat(v0)).equals(Buffer.from(big))).toBe(
        true,
      );
      expect(Buffer.from(await client.cat(v1)).equals(Buffer.from(big))).toBe(
        true,
      );
      const v0AsV1 = CID.parse(v0).toV1().toString();
      expect(
        Buffer.from(await createIpfsClient(base).cat(v0AsV1)).equals(
          Buffer.from(big),
        ),
      ).toBe(true);
    });

    it('cats a CIDv1 raw block (a single raw leaf) with the cat command', async () => {
      const cid = await add('raw leaf', 1);
      expect(cid).toMatch(/^bafkrei/u);
      expect(text(await createIpfsClient(base).cat(cid))).toBe('raw leaf');
    });

    it('gets a block, hash-checked', async () => {
      const cid = await add(big, 0);
      const block = await createIpfsClient(base).blockGet(cid);
      const node0 = decodePb(block);
      expect(node0.Links).toHaveLength(3);
      expect(UnixFS.unmarshal(node0.Data as Uint8Array).fileSize()).toBe(
        700_000n,
      );
    });

    it('returns object/get as { Links: { Name, Hash, Size }[], Data } checked against the block', async () => {
      const cid = await add(big, 0);
      const object = await createIpfsClient(base).objectGet(cid);
      expect(object.Links).toHaveLength(3);
      for (const link of object.Links) {
        expect(link).toStrictEqual({
          Name: '',
          Hash: expect.stringMatching(/^Qm/u),
          Size: expect.any(Number),
        });
      }
      expect(object.Links.map((link) => link.Size)).toStrictEqual([
        262158, 262158, 175726,
      ]);
      const unixfs = UnixFS.unmarshal(Buffer.from(object.Data, 'base64'));
      expect(unixfs.type).toBe('file');
      expect(unixfs.blockSizes).toStrictEqual([262144n, 262144n, 175712n]);
      await expect(
        createIpfsClient(base).objectGet(await add('raw', 1)),
      ).rejects.toThrow(InvalidContentError);
    });

    it('gets JSON documents (CIDv0 dag-pb and CIDv1 raw) and refuses non-JSON', async () => {
      const doc = { version: 1, name: 'Savings', chains: { 'eip155:1': {} } };
      const client = createIpfsClient(base);
      expect(
        await client.getJson(await add(JSON.stringify(doc), 0)),
      ).toStrictEqual(doc);
      expect(
        await client.getJson(await add(JSON.stringify(doc), 1)),
      ).toStrictEqual(doc);
      const error = await caught(client.getJson(await add('not json {', 0)));
      expect(error).toBeInstanceOf(InvalidContentError);
      expect(error.message).toMatch(/not a UTF-8 JSON document/u);
    });
  });

  describe('errors', () => {
    it('refuses invalid CIDs before sending anything', async () => {
      let calls = 0;
      const client = createIpfsClient({
        ...base,
        /**
         * Counts the calls, and fails each.
         *
         * @returns A rejection.
         */
        fetch: async () => Promise.reject(new Error(`call ${(calls += 1)}`)),
      });
      for (const bad of [
        '',
        'not-a-cid',
        `/ipfs/${HELLO_V0}`,
        'Qm123',
        `${HELLO_V0}x`,
      ]) {
        await expect(client.cat(bad)).rejects.toThrow(InvalidCidError);
        await expect(client.getJson(bad)).rejects.toThrow(/invalid CID/u);
      }
      await expect(client.objectGet(42 as unknown as string)).rejects.toThrow(
        InvalidCidError,
      );
      expect(calls).toBe(0);
    });

    it('maps 400, 404, 405 and 500 to IpfsApiError with status and the server message', async () => {
      const client = createIpfsClient(base);
      const bad = await caught(
        client.requestJson('object/get', {
          args: ['not-a-cid'],
          flags: { encoding: 'json' },
        }),
      );
      expect(bad).toBeInstanceOf(IpfsApiError);
      expect((bad as IpfsApiError).status).toBeGreaterThanOrEqual(400); // Kubo: 500 "invalid path"; fixture: 400
      expect((bad as IpfsApiError).serverMessage).toMatch(
        /not-a-cid|invalid/iu,
      );

      const unknown = await caught(client.requestJson('no/such/command'));
      expect(unknown).toBeInstanceOf(IpfsApiError);
      expect((unknown as IpfsApiError).status).toBe(404);
      expect((unknown as IpfsApiError).serverMessage).toMatch(
        /404 page not found/u,
      );

      const viaGet = createIpfsClient({
        ...base,
        /**
         * Sends every request with GET instead of POST.
         *
         * @param url - The request URL.
         * @param init - The request options.
         * @returns The node's response.
         */
        fetch: async (url, init) => fetch(url, { ...init, method: 'GET' }),
      });
      const wrongMethod = await caught(viaGet.cat(HELLO_V0));
      expect(wrongMethod).toBeInstanceOf(IpfsApiError);
      expect((wrongMethod as IpfsApiError).status).toBe(405);
    });

    describeWithFixture('against the embedded node', () => {
      it('maps a missing block to IpfsApiError 500 with the server message', async () => {
        const error = await caught(
          createIpfsClient(base).cat(
            'QmZ4tDuvesekSs4qM5ZBKpXiZGun7S2CYtEZRB3DYXkjGx',
          ),
        );
        expect(error).toBeInstanceOf(IpfsApiError);
        expect((error as IpfsApiError).status).toBe(500);
        expect(error.message).toBe(
          'IPFS block/get failed with HTTP 500: block was not found locally (offline): ipld: could not find QmZ4tDuvesekSs4qM5ZBKpXiZGun7S2CYtEZRB3DYXkjGx',
        );
      });
    });

    it('refuses oversized replies and files', async () => {
      const client = createIpfsClient({ ...base, maxBytes: 1000 });
      const multi = await caught(client.cat(await add(big, 0)));
      expect(multi).toBeInstanceOf(ResponseTooLargeError);
      expect((multi as ResponseTooLargeError).limitBytes).toBe(1000);
      const rawLeaf = await caught(
        client.cat(await add(big.subarray(0, 5000), 1)),
      );
      expect(rawLeaf).toBeInstanceOf(ResponseTooLargeError); // a single raw block: the stream cap
      expect(text(await client.cat(HELLO_V0))).toBe('hello world');
    });

    it('times out (the fetch never answers) with IpfsTimeoutError', async () => {
      /**
       * A fetch that never answers, and rejects once aborted.
       *
       * @param _url - The request URL, unused.
       * @param init - The request options.
       * @param init.signal - Aborts the request.
       * @returns A promise rejected on abort.
       */
      const hang = async (
        _url: string,
        init: {
          /** Aborts the request. */
          signal: AbortSignal;
        },
      ): Promise<never> =>
        new Promise((_resolve, reject) =>
          init.signal.addEventListener('abort', () =>
            reject(new Error('aborted')),
          ),
        );
      const error = await caught(
        createIpfsClient({ ...base, timeoutMs: 50, fetch: hang }).cat(HELLO_V0),
      );
      expect(error).toBeInstanceOf(IpfsTimeoutError);
      expect(error.message).toBe('IPFS block/get timed out after 50 ms');
    });
  });

  describeWithFixture('tampering and failed streams (fixture hooks)', () => {
    it('catches a node serving other bytes for a CID (root, leaf, raw block)', async () => {
      const fixture = node as IpfsNode;
      const hello = await add('hello world');
      const v0 = await add(big, 0);
      const raw = await add('raw leaf', 1);
      const cached = createIpfsClient(base);
      expect(text(await cached.cat(hello))).toBe('hello world');

      await fixture.tamper(hello, 'hello w0rld');
      try {
        const error = await caught(createIpfsClient(base).cat(hello));
        expect(error).toBeInstanceOf(ContentVerificationError);
        expect((error as ContentVerificationError).cid).toBe(hello);
        expect((error as ContentVerificationError).reason).toMatch(
          /sha2-256 digest .* does not match/u,
        );
        await expect(createIpfsClient(base).getJson(hello)).rejects.toThrow(
          ContentVerificationError,
        );
        // object/get still serves the real node (the forged bytes are not dag-pb): re-encoded, it hashes to the CID.
        const honest = await createIpfsClient(base).objectGet(hello);
        expect(
          text(
            UnixFS.unmarshal(Buffer.from(honest.Data, 'base64'))
              .data as Uint8Array,
          ),
        ).toBe('hello world');
        const otherNode = await createIpfsClient(base).blockGet(
          await add('another file'),
        );
        await fixture.tamper(hello, otherNode); // a consistent lie: object/get serves another node too
        await expect(createIpfsClient(base).objectGet(hello)).rejects.toThrow(
          ContentVerificationError,
        );
        expect(text(await cached.cat(hello))).toBe('hello world'); // verified earlier, cached by CID
      } finally {
        await fixture.tamper(hello, null);
      }

      const leaf = decodePb(
        await createIpfsClient(base).blockGet(v0),
      ).Links[1].Hash.toString();
      await fixture.tamper(leaf, new Uint8Array(262158));
      try {
        const error = await caught(createIpfsClient(base).cat(v0));
        expect(error).toBeInstanceOf(ContentVerificationError);
        expect((error as ContentVerificationError).cid).toBe(leaf);
      } finally {
        await fixture.tamper(leaf, null);
      }

      await fixture.tamper(raw, 'raw leak');
      try {
        await expect(createIpfsClient(base).cat(raw)).rejects.toThrow(
          ContentVerificationError,
        );
      } finally {
        await fixture.tamper(raw, null);
      }
      expect(text(await createIpfsClient(base).cat(raw))).toBe('raw leaf');
    });

    it('detects a stream that failed after its 200: last NDJSON error object, truncated bytes', async () => {
      const fixture = node as IpfsNode;
      const v0 = await add(big, 0);
      await fixture.failStreamAfter('refs', 100, 'walk failed'); // one ~64-byte item fits
      const items: unknown[] = [];
      const error = await caught(
        (async (): Promise<void> => {
          for await (const item of createIpfsClient(base).streamNdjson('refs', {
            args: [v0],
          })) {
            items.push(item);
          }
        })(),
      );
      expect(error).toBeInstanceOf(IpfsApiError);
      expect(error).toMatchObject({
        status: 200,
        streamed: true,
        serverMessage: 'walk failed',
      });
      expect(items).toHaveLength(1); // what arrived before the error, never a short success

      const raw = await add(big.subarray(0, 4000), 1);
      await fixture.failStreamAfter('cat', 100);
      await expect(createIpfsClient(base).cat(raw)).rejects.toThrow(
        ContentVerificationError,
      );
      await fixture.failStreamAfter('block/get', 100);
      await expect(createIpfsClient(base).cat(v0)).rejects.toThrow(
        ContentVerificationError,
      );
      expect(
        Buffer.from(await createIpfsClient(base).cat(v0)).equals(
          Buffer.from(big),
        ),
      ).toBe(true);
    });

    it('sends basic credentials; wrong ones give 403; no message shows them', async () => {
      const fixture = node as IpfsNode;
      const apiKey = 'key-5f2c9a';
      const apiKeySecret = 'secret-e81d07';
      const cid = await add('guarded');
      await fixture.setCredentials({ apiKey, apiKeySecret });
      try {
        expect(
          text(
            await createIpfsClient({ ...base, apiKey, apiKeySecret }).cat(cid),
          ),
        ).toBe('guarded');
        const wrong = await caught(
          createIpfsClient({
            ...base,
            apiKey,
            apiKeySecret: 'secret-wrong1',
          }).cat(cid),
        );
        const none = await caught(createIpfsClient(base).cat(cid));
        for (const error of [wrong, none]) {
          expect(error).toBeInstanceOf(IpfsApiError);
          expect((error as IpfsApiError).status).toBe(403);
        }
        const unreachable = await caught(
          createIpfsClient({
            apiUrl: 'http://127.0.0.1:1',
            apiKey,
            apiKeySecret,
          }).cat(cid),
        );
        const header = Buffer.from(`${apiKey}:${apiKeySecret}`).toString(
          'base64',
        );
        for (const error of [wrong, none, unreachable]) {
          const shown = `${error.message} ${String(error.stack)} ${JSON.stringify(error)} ${String(error.cause)}`;
          for (const secret of [
            apiKey,
            apiKeySecret,
            'secret-wrong1',
            header,
          ]) {
            expect(shown).not.toContain(secret);
          }
        }
      } finally {
        await fixture.setCredentials(null);
      }
    });
  });

  describeWithFixture(
    'providers without block/get (fixture modes 404 and 405): cat and object/get, verified',
    () => {
      it.each([404, 405] as const)(
        `reads CIDv0 and CIDv1 files, JSON, objects and blocks when block/get answers %d`,
        async (status) => {
          const fixture = node as IpfsNode;
          const v0 = await add(big, 0);
          const v1 = await add(big, 1);
          const doc = { version: 1, name: `fallback ${status}` };
          const json = await add(JSON.stringify(doc), 0);
          const rootBlock = await createIpfsClient(base).blockGet(v0);
          const rawLeaf = decodePb(
            await createIpfsClient(base).blockGet(v1),
          ).Links[2].Hash.toString();
          const rawLeafBytes = await createIpfsClient(base).blockGet(rawLeaf);
          await fixture.setBlockGetStatus(status);
          try {
            const commands: string[] = [];
            const client = createIpfsClient({
              ...base,
              /**
               * Records the command of each request, then sends it.
               *
               * @param url - The request URL.
               * @param init - The request options.
               * @returns The node's response.
               */
              fetch: async (url, init) => {
                commands.push(new URL(url).pathname.replace('/api/v0/', ''));
                return fetch(url, init);
              },
            });
            expect(
              Buffer.from(await client.cat(v0)).equals(Buffer.from(big)),
            ).toBe(true);
            expect(
              Buffer.from(await client.cat(v1)).equals(Buffer.from(big)),
            ).toBe(true);
            expect(await client.getJson(json)).toStrictEqual(doc);
            expect(
              (await client.objectGet(v0)).Links.map((link) => link.Size),
            ).toStrictEqual([262158, 262158, 175726]);
            expect(
              Buffer.from(await createIpfsClient(base).blockGet(v0)).equals(
                Buffer.from(rootBlock),
              ),
            ).toBe(true);
            expect(
              Buffer.from(
                await createIpfsClient(base).blockGet(rawLeaf),
              ).equals(Buffer.from(rawLeafBytes)),
            ).toBe(true);
            // block/get tried once, then remembered; dag-pb nodes through object/get, raw leaves through cat.
            expect(
              commands.filter((command) => command === 'block/get'),
            ).toHaveLength(1);
            expect(
              commands.filter((command) => command === 'object/get'),
            ).toHaveLength(4 + 2 + 1); // v0 root + 3 leaves, v1 root, doc, objectGet
            expect(
              commands.filter((command) => command === 'cat'),
            ).toHaveLength(3); // v1's raw leaves
          } finally {
            await fixture.setBlockGetStatus(null);
          }
        },
      );

      it('still catches a node lying through object/get or cat on the fallback path', async () => {
        const fixture = node as IpfsNode;
        const v0 = await add(big, 0);
        const v1 = await add(big, 1);
        const dagPbLeaf = decodePb(
          await createIpfsClient(base).blockGet(v0),
        ).Links[1].Hash.toString();
        const rawLeaf = decodePb(
          await createIpfsClient(base).blockGet(v1),
        ).Links[0].Hash.toString();
        const otherNode = await createIpfsClient(base).blockGet(
          await add('another file'),
        );
        await fixture.setBlockGetStatus(404);
        await fixture.tamper(dagPbLeaf, otherNode); // object/get serves this other (well-formed) node
        await fixture.tamper(rawLeaf, new Uint8Array(262144)); // cat serves zeros
        try {
          const pb = await caught(createIpfsClient(base).cat(v0));
          expect(pb).toBeInstanceOf(ContentVerificationError);
          expect(pb).toMatchObject({
            cid: dagPbLeaf,
            reason:
              'no dag-pb encoding of the object/get reply hashes to the CID',
          });
          const raw = await caught(createIpfsClient(base).cat(v1));
          expect(raw).toBeInstanceOf(ContentVerificationError);
          expect((raw as ContentVerificationError).cid).toBe(rawLeaf);
          await expect(
            createIpfsClient(base).objectGet(dagPbLeaf),
          ).rejects.toThrow(ContentVerificationError);
        } finally {
          await fixture.tamper(dagPbLeaf, null);
          await fixture.tamper(rawLeaf, null);
          await fixture.setBlockGetStatus(null);
        }
      });
    },
  );

  describe('account metadata through the client (library level; the keyring integration is separate)', () => {
    it('fetches, verifies and validates a metadata document; refuses one with an rpcUrl', async () => {
      const metadata = {
        version: 1,
        name: 'Savings',
        chains: {
          'eip155:31337': {
            bundlerUrl: 'https://bundler.example.com/rpc',
            entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
          },
        },
      };
      const client = createIpfsClient(base);
      for (const cidVersion of [0, 1] as const) {
        const cid = await add(JSON.stringify(metadata), cidVersion);
        expect(parseAccountMetadata(await client.getJson(cid))).toStrictEqual(
          metadata,
        );
      }
      const withRpc = await add(
        JSON.stringify({
          version: 1,
          name: 'x',
          chains: { 'eip155:1': { rpcUrl: 'https://x.example' } },
        }),
      );
      expect(() => parseAccountMetadata(withRpc)).toThrow(AccountMetadataError);
      const fetched = await client.getJson(withRpc);
      expect(() => parseAccountMetadata(fetched)).toThrow(
        'invalid account metadata: chains.eip155:1.rpcUrl: unknown field',
      );
    });
  });
});
