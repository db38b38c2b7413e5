import type {
  KeyringAccount,
  ResolvedAccountAddress,
} from '@metamask/keyring-api';
import type { JsonRpcRequest } from '@metamask/utils';

import type { AccountSummary } from './types';
import { signerOf } from '../accounts';
import type { AccountRecord } from '../state/schema';
import { parseScope } from '../utils/scope';

/**
 * Read-only views over the saved accounts, for the keyring's front doors: what the home page lists,
 * which service URLs to scrub from errors, and which account signs a request.
 */

/**
 * An account as the keyring API gives it out (`keyring_listAccounts`, `keyring_getAccount`,
 * `keyring_createAccount`'s reply and the `notify:accountCreated` / `notify:accountUpdated` events):
 * the stored account with its name in `options.name`, the one name the home page, the dialogs and
 * every site show (keyring-api's `KeyringAccountOptionsStruct` is a record of JSON values, so
 * MetaMask's keyring bridge accepts it). The stored options never hold it: a `name` there (an
 * older state's `keyring_updateAccount`) is replaced by the account's own name, or dropped when it
 * has none.
 *
 * @param record - A saved account.
 * @returns A copy of its account with `options.name`.
 */
export function publicAccount(record: AccountRecord): KeyringAccount {
  const { name: _stored, ...options } = record.account.options;
  return {
    ...record.account,
    options: record.name ? { ...options, name: record.name } : options,
  };
}

/**
 * Each account with its snap label and where its key comes from (the snap_getEntropy index,
 * scheme and recovery phrase it was derived with, or imported). Never the key.
 *
 * @param accounts - The saved accounts by id (KeyringState.accounts).
 * @returns One summary per account, in creation order.
 */
export function summarizeAccounts(
  accounts: Readonly<Record<string, AccountRecord>>,
): AccountSummary[] {
  return Object.values(accounts).map((record) => ({
    account: record.account,
    name: record.name ?? '',
    keySource:
      record.derivationIndex === undefined
        ? { imported: true as const }
        : {
            derivationIndex: record.derivationIndex,
            derivationScheme: record.derivationScheme ?? 'legacy',
            ...(record.entropySource === undefined
              ? {}
              : { entropySource: record.entropySource }),
          },
    ...(record.smartAccount
      ? {
          owner: record.smartAccount.owner,
          entryPointVersion: record.smartAccount.entryPointVersion ?? '0.6',
        }
      : {}),
  }));
}

/**
 * The bundler and paymaster URLs smart accounts took from their metadata.
 *
 * @param accounts - The saved accounts by id.
 * @returns Every such URL (to scrub from errors: they may hold API keys).
 */
export function metadataServiceUrls(
  accounts: Readonly<Record<string, AccountRecord>>,
): string[] {
  return Object.values(accounts).flatMap((record) =>
    Object.values(record.smartAccount?.chains ?? {}).flatMap((chain) =>
      [chain.bundlerUrl, chain.paymasterUrl].filter(
        (url): url is string => url !== undefined,
      ),
    ),
  );
}

/**
 * Which saved account signs a request (keyring-api `resolveAccountAddress`): the one whose address
 * is the request's signer and which lists the request's method.
 *
 * @param accounts - The saved accounts by id.
 * @param scope - CAIP-2 chain id of the request (`eip155:<decimal>`).
 * @param request - `{ method, params }` of a signing method.
 * @returns `{ address: "eip155:<chain>:<address>" }`, or null when no account signs it.
 * @throws JsonRpcError -32602 when `scope` is not a CAIP-2 chain id.
 */
export function signingAccountAddress(
  accounts: Readonly<Record<string, AccountRecord>>,
  scope: string,
  request: JsonRpcRequest,
): ResolvedAccountAddress | null {
  parseScope(scope);
  const candidate = signerOf(request)?.toLowerCase();
  const record = candidate
    ? Object.values(accounts).find(
        (entry) =>
          entry.account.address.toLowerCase() === candidate &&
          entry.account.methods.includes(request.method),
      )
    : undefined;
  return record
    ? {
        address:
          `${scope}:${record.account.address}` as `${string}:${string}:${string}`,
      }
    : null;
}
