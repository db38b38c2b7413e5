import type { Hex } from 'viem';

import { readQuantity, settledResult } from '../../chain';
import type { RpcCall, Settled } from '../../chain';
import { transactionRejected } from '../../utils/errors';

/**
 * The account's funds, read in the same batch as a draft's other chain reads and checked before
 * anything is estimated: a value the account does not hold otherwise ends in a node's or a
 * bundler's words a person cannot read (`execution reverted`, `reverted during simulation with
 * reason: 0x`).
 */

/**
 * The `eth_getBalance` call of a draft's batch.
 *
 * @param sender - The account.
 * @returns The call (latest block).
 */
export const balanceRead = (sender: Hex): RpcCall => ({
  method: 'eth_getBalance',
  params: [sender, 'latest'],
});

/**
 * Refuse what the account cannot pay: `value` plus `fee` against `balance`.
 *
 * @param balance - What the account holds, in wei.
 * @param value - The values it sends, in wei.
 * @param fee - The most the gas it pays itself can cost, in wei (0 when a paymaster pays or before
 * the gas is known).
 * @param scope - The chain (`eip155:<chain id>`), for the message and `data.scope`.
 * @throws JsonRpcError -32003 (transaction rejected, EIP-1474) with `data.reason`
 * `insufficientFunds`, `data.scope` and the amounts in wei (decimal `balance`, `value`, `needed`).
 */
export function assertFunds(
  balance: bigint,
  value: bigint,
  fee: bigint,
  scope: string,
): void {
  const needed = value + fee;
  if (balance < needed) {
    throw transactionRejected(
      `Insufficient funds on ${scope}: the account holds ${balance} wei; the value sent${fee > 0n ? ' plus the most the gas can cost' : ''} is ${needed} wei`,
      {
        reason: 'insufficientFunds',
        scope,
        balance: balance.toString(),
        value: value.toString(),
        needed: needed.toString(),
      },
    );
  }
}

/**
 * Read a draft's balance and check the intents' values against it (the gas is checked once known,
 * before the dialog).
 *
 * @param item - The settled `eth_getBalance` of the batch.
 * @param intents - The intents (`value` in wei).
 * @param chainId - The chain's id.
 * @param origin - The RPC endpoint's origin, for a malformed reply's message.
 * @returns The balance, in wei (a hex quantity of at most 2^256 - 1).
 * @throws As {@link assertFunds}; the chain's error when the read failed; TransportError for a
 * malformed balance.
 */
export function checkedBalance(
  item: Settled,
  intents: readonly { value: bigint }[],
  chainId: bigint,
  origin: string,
): bigint {
  const balance = readQuantity(
    settledResult(item),
    'eth_getBalance',
    {},
    origin,
  );
  assertFunds(
    balance,
    intents.reduce((sum, intent) => sum + intent.value, 0n),
    0n,
    `eip155:${chainId}`,
  );
  return balance;
}
