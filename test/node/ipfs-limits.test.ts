import { CID } from 'multiformats/cid';

import { RAW, StubNode } from './ipfs-stub';
import {
  ContentVerificationError,
  createIpfsClient,
  DagLimitError,
  DEFAULT_MAX_NODES,
  IpfsDeadlineError,
  IpfsTimeoutError,
  ResponseTooLargeError,
} from '../../src/ipfs';
import type { FetchLike } from '../../src/ipfs';

/**
 * Work bounds of one read against hand-built hostile DAGs served in-process:
 * node visits, zero-size links, repeated children, and the read's deadline.
 */

/**
 * Text encoded as UTF-8.
 *
 * @param text - The text.
 * @returns The bytes.
 */
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * A file node whose `fan` links all point at the same child, `levels` times over a leaf.
 *
 * @param stub - Where the blocks go.
 * @param leaf - The leaf's bytes (a raw block).
 * @param levels - Levels of file nodes above the leaf.
 * @param fan - Links per node.
 * @returns The root CID.
 */
async function fanOut(
  stub: StubNode,
  leaf: Uint8Array,
  levels: number,
  fan = 20,
): Promise<CID> {
  let cid = await stub.put(RAW, leaf);
  let size = BigInt(leaf.length);
  for (let level = 0; level < levels; level += 1) {
    const child = { cid, size };
    cid = await stub.file({
      children: Array.from({ length: fan }, () => child),
    });
    size *= BigInt(fan);
  }
  return cid;
}

/**
 * The error a promise rejects with.
 *
 * @param promise - Expected to reject.
 * @returns The error.
 */
