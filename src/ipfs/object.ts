import { encode as encodePb } from '@ipld/dag-pb';
import type { PBLink, PBNode } from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';

import { ContentVerificationError, InvalidContentError } from './errors';
import { equalBytes, hashesTo } from './verify';

/**
 * The JSON form of a dag-pb node, as `object/get?encoding=json&data-encoding=base64`
 * returns it (Kubo RPC API, https://docs.ipfs.tech/reference/kubo/rpc/#api-v0-object-get):
 * `{ Links: [{ Name, Hash, Size }], Data: "<base64>" }`, where `Size` is the
 * link's `Tsize`. The reply is untrusted; it is trusted only once re-encoded
 * with @ipld/dag-pb (https://ipld.io/specs/codecs/dag-pb/spec/) to bytes whose
 * hash is the CID, or once it matches a block verified the same way.
 */

/** A link of the directory-like object. */
export type IpfsLink = {
  /** The link's name (empty for a file's chunks). */
  Name: string; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** The CID of the target, as a string. */
  Hash: string; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** The link's Tsize: total bytes of the target's DAG. */
  Size: number; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
};

/** The reply of `object/get`: links, and `Data` as base64. */
export type IpfsObject = {
  /** The links, in order. */
  Links: IpfsLink[]; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** The node's data, base64. */
  Data: string; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
};

/** An `object/get` reply read into dag-pb shape (unverified). */
export type ServedNode = {
  /** The links, in order, every field present. */
  Links: Required<PBLink>[]; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** The node's data bytes. */
  Data: Uint8Array; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
};

/**
 * Base64 (RFC 4648 §4) of bytes, with `btoa` (present in the snap and in Node).
 *
 * @param bytes - Any bytes.
 * @returns Their base64.
 */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Decode strict base64 (`atob` also accepts whitespace and a missing padding; refused here).
 *
 * @param text - Base64 text.
 * @returns The bytes, or undefined when it is not canonical base64.
 */
function fromBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/u.test(text)) {
    return undefined;
  }
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Read an `object/get` reply into a dag-pb node (types checked, nothing verified yet).
 *
 * @param cid - The CID asked for (for messages).
 * @param reply - The parsed JSON reply.
 * @returns `Links` (Name, Hash as CID, Tsize) and `Data` bytes.
 * @throws InvalidContentError naming the malformed field (values are not echoed).
 */
export function nodeFromObject(cid: string, reply: unknown): ServedNode {
  const object = reply as Record<string, unknown> | null;
  if (
    typeof object !== 'object' ||
    object === null ||
    !Array.isArray(object.Links) ||
    typeof object.Data !== 'string'
  ) {
    throw new InvalidContentError(
      'object/get reply lacks Links (array) or Data (string)',
      cid,
    );
  }
  const data = fromBase64(object.Data);
  if (!data) {
    throw new InvalidContentError('object/get Data is not base64', cid);
  }
  const links = (object.Links as unknown[]).map((served, index) => {
    const link = served as Record<string, unknown> | null;
    const name = link?.Name ?? '';
    if (
      typeof name !== 'string' ||
      typeof link?.Hash !== 'string' ||
      !Number.isSafeInteger(link.Size) ||
      (link.Size as number) < 0
    ) {
      throw new InvalidContentError(
        `object/get link ${index} is not { Name: string, Hash: string, Size: integer >= 0 }`,
        cid,
      );
    }
    let hash: CID;
    try {
      hash = CID.parse(link.Hash);
    } catch {
      throw new InvalidContentError(
        `object/get link ${index} Hash is not a CID`,
        cid,
      );
    }
    return { Name: name, Hash: hash, Tsize: link.Size as number };
  });
  return { Links: links, Data: data };
}

/**
 * Re-encode a node read from `object/get` and return the bytes whose hash is
 * `cid`. JSON loses three distinctions of the binary form, so up to eight
 * encodings are tried: an empty link `Name` present or absent, a zero `Tsize`
 * present or absent, empty `Data` present or absent (Kubo writes all three;
 * other encoders may omit them).
 *
 * @param cid - The CID asked for.
 * @param node - From {@link nodeFromObject}.
 * @param node.Links - Its links.
 * @param node.Data - Its data.
 * @returns The verified block, or undefined when no encoding hashes to `cid`.
 * @throws ContentVerificationError only for a hash function the client cannot check.
 */
export async function encodeMatching(
  cid: CID,
  node: ServedNode,
): Promise<Uint8Array | undefined> {
  /**
   * The values to try for an encoding choice.
   *
   * @param applies - Whether the choice matters for this node.
   * @returns Both values when it does, else only `true`.
   */
  const choices = (applies: boolean): boolean[] =>
    applies ? [true, false] : [true];
  const tried: Uint8Array[] = [];
  for (const keepNames of choices(
    node.Links.some((link) => link.Name === ''),
  )) {
    for (const keepSizes of choices(
      node.Links.some((link) => link.Tsize === 0),
    )) {
      for (const keepData of choices(node.Data.length === 0)) {
        const candidate: PBNode = {
          Links: node.Links.map((link) => ({
            Hash: link.Hash,
            ...(keepNames || link.Name !== '' ? { Name: link.Name } : {}),
            ...(keepSizes || link.Tsize !== 0 ? { Tsize: link.Tsize } : {}),
          })),
          ...(keepData ? { Data: node.Data } : {}),
        };
        let block: Uint8Array;
        try {
          block = encodePb(candidate);
        } catch {
          return undefined; // not a canonical dag-pb form (e.g. links out of order): cannot be the block
        }
        if (!tried.some((other) => equalBytes(other, block))) {
          tried.push(block);
          if (await hashesTo(cid, block)) {
            return block;
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * The object of a verified dag-pb node, in `object/get` form.
 *
 * @param node - A node decoded from a verified block.
 * @returns `{ Links: { Name, Hash, Size }[], Data }` (Data base64).
 */
export function objectOf(node: PBNode): IpfsObject {
  return {
    Links: node.Links.map((link) => ({
      Name: link.Name ?? '',
      Hash: link.Hash.toString(),
      Size: link.Tsize ?? 0,
    })),
    Data: toBase64(node.Data ?? new Uint8Array()),
  };
}

/**
 * Check an `object/get` reply against a verified node (used when the reply
 * could not be re-encoded to the block: another encoder's choices).
 *
 * @param cid - The CID asked for.
 * @param served - The reply, from {@link nodeFromObject}.
 * @param served.Links - Its links.
 * @param served.Data - Its data.
 * @param node - The verified node.
 * @throws ContentVerificationError for any difference.
 */
export function checkObject(
  cid: string,
  served: ServedNode,
  node: PBNode,
): void {
  if (served.Links.length !== node.Links.length) {
    throw new ContentVerificationError(
      cid,
      `object/get lists ${served.Links.length} links, the block has ${node.Links.length}`,
    );
  }
  node.Links.forEach((link, index) => {
    const other = served.Links[index];
    if (
      !other.Hash.equals(link.Hash) ||
      other.Name !== (link.Name ?? '') ||
      other.Tsize !== (link.Tsize ?? 0)
    ) {
      throw new ContentVerificationError(
        cid,
        `object/get link ${index} differs from the block`,
      );
    }
  });
  if (!equalBytes(served.Data, node.Data ?? new Uint8Array())) {
    throw new ContentVerificationError(
      cid,
      'object/get Data differs from the block',
    );
  }
}
