import { CID } from 'multiformats/cid';
import { identity } from 'multiformats/hashes/identity';
import { sha256, sha512 } from 'multiformats/hashes/sha2';

import { ContentVerificationError, InvalidCidError } from './errors';

/**
 * CID parsing and hash verification. `multiformats/hashes/sha2` resolves to
 * `node:crypto` in Node and to `crypto.subtle` in browser builds (the snap
 * bundle); both are awaited the same way here.
 */

/** Multicodec of raw bytes (`bafkrei...`). */
export const RAW_CODE = 0x55;
/** Multicodec of dag-pb (every CIDv0, `Qm...`, and `bafybei...`). */
export const DAG_PB_CODE = 0x70;

const HASHERS: Record<
  number,
  {
    /** The hash function's name. */
    name: string;
    digest(input: Uint8Array): unknown;
  }
> = {
  [sha256.code]: sha256,
  [sha512.code]: sha512,
  [identity.code]: identity,
};

/**
 * Parse a bare CID string (CIDv0 `Qm...` or CIDv1 in any base multiformats
 * decodes by default: base32, base58btc, base36). Paths are refused.
 *
 * @param input - The CID string.
 * @returns The CID.
 * @throws InvalidCidError for anything else.
 */
export function parseCid(input: unknown): CID {
  if (typeof input !== 'string' || input.length === 0 || input.length > 200) {
    throw new InvalidCidError(input);
  }
  try {
    return CID.parse(input.trim());
  } catch (error) {
    throw new InvalidCidError(input, { cause: error });
  }
}

/**
 * The hash function of a CID, when the client can check it.
 *
 * @param cid - The CID.
 * @returns Its hasher.
 * @throws ContentVerificationError for an unsupported hash function.
 */
function hasherOf(cid: CID): {
  /** The hash function's name. */
  name: string;
  digest(input: Uint8Array): unknown;
} {
  const hasher = HASHERS[cid.multihash.code];
  if (!hasher) {
    throw new ContentVerificationError(
      cid.toString(),
      `unsupported hash function 0x${cid.multihash.code.toString(16)} (sha2-256, sha2-512 and identity are checked)`,
    );
  }
  return hasher;
}

/**
 * Whether `bytes` hash to the CID's multihash (same function, same digest).
 *
 * @param cid - The CID.
 * @param bytes - Candidate bytes.
 * @returns True on a match.
 * @throws ContentVerificationError for an unsupported hash function.
 */
export async function hashesTo(cid: CID, bytes: Uint8Array): Promise<boolean> {
  const digest = (await hasherOf(cid).digest(bytes)) as {
    /** The raw digest bytes. */
    digest: Uint8Array;
  };
  return equalBytes(digest.digest, cid.multihash.digest);
}

/**
 * Check that `bytes` hash to the CID's multihash (same function, same digest).
 *
 * @param cid - The CID asked for.
 * @param bytes - What arrived.
 * @throws ContentVerificationError on a mismatch or an unsupported hash function.
 */
export async function verifyBlock(cid: CID, bytes: Uint8Array): Promise<void> {
  if (!(await hashesTo(cid, bytes))) {
    throw new ContentVerificationError(
      cid.toString(),
      `${hasherOf(cid).name} digest of the ${bytes.length} bytes received does not match`,
    );
  }
}

/**
 * Byte-wise equality.
 *
 * @param a - First.
 * @param b - Second.
 * @returns True when equal.
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}
