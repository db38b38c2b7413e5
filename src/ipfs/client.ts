import { identity } from 'multiformats/hashes/identity';

import { createBlockSource, BLOCK_FRAMING_BYTES } from './blocks';
import { ByteCache } from './cache';
import { Deadline } from './deadline';
import { IpfsError, InvalidContentError } from './errors';
import { basicAuthorization, send } from './http';
import type { FetchLike, HttpSettings, Query, ResponseLike } from './http';
import { parseJsonText } from './json';
import { parseNdjson, requestJson } from './ndjson';
import { checkObject, encodeMatching, objectOf } from './object';
import type { IpfsObject } from './object';
import {
  decodeDagPb,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_NODES,
  readUnixfsFile,
} from './unixfs';
import { normalizeIpfsApiUrl } from './url';
import { DAG_PB_CODE, parseCid, RAW_CODE, verifyBlock } from './verify';

export type { IpfsLink, IpfsObject } from './object';

/** Options of {@link createIpfsClient}. */
export type IpfsClientOptions = {
  /**
   * Base URL of the API, e.g. `https://ipfs.example.com:5001` (a trailing `/api/v0` is accepted);
   * https, or http to a loopback host. See {@link normalizeIpfsApiUrl}.
   */
  apiUrl: string;
  /** API key: with `apiKeySecret`, sent as HTTP basic credentials (RFC 7617) on every request. */
  apiKey?: string;
  /** API key secret (the basic-auth password; empty when only `apiKey` is given). */
  apiKeySecret?: string;
  /** `fetch` implementation; default `globalThis.fetch`, looked up at call time. */
  fetch?: FetchLike;
  /** Timeout of one HTTP request including its body, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /**
   * Deadline of one read: every request of one call (`cat`, `getJson`, `objectGet`,
   * `blockGet`, `requestJson`, a whole `streamNdjson`) and the work between them,
   * in milliseconds (default {@link DEFAULT_DEADLINE_MS}); past it the call throws IpfsDeadlineError.
   */
  deadlineMs?: number;
  /** Largest file / reply accepted, in bytes (default 4 MiB); a block may exceed it by 4 KiB of framing. */
  maxBytes?: number;
  /** Size of the verified-content cache, in bytes (default 8 MiB; 0 disables it). */
  cacheBytes?: number;
  /** Deepest UnixFS DAG walked (default 16). */
  maxDepth?: number;
  /** Most UnixFS nodes visited in one read, a repeated child counting each time (default {@link DEFAULT_MAX_NODES}). */
  maxNodes?: number;
};

/** A client of the IPFS HTTP API whose reads are verified against their CID. */
export type IpfsClient = {
  /**
   * The bytes of the file under `cid` (POST `cat` for a raw CID; for dag-pb,
   * the blocks via `block/get`, or `object/get` when `block/get` is not served,
   * each hash-checked, reassembled).
   *
   * @throws InvalidCidError, IpfsApiError, ContentVerificationError, InvalidContentError (not a file),
   * DagLimitError, ResponseTooLargeError, IpfsTimeoutError (IpfsDeadlineError), IpfsTransportError.
   */
  cat(cid: string): Promise<Uint8Array>; // eslint-disable-line id-denylist -- named after Kubo's `cat` command; public API
  /** One block (POST `block/get`, or the fallback), hash-checked against `cid`. Errors as `cat`. */
  blockGet(cid: string): Promise<Uint8Array>;
  /**
   * POST `object/get?encoding=json&data-encoding=base64`: the dag-pb node under
   * `cid`, re-encoded and hash-checked (or, when the reply cannot be re-encoded
   * to the block, cross-checked against the verified block). Errors as `cat`;
   * InvalidContentError for a non-dag-pb CID.
   */
  objectGet(cid: string): Promise<IpfsObject>;
  /** `cat`, then UTF-8 and JSON.parse (nesting at most 64 deep); InvalidContentError when it is not JSON. */
  getJson(cid: string): Promise<unknown>;
  /** Any command with a single JSON reply, compact or pretty-printed (unverified: the caller checks what it needs). */
  requestJson(command: string, query?: Query): Promise<unknown>;
  /** Any command with an NDJSON reply, item by item; an error object throws `IpfsApiError`. */
  streamNdjson(command: string, query?: Query): AsyncGenerator<unknown>;
};

const DEFAULT_TIMEOUT_MS = 30_000;
/** Default deadline of one read, in milliseconds. */
export const DEFAULT_DEADLINE_MS = 30_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Check a numeric option.
 *
 * @param name - Option name.
 * @param value - Its value.
 * @returns The value.
 * @throws IpfsError unless it is a positive safe integer.
 */
function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new IpfsError(`${name} must be a positive integer`);
  }
  return value;
}

/**
 * Create a client of the IPFS HTTP API (Kubo RPC API, https://docs.ipfs.tech/reference/kubo/rpc/).
 * Nothing is sent until a method is called.
 *
 * @param options - See {@link IpfsClientOptions}.
 * @returns The client.
 * @throws InvalidApiUrlError for a refused `apiUrl`; IpfsError for invalid limits.
 * @example
 * const ipfs = createIpfsClient({ apiUrl: 'http://127.0.0.1:5001' });
 * const doc = await ipfs.getJson('Qm...'); // verified against the CID
 */
