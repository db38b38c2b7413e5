import { code as DAG_PB, decode, encode } from '@ipld/dag-pb';
import type { PBLink } from '@ipld/dag-pb';
import * as fc from 'fast-check';
import { UnixFS } from 'ipfs-unixfs';
import { exporter } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

import {
  createIpfsClient,
  DagLimitError,
  IpfsApiError,
  IpfsError,
  ResponseTooLargeError,
} from '../../src/ipfs';
import type {
  FetchLike,
  IpfsClientOptions,
  ResponseLike,
} from '../../src/ipfs';
import { fuzzRuns } from '../fixtures/fuzz';

/**
 * The client against a hostile IPFS node, property-based (fast-check): random
 * DAGs (shared and repeated children, lying or zero sizes, directories, CIDv0
 * and v1, raw and dag-pb leaves, fan-outs of one repeated child) and random JSON replies, served with faults
 * injected per request: other or random bytes, truncation, endless and slow
 * bodies, a fetch that never answers or throws, error statuses and error
 * objects quoting the credentials, deeply nested JSON, wrong types, bodies that
 * are not bytes, block/get switching to 404/405 mid-read.
 *
 * Properties: every call ends (the read's deadline), with a value or an
 * IpfsError subclass; no error shows the credentials; the requests and the body
 * bytes pulled stay within the caps; anything returned matches an independent
 * reading of the honest blocks (ipfs-unixfs-exporter, node:crypto sha-256,
 * JSON.parse of what was sent); honest content without faults is only refused
 * for the configured limits.
 */

const SECRETS = {
  apiKey: 'hostile-key-3f9a1',
  apiKeySecret: 'hostile-secret-b27c4',
};
const HEADER = Buffer.from(
  `${SECRETS.apiKey}:${SECRETS.apiKeySecret}`,
).toString('base64');
const LIMITS = {
  maxBytes: 4096,
  maxNodes: 64,
  deadlineMs: 120,
  timeoutMs: 80,
  cacheBytes: 0,
} satisfies Partial<IpfsClientOptions>;
/** Bytes the client may pull from one reply: 2 x (maxBytes + 4 KiB framing), plus one chunk read ahead. */
const PER_REQUEST_BYTES = 2 * (LIMITS.maxBytes + 4096) + 4096;
/** A liveness guard only (a read that never ends fails the property); no timing is asserted. */
const HANG_GUARD_MS = 5_000;

const RUNS = { dag: 300, json: 300 };
/** What one property exercised, reported after the run. */
type Figures = {
  /** Cases run. */
  cases: number;
  /** Requests the client sent, in all. */
  requests: number;
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  /** Outcomes, by error class name (or `value`). */
  outcomes: Record<string, number>;
  /** Values returned and checked against the reference reader. */
  verifiedValues: number;
};
const allFigures: Record<string, Figures> = {};
let figures: Figures;

/**
 * Start counting for one property.
 *
 * @param name - The property.
 */
function countFor(name: string): void {
  figures = {
    cases: 0,
    requests: 0,
    faults: {},
    outcomes: {},
    verifiedValues: 0,
  };
  allFigures[name] = figures;
}

/** How a reply is spoiled (see `HostileNode.fetch`). */
type FaultKind =
  | 'other-block'
  | 'random-bytes'
  | 'truncate'
  | 'endless'
  | 'slow'
  | 'hang'
  | 'throw'
  | 'status-500'
  | 'status-404'
  | 'status-405'
  | 'error-object'
  | 'deep-json'
  | 'wrong-types'
  | 'other-object'
  | 'not-bytes';
/** One planned fault. */
type Fault = {
  /** The index of the request it hits. */
  at: number;
  /** What it does. */
  kind: FaultKind;
  /** A random number the fault draws its details from (offsets, lengths, bytes). */
  n: number;
};

const FAULT_KINDS: FaultKind[] = [
  'other-block',
  'random-bytes',
  'truncate',
  'endless',
  'slow',
  'hang',
  'throw',
  'status-500',
  'status-404',
  'status-405',
  'error-object',
  'deep-json',
  'wrong-types',
  'other-object',
  'not-bytes',
];

const faultArb = fc.record({
  at: fc.nat({ max: 6 }),
  kind: fc.constantFrom(...FAULT_KINDS),
  n: fc.nat({ max: 1_000_000 }),
});

/**
 * No fault in one case out of `1 + faulty`, else 1 to `max` faults at request indexes below `within`.
 *
 * @param faulty - Weight of the faulty cases.
 * @param max - Most faults.
 * @param within - Request indexes they hit.
 * @returns The arbitrary.
 */
