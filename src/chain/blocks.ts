import { ChainRpcError, TransportError } from './errors';
import type { Settled } from './transport';

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]{0,15})$/iu;

/**
 * The block number of an eth_getBlockByNumber(tag, false) reply.
 *
 * @param reply - The settled reply.
 * @param tag - The tag read (latest, safe, finalized), for messages.
 * @param origin - The endpoint's origin, for messages.
 * @returns The block number.
 * @throws The reply's error; ChainRpcError when the node has no such block (e.g. no
 * finalized block yet); TransportError (malformed) when `number` is not a hex quantity.
 */
export function readBlockNumber(
  reply: Settled,
  tag: string,
  origin: string,
): bigint {
  if (!reply.ok) {
    throw reply.error;
  }
  if (reply.result === null) {
    throw new ChainRpcError(-32000, `the node has no "${tag}" block`, {
      method: 'eth_getBlockByNumber',
    });
  }
  const number = (reply.result as Record<string, unknown> | null)?.number;
  if (typeof number !== 'string' || !QUANTITY.test(number)) {
    throw new TransportError(
      'malformed',
      `eth_getBlockByNumber("${tag}") gave no block number (${origin})`,
      { url: origin },
    );
  }
  return BigInt(number);
}
