import {
  checkedLatest,
  HEAD_LAG,
  HEAD_SLACK,
  ImplausibleBlockError,
  MAX_BLOCKS_PER_SECOND,
  MAX_FIRST_HEAD,
  nextHead,
} from './activityHeads';
import type { RpcClient } from '../chain';

/**
 * An RPC adapter that knows the blocks up to `head` (eth_getBlockByNumber), nothing else.
 *
 * @param head - The node's real latest block.
 * @param asked - Receives each block number asked for.
 * @returns The adapter.
 */
function node(head: bigint, asked: string[] = []): RpcClient {
  return {
    getBlockByNumber: async (block: string) => {
      asked.push(block);
      return BigInt(block) <= head ? ({ number: block } as never) : null;
    },
  } as unknown as RpcClient;
}

describe('the block numbers the Activity reads believe', () => {
  const head = { block: '0x3e8', at: 1_000 }; // block 1,000 read at t = 1,000 s

  it('with no head: a block the node has is taken; one it does not have, or above 2^40, is refused', async () => {
    const asked: string[] = [];
    expect(await checkedLatest(node(500n, asked), 500n, undefined, 0)).toBe(
      500n,
    );
    expect(asked).toStrictEqual(['0x1f4']);
    await expect(
      checkedLatest(node(500n), 2n ** 200n, undefined, 0),
    ).rejects.toThrow(ImplausibleBlockError);
    await expect(
      checkedLatest(node(2n ** 41n), MAX_FIRST_HEAD + 1n, undefined, 0),
    ).rejects.toThrow(/not a block it has/u);
    await expect(checkedLatest(node(500n), 501n, undefined, 0)).rejects.toThrow(
      /not a block it has/u,
    );
  });

  it('after a head: as far ahead as the slack and the time since allow, and no further', async () => {
    const client = node(0n);
    const bound = 1_000n + HEAD_SLACK + 60n * MAX_BLOCKS_PER_SECOND;
    expect(await checkedLatest(client, bound, head, 1_060)).toBe(bound);
    await expect(
      checkedLatest(client, bound + 1n, head, 1_060),
    ).rejects.toThrow(/further ahead of the last one read than time allows/u);
    await expect(
      checkedLatest(client, 2n ** 200n, head, 1_060),
    ).rejects.toThrow(ImplausibleBlockError);
    // a clock that went back allows no time, only the slack
    await expect(
      checkedLatest(client, 1_000n + HEAD_SLACK + 1n, head, 0),
    ).rejects.toThrow(ImplausibleBlockError);
  });

  it('after a head: a little behind it is fine (a node behind another), further behind is refused', async () => {
    const client = node(0n);
    expect(await checkedLatest(client, 1_000n - HEAD_LAG, head, 1_000)).toBe(
      1_000n - HEAD_LAG,
    );
    await expect(
      checkedLatest(client, 1_000n - HEAD_LAG - 1n, head, 1_000),
    ).rejects.toThrow(/behind the last one read/u);
  });

  it('the head kept moves forward only', () => {
    expect(nextHead(1_200n, head, 2_000.7)).toStrictEqual({
      block: '0x4b0',
      at: 2_000,
    });
    expect(nextHead(990n, head, 2_000)).toBe(head);
    expect(nextHead(7n, undefined, 5)).toStrictEqual({ block: '0x7', at: 5 });
  });
});