const faultsArb = (
  faulty: number,
  max: number,
  within: number,
): fc.Arbitrary<Fault[]> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant<Fault[]>([]) },
    {
      weight: faulty,
      arbitrary: fc.array(
        faultArb.map((fault) => ({ ...fault, at: fault.at % within })),
        { minLength: 1, maxLength: max },
      ),
    },
  );

/**
 * Deterministic pseudo-random bytes.
 *
 * @param seed - Picks the sequence.
 * @param length - How many bytes.
 * @returns The bytes.
 */
const noise = (seed: number, length: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 17) % 256);
/**
 * Text encoded as UTF-8.
 *
 * @param value - The text.
 * @returns The bytes.
 */
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** Wrongly typed `object/get` replies (and other JSON a Kubo command would not send). */
const WRONG_TYPES: unknown[] = [
  { Links: 'none', Data: 7 },
  { Links: [{ Hash: 5, Size: '1' }], Data: '' },
  { Links: [null], Data: '' },
  { Links: [{ Hash: 'not-a-cid', Name: '', Size: 1 }], Data: '' },
  { Links: [{ Hash: 'bafkqaaa', Name: 3, Size: -1 }], Data: 'AA==' },
  { Links: [], Data: '!!not base64!!' },
  { Links: [], Data: 'AA' },
  [],
  'Links',
  null,
  { Links: { length: 1e9 }, Data: '' },
];

/** A reply body: bytes in chunks, or a stream the client pulls (counted). */
type Body = {
  /** The HTTP status. */
  status: number;
  /** The bytes, or a body that never ends, or chunks that are not bytes. */
  chunks: Uint8Array[] | 'endless' | 'not-bytes';
  /** Delay before each chunk, in milliseconds. */
  slowMs?: number;
};

/**
 * An in-process IPFS HTTP API serving `store` honestly except for the planned faults.
 */
class HostileNode {
  requests = 0;

  pulled = 0;

  injected = 0;

  readonly #store: Map<string, Uint8Array>;

  readonly #faults: Fault[];

  readonly #blockGetStatus: 200 | 404 | 405;

  readonly #pretty: boolean;

  readonly #chunk: number;

  readonly #extra: Map<string, Body>;

  /**
   * @param store - Honest blocks by CIDv1 string.
   * @param faults - Faults by request index.
   * @param options - Modes.
   * @param options.blockGetStatus - 200 (served), or 404/405 for every block/get.
   * @param options.pretty - Pretty-print JSON replies.
   * @param options.chunk - Chunk size of bodies, in bytes.
   * @param options.extra - Replies of other commands (`requestJson`, `streamNdjson`).
   */
  constructor(
    store: Map<string, Uint8Array>,
    faults: Fault[],
    options: {
      /** 200 (served), or 404/405 for every block/get. */
      blockGetStatus: 200 | 404 | 405;
      /** Pretty-print JSON replies. */
      pretty: boolean;
      /** Chunk size of bodies, in bytes. */
      chunk: number;
      /** Replies of other commands. */
      extra?: Map<string, Body>;
    },
  ) {
    this.#store = store;
    this.#faults = faults;
    this.#blockGetStatus = options.blockGetStatus;
    this.#pretty = options.pretty;
    this.#chunk = options.chunk;
    this.#extra = options.extra ?? new Map();
  }

