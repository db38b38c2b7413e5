import type { Json } from '@metamask/utils';

import { readAccountsOnChains } from './chainView';
import type { AccountSummary } from './types';
import type { ChainConfig } from '../accounts/erc4337';

/**
 * What the companion site shows of each account (`describeAccounts`, companion only): what the
 * snap's home page shows on its cards, as JSON. Never a key.
 */
export type AccountDescription = {
  /** The keyring-api account id. */
  id: string;
  /** The snap's name for it (the one its home page and dialogs use). */
  name: string;
  /** Whether its key was imported (no recovery phrase finds it again). */
  imported: boolean;
  /** A smart account's owner: the address of the key `keyring_exportAccount` returns. */
  owner?: string;
  /** A smart account's EntryPoint version. */
  entryPointVersion?: string;
  /**
   * Each configured chain it lives on (an EOA: every chain): its balance in wei (decimal) and,
   * for an EOA, its EIP-7702 delegation (`simple7702`, `deleGator`, `other`, `none`); both absent when the
   * chain's node did not answer.
   */
  chains: { scope: string; balance?: string; code?: string }[];
};

/**
 * Describe every account with its state on the configured chains (src/keyring/chainView.ts: one
 * batch per chain, bounded, never throws).
 *
 * @param summaries - The accounts as the keyring describes them (KeyringSnap.describeAccounts).
 * @param configs - The stored chain configs (unmasked: their RPC URLs are called, never returned).
 * @returns One description per account, in the keyring's order.
 */
export async function describeAccountsOnChains(
  summaries: AccountSummary[],
  configs: ChainConfig[],
): Promise<AccountDescription[] & Json> {
  const onChains = await readAccountsOnChains(
    summaries.map((summary) => summary.account),
    configs,
  );
  return summaries.map(
    ({ account, name, keySource, owner, entryPointVersion }) => ({
      id: account.id,
      name,
      imported: 'imported' in keySource,
      ...(owner === undefined ? {} : { owner }),
      ...(entryPointVersion === undefined ? {} : { entryPointVersion }),
      chains: (onChains[account.id] ?? []).map((entry) => ({ ...entry })),
    }),
  );
}
