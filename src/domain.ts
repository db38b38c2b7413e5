import type { KeyringAccount } from '@metamask/keyring-api';
import type { JsonRpcError } from '@metamask/rpc-errors';

import { AccountActivity } from './keyring/accountActivity';
import { DeleGators } from './keyring/deleGator';
import { AccountUpgrades } from './keyring/eip7702';
import { KeyringSnap } from './keyring/keyring';
import type { ApprovalRedirect, KeyringPlatform } from './keyring/keyring';
import { MetadataReader } from './metadata';
import { Settings } from './settings';
import { DappCalls } from './sites/dappCalls';
import { ExecutionPermissions } from './sites/permissions/executionPermissions';
import type { GrantConfirmer } from './sites/permissions/types';
import { SiteAccounts } from './sites/siteAccounts';
import { loadState, StateStore } from './state/store';
import type { KeyringState, StateSaver } from './state/store';
import { callerError } from './utils/errorMap';

/**
 * The composition root: builds the settings, the state store, the metadata reader and the keyring
 * once, over a platform. The snap's entry points (src/index.ts) load it with `loadDomain`; Node
 * tests build it with `createDomain` over their own platform.
 */

/**
 * The one domain API every front door calls: the keyring and the settings, over one state store,
 * and `scrub`, which masks the configured credentials in an error before a front door returns it.
 */
export type Domain = {
  /** The keyring-api keyring. */
  keyring: KeyringSnap;
  /** Chain, IPFS and approval settings. */
  settings: Settings;
  /** EIP-7702 upgrade and undo of the keyring's EOAs (the home page's buttons). */
  upgrades: AccountUpgrades;
  /**
   * The keyring's EOAs as delegators of MetaMask's Delegation Framework (EIP-7702 to the
   * DeleGator, the delegation signer): the seam of the ERC-7715 grant flow (keyring/deleGator.ts).
   */
  deleGators: DeleGators;
  /** Each account's Activity list, read from the chain (the home page's Activity part). */
  activity: AccountActivity;
  /** EIP-5792 for sites (wallet_getCapabilities, wallet_sendCalls, wallet_getCallsStatus). */
  dapps: DappCalls;
  /** ERC-7715 execution permissions for sites, and the home page's list and *Revoke*. */
  permissions: ExecutionPermissions;
  /**
   * What a caller sees of anything thrown (`callerError`: mapped to a JSON-RPC error, the
   * configured credentials masked in it). A JSON-RPC error keeps its code.
   */
  scrub: (error: unknown) => JsonRpcError<never>;
};

/** What the domain needs from MetaMask: the keyring's platform, saving state, the grant dialog. */
export type DomainPlatform = KeyringPlatform & {
  /** Save the state (snap_manageState). */
  saveState: StateSaver;
  /** Show the grant dialog of an execution permission; without it nothing is granted. */
  confirmGrant?: GrantConfirmer;
};

/**
 * Build the domain over a loaded state.
 *
 * @param state - The loaded (migrated, validated) state.
 * @param platform - Saving state, keyring events, dialogs and key derivation.
 * @param redirect - Where a parked request is approved (async approval mode).
 * @returns `{ keyring, settings }`.
 */
export function createDomain(
  state: KeyringState,
  platform: DomainPlatform,
  redirect: ApprovalRedirect,
): Domain {
  const store = new StateStore(state, platform.saveState);
  const settings = new Settings(store, platform.confirmConsent);
  const metadata = new MetadataReader(() => settings.ipfsConfig());
  const sites = new SiteAccounts({
    store,
    confirm: platform.confirm,
    listAccounts: async (): Promise<KeyringAccount[]> =>
      Object.values(store.current.accounts).map((record) => record.account),
  });
  const { confirmSend } = platform;
  // a send the person approves gives the site that asked for it the sending account
  const sending: typeof platform = confirmSend
    ? {
        ...platform,
        confirmSend: async (review): Promise<boolean> => {
          const approved = await confirmSend(review);
          if (approved) {
            await sites.approved(review.origin, review.account);
          }
          return approved;
        },
      }
    : platform;
  const keyring = new KeyringSnap({
    store,
    settings,
    metadata,
    platform: sending,
    redirect,
  });
  const deleGators = new DeleGators({ store, settings, platform });
  const domain: Domain = {
    keyring,
    settings,
    upgrades: new AccountUpgrades({ store, settings, platform: sending }),
    deleGators,
    activity: new AccountActivity({ store, settings }),
    dapps: new DappCalls({ store, settings, keyring, sites }),
    permissions: new ExecutionPermissions({
      store,
      settings,
      keyring,
      deleGators,
      ...(platform.confirmGrant ? { confirm: platform.confirmGrant } : {}),
    }),
    scrub: (error) => scrubError(error, domain),
  };
  return domain;
}

/**
 * Load the state (snap_manageState) and build the domain over it, on the snap's platform
 * (snap_manageState, snap_manageAccounts, snap_dialog, snap_getEntropy: src/ui/snapPlatform.ts).
 *
 * @param redirect - Where a parked request is approved.
 * @param platform - The platform: state saving, keyring events, key derivation and dialogs.
 * @returns `{ keyring, settings, scrub }`.
 * @throws Error when the stored state cannot be read or is of an unknown schema.
 */
export async function loadDomain(
  redirect: ApprovalRedirect,
  platform: DomainPlatform,
): Promise<Domain> {
  return createDomain(await loadState(), platform, redirect);
}

/**
 * Remove the snap's credentials from an error before it leaves the snap. Messages from servers (a
 * node's or a bundler's JSON-RPC error, a paymaster's refusal) are passed on, and a server may
 * quote the URL it was called at, API key included, or the key alone. Every configured service URL
 * (chain configs, accounts' bundler and paymaster URLs) and every one configured earlier this
 * session is masked and its secrets (path, query, password, key-like host labels) replaced by
 * `***`; so are the IPFS API key and secret, current and earlier. The message is cut to 300
 * printable characters.
 *
 * Anything else than a JSON-RPC error is first mapped to one (src/utils/errorMap.ts).
 *
 * @param error - What was thrown.
 * @param domain - The loaded domain (its settings and accounts name the credentials), if loaded.
 * @returns The JSON-RPC error: the same one when nothing was masked, or a copy with the
 * credentials replaced (same code).
 */
export function scrubError(
  error: unknown,
  domain: Domain | undefined,
): JsonRpcError<never> {
  if (!domain) {
    return callerError(error);
  }
  const { settings, keyring } = domain;
  const urls = [
    ...Object.values(settings.allChainConfigs()).flatMap((config) => [
      config.rpcUrl,
      config.bundlerUrl,
      config.paymasterUrl,
    ]),
    ...keyring.serviceUrls(),
  ].filter((url): url is string => typeof url === 'string');
  const ipfs = settings.ipfsConfig();
  return callerError(error, urls, [ipfs?.apiKey, ipfs?.apiKeySecret]);
}
