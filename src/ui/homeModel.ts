import type { KeyringRequest } from '@metamask/keyring-api';

import type { Domain } from '../domain';
import { recoveryStatus } from './recoveryStatus';
import type { RecoveryStatus } from './recoveryStatus';
import type { ChainActivity } from '../keyring/accountActivity';
import { readAccountsOnChains } from '../keyring/chainView';
import type { AccountOnChain } from '../keyring/chainView';
import type { AccountSummary } from '../keyring/keyring';
import type { EntropySource } from '../keyring/recovery/recoveryTypes';
import type { ChainConfig, GasTokenView } from '../settings';
import { grantLines } from './grantLines';
import type { GrantLine } from './grantLines';

/**
 * The element names of the home page: the contract its tests and any automation use. Buttons that
 * act on one item end in `:<id>` (account id, request id) or `:<scope>` (CAIP-2 chain id).
 */
export const UI = {
  accountExport: 'account-export',
  accountDelete: 'account-delete',
  accountRename: 'account-rename',
  accountName: 'account-name',
  accountUpgrade: 'account-upgrade',
  accountUndoUpgrade: 'account-undo-upgrade',
  accountUpgradeChain: 'account-upgrade-chain',
  createEoa: 'create-eoa',
  createSmart: 'create-smart',
  smartScope: 'smart-scope',
  smartMetadataCid: 'smart-metadataCid',
  smartVersion: 'smart-entryPointVersion',
  importKey: 'import-key',
  importPrivateKey: 'import-privateKey',
  importType: 'import-type',
  chainForm: 'chain-form',
  chainEdit: 'chain-edit',
  chainRemove: 'chain-remove',
  ipfsForm: 'ipfs-form',
  ipfsClearCredentials: 'ipfs-clearCredentials',
  approvalMode: 'approval-mode',
  requestApprove: 'request-approve',
  requestReject: 'request-reject',
  requestsRefresh: 'requests-refresh',
  send: 'send',
  sendTo: 'send-to',
  sendValue: 'send-value',
  sendData: 'send-data',
  sendScope: 'send-scope',
  sendGas: 'send-gas',
  createEoaSource: 'create-eoa-source',
  smartSource: 'smart-source',
  accountsRestore: 'accounts-restore',
  restoreForm: 'restore-form',
  restoreIndex: 'restore-index',
  restoreType: 'restore-type',
  restoreSource: 'restore-source',
  activityRefresh: 'activity-refresh',
  restoreVersion: 'restore-entryPointVersion',
  importVersion: 'import-entryPointVersion',
  grantRevoke: 'grant-revoke',
} as const;

/** The *Pay gas with* value that keeps the default: the chain's paymaster when it has one, else ETH. */
export const PAY_GAS_DEFAULT = 'default';

/**
 * The chain form's fields, in order, with their labels (plain words first, the standard term once
 * in brackets) and example placeholders (`chain-<field>`). The first three are what a person
 * needs; the rest, the contracts and the paymaster, are shown under *Advanced*
 * ({@link CHAIN_ADVANCED_FIELDS}).
 */
export const CHAIN_FIELDS = [
  ['scope', 'Chain (its chain id, or eip155:<chain id>)', 'eip155:11155111'],
  ['rpcUrl', 'Node address (RPC URL, from your provider)', 'https://…'],
  [
    'bundlerUrl',
    'Service that sends smart-account operations (bundler URL; needed to send from smart accounts)',
    'https://…',
  ],
  [
    'entryPoint',
    'Smart-account entry contract (EntryPoint; empty: the standard v0.6 one)',
    '0x…',
  ],
  [
    'accountFactory',
    'Contract that creates the accounts (factory; empty: SimpleAccountFactory v0.6)',
    '0x…',
  ],
  [
    'paymasterUrl',
    'Service that pays the gas (paymaster URL, ERC-7677; optional)',
    'https://…',
  ],
] as const;