async function caught(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

describe('fan-out DAGs (20 links per node to one repeated child)', () => {
  it('refuses zero-size links at the root: 1 request instead of 168,421 block reads, at depth 4 and 16', async () => {
    for (const levels of [4, 16]) {
      const stub = new StubNode();
      const root = await fanOut(stub, new Uint8Array(), levels);
      expect(stub.blocks.size).toBe(levels + 1);
      const error = await caught(
        createIpfsClient({
          apiUrl: 'http://127.0.0.1:1',
          fetch: stub.fetch,
        }).cat(root.toString()),
      );
      expect(error).toBeInstanceOf(ContentVerificationError);
      expect((error as ContentVerificationError).reason).toBe(
        'link 0 claims a size of 0 (an empty child holds no file data)',
      );
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('refuses a link whose dag-pb Tsize is 0 even when blocksizes say otherwise', async () => {
    const stub = new StubNode();
    const leaf = await stub.put(RAW, bytes('x'));
    const root = await stub.file({
      children: [{ cid: leaf, size: 1n, tsize: 0 }],
    });
    const error = await caught(
      createIpfsClient({ apiUrl: 'http://127.0.0.1:1', fetch: stub.fetch }).cat(
        root.toString(),
      ),
    );
    expect((error as ContentVerificationError).reason).toMatch(
      /link 0 claims a size of 0/u,
    );
  });

  it('caps node visits (1-byte leaf, 4 levels: 168,421 visits for 160,000 bytes): DagLimitError after 5 requests', async () => {
    const stub = new StubNode();
    const root = await fanOut(stub, bytes('x'), 4);
    const client = createIpfsClient({
      apiUrl: 'http://127.0.0.1:1',
      fetch: stub.fetch,
      cacheBytes: 0,
    });
    const error = await caught(client.cat(root.toString()));
    expect(error).toBeInstanceOf(DagLimitError);
    expect(error).toMatchObject({ limit: 'nodes', max: DEFAULT_MAX_NODES });
    expect(error.message).toBe(
      `${root.toString()}: DAG has more than ${DEFAULT_MAX_NODES} nodes to visit`,
    );
    expect(stub.requests).toHaveLength(5); // each distinct block once, even with the cache off
    // Within the cap, the same DAG reads: 3 levels = 8,421 visits, 8,000 bytes.
    const small = await fanOut(stub, bytes('x'), 3);
    expect(await client.cat(small.toString())).toStrictEqual(
      new Uint8Array(8000).fill(0x78),
    );
  });

  it('fetches a repeated child once per read but counts its bytes each time toward maxBytes', async () => {
    const stub = new StubNode();
    const leaf = await stub.put(RAW, bytes('abc'));
    const root = await stub.file({
      children: [0, 1, 2].map(() => ({ cid: leaf, size: 3n })),
    });
    /**
     * Cat the root with a fresh client, no cache.
     *
     * @param maxBytes - The client's size cap, in bytes.
     * @returns The file's bytes.
     */
    const read = async (maxBytes: number): Promise<Uint8Array> =>
      createIpfsClient({
        apiUrl: 'http://127.0.0.1:1',
        fetch: stub.fetch,
        cacheBytes: 0,
        maxBytes,
      }).cat(root.toString());
    expect(new TextDecoder().decode(await read(9))).toBe('abcabcabc');
    expect(stub.count('block/get')).toBe(2);
    const error = await caught(read(8));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('deadline of one read', () => {
  it('bounds all the requests of one cat, each within timeoutMs, by deadlineMs', async () => {
    const stub = new StubNode();
    const leaves = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map(async (i) =>
        stub.put(RAW, bytes(`leaf ${i}`)),
      ),
    );
    const root = await stub.file({
      children: leaves.map((cid) => ({ cid, size: 6n })),
    });
    // eslint-disable-next-line require-atomic-updates -- the stub is this test's own; nothing else writes delayMs
    stub.delayMs = 40; // 9 requests: 360 ms in all
    const client = createIpfsClient({
      apiUrl: 'http://127.0.0.1:1',
      fetch: stub.fetch,
      timeoutMs: 10_000,
      deadlineMs: 150,
    });
    const error = await caught(client.cat(root.toString()));
    expect(error).toBeInstanceOf(IpfsDeadlineError);
    expect(error).toBeInstanceOf(IpfsTimeoutError); // callers mapping timeouts map this too
    expect(error.message).toBe(
      'IPFS cat did not finish within its 150 ms deadline',
    );
    expect(stub.requests.length).toBeLessThan(9);
    const patient = createIpfsClient({
      apiUrl: 'http://127.0.0.1:1',
      fetch: stub.fetch,
      deadlineMs: 10_000,
    });
    expect(new TextDecoder().decode(await patient.cat(root.toString()))).toBe(
      'leaf 0leaf 1leaf 2leaf 3leaf 4leaf 5leaf 6leaf 7',
    );
  });

  it('ends when fetch ignores the abort signal and never answers, or a body never ends', async () => {
    /**
     * A fetch that never answers.
     *
     * @returns A promise that never settles.
     */
    const never: FetchLike = async () => new Promise(() => undefined);
    /**
     * A fetch that answers 200 with a body that never ends.
     *
     * @returns The response.
     */
    const stalled: FetchLike = async () => ({
      status: 200,
      // eslint-disable-next-line no-restricted-globals, n/no-unsupported-features/node-builtins -- Node.js >= 20 has the WHATWG ReadableStream global, as it has fetch
      body: new ReadableStream<Uint8Array>({
        /**
         * Never delivers a chunk.
         *
         * @returns A promise that never settles.
         */
        pull: async () => new Promise(() => undefined),
      }),
      /**
       * Never delivers the body.
       *
       * @returns A promise that never settles.
       */
      arrayBuffer: async () => new Promise(() => undefined),
    });
    for (const stalledFetch of [never, stalled]) {
      const client = createIpfsClient({
        apiUrl: 'http://127.0.0.1:1',
        fetch: stalledFetch,
        deadlineMs: 50,
      });
      await expect(
        client.cat(
          'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
        ),
      ).rejects.toThrow(IpfsDeadlineError);
      await expect(client.requestJson('version')).rejects.toThrow(
        'IPFS version did not finish within its 50 ms deadline',
      );
    }
  });
});
