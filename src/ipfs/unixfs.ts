import { decode as decodePb } from '@ipld/dag-pb';
import type { PBNode } from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';

import {
  ContentVerificationError,
  DagLimitError,
  InvalidContentError,
  ResponseTooLargeError,
} from './errors';
import { DAG_PB_CODE, RAW_CODE } from './verify';

/**
 * Reassemble a UnixFS file (https://specs.ipfs.tech/unixfs/) from verified
 * blocks: dag-pb nodes (https://ipld.io/specs/codecs/dag-pb/spec/) with dag-pb
 * or raw leaves, the DAGs `ipfs add` builds, CIDv0 and CIDv1. Every block comes
 * from `getBlock`, which hash-checks it against its CID; this walk checks that
 * each child's length matches the parent's `blocksizes` and the total matches
 * `filesize`, and bounds the work a hostile DAG can cause:
 * - `maxNodes` node visits (a child linked twice is visited twice, so a
 *   fan-out of repeated children cannot multiply the work unnoticed);
 * - `maxDepth` levels;
 * - `maxBytes` bytes of output (a repeated child's bytes count each time);
 * - `maxFetchBytes` bytes of distinct blocks fetched;
 * - a link whose `blocksizes` entry or dag-pb `Tsize` is 0 is refused (no
 *   importer links an empty chunk; such links only serve to multiply visits);
 * - each distinct CID is fetched once per read (kept in a per-read map).
 */

/** Fetch one block, already verified against `cid`. */
export type GetBlock = (cid: CID) => Promise<Uint8Array>;

/**
 * Default bound on node visits per read: a 4 MiB file cut in 1 KiB chunks is
 * 4,096 leaves and 24 parents (Kubo's default 256 KiB chunks: 16 leaves and a root).
 */
export const DEFAULT_MAX_NODES = 10_000;

/** Default deepest DAG walked (root is depth 0); Kubo's balanced layout is 3 deep for 1 TiB. */
export const DEFAULT_MAX_DEPTH = 16;

/** Bounds of one walk. */
export type WalkLimits = {
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** Deepest DAG accepted (root is depth 0). */
  maxDepth: number;
  /** Most node visits (root included; a repeated child counts each time). */
  maxNodes: number;
  /** Most bytes of distinct blocks fetched (file bytes plus the DAG's framing). */
  maxFetchBytes: number;
  /** Called before each visit; throws to stop the walk (the read's deadline). */
  check?: () => void;
};

/**
 * Decode a dag-pb block.
 *
 * @param cid - Its CID (for messages).
 * @param block - The verified bytes.
 * @returns The node.
 * @throws InvalidContentError when it is not dag-pb.
 */
export function decodeDagPb(cid: CID, block: Uint8Array): PBNode {
  try {
    return decodePb(block);
  } catch (error) {
    throw new InvalidContentError('not a valid dag-pb block', cid.toString(), {
      cause: error,
    });
  }
}

/**
 * Decode the UnixFS data of a dag-pb file node.
 *
 * @param cid - The node's CID.
 * @param node - The decoded node.
 * @returns Its UnixFS data.
 * @throws InvalidContentError when it is not a UnixFS file (or raw) node.
 */
function fileData(cid: CID, node: PBNode): UnixFS {
  let unixfs: UnixFS;
  try {
    unixfs = UnixFS.unmarshal(node.Data ?? new Uint8Array());
  } catch (error) {
    throw new InvalidContentError(
      'dag-pb node without UnixFS data',
      cid.toString(),
      { cause: error },
    );
  }
  if (unixfs.type !== 'file' && unixfs.type !== 'raw') {
    throw new InvalidContentError(
      `is a UnixFS ${unixfs.type}, not a file`,
      cid.toString(),
    );
  }
  return unixfs;
}

/**
 * Check a node's links against its `blocksizes` before any child is fetched.
 *
 * @param cid - The node's CID.
 * @param node - The decoded node.
 * @param unixfs - Its UnixFS data.
 * @throws ContentVerificationError for a count mismatch or a zero-size link.
 */
function checkLinks(cid: CID, node: PBNode, unixfs: UnixFS): void {
  if (node.Links.length !== unixfs.blockSizes.length) {
    throw new ContentVerificationError(
      cid.toString(),
      `${node.Links.length} links but ${unixfs.blockSizes.length} block sizes`,
    );
  }
  for (const [index, link] of node.Links.entries()) {
    if (unixfs.blockSizes[index] === 0n || link.Tsize === 0) {
      throw new ContentVerificationError(
        cid.toString(),
        `link ${index} claims a size of 0 (an empty child holds no file data)`,
      );
    }
  }
}

