import { code as DAG_PB, decode, encode, prepare } from '@ipld/dag-pb';
import type { PBLink } from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';

import type { FetchLike, ResponseLike } from '../../src/ipfs';

/**
 * An in-process IPFS HTTP API for client tests that need exact control of what
 * a node serves (hand-built DAGs, counting requests, modes): `block/get`,
 * `cat` of raw CIDs and `object/get?encoding=json&data-encoding=base64`
 * (Kubo RPC API, https://docs.ipfs.tech/reference/kubo/rpc/). Not a helper
 * for content the embedded node (devnet/ipfs-node.ts) can build.
 */

/** Multicodec of raw blocks. */
export const RAW = 0x55;
export { DAG_PB };

/** One file link of a UnixFS node the stub builds. */
export type StubChild = {
  /** The child's CID. */
  cid: CID;
  /** The size the node claims in its blocksizes, in bytes. */
  size: bigint;
  /** The Tsize of the link (default `size`). */
  tsize?: number;
};

/**
 * A WHATWG Response, as the client reads it.
 *
 * @param body - The body.
 * @param status - The HTTP status.
 * @returns The response.
 */
function reply(
  body: string | Uint8Array<ArrayBuffer>,
  status: number,
): ResponseLike {
  // eslint-disable-next-line no-restricted-globals -- Node.js >= 20 has the WHATWG Response global, as it has fetch
  return new Response(body, { status });
}

/** An in-process IPFS HTTP API serving the blocks put in it (see above). */
export class StubNode {
  /** Blocks by CIDv1 string. */
  readonly blocks = new Map<string, Uint8Array>();

  /** Every request, as `command arg`. */
  readonly requests: string[] = [];

  /** When set, `block/get` answers this status (a provider without it). */
  blockGetStatus: 404 | 405 | undefined;

  /** Delay before each reply, in milliseconds. */
  delayMs = 0;

  /**
   * Store a block.
   *
   * @param codec - dag-pb or raw.
   * @param bytes - The block.
   * @param version - 0 (dag-pb only) or 1.
   * @returns Its CID.
   */
  async put(
    codec: number,
    bytes: Uint8Array,
    version: 0 | 1 = 1,
  ): Promise<CID> {
    const digest = await sha256.digest(bytes);
    const cid =
      version === 0 ? CID.createV0(digest) : CID.createV1(codec, digest);
    this.blocks.set(cid.toV1().toString(), bytes);
    return cid;
  }

  /**
   * Store a UnixFS file node.
   *
   * @param options - Its parts.
   * @param options.data - Inline file bytes.
   * @param options.children - Links with the sizes the node claims (`size` for blocksizes, `tsize` for Tsize; default `size`).
   * @param options.version - CID version (default 1).
   * @returns Its CID.
   */
  async file(options: {
    /** Inline file bytes. */
    data?: Uint8Array;
    /** The links. */
    children?: StubChild[];
    /** The CID version. */
    version?: 0 | 1;
  }): Promise<CID> {
    const children = options.children ?? [];
    const unixfs = new UnixFS({
      type: 'file',
      data: options.data,
      blockSizes: children.map((child) => child.size),
    });
    const links: PBLink[] = children.map((child) => ({
      Hash: child.cid,
      Name: '',
      Tsize: child.tsize ?? Number(child.size),
    }));
    return this.put(
      DAG_PB,
      encode(prepare({ Data: unixfs.marshal(), Links: links })),
      options.version ?? 1,
    );
  }

  /**
   * Number of requests of a command.
   *
   * @param command - The API command, e.g. `block/get`.
   * @returns How many requests it had.
   */
  count(command: string): number {
    return this.requests.filter((request) => request.startsWith(`${command} `))
      .length;
  }

  /**
   * The `fetch` to give the client.
   *
   * @param url - The request URL.
   * @returns The stub's reply.
   */
  readonly fetch: FetchLike = async (url) => {
    const { pathname, searchParams } = new URL(url);
    const command = pathname.replace(/^\/api\/v0\//u, '');
    const arg = searchParams.get('arg') ?? '';
    this.requests.push(`${command} ${arg}`);
    if (this.delayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    }
    if (command === 'block/get' && this.blockGetStatus) {
      return reply('404 page not found\n', this.blockGetStatus);
    }
    const cid = CID.parse(arg);
    const block = this.blocks.get(cid.toV1().toString());
    if (!block) {
      return reply(
        '{"Message":"block not found","Code":0,"Type":"error"}\n',
        500,
      );
    }
    if (command === 'block/get' || (command === 'cat' && cid.code === RAW)) {
      return reply(new Uint8Array(block), 200);
    }
    if (command === 'object/get' && cid.code === DAG_PB) {
      const node = decode(block);
      const json = {
        Links: node.Links.map((link) => ({
          Name: link.Name ?? '',
          Hash: link.Hash.toString(),
          Size: link.Tsize ?? 0,
        })),
        Data: Buffer.from(node.Data ?? new Uint8Array()).toString('base64'),
      };
      return reply(`${JSON.stringify(json)}\n`, 200);
    }
    return reply('404 page not found\n', 404);
  };
}
