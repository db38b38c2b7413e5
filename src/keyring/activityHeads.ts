import { numberToHex } from 'viem';

import type { RpcClient } from '../chain';
import type { ChainHead } from '../state/schema';

/**
 * The bounds of the block numbers the Activity reads believe. A chain's RPC is untrusted: one
 * `eth_blockNumber` reply far in the future would move every account's read position past any
 * block the chain will reach for years, and nothing would be read again. So a reading is checked
 * against the last one accepted on that chain (its `ChainHead`, kept in state):
 *
 * - it may not be beyond that head by more than {@link HEAD_SLACK} blocks plus what the time since
 *   allows at {@link MAX_BLOCKS_PER_SECOND};
 * - it may not fall behind it by more than {@link HEAD_LAG} blocks (a node a little behind another
 *   one, a short reorganisation is fine; more is refused: the chain does not go backwards);
 * - with no head yet (a new chain, a changed RPC URL), it must be at most {@link MAX_FIRST_HEAD}
 *   and the node must know that block (`eth_getBlockByNumber`).
 *
 * A refused reading fails that chain's read (the page says so) and changes nothing stored.
 */

/** Blocks a reading may be beyond the last accepted head on top of what time allows. */
export const HEAD_SLACK = 1_000n;

/**
 * The fastest block rate believed, in blocks per second (today's fastest EVM chains produce at
 * most about four a second; 10 leaves room).
 */
export const MAX_BLOCKS_PER_SECOND = 10n;

/** How far a reading may fall behind the last accepted head before it is refused, in blocks. */
export const HEAD_LAG = 64n;

/** The highest block number believed on a chain without an accepted head (2^40, millennia of blocks). */
export const MAX_FIRST_HEAD = 2n ** 40n;

/**
 * The refusal of a block number the bounds do not allow. Its message names the bound, never the
 * number (an RPC's reply).
 */
export class ImplausibleBlockError extends Error {
  /**
   * @param message - Which bound the reading broke.
   */
  constructor(message: string) {
    super(message);
    this.name = 'ImplausibleBlockError';
  }
}

/**
 * Check a chain's `eth_blockNumber` reading against its last accepted head.
 *
 * @param client - The chain's RPC adapter (asked for the block itself when there is no head).
 * @param latest - The reading.
 * @param head - The last accepted head, if any.
 * @param now - The time now, Unix seconds.
 * @returns The reading, accepted.
 * @throws ImplausibleBlockError when a bound refuses it; the adapter's errors.
 */
export async function checkedLatest(
  client: RpcClient,
  latest: bigint,
  head: ChainHead | undefined,
  now: number,
): Promise<bigint> {
  if (head === undefined) {
    if (
      latest > MAX_FIRST_HEAD ||
      (await client.getBlockByNumber(numberToHex(latest))) === null
    ) {
      throw new ImplausibleBlockError(
        'The chain’s latest block number is not a block it has',
      );
    }
    return latest;
  }
  const last = BigInt(head.block);
  const elapsed = BigInt(Math.max(0, Math.floor(now - head.at)));
  if (latest > last + HEAD_SLACK + elapsed * MAX_BLOCKS_PER_SECOND) {
    throw new ImplausibleBlockError(
      'The chain’s latest block number is further ahead of the last one read than time allows',
    );
  }
  if (latest + HEAD_LAG < last) {
    throw new ImplausibleBlockError(
      'The chain’s latest block number is behind the last one read',
    );
  }
  return latest;
}

/**
 * The head to keep after a reading was accepted: the reading when it is not behind the head.
 *
 * @param latest - The accepted reading.
 * @param head - The last accepted head, if any.
 * @param now - The time now, Unix seconds.
 * @returns The new head.
 */
export function nextHead(
  latest: bigint,
  head: ChainHead | undefined,
  now: number,
): ChainHead {
  return head !== undefined && BigInt(head.block) >= latest
    ? head
    : { block: numberToHex(latest), at: Math.floor(now) };
}
