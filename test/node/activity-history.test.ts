/**
 * The Activity list's chain reads (src/accounts/erc4337/history.ts) against anvil: the first-use
 * search on an EOA's balance and nonce and a contract's code and balance at past blocks, checked against the node's own
 * answers block by block; on a node that keeps no past state it never starts after the true
 * first use; and logs a provider makes up (another address, another sender) are left out.
 */
import { encodeAbiParameters, numberToHex, pad, toEventSelector } from 'viem';
import type { Hex } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import {
  firstUseBlock,
  readOperationEvents,
} from '../../src/accounts/erc4337/history';
import { createRpcClient, TransportError } from '../../src/chain';

jest.setTimeout(120_000);

const CONTRACT: Hex = '0x00000000000000000000000000000000000c0de1';
const UNUSED: Hex = '0x00000000000000000000000000000000000a11ce';
const SENDER: Hex = '0x00000000000000000000000000000000005e4de2';
const OTHER_CONTRACT: Hex = '0x00000000000000000000000000000000000e1e01';

/**
 * Set up a chain where an EOA first receives ETH at block ~40 and a contract gets code at block
 * ~90, then 300 more blocks.
 *
 * @param anvil - The node.
 * @returns The EOA and the two first-use blocks as the node reports them.
 */
async function history(
  anvil: Anvil,
): Promise<{ eoa: Hex; eoaBlock: bigint; codeBlock: bigint }> {
  const [, second] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
  await jsonRpc(anvil.url, 'anvil_mine', ['0x27']);
  // its first activity: the first ETH it receives
  const eoa = UNUSED.replace('a11ce', 'b0b00') as Hex;
  const { receipt } = await sendAndMine(anvil.url, {
    from: second,
    to: eoa,
    value: '0x1',
  });
  await jsonRpc(anvil.url, 'anvil_mine', ['0x31']);
  // anvil sets code in the state of its latest block
  await jsonRpc(anvil.url, 'anvil_setCode', [CONTRACT, '0x00']);
  const codeBlock = BigInt(
    await jsonRpc<Hex>(anvil.url, 'eth_blockNumber', []),
  );
  await jsonRpc(anvil.url, 'anvil_mine', ['0x12c']);
  return { eoa, eoaBlock: BigInt(receipt.blockNumber), codeBlock };
}

describe('first use of an account, searched at past blocks', () => {
  it('finds the block of the first ETH an EOA received and of a contract’s code, as the node answers them block by block; an unused address has none', async () => {
    const anvil = await startAnvil();
    try {
      const { eoa, eoaBlock, codeBlock } = await history(anvil);
      const client = createRpcClient({ url: anvil.url });
      const latest = await client.blockNumber();
      const eoaFirst = await firstUseBlock(client, eoa, 'eoa', latest);
      const codeFirst = await firstUseBlock(
        client,
        CONTRACT,
        'contract',
        latest,
      );
      expect({ eoaFirst, codeFirst }).toStrictEqual({
        eoaFirst: eoaBlock,
        codeFirst: codeBlock,
      });
      // the node itself: unused the block before, used at it
      /**
       * The EOA's balance at a block, as the node answers.
       *
       * @param block - The block.
       * @returns The hex balance.
       */
      const balance = async (block: bigint): Promise<string> =>
        jsonRpc(anvil.url, 'eth_getBalance', [eoa, numberToHex(block)]);
      /**
       * The contract's code at a block, as the node answers.
       *
       * @param block - The block.
       * @returns The hex code.
       */
      const code = async (block: bigint): Promise<string> =>
        jsonRpc(anvil.url, 'eth_getCode', [CONTRACT, numberToHex(block)]);
      expect([
        await balance(eoaFirst - 1n),
        await balance(eoaFirst),
        await code(codeFirst - 1n),
        await code(codeFirst),
      ]).toStrictEqual(['0x0', '0x1', '0x', '0x00']);
      expect(await firstUseBlock(client, UNUSED, 'eoa', latest)).toBe(
        latest + 1n,
      );
    } finally {
      await anvil.stop();
    }
  });

  it('on a node that keeps no past state, never starts after the first use', async () => {
    const anvil = await startAnvil({ args: ['--prune-history'] });
    try {
      const { eoa, eoaBlock, codeBlock } = await history(anvil);
      const client = createRpcClient({ url: anvil.url, retries: 0 });
      const latest = await client.blockNumber();
      expect(
        await firstUseBlock(client, eoa, 'eoa', latest),
      ).toBeLessThanOrEqual(eoaBlock);
      expect(
        await firstUseBlock(client, CONTRACT, 'contract', latest),
      ).toBeLessThanOrEqual(codeBlock);
    } finally {
      await anvil.stop();
    }
  });
});

describe('user operations from the logs', () => {
  it('reads an operation’s outcome, fee and block from its log; a reply with a log from an address not asked for, or naming another sender, is refused', async () => {
    const anvil = await startAnvil();
    const proxy = await startLimitsProxy({ upstream: anvil.url });
    try {
      const entryPoint: Hex = '0x0000000071727De22E5E9d8BAf0edAc6f37da032';
      const sender = SENDER;
      const topic0 = toEventSelector(
        'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)',
      );
      const data = encodeAbiParameters(
        [
          { type: 'uint256' },
          { type: 'bool' },
          { type: 'uint256' },
          { type: 'uint256' },
        ],
        [1n, false, 12_345n, 100n],
      );
      /**
       * A UserOperationEvent log as a provider would send it.
       *
       * @param address - The emitting contract.
       * @param who - The sender it names.
       * @param hash - The hex digit its userOpHash repeats.
       * @returns The log.
       */
      const log = (address: Hex, who: Hex, hash: string): object => ({
        address,
        topics: [topic0, `0x${hash.repeat(64)}`, pad(who), pad('0x')],
        data,
        blockNumber: '0x5',
        transactionHash: `0x${'7'.repeat(64)}`,
        transactionIndex: '0x0',
        blockHash: `0x${'8'.repeat(64)}`,
        logIndex: '0x0',
        removed: false,
      });
      const client = createRpcClient({ url: proxy.url, retries: 0 });
      for (const forged of [
        log(OTHER_CONTRACT, sender, '2'),
        log(entryPoint, UNUSED, '3'),
      ]) {
        proxy.inject({
          type: 'result',
          method: 'eth_getLogs',
          result: [log(entryPoint, sender, '1'), forged],
        });
        await expect(
          readOperationEvents(client, [entryPoint], sender, 0n, 10n),
        ).rejects.toThrow(TransportError);
      }
      proxy.inject({
        type: 'result',
        method: 'eth_getLogs',
        result: [log(entryPoint, sender, '1')],
      });
      const entries = await readOperationEvents(
        client,
        [entryPoint],
        sender,
        0n,
        10n,
      );
      expect(entries).toStrictEqual([
        {
          kind: 'operation',
          hash: `0x${'1'.repeat(64)}`,
          status: 'failed',
          block: '0x5',
          fee: numberToHex(12_345n),
        },
      ]);
    } finally {
      await proxy.close();
      await anvil.stop();
    }
  });
});