export function createIpfsClient(options: IpfsClientOptions): IpfsClient {
  const apiUrl = normalizeIpfsApiUrl(options.apiUrl);
  const maxBytes = positive('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES);
  const deadlineMs = positive(
    'deadlineMs',
    options.deadlineMs ?? DEFAULT_DEADLINE_MS,
  );
  const authorization =
    options.apiKey === undefined
      ? undefined
      : basicAuthorization(options.apiKey, options.apiKeySecret ?? '');
  const settings: HttpSettings = {
    apiUrl,
    authorization,
    secrets: [
      options.apiKey ?? '',
      options.apiKeySecret ?? '',
      authorization?.slice(6) ?? '',
    ].filter((secret) => secret.length >= 3),
    fetch:
      options.fetch ??
      (async (input, init): Promise<ResponseLike> =>
        globalThis.fetch(input, init)),
    timeoutMs: positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  };
  const cache = new ByteCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const blocks = createBlockSource(settings, cache, maxBytes);
  const maxDepth = positive('maxDepth', options.maxDepth ?? DEFAULT_MAX_DEPTH);
  const maxNodes = positive('maxNodes', options.maxNodes ?? DEFAULT_MAX_NODES);

  /**
   * Run one read under its own deadline.
   *
   * @param operation - The operation's name, for the deadline's error.
   * @param read - The read, given the deadline.
   * @returns What the read resolves to.
   */
  const bounded = async <Result>(
    operation: string,
    read: (deadline: Deadline) => Promise<Result>,
  ): Promise<Result> => {
    const deadline = new Deadline(operation, deadlineMs);
    try {
      return await deadline.race(read(deadline));
    } finally {
      deadline.dispose();
    }
  };

  /**
   * The bytes of a file: `cat` for a raw CID, else the UnixFS DAG walked block
   * by block; cached by CID.
   *
   * @param input - The CID string.
   * @param deadline - The deadline of the read.
   * @returns The verified file bytes.
   */
  const catFile = async (
    input: string,
    deadline: Deadline,
  ): Promise<Uint8Array> => {
    const cid = parseCid(input);
    const key = `file:${cid.toV1().toString()}`;
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    let bytes: Uint8Array;
    if (cid.code === RAW_CODE && cid.multihash.code !== identity.code) {
      const reply = await send(
        settings,
        'cat',
        { args: [cid.toString()] },
        deadline,
      );
      bytes = await reply.bytes(maxBytes);
      await verifyBlock(cid, bytes);
    } else {
      bytes = await readUnixfsFile(
        cid,
        async (child) => blocks.get(child, deadline),
        {
          maxBytes,
          maxDepth,
          maxNodes,
          // Distinct blocks: the file plus its DAG framing (under 50% of it for chunks of 100 bytes or more).
          maxFetchBytes: 2 * maxBytes + BLOCK_FRAMING_BYTES,
          /** @inheritdoc */
          check: () => deadline.check(),
        },
      );
    }
    cache.set(key, bytes);
    return bytes;
  };

  /**
   * An `object/get` node, hash-checked against its CID.
   *
   * @param input - The CID string (dag-pb).
   * @param deadline - The deadline of the read.
   * @returns The object, in the API's JSON shape.
   */
  const objectGet = async (
    input: string,
    deadline: Deadline,
  ): Promise<IpfsObject> => {
    const cid = parseCid(input);
    if (cid.code !== DAG_PB_CODE) {
      throw new InvalidContentError('object/get needs a dag-pb CID', input);
    }
    const served = await blocks.getObject(cid, deadline);
    const block =
      (await encodeMatching(cid, served)) ?? (await blocks.get(cid, deadline));
    const node = decodeDagPb(cid, block);
    checkObject(input, served, node);
    return objectOf(node);
  };

  return {
    /** @inheritdoc */
    // eslint-disable-next-line id-denylist -- IpfsClient.cat, named after Kubo's `cat` command
    cat: async (input) =>
      bounded('cat', async (deadline) => catFile(input, deadline)),
    /** @inheritdoc */
    blockGet: async (input) =>
      bounded('blockGet', async (deadline) =>
        blocks.get(parseCid(input), deadline),
      ),
    /** @inheritdoc */
    getJson: async (input) =>
      bounded('getJson', async (deadline) => {
        const bytes = await catFile(input, deadline);
        let text: string;
        try {
          text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch (error) {
          throw new InvalidContentError('is not a UTF-8 JSON document', input, {
            cause: error,
          });
        }
        try {
          return parseJsonText(text, 'document');
        } catch (error) {
          throw new InvalidContentError(
            `is not a UTF-8 JSON document (${(error as Error).message})`,
            input,
          );
        }
      }),
    /** @inheritdoc */
    objectGet: async (input) =>
      bounded('objectGet', async (deadline) => objectGet(input, deadline)),
    /** @inheritdoc */
    requestJson: async (command, query) =>
      bounded(command, async (deadline) =>
        requestJson(settings, command, query, maxBytes * 2, deadline),
      ),
    /** @inheritdoc */
    async *streamNdjson(command, query): AsyncGenerator<unknown> {
      const deadline = new Deadline(command, deadlineMs);
      try {
        const reply = await deadline.race(
          send(settings, command, query, deadline),
        );
        yield* parseNdjson(reply.chunks(maxBytes), command, settings.secrets);
      } finally {
        deadline.dispose();
      }
    },
  };
}
