import type { KeyringRequest } from '@metamask/keyring-api';

import type { Domain } from '../domain';
import type { AccountSummary } from '../keyring/keyring';
import type { ChainConfig } from '../settings';

/**
 * The element names of the home page: the contract its tests and any automation use. Buttons that
 * act on one item end in `:<id>` (account id, request id) or `:<scope>` (CAIP-2 chain id).
 */
export const UI = {
  accountExport: 'account-export',
  accountDelete: 'account-delete',
  accountRename: 'account-rename',
  accountName: 'account-name',
  createEoa: 'create-eoa',
  createSmart: 'create-smart',
  smartScope: 'smart-scope',
  smartMetadataCid: 'smart-metadataCid',
  importKey: 'import-key',
  importPrivateKey: 'import-privateKey',
  importType: 'import-type',
  chainForm: 'chain-form',
  chainEdit: 'chain-edit',
  ipfsForm: 'ipfs-form',
  approvalMode: 'approval-mode',
  requestApprove: 'request-approve',
  requestReject: 'request-reject',
  send: 'send',
  sendTo: 'send-to',
  sendValue: 'send-value',
  sendData: 'send-data',
  sendScope: 'send-scope',
  sendStatus: 'userop-status',
} as const;

/** The chain form's fields, in order, with their labels (`chain-<field>`). */
export const CHAIN_FIELDS = [
  ['scope', 'Chain (eip155:<chain id>)'],
  ['rpcUrl', 'RPC URL'],
  ['entryPoint', 'EntryPoint (optional, default v0.6)'],
  [
    'accountFactory',
    'Account factory (optional, default SimpleAccountFactory v0.6)',
  ],
  ['bundlerUrl', 'Bundler URL (optional)'],
  ['paymasterUrl', 'Paymaster URL (optional, ERC-7677)'],
] as const;

/** The IPFS form's fields (`ipfs-<field>`); key and secret are write-only. */
export const IPFS_FIELDS = [
  ['apiUrl', 'IPFS HTTP API URL', 'text'],
  ['apiKey', 'API key (write-only)', 'password'],
  ['apiKeySecret', 'API key secret (write-only)', 'password'],
] as const;

/** What the page shows: everything read from the domain, plus the outcome of the last action. */
export type HomeModel = {
  /** The keyring's accounts, with their names and key sources. */
  accounts: AccountSummary[];
  /** The configured chains (URLs masked). */
  chains: ChainConfig[];
  /** The IPFS API settings, null when unset: the API URL, and whether a key or secret is set (never the values). */
  ipfs: { apiUrl: string; hasCredentials: boolean } | null;
  /** `sync`: requests are signed when MetaMask asks; `async`: they wait for approval on this page. */
  approvalMode: 'sync' | 'async';
  /** The pending (async) signing requests. */
  requests: KeyringRequest[];
  /** The outcome of the last action, shown at the top. */
  notice?: { severity: 'success' | 'danger'; text: string };
  /** Errors by form name, or by field name (`chain-rpcUrl`), shown next to what caused them. */
  errors: Record<string, string>;
  /** Values of the text inputs to show (secrets are never here: they always render empty). */
  values: Record<string, string>;
  /** The user operation sent last, whose status can be refreshed. */
  lastSent?: { scope: string; userOpHash: string; status?: string };
};

/** The outcome of one home-page action: a notice, errors by form or field, and the inputs to show. */
export type Outcome = Pick<HomeModel, 'notice' | 'errors' | 'lastSent'> & {
  /** Input values to show instead of the current ones (an empty string clears an input). */
  values?: Record<string, string>;
};

/**
 * Build the home page's model from the domain, with the outcome of the last action.
 *
 * @param domain - The domain.
 * @param domain.keyring - The keyring: accounts and pending requests.
 * @param domain.settings - The settings: chain configs, IPFS config and approval mode.
 * @param outcome - Notice, errors and input values to show.
 * @returns The model to render.
 */
export async function buildHomeModel(
  { keyring, settings }: Domain,
  outcome: Outcome = { errors: {} },
): Promise<HomeModel> {
  const ipfs = settings.ipfsConfig();
  return {
    accounts: keyring.describeAccounts(),
    chains: settings.chainConfigs(),
    ipfs: ipfs
      ? {
          apiUrl: ipfs.apiUrl,
          hasCredentials:
            ipfs.apiKey !== undefined || ipfs.apiKeySecret !== undefined,
        }
      : null,
    approvalMode: settings.approvalMode(),
    requests: await keyring.listRequests(),
    notice: outcome.notice,
    errors: outcome.errors,
    ...(outcome.lastSent ? { lastSent: outcome.lastSent } : {}),
    values: outcome.values ?? {},
  };
}
