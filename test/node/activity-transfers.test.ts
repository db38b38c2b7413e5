/**
 * What an account sent and received in plain ETH (src/accounts/transfers.ts, over the chain
 * library's findBalanceChanges) against anvil: ETH received by transaction, a transaction the
 * account sent, and ETH a contract forwarded to it, each checked against the node's own receipts
 * and balances; a long history read in bounded steps that go on where the last one stopped; and a
 * node that keeps no past state refused rather than read wrong.
 */
import { concatHex, getAddress, numberToHex, parseEther } from 'viem';
import type { Hex } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { readTransfers } from '../../src/accounts/transfers';
import { createRpcClient } from '../../src/chain';

jest.setTimeout(120_000);

const ACCOUNT: Hex = '0x000000000000000000000000000000000000a11c';
const RECIPIENT: Hex = '0x000000000000000000000000000000000000b0b0';
const FORWARDER: Hex = '0x00000000000000000000000000000000000f0f0f';

/** A receipt's fields the test reads, as the node answers them. */
type Receipt = {
  /** Its block's number. */
  blockNumber: Hex;
  /** Its block's hash. */
  blockHash: Hex;
  /** Gas used. */
  gasUsed: Hex;
  /** Wei per gas paid. */
  effectiveGasPrice: Hex;
};

/**
 * The node's receipt of a transaction.
 *
 * @param anvil - The node.
 * @param hash - The transaction.
 * @returns Its receipt.
 */
async function receiptOf(anvil: Anvil, hash: Hex): Promise<Receipt> {
  return jsonRpc<Receipt>(anvil.url, 'eth_getTransactionReceipt', [hash]);
}

/**
 * Send ETH from an unlocked account and wait for its block.
 *
 * @param anvil - The node.
 * @param from - The sender (unlocked or impersonated).
 * @param to - The recipient.
 * @param ether - The amount, in ETH.
 * @returns The transaction's hash.
 */
async function pay(
  anvil: Anvil,
  from: Hex,
  to: Hex,
  ether: string,
): Promise<Hex> {
  const { hash } = await sendAndMine(anvil.url, {
    from,
    to,
    value: numberToHex(parseEther(ether)),
  });
  return hash;
}

describe('ETH sent and received, read from the chain', () => {
  it('lists ETH received by transaction, a transaction sent, and ETH a contract forwarded, as the node’s receipts and balances say', async () => {
    const anvil = await startAnvil();
    try {
      const [, funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
      await jsonRpc(anvil.url, 'anvil_mine', ['0x1e']);
      const first = await pay(anvil, funder, ACCOUNT, '1');
      await jsonRpc(anvil.url, 'anvil_mine', ['0x64']);
      await jsonRpc(anvil.url, 'anvil_impersonateAccount', [ACCOUNT]);
      const sent = await pay(anvil, ACCOUNT, RECIPIENT, '0.25');
      await jsonRpc(anvil.url, 'anvil_mine', ['0x7']);
      // a contract whose code sends what it receives on to the account
      await jsonRpc(anvil.url, 'anvil_setCode', [
        FORWARDER,
        concatHex(['0x600060006000600034', '0x73', ACCOUNT, '0x5af100']),
      ]);
      const forwarded = await pay(anvil, funder, FORWARDER, '0.125');
      await jsonRpc(anvil.url, 'anvil_mine', ['0x3']);

      const client = createRpcClient({ url: anvil.url });
      const latest = await client.blockNumber();
      const read = await readTransfers(client, ACCOUNT, 'eoa', 0n, latest);
      const [received, paid, viaContract] = await Promise.all(
        [first, sent, forwarded].map(async (hash) => receiptOf(anvil, hash)),
      );
      expect(read).toStrictEqual({
        searchedTo: latest,
        entries: [
          {
            kind: 'received',
            hash: first,
            status: 'succeeded',
            block: received.blockNumber,
            from: getAddress(funder),
            value: numberToHex(parseEther('1')),
          },
          {
            kind: 'transaction',
            hash: sent,
            status: 'succeeded',
            block: paid.blockNumber,
            fee: numberToHex(
              BigInt(paid.gasUsed) * BigInt(paid.effectiveGasPrice),
            ),
            to: getAddress(RECIPIENT),
            value: numberToHex(parseEther('0.25')),
          },
          {
            kind: 'received',
            hash: viaContract.blockHash,
            status: 'succeeded',
            block: viaContract.blockNumber,
            value: numberToHex(parseEther('0.125')),
          },
        ],
      });
      // what the node says the account holds is what the list adds up to
      const fee = BigInt(paid.gasUsed) * BigInt(paid.effectiveGasPrice);
      expect(
        BigInt(
          await jsonRpc<Hex>(anvil.url, 'eth_getBalance', [ACCOUNT, 'latest']),
        ),
      ).toBe(parseEther('1') - parseEther('0.25') - fee + parseEther('0.125'));
    } finally {
      await anvil.stop();
    }
  });

  it('reads a long history in bounded steps, each going on where the last one stopped', async () => {
    const anvil = await startAnvil();
    try {
      const [, funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
      const hashes: Hex[] = [];
      for (let payment = 0; payment < 15; payment += 1) {
        hashes.push(await pay(anvil, funder, ACCOUNT, '0.001'));
        await jsonRpc(anvil.url, 'anvil_mine', [numberToHex(payment + 1)]);
      }
      const client = createRpcClient({ url: anvil.url });
      const latest = await client.blockNumber();
      const steps: string[][] = [];
      for (let from = 0n; from <= latest && steps.length < 5;) {
        const read = await readTransfers(client, ACCOUNT, 'eoa', from, latest);
        steps.push(read.entries.map((entry) => entry.hash));
        from = read.searchedTo + 1n;
      }
      // at most 12 changed blocks a step, oldest first, none twice, none missed
      expect(steps.map((step) => step.length)).toStrictEqual([12, 3]);
      expect(steps.flat()).toStrictEqual(hashes);
    } finally {
      await anvil.stop();
    }
  });

  it('on a node that keeps no past state, refuses to read rather than list wrong amounts', async () => {
    const anvil = await startAnvil({ args: ['--prune-history'] });
    try {
      const [, funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
      await pay(anvil, funder, ACCOUNT, '1');
      await jsonRpc(anvil.url, 'anvil_mine', ['0x12c']);
      const client = createRpcClient({ url: anvil.url, retries: 0 });
      const latest = await client.blockNumber();
      await expect(
        readTransfers(client, ACCOUNT, 'eoa', 0n, latest),
      ).rejects.toThrow(/state|block|history|prun/iu);
    } finally {
      await anvil.stop();
    }
  });
});