/** The chain form's fields shown under *Advanced* (contracts and paymaster: defaults suit most chains). */
export const CHAIN_ADVANCED_FIELDS: readonly string[] = [
  'entryPoint',
  'accountFactory',
  'paymasterUrl',
];

/**
 * The EntryPoint versions the smart-account form offers, newest (recommended, preselected) first,
 * with what each one means for the person choosing. Over RPC, `keyring_createAccount`'s default
 * stays v0.6 (existing callers are unchanged); the page recommends the newest.
 */
export const SMART_VERSIONS = [
  ['0.8', 'Version 0.8: recommended, the newest (EntryPoint v0.8)'],
  ['0.7', 'Version 0.7 (EntryPoint v0.7)'],
  [
    '0.6',
    "Version 0.6: the oldest; MetaMask's own smart-account requests can also sign with it (EntryPoint v0.6)",
  ],
] as const;

/** The chain form's URL fields: an input holding a keyed URL is emptied after a failed save. */
export const CHAIN_URL_FIELDS = [
  'rpcUrl',
  'bundlerUrl',
  'paymasterUrl',
] as const;

/**
 * The IPFS form's fields (`ipfs-<field>`) with their labels, input types and placeholders; key and
 * secret are write-only: left blank, the stored ones are kept (for the same API origin).
 */
export const IPFS_FIELDS = [
  ['apiUrl', 'IPFS HTTP API URL', 'text', 'https://… or http://127.0.0.1:5001'],
  [
    'apiKey',
    'API key (write-only; blank keeps the stored one)',
    'password',
    '',
  ],
  [
    'apiKeySecret',
    'API key secret (write-only; blank keeps the stored one)',
    'password',
    '',
  ],
] as const;

/** What the page shows: everything read from the domain, plus the outcome of the last action. */
export type HomeModel = {
  /** The keyring's accounts, with their names and key sources. */
  accounts: AccountSummary[];
  /** The configured chains (URLs masked). */
  chains: ChainConfig[];
  /**
   * Each account on each configured chain it lives on (balance, an EOA's upgrade), by account id;
   * a long action's repaints show what was read last (absent before the first read).
   */
  onChains?: Record<string, AccountOnChain[]>;
  /** The IPFS API settings, null when unset: the API URL (masked when keyed), and whether a key or secret is set (never the values). */
  ipfs: { apiUrl: string; hasCredentials: boolean } | null;
  /** `sync`: requests are signed when MetaMask asks; `async`: they wait for approval on this page. */
  approvalMode: 'sync' | 'async';
  /** The pending (async) signing requests. */
  requests: KeyringRequest[];
  /**
   * The outcome of the last action, shown at the top (`info`: a dialog was declined, nothing
   * changed), with the time it came (`at`, UTC `HH:MM:SS`), so two identical notices differ.
   */
  notice?: {
    severity: 'success' | 'danger' | 'info';
    text: string;
    at?: string;
  };
  /** Errors by form name, or by field name (`chain-rpcUrl`), shown next to what caused them. */
  errors: Record<string, string>;
  /** Values of the text inputs to show (secrets are never here: they always render empty). */
  values: Record<string, string>;
  /**
   * The Secret Recovery Phrases MetaMask holds (`snap_listEntropySources`); the page offers a
   * choice only when there are two or more. Absent or empty: MetaMask did not list them.
   */
  entropySources?: EntropySource[];
  /** The chains' gas tokens: symbols for *Pay gas with*, balances for the cards (absent: none listed). */
  gasTokens?: GasTokenView;
  /** Where *Find my accounts* stands: running (with its progress) or its last report; absent: none ran. */
  recovery?: RecoveryStatus;
  /** Each account's Activity list by account id: per chain, what was read from it. */
  activity?: Record<string, ChainActivity[]>;
  /** Each account's spending permissions (ERC-7715 grants to sites) by account id, newest first. */
  grants?: Record<string, GrantLine[]>;
};

