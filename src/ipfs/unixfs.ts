import { decode as decodePb, type PBNode } from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';

import { ContentVerificationError, InvalidContentError, ResponseTooLargeError } from './errors';
import { DAG_PB_CODE, RAW_CODE } from './verify';

/**
 * Reassemble a UnixFS file from verified blocks (dag-pb nodes with dag-pb or
 * raw leaves, the DAGs `ipfs add` builds, CIDv0 and CIDv1). Every block comes
 * from `getBlock`, which hash-checks it against its CID; this walk checks that
 * each child's length matches the parent's `blockSizes` and the total matches
 * `fileSize()`, within `maxBytes` bytes and `maxDepth` levels.
 */

/** Fetch one block, already verified against `cid`. */
export type GetBlock = (cid: CID) => Promise<Uint8Array>;

/** Bounds of one walk. */
export type WalkLimits = {
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** Deepest DAG accepted (root is depth 0); Kubo's balanced layout is ~3 deep for 4 GiB. */
  maxDepth: number;
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
    throw new InvalidContentError('not a valid dag-pb block', cid.toString(), { cause: error });
  }
}

/**
 * Read the file under `root`.
 *
 * @param root - A dag-pb or raw CID.
 * @param getBlock - Verified block source.
 * @param limits - Size and depth bounds.
 * @returns The file's bytes.
 * @throws InvalidContentError (not a file, unsupported codec), ContentVerificationError
 * (sizes inconsistent with the DAG), ResponseTooLargeError (over `maxBytes`).
 */
export async function readUnixfsFile(root: CID, getBlock: GetBlock, limits: WalkLimits): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  const push = (bytes: Uint8Array): void => {
    total += bytes.length;
    if (total > limits.maxBytes) {
      throw new ResponseTooLargeError(`file ${root.toString()}`, limits.maxBytes);
    }
    parts.push(bytes);
  };

  const walk = async (cid: CID, depth: number): Promise<number> => {
    if (depth > limits.maxDepth) {
      throw new InvalidContentError(`DAG deeper than ${limits.maxDepth} levels`, root.toString());
    }
    const block = await getBlock(cid);
    if (cid.code === RAW_CODE) {
      push(block);
      return block.length;
    }
    if (cid.code !== DAG_PB_CODE) {
      throw new InvalidContentError(`unsupported codec 0x${cid.code.toString(16)} (dag-pb and raw are read)`, cid.toString());
    }
    const node = decodeDagPb(cid, block);
    let unixfs: UnixFS;
    try {
      unixfs = UnixFS.unmarshal(node.Data ?? new Uint8Array());
    } catch (error) {
      throw new InvalidContentError('dag-pb node without UnixFS data', cid.toString(), { cause: error });
    }
    if (unixfs.type !== 'file' && unixfs.type !== 'raw') {
      throw new InvalidContentError(`is a UnixFS ${unixfs.type}, not a file`, cid.toString());
    }
    const expected = unixfs.fileSize();
    if (expected > BigInt(limits.maxBytes)) {
      throw new ResponseTooLargeError(`file ${root.toString()} (${expected} bytes)`, limits.maxBytes);
    }
    if (node.Links.length !== unixfs.blockSizes.length) {
      throw new ContentVerificationError(cid.toString(), `${node.Links.length} links but ${unixfs.blockSizes.length} block sizes`);
    }
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
      throw new ContentVerificationError(cid.toString(), `reassembled ${length} bytes, UnixFS says ${expected}`);
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