/**
 * Read the file under `root`.
 *
 * @param root - A dag-pb or raw CID.
 * @param getBlock - Verified block source.
 * @param limits - Bounds of the walk.
 * @returns The file's bytes.
 * @throws InvalidContentError (not a file, unsupported codec), DagLimitError (over
 * `maxNodes` or `maxDepth`), ContentVerificationError (sizes inconsistent with the DAG,
 * zero-size links), ResponseTooLargeError (over `maxBytes` or `maxFetchBytes`), and what
 * `getBlock` and `limits.check` throw.
 */
export async function readUnixfsFile(
  root: CID,
  getBlock: GetBlock,
  limits: WalkLimits,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  let visits = 0;
  let fetched = 0;
  const seen = new Map<
    string,
    {
      /** The raw block. */
      block: Uint8Array;
      /** Its dag-pb node and UnixFS data, when it is a dag-pb file node. */
      file?: {
        /** The decoded dag-pb node. */
        node: PBNode;
        /** Its UnixFS data. */
        unixfs: UnixFS;
      };
    }
  >();
  /**
   * Append a part of the file, within the file cap.
   *
   * @param bytes - The part.
   * @throws ResponseTooLargeError beyond `maxBytes`.
   */
  const push = (bytes: Uint8Array): void => {
    total += bytes.length;
    if (total > limits.maxBytes) {
      throw new ResponseTooLargeError(
        `file ${root.toString()}`,
        limits.maxBytes,
      );
    }
    parts.push(bytes);
  };
  /**
   * The block (and, for dag-pb, its checked decoding) of a CID, fetched and decoded once per read.
   *
   * @param cid - The CID.
   * @returns The block and, for dag-pb, its decoding.
   */
  const load = async (
    cid: CID,
  ): Promise<{
    /** The raw block. */
    block: Uint8Array;
    /** Its dag-pb node and UnixFS data, when it is a dag-pb file node. */
    file?: {
      /** The decoded dag-pb node. */
      node: PBNode;
      /** Its UnixFS data. */
      unixfs: UnixFS;
    };
  }> => {
    const key = cid.toV1().toString();
    let entry = seen.get(key);
    if (!entry) {
      const block = await getBlock(cid);
      fetched += block.length;
      if (fetched > limits.maxFetchBytes) {
        throw new ResponseTooLargeError(
          `DAG of ${root.toString()}`,
          limits.maxFetchBytes,
        );
      }
      entry = { block };
      if (cid.code === DAG_PB_CODE) {
        const node = decodeDagPb(cid, block);
        const unixfs = fileData(cid, node);
        if (unixfs.fileSize() > BigInt(limits.maxBytes)) {
          throw new ResponseTooLargeError(
            `file ${root.toString()} (${unixfs.fileSize()} bytes)`,
            limits.maxBytes,
          );
        }
        checkLinks(cid, node, unixfs);
        entry.file = { node, unixfs };
      }
      seen.set(key, entry);
    }
    return entry;
  };

  /**
   * Append the bytes of the DAG under a CID, depth first.
   *
   * @param cid - The node's CID.
   * @param depth - Its depth below the root.
   * @returns The bytes the node's subtree appended.
   */
  const walk = async (cid: CID, depth: number): Promise<number> => {
    limits.check?.();
    visits += 1;
    if (visits > limits.maxNodes) {
      throw new DagLimitError(root.toString(), 'nodes', limits.maxNodes);
    }
    if (depth > limits.maxDepth) {
      throw new DagLimitError(root.toString(), 'depth', limits.maxDepth);
    }
    if (cid.code !== RAW_CODE && cid.code !== DAG_PB_CODE) {
      throw new InvalidContentError(
        `unsupported codec 0x${cid.code.toString(16)} (dag-pb and raw are read)`,
        cid.toString(),
      );
    }
    const { block, file } = await load(cid);
    if (!file) {
      push(block);
      return block.length;
    }
    const { node, unixfs } = file;
    const expected = unixfs.fileSize();
    let length = 0;
    if (unixfs.data && unixfs.data.length > 0) {
      push(unixfs.data);
      length += unixfs.data.length;
    }
    for (const [index, link] of node.Links.entries()) {
      const childLength = await walk(link.Hash, depth + 1);
      if (BigInt(childLength) !== unixfs.blockSizes[index]) {
        throw new ContentVerificationError(
          link.Hash.toString(),
          `child holds ${childLength} bytes, parent ${cid.toString()} says ${unixfs.blockSizes[index]}`,
        );
      }
      length += childLength;
    }
    if (BigInt(length) !== expected) {
      throw new ContentVerificationError(
        cid.toString(),
        `reassembled ${length} bytes, UnixFS says ${expected}`,
      );
    }
    return length;
  };

  await walk(root, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