/** A user operation the page sent, which it follows until it is in a block (followSent). */
export type SentOperation = {
  /** The chain, CAIP-2. */
  scope: string;
  /** The operation's hash (32-byte hex). */
  userOpHash: string;
  /** What it does, for the notice: `Sent 0.1 ETH to Bob (0x…) from Savings on Local chain (31337)`. */
  what: string;
  /** The sending account's id (its Activity is read again once the operation is in a block). */
  account: string;
};

/** The outcome of one home-page action: a notice, errors by form or field, and the inputs to show. */
export type Outcome = Pick<HomeModel, 'notice' | 'errors'> & {
  /** Input values to show instead of the current ones (an empty string clears an input). */
  values?: Record<string, string>;
  /** A user operation the action sent: the page follows it until it is in a block. */
  lastSent?: SentOperation;
};

/**
 * What the page read of the chains last (balances, EOAs' upgrades, token balances), shown again by
 * the repaints of a long action, which read nothing: an upgraded EOA never shows as a plain one
 * while Find my accounts runs. Per snap instance; an account added meanwhile shows no balance
 * until the page reads the chains again.
 */
let lastRead: {
  onChains?: Record<string, AccountOnChain[]>;
  gasTokens?: GasTokenView;
  grants?: Awaited<ReturnType<Domain['permissions']['views']>>;
} = {};

/**
 * Build the home page's model from the domain, with the outcome of the last action.
 *
 * @param domain - The domain.
 * @param domain.keyring - The keyring: accounts and pending requests.
 * @param domain.settings - The settings: chain configs, IPFS config and approval mode.
 * @param domain.activity - The accounts' Activity lists as last read (this reads no chain).
 * @param domain.permissions - The grants to sites (what is left of each is read from the chain).
 * @param outcome - Notice, errors and input values to show.
 * @param readChains - Whether to read the accounts on the chains (balances, upgrades; one batch
 * per chain): false for a long action's repaints, which show what was read last.
 * @returns The model to render.
 */
export async function buildHomeModel(
  { keyring, settings, activity, permissions }: Domain,
  outcome: Outcome = { errors: {} },
  readChains = true,
): Promise<HomeModel> {
  const recovery = recoveryStatus(keyring);
  const accounts = keyring.describeAccounts();
  // The chains' reads for the cards (balances and code; gas-token balances) go out together.
  const [read, tokens, grantViews] = await Promise.all([
    readChains
      ? readAccountsOnChains(
          accounts.map((summary) => summary.account),
          Object.values(settings.allChainConfigs()),
        )
      : undefined,
    readChains
      ? settings
          .gasTokens(
            accounts.map(({ account }) => ({
              id: account.id,
              address: account.address,
              scopes: account.scopes,
            })),
          )
          .catch(() => undefined)
      : undefined,
    readChains ? permissions.views().catch(() => undefined) : undefined,
  ]);
  if (read) {
    lastRead = { onChains: read, gasTokens: tokens, grants: grantViews };
  }
  // A repaint reads nothing: it shows what was read last, so no card changes while it runs.
  const { onChains, gasTokens, grants } = lastRead;
  return {
    ...(onChains ? { onChains } : {}),
    ...(gasTokens?.tokens.length ? { gasTokens } : {}),
    ...(grants
      ? {
          grants: Object.fromEntries(
            Object.entries(grants).map(([id, views]) => [
              id,
              grantLines(views, Math.floor(Date.now() / 1000)),
            ]),
          ),
        }
      : {}),
    entropySources: await keyring.listEntropySources().catch(() => []),
    ...(recovery ? { recovery } : {}),
    accounts,
    activity: activity.views(),
    chains: settings.chainConfigs(),
    ipfs: settings.ipfsSummary(),
    approvalMode: settings.approvalMode(),
    requests: await keyring.listRequests(),
    notice: outcome.notice,
    errors: outcome.errors,
    values: outcome.values ?? {},
  };
}
