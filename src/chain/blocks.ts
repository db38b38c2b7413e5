import { InvalidParamsError, JsonRpcError } from './errors';
import type { Transport } from './transport';

/**
 * Resolve block parameters to numbers (spec part (a): block tags latest,
 * earliest, pending, safe, finalized or hex numbers).
 */

/**
 * Resolve a list of block parameters (tags or hex numbers) to block numbers.
 * `earliest` is 0 and hex numbers are parsed locally; the other tags are read
 * with eth_getBlockByNumber(tag, false), all in one JSON-RPC batch (one HTTP
 * round trip), each distinct tag once.
 *
 * @param transport - The transport.
 * @param blocks - Validated block parameters.
 * @returns The block numbers, in the same order.
 * @throws JsonRpcError when the node does not know a tag (e.g. no finalized block yet);
 * TransportError on transport faults.
 */
export async function resolveBlockNumbers(transport: Transport, blocks: readonly string[]): Promise<bigint[]> {
  const tags = [...new Set(blocks.filter((b) => !b.startsWith('0x') && b !== 'earliest'))];
  const resolved = new Map<string, bigint>([['earliest', 0n]]);
  if (tags.length > 0) {
    const replies = await transport.batchSettled(
      tags.map((tag) => ({ method: 'eth_getBlockByNumber', params: [tag, false] })),
    );
    replies.forEach((reply, i) => {
      if (!reply.ok) {
        throw reply.error;
      }
      const number = (reply.result as { number?: unknown } | null)?.number;
      if (typeof number !== 'string') {
        throw new JsonRpcError(-32000, `the node has no "${tags[i]}" block`, { method: 'eth_getBlockByNumber' });
      }
      resolved.set(tags[i], BigInt(number));
    });
  }
  return blocks.map((b) => {
    if (b.startsWith('0x')) {
      return BigInt(b);
    }
    const n = resolved.get(b);
    if (n === undefined) {
      throw new InvalidParamsError(`unknown block tag ${b}`);
    }
    return n;
  });
}

/** A bigint as a hex quantity. */
export const hexOf = (n: bigint): `0x${string}` => `0x${n.toString(16)}`;
