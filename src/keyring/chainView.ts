import type { KeyringAccount } from '@metamask/keyring-api';

import { resolveDelegationEnvironment } from '../accounts/deleGator/environment';
import { deleGatorImplementation } from '../accounts/deleGator/implementation';
import { delegationOf } from '../accounts/erc4337';
import type { ChainConfig } from '../accounts/erc4337';
import type { Delegation } from '../accounts/erc4337/eip7702';
import { createRpcClient, readHexData, readQuantity } from '../chain';
import type { RpcCall, Settled } from '../chain';
import { parseScope } from '../utils/scope';

/**
 * What the home page shows of each account on each configured chain, read in one JSON-RPC batch
 * per chain (`eth_chainId`, then `eth_getBalance` of every account on it and `eth_getCode` of every
 * EOA): its balance and, for an EOA, whether it is upgraded with EIP-7702 (its code is the
 * delegation indicator `0xef0100 ++ address`, EIP-7702). A chain that does not answer, or answers
 * for another chain id, is marked unreachable; nothing here throws. Every reply is untrusted: a
 * balance is a hex quantity of at most 2^256 - 1, code hex bytes, the reply at most 1 MiB, one
 * attempt of at most 5 s (the page waits for it).
 */

/** One account on one chain, as read. */
export type AccountOnChain = {
  /** The chain (CAIP-2). */
  scope: string;
  /** Its balance in wei, decimal; absent when it could not be read. */
  balance?: string;
  /** An EOA's delegation: `simple7702` or `deleGator` (upgraded by this snap), `other` code, or `none`; absent when unread or not an EOA. */
  code?: Delegation;
};

/** The largest reply of one chain's batch, in bytes. */
const MAX_REPLY_BYTES = 1_048_576;

/** How long the page waits for one chain, in milliseconds. */
const TIMEOUT_MS = 5_000;

/**
 * A settled call's result read with `read`, or undefined when it failed or is malformed.
 *
 * @param item - The settled call.
 * @param read - Checks and converts the result (throws when malformed).
 * @returns The value, or undefined.
 */
function settled<Value>(
  item: Settled | undefined,
  read: (result: unknown) => Value,
): Value | undefined {
  try {
    return item?.ok ? read(item.result) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Read the accounts on one chain (one batch).
 *
 * @param config - The chain's stored config (its RPC URL).
 * @param accounts - The accounts on it.
 * @returns One entry per account, by id; balances and code absent when unread.
 */
async function readChain(
  config: ChainConfig,
  accounts: KeyringAccount[],
): Promise<Record<string, AccountOnChain>> {
  const { scope } = config;
  const eoas = accounts.filter((account) => account.type === 'eip155:eoa');
  const environment = resolveDelegationEnvironment(
    config.delegationEnvironment,
    parseScope(scope).chainId,
  );
  const deleGator = environment && deleGatorImplementation(environment);
  const calls: RpcCall[] = [
    { method: 'eth_chainId' },
    ...accounts.map((account) => ({
      method: 'eth_getBalance',
      params: [account.address, 'latest'],
    })),
    ...eoas.map((account) => ({
      method: 'eth_getCode',
      params: [account.address, 'latest'],
    })),
  ];
  const replies = await createRpcClient({
    url: config.rpcUrl,
    timeoutMs: TIMEOUT_MS,
    retries: 0,
    maxReplyBytes: MAX_REPLY_BYTES,
  })
    .batchSettled(calls)
    .catch((): Settled[] => []);
  const chainId = settled(replies[0], (result) => readQuantity(result, 'id'));
  const reachable = chainId !== undefined && `eip155:${chainId}` === scope;
  return Object.fromEntries(
    accounts.map((account, index) => {
      const eoa = eoas.indexOf(account);
      const balance = settled(replies[1 + index], (result) =>
        readQuantity(result, 'balance').toString(),
      );
      const code =
        eoa === -1
          ? undefined
          : settled(replies[1 + accounts.length + eoa], (result) =>
              delegationOf(readHexData(result, 'code'), deleGator),
            );
      return [
        account.id,
        {
          scope,
          ...(reachable && balance !== undefined ? { balance } : {}),
          ...(reachable && code !== undefined ? { code } : {}),
        },
      ];
    }),
  );
}

/**
 * Read every account on every configured chain it lives on (an EOA: every chain; a smart account:
 * the chains of its scopes), one batch per chain, the chains at once.
 *
 * @param accounts - The keyring's accounts.
 * @param configs - The stored chain configs (unmasked: their RPC URLs are called, never shown).
 * @returns Per account id, one entry per chain, in the configs' order.
 */
export async function readAccountsOnChains(
  accounts: KeyringAccount[],
  configs: ChainConfig[],
): Promise<Record<string, AccountOnChain[]>> {
  const perChain = await Promise.all(
    configs.map(async (config): Promise<Record<string, AccountOnChain>> => {
      const on = accounts.filter(
        (account) =>
          account.type === 'eip155:eoa' ||
          (account.scopes as string[]).includes(config.scope),
      );
      // a chain no account lives on is not called
      return on.length === 0 ? {} : readChain(config, on);
    }),
  );
  return Object.fromEntries(
    accounts.map((account) => [
      account.id,
      perChain.flatMap((chain) => chain[account.id] ?? []),
    ]),
  );
}
