import { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';

import { ByteCache } from './cache';
import { ContentVerificationError, InvalidContentError, IpfsError } from './errors';
import { basicAuthorization, send, type FetchLike, type HttpSettings, type Query } from './http';
import { parseNdjson } from './ndjson';
import { decodeDagPb, readUnixfsFile } from './unixfs';
import { DAG_PB_CODE, equalBytes, parseCid, RAW_CODE, verifyBlock } from './verify';

/** Options of {@link createIpfsClient}. */
export type IpfsClientOptions = {
  /** Base URL of the API, e.g. `https://ipfs.example.com:5001` (a trailing `/api/v0` is accepted). http(s) only. */
  apiUrl: string;
  /** API key: with `apiKeySecret`, sent as HTTP basic credentials on every request (spec part (b), "Authentication"). */
  apiKey?: string;
  /** API key secret (the basic-auth password; empty when only `apiKey` is given). */
  apiKeySecret?: string;
  /** `fetch` implementation; default `globalThis.fetch`, looked up at call time. */
  fetch?: FetchLike;
  /** Timeout of one HTTP request including its body, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Largest file / reply accepted, in bytes (default 4 MiB); a block may exceed it by 4 KiB of framing. */
  maxBytes?: number;
  /** Size of the verified-content cache, in bytes (default 8 MiB; 0 disables it). */
  cacheBytes?: number;
  /** Deepest UnixFS DAG walked (default 16). */
  maxDepth?: number;
};

/** A link of the directory-like object (spec part (b), "Storage directory-like object"). */
export type IpfsLink = { Name: string; Hash: string; Size: number };

/** The reply of `object/get`: links, and `Data` as base64 (requested with `data-encoding=base64`). */
export type IpfsObject = { Links: IpfsLink[]; Data: string };

/** A client of the IPFS HTTP API whose reads are verified against their CID. */
export type IpfsClient = {
  /**
   * The bytes of the file under `cid` (POST `cat` for a raw CID; for dag-pb,
   * the blocks via `block/get`, each hash-checked, reassembled).
   *
   * @throws InvalidCidError, IpfsApiError, ContentVerificationError, InvalidContentError (not a file),
   * ResponseTooLargeError, IpfsTimeoutError, IpfsTransportError.
   */
  cat(cid: string): Promise<Uint8Array>;
  /** One block (POST `block/get`), hash-checked against `cid`. Errors as `cat`. */
  blockGet(cid: string): Promise<Uint8Array>;
  /**
   * POST `object/get?encoding=json&data-encoding=base64`: the dag-pb node under
   * `cid`, cross-checked link by link and byte by byte against the verified
   * block (`block/get`). Errors as `cat`; InvalidContentError for a non-dag-pb CID.
   */
  objectGet(cid: string): Promise<IpfsObject>;
  /** `cat`, then UTF-8 and JSON.parse; InvalidContentError when it is not JSON. */
  getJson(cid: string): Promise<unknown>;
  /** Any command with a single JSON reply (unverified: the caller checks what it needs). */
  requestJson(command: string, query?: Query): Promise<unknown>;
  /** Any command with an NDJSON reply, item by item; a trailing error object throws `IpfsApiError`. */
  streamNdjson(command: string, query?: Query): AsyncGenerator<unknown>;
};

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_CACHE_BYTES = 8 * 1024 * 1024;
const BLOCK_FRAMING_BYTES = 4096;

/**
 * Normalise and check the API URL.
 *
 * @param apiUrl - As configured.
 * @returns The base URL without trailing slash or `/api/v0`.
 * @throws IpfsError when it is not an http(s) URL without user info (the URL itself is not echoed).
 */
function normaliseApiUrl(apiUrl: string): string {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new IpfsError('apiUrl is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IpfsError('apiUrl must be an http(s) URL');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new IpfsError('apiUrl must not carry credentials, a query or a fragment (use apiKey/apiKeySecret)');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/u, '').replace(/\/api\/v0$/u, '');
}

/**
 * Create a client of the IPFS HTTP API (spec part (b)). Nothing is sent until a method is called.
 *
 * @param options - See {@link IpfsClientOptions}.
 * @returns The client.
 * @throws IpfsError for an invalid `apiUrl` or limits.
 * @example
 * const ipfs = createIpfsClient({ apiUrl: 'http://127.0.0.1:5001' });
 * const doc = await ipfs.getJson('Qm...'); // verified against the CID
 */
export function createIpfsClient(options: IpfsClientOptions): IpfsClient {
  const apiUrl = normaliseApiUrl(options.apiUrl);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(maxBytes > 0) || !(timeoutMs > 0)) {
    throw new IpfsError('maxBytes and timeoutMs must be positive');
  }
  const authorization =
    options.apiKey === undefined ? undefined : basicAuthorization(options.apiKey, options.apiKeySecret ?? '');
  const settings: HttpSettings = {
    apiUrl,
    authorization,
    secrets: [options.apiKey ?? '', options.apiKeySecret ?? '', authorization?.slice(6) ?? ''].filter(
      (secret) => secret.length >= 3,
    ),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs,
  };
  const cache = new ByteCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const limits = { maxBytes, maxDepth: options.maxDepth ?? 16 };

  const fetchBlock = async (cid: CID): Promise<Uint8Array> => {
    if (cid.multihash.code === identity.code) {
      return cid.multihash.digest.slice();
    }
    const key = `block:${cid.toV1().toString()}`;
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    const reply = await send(settings, 'block/get', { args: [cid.toString()] });
    const bytes = await reply.bytes(maxBytes + BLOCK_FRAMING_BYTES);
    await verifyBlock(cid, bytes);
    cache.set(key, bytes);
    return bytes;
  };

  const cat = async (input: string): Promise<Uint8Array> => {
    const cid = parseCid(input);
    const key = `file:${cid.toV1().toString()}`;
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    let bytes: Uint8Array;
    if (cid.code === RAW_CODE && cid.multihash.code !== identity.code) {
      const reply = await send(settings, 'cat', { args: [cid.toString()] });
      bytes = await reply.bytes(maxBytes);
      await verifyBlock(cid, bytes);
    } else {
      bytes = await readUnixfsFile(cid, fetchBlock, limits);
    }
    cache.set(key, bytes);
    return bytes;
  };

  const requestJson = async (command: string, query?: Query): Promise<unknown> => {
    const reply = await send(settings, command, query);
    const items: unknown[] = [];
    for await (const item of parseNdjson(reply.chunks(maxBytes * 2), command)) {
      items.push(item);
    }
    if (items.length !== 1) {
      throw new InvalidContentError(`IPFS ${command} replied with ${items.length} JSON values, expected one`);
    }
    return items[0];
  };

  return {
    cat,
    blockGet: async (input) => fetchBlock(parseCid(input)),
    getJson: async (input) => {
      const bytes = await cat(input);
      try {
        return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
      } catch (error) {
        throw new InvalidContentError('is not a UTF-8 JSON document', input, { cause: error });
      }
    },
    objectGet: async (input) => {
      const cid = parseCid(input);
      if (cid.code !== DAG_PB_CODE) {
        throw new InvalidContentError('object/get needs a dag-pb CID', input);
      }
      const reply = await requestJson('object/get', {
        args: [cid.toString()],
        flags: { encoding: 'json', 'data-encoding': 'base64' },
      });
      const node = decodeDagPb(cid, await fetchBlock(cid));
      return checkObject(input, reply, node);
    },
    requestJson,
    streamNdjson: async function* (command, query) {
      const reply = await send(settings, command, query);
      yield* parseNdjson(reply.chunks(maxBytes), command);
    },
  };
}

/**
 * Check an `object/get` reply against the verified node and return it.
 *
 * @param cid - The CID asked for.
 * @param reply - The parsed reply.
 * @param node - The verified dag-pb node.
 * @param node.Links - Its links.
 * @param node.Data - Its data.
 * @returns `{ Links, Data }` (Data base64).
 * @throws InvalidContentError for a malformed reply, ContentVerificationError for a mismatch.
 */
function checkObject(
  cid: string,
  reply: unknown,
  node: { Links: { Name?: string; Hash: CID; Tsize?: number }[]; Data?: Uint8Array },
): IpfsObject {
  const object = reply as { Links?: unknown; Data?: unknown };
  if (!Array.isArray(object?.Links) || typeof object.Data !== 'string') {
    throw new InvalidContentError('object/get reply lacks Links or Data', cid);
  }
  const links = object.Links as { Name?: unknown; Hash?: unknown; Size?: unknown }[];
  if (links.length !== node.Links.length) {
    throw new ContentVerificationError(cid, `object/get lists ${links.length} links, the block has ${node.Links.length}`);
  }
  const verified = node.Links.map((link, index) => {
    const served = links[index];
    let hash: CID | null = null;
    try {
      hash = CID.parse(String(served?.Hash));
    } catch {
      hash = null;
    }
    if (!hash?.equals(link.Hash) || (served?.Name ?? '') !== (link.Name ?? '') || served?.Size !== (link.Tsize ?? 0)) {
      throw new ContentVerificationError(cid, `object/get link ${index} differs from the block`);
    }
    return { Name: link.Name ?? '', Hash: link.Hash.toString(), Size: link.Tsize ?? 0 };
  });
  let data: Uint8Array;
  try {
    data = Uint8Array.from(atob(object.Data), (char) => char.charCodeAt(0));
  } catch (error) {
    throw new InvalidContentError('object/get Data is not base64', cid, { cause: error });
  }
  if (!equalBytes(data, node.Data ?? new Uint8Array())) {
    throw new ContentVerificationError(cid, 'object/get Data differs from the block');
  }
  return { Links: verified, Data: object.Data };
}
