import type { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';

import type { ByteCache } from './cache';
import type { Deadline } from './deadline';
import {
  ContentVerificationError,
  InvalidContentError,
  IpfsApiError,
} from './errors';
import { send } from './http';
import type { HttpSettings } from './http';
import { requestJson } from './ndjson';
import { encodeMatching, nodeFromObject } from './object';
import type { ServedNode } from './object';
import { DAG_PB_CODE, RAW_CODE, verifyBlock } from './verify';

/**
 * Verified blocks from the IPFS HTTP API (Kubo RPC API,
 * https://docs.ipfs.tech/reference/kubo/rpc/). First `block/get`, the block's
 * bytes, hash-checked. A provider that answers `block/get` with 404 (unknown
 * command) or 405 (not allowed) is remembered, and from then on blocks come from:
 * - `cat` for a raw CID: a raw block is its own file; the bytes are hash-checked;
 * - `object/get?encoding=json&data-encoding=base64` for a dag-pb CID: the
 *   node's Links and Data, re-encoded with @ipld/dag-pb to bytes that must hash
 *   to the CID. What is returned is then the block itself, verified as strictly
 *   as through `block/get`.
 */

/** Bytes a block may exceed the file cap by (dag-pb framing of a leaf, links of a root). */
export const BLOCK_FRAMING_BYTES = 4096;

/** Source of verified blocks for one client. */
export type BlockSource = {
  /**
   * One block, verified against `cid` (from the cache, `block/get`, or the fallback).
   *
   * @throws IpfsApiError, ContentVerificationError, InvalidContentError, ResponseTooLargeError,
   * IpfsTimeoutError, IpfsTransportError.
   */
  get(cid: CID, deadline: Deadline): Promise<Uint8Array>;
  /** The `object/get` reply of a dag-pb CID, types checked but NOT verified. Errors as `get`. */
  getObject(cid: CID, deadline: Deadline): Promise<ServedNode>;
};

/**
 * Whether an error says the provider does not serve a command at all.
 *
 * @param error - What a request threw.
 * @returns True for a 404 or 405 status before any body was streamed.
 */
function notServed(error: unknown): boolean {
  return (
    error instanceof IpfsApiError &&
    !error.streamed &&
    (error.status === 404 || error.status === 405)
  );
}

/**
 * Create the block source of a client.
 *
 * @param http - Client settings.
 * @param cache - Cache of verified content (shared with the client).
 * @param maxBytes - The client's file cap, in bytes (a block may exceed it by {@link BLOCK_FRAMING_BYTES}).
 * @returns The source.
 */
export function createBlockSource(
  http: HttpSettings,
  cache: ByteCache,
  maxBytes: number,
): BlockSource {
  const maxBlockBytes = maxBytes + BLOCK_FRAMING_BYTES;
  let blockGetServed = true;

  /**
   * The `object/get` reply for a dag-pb CID, read into dag-pb shape
   * (unverified).
   *
   * @param cid - The CID.
   * @param deadline - The deadline of the read.
   * @returns The served node.
   */
  const getObject = async (
    cid: CID,
    deadline: Deadline,
  ): Promise<ServedNode> => {
    const query = {
      args: [cid.toString()],
      flags: { encoding: 'json', 'data-encoding': 'base64' },
    };
    // base64 is 4/3 of the data; each link's JSON is about twice its binary form.
    return nodeFromObject(
      cid.toString(),
      await requestJson(http, 'object/get', query, 2 * maxBlockBytes, deadline),
    );
  };

  /**
   * A block when `block/get` is not served: `cat` for a raw CID, `object/get`
   * re-encoded for dag-pb; hash-checked either way.
   *
   * @param cid - The CID.
   * @param deadline - The deadline of the read.
   * @returns The verified block bytes.
   * @throws ContentVerificationError when no encoding hashes to the CID;
   * InvalidContentError for another codec.
   */
  const fallback = async (
    cid: CID,
    deadline: Deadline,
  ): Promise<Uint8Array> => {
    if (cid.code === RAW_CODE) {
      const reply = await send(
        http,
        'cat',
        { args: [cid.toString()] },
        deadline,
      );
      const bytes = await reply.bytes(maxBlockBytes);
      await verifyBlock(cid, bytes);
      return bytes;
    }
    if (cid.code === DAG_PB_CODE) {
      const block = await encodeMatching(cid, await getObject(cid, deadline));
      if (!block) {
        throw new ContentVerificationError(
          cid.toString(),
          'no dag-pb encoding of the object/get reply hashes to the CID',
        );
      }
      return block;
    }
    throw new InvalidContentError(
      `block/get is not served and codec 0x${cid.code.toString(16)} has no verified fallback`,
      cid.toString(),
    );
  };

  /** @inheritdoc */
  const get = async (cid: CID, deadline: Deadline): Promise<Uint8Array> => {
    if (cid.multihash.code === identity.code) {
      return cid.multihash.digest.slice();
    }
    const key = `block:${cid.toV1().toString()}`;
    const cached = cache.get(key);
    if (cached) {
      return cached;
    }
    let bytes: Uint8Array | undefined;
    if (blockGetServed) {
      try {
        const reply = await send(
          http,
          'block/get',
          { args: [cid.toString()] },
          deadline,
        );
        bytes = await reply.bytes(maxBlockBytes);
        await verifyBlock(cid, bytes);
      } catch (error) {
        if (!notServed(error)) {
          throw error;
        }
        // eslint-disable-next-line require-atomic-updates -- deliberately shared: once a read finds block/get unserved, later reads use the fallback (setting false twice is harmless)
        blockGetServed = false;
        bytes = undefined;
      }
    }
    bytes ??= await fallback(cid, deadline);
    cache.set(key, bytes);
    return bytes;
  };

  return { get, getObject };
}
