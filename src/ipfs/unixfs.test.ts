import { code as DAG_PB, encode, prepare } from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

import { createIpfsClient } from './client';
import {
  ContentVerificationError,
  InvalidContentError,
  ResponseTooLargeError,
} from './errors';
import type { FetchLike } from './http';
import { readUnixfsFile } from './unixfs';
import { RAW_CODE } from './verify';

/** Hand-built DAGs, served from a map: the walk's own checks, without a server. */
const blocks = new Map<string, Uint8Array>();

/**
 * Store a block and return its CIDv1.
 *
 * @param codec - dag-pb or raw.
 * @param bytes - The block.
 * @returns Its CID.
 */
async function put(codec: number, bytes: Uint8Array): Promise<CID> {
  const cid = CID.createV1(codec, await sha256.digest(bytes));
  blocks.set(cid.toString(), bytes);
  return cid;
}

/**
 * Store a dag-pb node with UnixFS data and links.
 *
 * @param unixfs - Its UnixFS data.
 * @param links - Child CIDs.
 * @returns Its CID.
 */
async function pbNode(unixfs: UnixFS, links: CID[] = []): Promise<CID> {
  const node = prepare({
    Data: unixfs.marshal(),
    Links: links.map((Hash) => ({ Hash, Name: '', Tsize: 1 })),
  });
  return put(DAG_PB, encode(node));
}

/**
 * The block of a CID from the fixture's blocks.
 *
 * @param cid - The CID.
 * @returns The block bytes.
 */
const getBlock = async (cid: CID): Promise<Uint8Array> =>
  blocks.get(cid.toString()) as Uint8Array;
const limits = {
  maxBytes: 2 ** 20,
  maxDepth: 16,
  maxNodes: 1000,
  maxFetchBytes: 2 ** 21,
};
/**
 * UTF-8 bytes of a string.
 *
 * @param text - The string.
 * @returns Its UTF-8 encoding.
 */
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readUnixfsFile', () => {
  it('reassembles data + children in link order (raw and dag-pb leaves)', async () => {
    const a = await put(RAW_CODE, bytes('abc'));
    const b = await pbNode(new UnixFS({ type: 'file', data: bytes('de') }));
    const root = await pbNode(
      new UnixFS({ type: 'file', data: bytes('>'), blockSizes: [3n, 2n] }),
      [a, b],
    );
    expect(
      new TextDecoder().decode(await readUnixfsFile(root, getBlock, limits)),
    ).toBe('>abcde');
  });

  it('refuses directories and unsupported codecs', async () => {
    const dir = await pbNode(new UnixFS({ type: 'directory' }));
    await expect(readUnixfsFile(dir, getBlock, limits)).rejects.toThrow(
      /UnixFS directory, not a file/u,
    );
    const cbor = CID.createV1(0x71, await sha256.digest(bytes('x')));
    blocks.set(cbor.toString(), bytes('x'));
    await expect(readUnixfsFile(cbor, getBlock, limits)).rejects.toThrow(
      InvalidContentError,
    );
  });

  it('catches children that do not match the parent block sizes', async () => {
    const a = await put(RAW_CODE, bytes('abc'));
    const root = await pbNode(new UnixFS({ type: 'file', blockSizes: [4n] }), [
      a,
    ]);
    const error = await readUnixfsFile(root, getBlock, limits).catch(
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(ContentVerificationError);
    expect((error as ContentVerificationError).reason).toBe(
      `child holds 3 bytes, parent ${root.toString()} says 4`,
    );
  });

  it('bounds depth and size', async () => {
    let cid = await put(RAW_CODE, bytes('z'));
    for (let depth = 0; depth < 5; depth += 1) {
      cid = await pbNode(new UnixFS({ type: 'file', blockSizes: [1n] }), [cid]);
    }
    expect(await readUnixfsFile(cid, getBlock, limits)).toHaveLength(1);
    await expect(
      readUnixfsFile(cid, getBlock, { ...limits, maxDepth: 3 }),
    ).rejects.toThrow(/deeper than 3/u);
    const huge = await pbNode(
      new UnixFS({ type: 'file', blockSizes: [2n ** 40n] }),
      [cid],
    );
    await expect(readUnixfsFile(huge, getBlock, limits)).rejects.toThrow(
      ResponseTooLargeError,
    );
  });

  it('is what the client uses: a directory CID served by a stub API is refused by cat', async () => {
    const dir = await pbNode(new UnixFS({ type: 'directory' }));
    /**
     * Serves the fixture's blocks through `block/get`.
     *
     * @param url - The request URL, naming the CID as `arg`.
     * @returns The block, or HTTP 500 when unknown.
     */
    const serveBlocks: FetchLike = async (url) => {
      const arg = new URL(url).searchParams.get('arg') as string;
      const block = blocks.get(CID.parse(arg).toV1().toString());
      // eslint-disable-next-line no-restricted-globals -- Response is a Node.js global (unflagged since 18; the project needs >= 20)
      return new Response(block ? new Uint8Array(block) : null, {
        status: 200,
      });
    };
    const client = createIpfsClient({
      apiUrl: 'https://stub.example',
      fetch: serveBlocks,
    });
    await expect(client.cat(dir.toString())).rejects.toThrow(/not a file/u);
    await expect(
      client.cat(CID.parse(dir.toString()).toV0().toString()),
    ).rejects.toThrow(/not a file/u);
  });
});