  /**
   * The `fetch` to give the client: honest replies, but for the planned faults.
   *
   * @param url - The request URL.
   * @returns The reply.
   */
  readonly fetch: FetchLike = async (url) => {
    const index = this.requests;
    this.requests += 1;
    const { pathname, searchParams } = new URL(url);
    const command = pathname.replace(/^\/api\/v0\//u, '');
    const fault = this.#faults.find((candidate) => candidate.at === index);
    if (fault) {
      this.injected += 1;
      figures.faults[fault.kind] = (figures.faults[fault.kind] ?? 0) + 1;
      if (fault.kind === 'hang') {
        return new Promise<never>(() => undefined); // ignores the abort signal too
      }
      if (fault.kind === 'throw') {
        throw new Error(
          `connection reset by ${SECRETS.apiKey}:${SECRETS.apiKeySecret}`,
        );
      }
    }
    const honest = this.#honest(command, searchParams.get('arg') ?? '');
    return this.#respond(fault ? this.#faulty(fault, honest) : honest);
  };

  /**
   * The honest reply.
   *
   * @param command - API command.
   * @param arg - Its argument.
   * @returns The body.
   */
  #honest(command: string, arg: string): Body {
    const extra = this.#extra.get(command);
    if (extra) {
      return extra;
    }
    if (command === 'block/get' && this.#blockGetStatus !== 200) {
      return {
        status: this.#blockGetStatus,
        chunks: [text('404 page not found\n')],
      };
    }
    const cid = CID.parse(arg);
    const block = this.#store.get(cid.toV1().toString());
    if (!block) {
      return {
        status: 500,
        chunks: [
          text(
            '{"Message":"block was not found locally","Code":0,"Type":"error"}\n',
          ),
        ],
      };
    }
    if (command === 'block/get' || (command === 'cat' && cid.code === 0x55)) {
      return { status: 200, chunks: [block] };
    }
    if (command === 'object/get' && cid.code === DAG_PB) {
      return { status: 200, chunks: [text(this.#objectJson(block))] };
    }
    return {
      status: 500,
      chunks: [
        text('{"Message":"not served by this node","Code":0,"Type":"error"}\n'),
      ],
    };
  }

  /**
   * The `object/get` JSON of a block.
   *
   * @param block - A dag-pb block.
   * @returns Its JSON text.
   */
  #objectJson(block: Uint8Array): string {
    const node = decode(block);
    const value = {
      Links: node.Links.map((link) => ({
        Name: link.Name ?? '',
        Hash: link.Hash.toString(),
        Size: link.Tsize ?? 0,
      })),
      Data: Buffer.from(node.Data ?? new Uint8Array()).toString('base64'),
    };
    return `${JSON.stringify(value, null, this.#pretty ? 2 : undefined)}\n`;
  }

  /**
   * Apply a fault to the honest reply.
   *
   * @param fault - The fault.
   * @param honest - The honest reply.
   * @returns The faulty reply.
   */
  #faulty(fault: Fault, honest: Body): Body {
    const whole = Array.isArray(honest.chunks)
      ? Buffer.concat(honest.chunks)
      : new Uint8Array();
    const blocks = [...this.#store.values()];
    const secretMessage = `denied for ${SECRETS.apiKey} / ${SECRETS.apiKeySecret} / Basic ${HEADER}`;
    switch (fault.kind) {
      case 'other-block':
        return { status: 200, chunks: [blocks[fault.n % blocks.length]] };
      case 'random-bytes':
        return { status: 200, chunks: [noise(fault.n, fault.n % 3000)] };
      case 'truncate':
        return {
          ...honest,
          chunks: [
            whole.subarray(0, whole.length === 0 ? 0 : fault.n % whole.length),
          ],
        };
      case 'endless':
        return { status: 200, chunks: 'endless' };
      case 'slow':
        return { ...honest, slowMs: 10 + (fault.n % 30) };
      case 'status-500':
        return {
          status: 500,
          chunks: [
            text(`{"Message":"${secretMessage}","Code":0,"Type":"error"}\n`),
          ],
        };
      case 'status-404':
        return {
          status: 404,
          chunks: [text(`404 page not found ${secretMessage}\n`)],
        };
      case 'status-405':
        return { status: 405, chunks: [] };
      case 'error-object':
        return {
          status: 200,
          chunks: [
            whole.subarray(0, fault.n % (whole.length + 1)),
            text(`\n{"Message":"${secretMessage}","Type":"error"}\n`),
          ],
        };
      case 'deep-json':
        return {
          status: 200,
          chunks: [text(`{"Links":${'['.repeat(5000 + (fault.n % 5000))}`)],
        };
      case 'wrong-types':
        return {
          status: 200,
          chunks: [
            text(JSON.stringify(WRONG_TYPES[fault.n % WRONG_TYPES.length])),
          ],
        };
      case 'other-object': {
        const nodes = blocks.filter((block) => {
          try {
            decode(block);
            return true;
          } catch {
            return false;
          }
        });
        return nodes.length === 0
          ? honest
          : {
              status: 200,
              chunks: [text(this.#objectJson(nodes[fault.n % nodes.length]))],
            };
      }
      case 'not-bytes':
        return { status: 200, chunks: 'not-bytes' };
      default:
        return honest;
    }
  }

  /**
   * Turn a body into a response whose stream counts what the client pulls.
   *
   * @param body - The reply.
   * @returns The response.
   */
  #respond(body: Body): ResponseLike {
    const size = this.#chunk;
    const parts: Uint8Array[] = [];
    if (Array.isArray(body.chunks)) {
      const whole = Buffer.concat(body.chunks);
      for (let i = 0; i < whole.length; i += size) {
        parts.push(whole.subarray(i, i + size));
      }
    }
    let next = 0;
    // eslint-disable-next-line no-restricted-globals, n/no-unsupported-features/node-builtins -- Node.js >= 20 has the WHATWG ReadableStream global, as it has fetch
    const stream = new ReadableStream<Uint8Array>(
      {
        /**
         * Deliver the next chunk (or an endless, slow or wrong one), counting the bytes.
         *
         * @param controller - The stream's controller.
         */
        pull: async (controller): Promise<void> => {
          if (body.slowMs) {
            await new Promise((resolve) => setTimeout(resolve, body.slowMs));
          }
          if (body.chunks === 'endless') {
            this.pulled += 4096;
            controller.enqueue(noise(next, 4096));
            next += 1;
          } else if (body.chunks === 'not-bytes') {
            controller.enqueue('a string, not bytes' as unknown as Uint8Array);
          } else if (next < parts.length) {
            this.pulled += parts[next].length;
            controller.enqueue(parts[next]);
            next += 1;
          } else {
            controller.close();
          }
        },
      },
      { highWaterMark: 0 },
    );
    return {
      status: body.status,
      body: stream,
      /**
       * Not used: the client reads the stream.
       *
       * @returns Never: it throws.
       */
      arrayBuffer: async (): Promise<ArrayBuffer> => {
        throw new Error('the client reads the stream');
      },
    };
  }
}

/** A generated DAG: leaves, then file nodes linking to any earlier node. */
type DagSpec = {
  /** The leaves. */
  leaves: {
    /** The file bytes of the leaf. */
    bytes: Uint8Array;
    /** A raw block, or a dag-pb UnixFS file node without links. */
    codec: 'raw' | 'pb';
  }[];
  /** The dag-pb nodes, each linking to earlier leaves and nodes. */
  nodes: {
    /** Indexes (modulo the count) of the earlier leaves and nodes it links to. */
    children: number[];
    /** Inline file bytes. */
    data: Uint8Array;
    /** A wrong blocksize, when set. */
    lie: {
      /** The link (modulo the count) whose blocksize is wrong. */
      link: number;
      /** What is added to its blocksize, in bytes. */
      delta: number;
    } | null;
    /** The link (modulo the count) whose Tsize is 0, when set. */
    zeroTsize: number | null;
    /** The UnixFS type of the node. */
    type: 'file' | 'raw' | 'directory';
    /** Whether the node has a CIDv0. */
    v0: boolean;
  }[];
  /** The node read (an index modulo the count), or -1 for the root. */
  target: number;
};

/**
 * `null` most of the time, else a value.
 *
 * @param arb - The value's arbitrary.
 * @param oneIn - One value in this many draws.
 * @returns The arbitrary.
 */
const rarely = <Value>(
  arb: fc.Arbitrary<Value>,
  oneIn: number,
): fc.Arbitrary<Value | null> =>
  fc.oneof(
    { weight: oneIn - 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: arb },
  );

const randomDagArb: fc.Arbitrary<DagSpec> = fc.record({
  leaves: fc.array(
    fc.record({
      bytes: fc.oneof(
        { weight: 5, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }) },
        {
          weight: 4,
          arbitrary: fc.uint8Array({ minLength: 1, maxLength: 400 }),
        },
        { weight: 1, arbitrary: fc.constant(new Uint8Array()) },
      ),
      codec: fc.constantFrom<'raw' | 'pb'>('raw', 'raw', 'pb'),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  nodes: fc.array(
    fc.record({
      children: fc.array(fc.nat(), { minLength: 1, maxLength: 10 }),
      data: fc.oneof(
        { weight: 3, arbitrary: fc.constant(new Uint8Array()) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }) },
      ),
      lie: rarely(
        fc.record({ link: fc.nat(), delta: fc.integer({ min: -3, max: 3 }) }),
        8,
      ),
      zeroTsize: rarely(fc.nat(), 15),
      type: fc.constantFrom<'file' | 'raw' | 'directory'>(
        'file',
        'file',
        'file',
        'file',
        'file',
        'raw',
        'directory',
      ),
      v0: fc.boolean(),
    }),
    { maxLength: 8 },
  ),
  target: fc.oneof(
    { weight: 3, arbitrary: fc.constant(-1) },
    { weight: 1, arbitrary: fc.nat() },
  ), // -1: the root
});

/** The fan-out shape: `levels` file nodes, each linking `fan` times to the one below, over one small leaf. */
const fanOutDagArb: fc.Arbitrary<DagSpec> = fc
  .record({
    fan: fc.integer({ min: 2, max: 8 }),
    levels: fc.integer({ min: 1, max: 8 }),
    leaf: fc.uint8Array({ minLength: 1, maxLength: 3 }),
    codec: fc.constantFrom<'raw' | 'pb'>('raw', 'pb'),
    v0: fc.boolean(),
  })
  .map(({ fan, levels, leaf, codec, v0 }) => ({
    leaves: [{ bytes: leaf, codec }],
    nodes: Array.from({ length: levels }, (_, level) => ({
      children: Array.from({ length: fan }, () => level),
      data: new Uint8Array(),
      lie: null,
      zeroTsize: null,
      type: 'file' as const,
      v0,
    })),
    target: -1,
  }));

const dagArb = fc.oneof(
  { weight: 3, arbitrary: randomDagArb },
  { weight: 1, arbitrary: fanOutDagArb },
);

/** A built DAG: honest blocks, the CIDs in build order, and whether any node lies. */
type Dag = {
  /** The blocks, by CIDv1 string. */
  store: Map<string, Uint8Array>;
  /** The CIDs of the leaves and nodes, in build order. */
  cids: CID[];
  /** Whether every node tells the truth (sizes, types). */
  honest: boolean;
};

/**
 * Build the blocks of a DAG spec.
 *
 * @param spec - The spec.
 * @returns The blocks.
 */
async function buildDag(spec: DagSpec): Promise<Dag> {
  const store = new Map<string, Uint8Array>();
  const built: {
    /** Its CID. */
    cid: CID;
    /** Its file length, in bytes. */
    length: bigint;
    /** Its Tsize: the block and everything below it, in bytes. */
    tsize: number;
  }[] = [];
  let honest = true;
  /**
   * Store a block.
   *
   * @param codec - Its multicodec.
   * @param block - The block.
   * @param v0 - Give it a CIDv0 (dag-pb only).
   * @returns Its CID.
   */
  const put = async (
    codec: number,
    block: Uint8Array,
    v0 = false,
  ): Promise<CID> => {
    const digest = await sha256.digest(block);
    const cid =
      v0 && codec === DAG_PB
        ? CID.createV0(digest)
        : CID.createV1(codec, digest);
    store.set(cid.toV1().toString(), block);
    return cid;
  };
  for (const leaf of spec.leaves) {
    const block =
      leaf.codec === 'raw'
        ? leaf.bytes
        : encode({
            Data: new UnixFS({ type: 'file', data: leaf.bytes }).marshal(),
            Links: [],
          });
    const cid = await put(leaf.codec === 'raw' ? 0x55 : DAG_PB, block);
    built.push({ cid, length: BigInt(leaf.bytes.length), tsize: block.length });
  }
  for (const node of spec.nodes) {
    const children = node.children.map((index) => built[index % built.length]);
    const sizes = children.map((child) => child.length);
    const tsizes = children.map((child) => child.tsize);
    if (node.lie) {
      sizes[node.lie.link % sizes.length] += BigInt(node.lie.delta);
      honest &&= node.lie.delta === 0;
      if (sizes[node.lie.link % sizes.length] < 0n) {
        sizes[node.lie.link % sizes.length] = 0n;
      }
    }
    if (node.zeroTsize !== null) {
      tsizes[node.zeroTsize % tsizes.length] = 0;
      honest = false;
    }
    honest &&= node.type !== 'directory' && sizes.every((size) => size > 0n);
    const unixfs = new UnixFS({
      type: node.type,
      data: node.type === 'directory' ? undefined : node.data,
      blockSizes: sizes,
    });
    const links: PBLink[] = children.map((child, i) => ({
      Hash: child.cid,
      Name: '',
      Tsize: tsizes[i],
    }));
    const block = encode({ Data: unixfs.marshal(), Links: links });
    const cid = await put(DAG_PB, block, node.v0);
    const length =
      BigInt(node.type === 'directory' ? 0 : node.data.length) +
      children.reduce((sum, child) => sum + child.length, 0n);
    built.push({
      cid,
      length,
      tsize: block.length + tsizes.reduce((sum, size) => sum + size, 0),
    });
  }
  return { store, cids: built.map((entry) => entry.cid), honest };
}

/**
 * Read a file from the honest blocks with ipfs-unixfs-exporter (the reference reader).
 *
 * @param cid - Root.
 * @param store - Honest blocks.
 * @returns The bytes.
 */
async function reference(
  cid: CID,
  store: Map<string, Uint8Array>,
): Promise<Uint8Array> {
  const blockstore = {
    /**
     * The honest block of a CID.
     *
     * @param key - The CID.
     * @yields The block.
     */
    get: async function* get(key: CID): AsyncGenerator<Uint8Array> {
      const block = store.get(key.toV1().toString());
      if (!block) {
        throw new Error('missing block');
      }
      yield block;
    },
  };
  const entry = await exporter(cid, blockstore);
  if (entry.type !== 'file' && entry.type !== 'raw') {
    throw new Error(`the reference reader found a ${entry.type}`);
  }
  const parts: Uint8Array[] = [];
  for await (const part of entry.content()) {
    parts.push(part);
  }
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * Run one read with a liveness guard.
 *
 * @param read - The read.
 * @returns `{ value }` or `{ error }`.
 */
async function settle(read: () => Promise<unknown>): Promise<{
  /** The value, when the read succeeded. */
  value?: unknown;
  /** The error, when it failed. */
  error?: unknown;
}> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`read did not end within ${HANG_GUARD_MS} ms`)),
      HANG_GUARD_MS,
    );
  });
  try {
    return { value: await Promise.race([read(), guard]) };
  } catch (error) {
    if ((error as Error).message?.startsWith('read did not end')) {
      throw error;
    }
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Check the properties every outcome must have; count it.
 *
 * @param outcome - The settled read.
 * @param outcome.error - Its error, if any.
 * @param node - The node that served it.
 */
function checkCommon(
  outcome: {
    /** The error, when the read failed. */
    error?: unknown;
  },
  node: HostileNode,
): void {
  figures.cases += 1;
  figures.requests += node.requests;
  const name =
    outcome.error === undefined
      ? 'value'
      : ((outcome.error as Error)?.name ?? typeof outcome.error);
  figures.outcomes[name] = (figures.outcomes[name] ?? 0) + 1;
  if (outcome.error !== undefined) {
    expect(outcome.error).toBeInstanceOf(IpfsError);
    const error = outcome.error as Error;
    const shown = `${error.message} ${String(error.stack)} ${String(error.cause)} ${String((error.cause as Error)?.stack)} ${JSON.stringify(error)}`;
    for (const secret of [SECRETS.apiKey, SECRETS.apiKeySecret, HEADER]) {
      expect(shown).not.toContain(secret);
    }
  }
  expect(node.pulled).toBeLessThanOrEqual(node.requests * PER_REQUEST_BYTES);
}

/**
 * The `object/get` form of a block, computed independently of the client.
 *
 * @param block - A dag-pb block.
 * @returns `{ Links, Data }`.
 */
function expectedObject(block: Uint8Array): unknown {
  const node = decode(block);
  return {
    Links: node.Links.map((link) => ({
      Name: link.Name ?? '',
      Hash: link.Hash.toString(),
      Size: link.Tsize ?? 0,
    })),
    Data: Buffer.from(node.Data ?? new Uint8Array()).toString('base64'),
  };
}

/**
 * The sha-256 digest, by node:crypto.
 *
 * @param bytes - The bytes hashed.
 * @returns The digest.
 */
const sha256Of = (bytes: Uint8Array): Buffer =>
  createHash('sha256').update(bytes).digest();

/** A JSON body served, and what it holds. */
type JsonBody = {
  /** The value, when the text is one JSON value. */
  value?: unknown;
  /** The text served. */
  text: string;
  /** Its nesting depth. */
  depth: number;
};

/**
 * Check one DAG read beyond the common properties: a value equals the reference reading of the
 * honest blocks; an error on honest content from an honest node is one of the configured limits.
 *
 * @param outcome - The settled read.
 * @param operation - The client method used.
 * @param target - The CID read.
 * @param dag - The DAG served.
 * @param node - The node that served it.
 */
async function expectDagOutcome(
  outcome: Awaited<ReturnType<typeof settle>>,
  operation: string,
  target: CID,
  dag: Dag,
  node: HostileNode,
): Promise<void> {
  const block = dag.store.get(target.toV1().toString()) as Uint8Array;
  if (outcome.error === undefined) {
    figures.verifiedValues += 1;
    if (operation === 'blockGet') {
      expect(sha256Of(outcome.value as Uint8Array)).toStrictEqual(
        Buffer.from(target.multihash.digest),
      );
    } else if (operation === 'objectGet') {
      expect(outcome.value).toStrictEqual(expectedObject(block));
    } else {
      const bytes = await reference(target, dag.store);
      if (operation === 'cat') {
        expect(
          Buffer.from(outcome.value as Uint8Array).equals(Buffer.from(bytes)),
        ).toBe(true);
      } else {
        expect(outcome.value).toStrictEqual(
          JSON.parse(Buffer.from(bytes).toString('utf8')),
        );
      }
    }
  } else if (node.injected === 0 && dag.honest) {
    // Honest content, honest node: refused only for the configured limits (or a non-JSON / non-file target).
    const error = outcome.error as Error;
    const allowed =
      error.name === 'IpfsTimeoutError' || // the machine may be slow; no timing is asserted
      error instanceof DagLimitError ||
      error instanceof ResponseTooLargeError ||
      (operation === 'getJson' && error.message.includes('JSON')) ||
      (operation === 'objectGet' && target.code !== DAG_PB);
    expect({
      allowed,
      error: `${error.name}: ${error.message}`,
    }).toMatchObject({ allowed: true });
  }
}

/**
 * Check one JSON read beyond the common properties: a value is exactly the JSON sent; an error on
 * a valid value served honestly is the size limit, or (a reply) the error object it was.
 *
 * @param outcome - The settled read.
 * @param operation - How it was read.
 * @param body - The JSON body served.
 * @param node - The node that served it.
 */
function expectJsonOutcome(
  outcome: Awaited<ReturnType<typeof settle>>,
  operation: string,
  body: JsonBody,
  node: HostileNode,
): void {
  if (outcome.error !== undefined) {
    if (
      node.injected === 0 &&
      body.value !== undefined &&
      operation !== 'streamNdjson'
    ) {
      // A valid single JSON value served honestly is refused only when too large, or (a reply) when it is an error object.
      const error = outcome.error as Error;
      const errorObject =
        operation === 'requestJson' &&
        (body.value as Record<string, unknown> | null)?.Type === 'error';
      const allowed =
        error instanceof ResponseTooLargeError ||
        error.name === 'IpfsTimeoutError' ||
        (errorObject && error instanceof IpfsApiError);
      expect({
        allowed,
        error: `${error.name}: ${error.message}`,
      }).toMatchObject({ allowed: true });
    }
    return;
  }
  figures.verifiedValues += 1;
  if (operation === 'streamNdjson') {
    // Every item returned is a line of what was sent (faults change what was sent; verified against it only when none hit).
    if (node.injected === 0) {
      const lines = body.text.split('\n').filter((line) => line.trim() !== '');
      expect(outcome.value).toStrictEqual(
        lines.map((line) => JSON.parse(line) as unknown),
      );
    }
    return;
  }
  if (operation === 'requestJson' && node.injected > 0) {
    return; // an unverified command: any JSON the node chose is a legitimate reply
  }
  const sent = JSON.parse(body.text) as unknown;
  expect(isDeepStrictEqual(outcome.value, sent)).toBe(true);
  expect(body.depth).toBeLessThanOrEqual(64); // deeper JSON is refused before parsing
}

describe('hostile node, property-based', () => {
  afterAll(() => {
    // Figures for the report: how much hostile input the properties covered.
    for (const [name, counted] of Object.entries(allFigures)) {
      const faults = Object.values(counted.faults).reduce(
        (sum, count) => sum + count,
        0,
      );
      console.log(
        `IPFS hostile node, ${name}: ${counted.cases} cases, ${counted.requests} requests, ${faults} faults injected ` +
          `${JSON.stringify(counted.faults)}; outcomes ${JSON.stringify(counted.outcomes)}; ` +
          `${counted.verifiedValues} values returned, each verified independently`,
      );
    }
  });

  it('random DAGs with injected faults: typed errors within bounds, never unverified bytes', async () => {
    countFor('DAG reads (cat, getJson, objectGet, blockGet)');
    await fc.assert(
      fc.asyncProperty(
        dagArb,
        faultsArb(3, 3, 7),
        fc.constantFrom<200 | 404 | 405>(200, 200, 404, 405),
        fc.boolean(),
        fc.integer({ min: 1, max: 700 }),
        fc.constantFrom('cat', 'cat', 'getJson', 'objectGet', 'blockGet'),
        async (spec, faults, blockGetStatus, pretty, chunk, operation) => {
          const dag = await buildDag(spec);
          const target =
            dag.cids[
              spec.target < 0
                ? dag.cids.length - 1
                : spec.target % dag.cids.length
            ];
          const node = new HostileNode(dag.store, faults, {
            blockGetStatus,
            pretty,
            chunk,
          });
          const client = createIpfsClient({
            apiUrl: 'http://127.0.0.1:5001',
            ...SECRETS,
            ...LIMITS,
            fetch: node.fetch,
          });
          /**
           * Read the target with the client method of this case.
           *
           * @returns What the client returned.
           */
          const read = async (): Promise<unknown> => {
            switch (operation) {
              case 'cat':
                return client.cat(target.toString());
              case 'getJson':
                return client.getJson(target.toString());
              case 'objectGet':
                return client.objectGet(target.toString());
              default:
                return client.blockGet(target.toString());
            }
          };
          const outcome = await settle(read);
          checkCommon(outcome, node);
          // Work: each distinct block at most twice (block/get, then the fallback), plus objectGet's own reply.
          expect(node.requests).toBeLessThanOrEqual(2 * dag.store.size + 2);
          await expectDagOutcome(outcome, operation, target, dag, node);
        },
      ),
      { numRuns: fuzzRuns(RUNS.dag) },
    );
  });

  it('random JSON replies and documents with injected faults: typed errors, or exactly the JSON sent', async () => {
    countFor('JSON (requestJson, streamNdjson, getJson)');
    const bodyArb: fc.Arbitrary<JsonBody> = fc.oneof(
      fc
        .jsonValue({ maxDepth: 4 })
        .map((value) => ({ value, text: JSON.stringify(value), depth: 4 })),
      fc.jsonValue({ maxDepth: 4 }).map((value) => ({
        value,
        text: JSON.stringify(value, null, 2),
        depth: 4,
      })),
      fc.nat({ max: 200 }).map((depth) => ({
        text: `${'['.repeat(depth)}${']'.repeat(depth)}`,
        depth,
      })),
      fc
        .array(fc.jsonValue({ maxDepth: 2 }), { minLength: 2, maxLength: 4 })
        .map((items) => ({
          text: items.map((item) => JSON.stringify(item)).join('\n'),
          depth: 2,
        })),
      fc
        .string({ maxLength: 200 })
        .map((garbage) => ({ text: garbage, depth: 0 })),
    );
    await fc.assert(
      fc.asyncProperty(
        bodyArb,
        faultsArb(2, 2, 2),
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(
          'requestJson',
          'streamNdjson',
          'getJson-raw',
          'getJson-v0',
        ),
        async (body, faults, chunk, operation) => {
          const bytes = text(body.text);
          const store = new Map<string, Uint8Array>();
          let target: CID | undefined;
          if (operation.startsWith('getJson')) {
            const v0 = operation === 'getJson-v0';
            const block = v0
              ? encode({
                  Data: new UnixFS({ type: 'file', data: bytes }).marshal(),
                  Links: [],
                })
              : bytes;
            target = v0
              ? CID.createV0(await sha256.digest(block))
              : CID.createV1(0x55, await sha256.digest(block));
            store.set(target.toV1().toString(), block);
          }
          const extra = new Map<string, Body>([
            ['x', { status: 200, chunks: [bytes] }],
          ]);
          const node = new HostileNode(store, faults, {
            blockGetStatus: 200,
            pretty: false,
            chunk,
            extra,
          });
          const client = createIpfsClient({
            apiUrl: 'https://ipfs.example.com',
            ...SECRETS,
            ...LIMITS,
            fetch: node.fetch,
          });
          const outcome = await settle(async () => {
            if (operation === 'requestJson') {
              return client.requestJson('x');
            }
            if (operation === 'streamNdjson') {
              const items: unknown[] = [];
              for await (const item of client.streamNdjson('x')) {
                items.push(item);
              }
              return items;
            }
            return client.getJson((target as CID).toString());
          });
          checkCommon(outcome, node);
          expect(node.requests).toBeLessThanOrEqual(2);
          expectJsonOutcome(outcome, operation, body, node);
        },
      ),
      { numRuns: fuzzRuns(RUNS.json) },
    );
  });

  it('harness sanity: an honest node serves what the reference reader reads; an endless body is cut at the cap', async () => {
    const dag = await buildDag({
      leaves: [
        { bytes: text('hello '), codec: 'raw' },
        { bytes: text('world'), codec: 'pb' },
      ],
      nodes: [
        {
          children: [0, 1, 0],
          data: new Uint8Array(),
          lie: null,
          zeroTsize: null,
          type: 'file',
          v0: true,
        },
      ],
      target: 2,
    });
    for (const blockGetStatus of [200, 404] as const) {
      const node = new HostileNode(dag.store, [], {
        blockGetStatus,
        pretty: true,
        chunk: 3,
      });
      const client = createIpfsClient({
        apiUrl: 'http://127.0.0.1:5001',
        ...LIMITS,
        fetch: node.fetch,
      });
      expect(
        Buffer.from(await client.cat(dag.cids[2].toString())).toString(),
      ).toBe('hello worldhello ');
      expect(
        Buffer.from(await reference(dag.cids[2], dag.store)).toString(),
      ).toBe('hello worldhello ');
    }
    const endless = new HostileNode(
      dag.store,
      [{ at: 0, kind: 'endless', n: 0 }],
      { blockGetStatus: 200, pretty: false, chunk: 1 },
    );
    const error = await createIpfsClient({
      apiUrl: 'http://127.0.0.1:5001',
      ...LIMITS,
      fetch: endless.fetch,
    })
      .cat(dag.cids[2].toString())
      .catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(endless.pulled).toBeLessThanOrEqual(PER_REQUEST_BYTES);
  });
});
