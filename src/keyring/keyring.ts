import {
  EthAccountType,
  KeyringAccountStruct,
  KeyringEvent,
} from '@metamask/keyring-api';
import type {
  Keyring,
  KeyringAccount,
  KeyringAccountData,
  KeyringRequest,
  KeyringResponse,
  ResolvedAccountAddress,
} from '@metamask/keyring-api';
import type { Json, JsonRpcRequest } from '@metamask/utils';

import { checkName, renameIn } from './accountNames';
import { applyAccountUpdate } from './accountUpdate';
import {
  metadataServiceUrls,
  publicAccount,
  signingAccountAddress,
  summarizeAccounts,
} from './accountViews';
import { AccountCreation } from './createAccount';
import { DerivedKeys } from './derivedKeys';
import type { Key } from './derivedKeys';
import { exportQuestion } from './exportQuestion';
import type { DerivationScheme } from './keys';
import { EntropySources } from './recovery/entropySources';
import { Recovery } from './recovery/recovery';
import type { EntropySource, RecoveryReport } from './recovery/recoveryTypes';
import { PendingRequests } from './requests';
import type {
  AccountSummary,
  ApprovalRedirect,
  KeyringPlatform,
} from './types';
import { UserOperations } from './userOperations';
import { requireConsent } from '../consent';
import type { Requester } from '../consent';
import type { MetadataReader } from '../metadata';
import type { Settings } from '../settings';
import type { StateStore } from '../state/store';
import type { AccountRecord } from '../state/store';
import {
  invalidParams,
  notFound,
  throwNotFound,
  userRejected,
  validate,
} from '../utils/errors';
import { ownEntry, quoteId } from '../utils/safeText';
import { ChainScopeStruct } from '../utils/structs';

export type { AccountSummary, ApprovalRedirect, KeyringPlatform };
export type { EntropySource, RecoveryReport };

/**
 * The keyring (keyring-api v1 `Keyring`): accounts, their keys, pending requests and keyring
 * events. Network reads (IPFS metadata, the factory's address) happen before the state queue;
 * inside it, each change works on a copy of the state, saves it, and only then emits its event; if
 * the event is refused (the user cancels in MetaMask) the saved state is rolled back. Keys never
 * leave this class except through a user-confirmed exportAccount.
 */
export class KeyringSnap implements Keyring {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #platform: KeyringPlatform;

  /** Derivation-index reservation and the one-key-one-account rule. */
  readonly #keys: DerivedKeys;

  /** sendUserOperation and getUserOperationReceipt. */
  readonly #userOperations: UserOperations;

  /** createAccount. */
  readonly #creation: AccountCreation;

  /** submitRequest and the parked requests of async approval mode. */
  readonly #requests: PendingRequests;

  /** findAccounts, restoreAccount and the entropy sources. */
  readonly #recovery: Recovery;

  /**
   * @param parts - What the keyring works with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - Chain, IPFS and approval settings.
   * @param parts.metadata - Reads account metadata from IPFS.
   * @param parts.platform - Events, dialogs and key derivation.
   * @param parts.redirect - Where a parked request is approved.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    metadata: MetadataReader;
    platform: KeyringPlatform;
    redirect: ApprovalRedirect;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#platform = parts.platform;
    this.#keys = new DerivedKeys(
      this.#store,
      async (
        index: number,
        scheme: DerivationScheme,
        source?: string,
      ): Promise<Key> => this.#platform.deriveKey(index, scheme, source),
    );
    this.#userOperations = new UserOperations({
      store: this.#store,
      settings: this.#settings,
      platform: this.#platform,
      record: (id: string): AccountRecord => this.#record(id),
    });
    const sources = new EntropySources(this.#platform.listEntropySources);
    this.#creation = new AccountCreation({
      ...parts,
      keys: this.#keys,
      sources,
    });
    this.#requests = new PendingRequests({
      ...parts,
      record: (id: string): AccountRecord => this.#record(id),
    });
    this.#recovery = new Recovery({ ...parts, keys: this.#keys, sources });
  }

  /** @returns Every account (public data only, its name in `options.name`: see publicAccount). */
  async listAccounts(): Promise<KeyringAccount[]> {
    return Object.values(this.#store.current.accounts).map(publicAccount);
  }

  /**
   * @param id - Account id (UUID v4).
   * @returns The account, its name in `options.name` (see publicAccount).
   * @throws JsonRpcError -32001 when unknown.
   */
  async getAccount(id: string): Promise<KeyringAccount> {
    return publicAccount(this.#record(id));
  }

  /** @returns The accounts as a person sees them, never a key (see summarizeAccounts). */
  describeAccounts(): AccountSummary[] {
    return summarizeAccounts(this.#store.current.accounts);
  }

  /** @returns The bundler and paymaster URLs smart accounts took from their metadata (to scrub from errors). */
  serviceUrls(): string[] {
    return metadataServiceUrls(this.#store.current.accounts);
  }

  /**
   * Create an account. Options: `{ type?: "eip155:eoa" | "eip155:erc4337", privateKey?, scopes?, metadataCid?, name? }`.
   * Without `privateKey` the key is derived from snap_getEntropy with the next free index of the
   * account type's own salt scheme (`eoa` or `erc4337-owner`); `privateKey` (32-byte hex) imports
   * a key and is never kept in the account's options. One key, one account: a key that backs an
   * account already (an EOA's key or a smart account's owner key) is refused, whatever the type
   * of either account.
   * Metadata and the smart account's address are read before the state queue, so a slow server
   * delays only this creation. A smart account whose metadata names an EntryPoint or factory other
   * than the chain config's (or the canonical ones), or bundler or paymaster URLs, is created only
   * after the user confirms a dialog naming them (URLs masked) and the address they give.
   *
   * @param options - Creation options.
   * @param requester - The caller (from the front door); undefined for the snap's home page (no site is named).
   * @returns The new account, after state is saved and `notify:accountCreated` accepted.
   * @throws JsonRpcError -32602 on malformed options, a duplicate address or a key that backs an
   * account already (`this key already backs account <address>`), 4001 when the user
   * declines, -32001 when a chain or IPFS config is missing.
   */
  async createAccount(
    options: Record<string, Json> = {},
    requester?: Requester,
  ): Promise<KeyringAccount> {
    return this.#creation.create(options, requester);
  }

  /** @returns The Secret Recovery Phrases MetaMask holds, checked, primary first (EntropySources.list). */
  async listEntropySources(): Promise<EntropySource[]> {
    return this.#recovery.listSources();
  }

  /**
   * @param args - `{ onProgress }` (called after each window of indices) and the calling site
   * (asked first in a dialog; none for the home page), as Recovery.find takes them.
   * @returns "Find my accounts"'s report (what was searched, added and skipped).
   */
  async findAccounts(
    ...args: Parameters<Recovery['find']>
  ): Promise<RecoveryReport> {
    return this.#recovery.find(...args);
  }

  /**
   * @param args - `{ type, index, entropySource?, scheme?, entryPointVersion? }` and the calling
   * site (asked first in a dialog; none for the home page), as Recovery.restore takes them.
   * @returns The account of that derivation index, added as createAccount adds one.
   */
  async restoreAccount(
    ...args: Parameters<Recovery['restore']>
  ): Promise<KeyringAccount> {
    return this.#recovery.restore(...args);
  }

  /**
   * @param id - Account id.
   * @param chains - CAIP-2 chain ids to test.
   * @returns The subset the account can serve (EOA: every `eip155:<n>` chain).
   */
  async filterAccountChains(id: string, chains: string[]): Promise<string[]> {
    const { account } = this.#record(id);
    if (account.type === EthAccountType.Erc4337) {
      return chains.filter((chain) =>
        account.scopes.includes(chain as `${string}:${string}`),
      );
    }
    return chains.filter((chain) => ChainScopeStruct.is(chain));
  }

  /**
   * Update an account's options (and narrow its methods), and rename it when `options.name` is
   * sent (what MetaMask and the companion site call to rename): address, type, scopes and the
   * options `exportable`, `entropy` and `metadataCid` are fixed; see applyAccountUpdate.
   *
   * @param account - The full account with changes.
   * @throws JsonRpcError -32001 when unknown, -32602 when a fixed field changes or the name is
   * refused (as renameAccount, naming `account at options.name`).
   */
  async updateAccount(account: KeyringAccount): Promise<void> {
    validate(account, KeyringAccountStruct, 'account');
    await this.#store.run(async () => {
      this.#record(account.id);
      const draft = this.#store.draft();
      const updated = publicAccount(applyAccountUpdate(draft, account));
      await this.#store.commit(draft, async () =>
        this.#platform.emitEvent(KeyringEvent.AccountUpdated, {
          account: updated,
        }),
      );
    });
  }

  /**
   * Rename an account: its one name, shown on the home page, in the snap's dialogs and to sites
   * (`options.name` of keyring_listAccounts). MetaMask is told (`notify:accountUpdated`, the
   * account with its new `options.name`) but keeps the label it showed at creation: keyring-api has
   * no rename event. Saved through the state queue like every change.
   *
   * @param id - Account id.
   * @param name - The new name: 1 to 64 characters once trimmed, no control or bidirectional
   * characters, not another account's name (case-insensitively) nor a look-alike.
   * @returns The name as saved (trimmed).
   * @throws JsonRpcError -32001 when unknown; -32602 naming `name` (`data.reason` `invalidName`,
   * `nameTaken` or `nameLookalike`), never echoing it.
   */
  async renameAccount(id: string, name: unknown): Promise<string> {
    const checked = checkName(name);
    this.#record(id);
    await this.#store.run(async () => {
      this.#record(id);
      const draft = this.#store.draft();
      renameIn(draft, id, checked, 'name');
      await this.#store.commit(draft, async () =>
        this.#platform.emitEvent(KeyringEvent.AccountUpdated, {
          account: publicAccount(draft.accounts[id]),
        }),
      );
    });
    return checked;
  }

  /**
   * Delete an account, its key and its pending requests (each then gets `notify:requestRejected`).
   * When a site asks (not MetaMask, not the home page, which confirms in the page), the user first
   * confirms a dialog naming the site and the account (name and full address).
   *
   * @param id - Account id.
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @param shown - What the caller's own dialog said (the home page's): `waiting`, the ids of the
   * account's requests it said would be rejected. Checked inside the state queue, so a request
   * that arrives after the dialog cannot be rejected without having been named.
   * @param shown.waiting - Those request ids.
   * @throws JsonRpcError -32001 when unknown, 4001 when the user declines (nothing deleted);
   * -32602 (`data.reason: 'requestsChanged'`) when `shown.waiting` is not exactly the account's
   * waiting requests (nothing deleted).
   */
  async deleteAccount(
    id: string,
    requester?: Requester,
    shown?: { waiting: readonly string[] },
  ): Promise<void> {
    const { account, name, derivationIndex } = this.#record(id);
    await requireConsent(this.#platform.confirmConsent, requester, {
      kind: 'deleteAccount',
      name: name ?? '',
      address: account.address,
      imported: derivationIndex === undefined,
      waiting: Object.values(this.#store.current.pendingRequests).filter(
        (request) => request.account === id,
      ).length,
    });
    await this.#store.run(async () => {
      this.#record(id);
      const draft = this.#store.draft();
      delete draft.accounts[id];
      const dropped = Object.values(draft.pendingRequests).filter(
        (request) => request.account === id,
      );
      if (
        shown &&
        (shown.waiting.length !== dropped.length ||
          dropped.some(({ id: request }) => !shown.waiting.includes(request)))
      ) {
        throw invalidParams(
          'Invalid deleteAccount: its waiting requests changed since they were shown; nothing deleted',
          { reason: 'requestsChanged' },
        );
      }
      dropped.forEach((request) => delete draft.pendingRequests[request.id]);
      await this.#store.commit(draft, async () =>
        this.#platform.emitEvent(KeyringEvent.AccountDeleted, { id }),
      );
      for (const request of dropped) {
        // Best effort: tell the wallet the request will never be signed; it may have forgotten it.
        await this.#platform
          .emitEvent(KeyringEvent.RequestRejected, { id: request.id })
          .catch(() => undefined);
      }
    });
  }

  /**
   * Export an account's private key (keyring-api `exportAccount`) after the user confirms in a
   * snap_dialog. For a site (the handler lets only the companion dapp call this) the dialog says the
   * key will be SENT to that origin, naming the account and its full address; for the home page
   * (no requester) it says the key will be shown. The account is read again after the dialog: if
   * it was deleted or its key changed meanwhile, nothing is returned.
   *
   * @param id - Account id.
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @returns `{ privateKey }` (32-byte hex; for a smart account, its owner's key).
   * @throws JsonRpcError 4001 when the user declines, -32001 when unknown (or deleted while the
   * dialog was open), -32602 when not exportable.
   */
  async exportAccount(
    id: string,
    requester?: Requester,
  ): Promise<KeyringAccountData> {
    const record = this.#record(id);
    if (record.account.options.exportable === false) {
      throw invalidParams(`Account ${quoteId(id)} is not exportable`);
    }
    const confirmed = requester
      ? await this.#platform.confirmConsent?.({
          origin: requester.origin,
          change: {
            kind: 'exportAccount',
            name: record.name ?? '',
            address: record.account.address,
            owner: record.smartAccount?.owner,
          },
        })
      : await this.#platform.confirm(
          'Show private key',
          exportQuestion(record),
        );
    if (confirmed !== true) {
      throw userRejected('The user declined to export the private key');
    }
    const current = this.#record(id); // still there, with the same key, after the dialog
    if (
      current.privateKey !== record.privateKey ||
      current.account.options.exportable === false
    ) {
      throw notFound(`Account ${quoteId(id)} not found`);
    }
    return { privateKey: current.privateKey };
  }

  /** @returns Pending requests (async approval mode). */
  async listRequests(): Promise<KeyringRequest[]> {
    return this.#requests.list();
  }

  /**
   * @param id - Request id.
   * @returns The pending request.
   * @throws JsonRpcError -32001 when unknown.
   */
  async getRequest(id: string): Promise<KeyringRequest> {
    return this.#requests.get(id);
  }

  /**
   * Validate a request once, then answer it: prepare and patch at once (nothing is signed);
   * signing requests signed now (sync mode: `{ pending: false, result }`) or parked until
   * approved (async mode: `{ pending: true, redirect }`).
   *
   * @param request - keyring-api KeyringRequest: `{ id, scope, account, origin, request: { method, params } }`.
   * @returns The keyring response.
   * @throws JsonRpcError -32001 for an unknown account, -32602 for a method the account
   * does not list or malformed params.
   */
  async submitRequest(request: KeyringRequest): Promise<KeyringResponse> {
    return this.#requests.submit(request);
  }

  /**
   * Sign a pending request and resolve it (`notify:requestApproved`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async approveRequest(id: string): Promise<void> {
    await this.#requests.approve(id);
  }

  /**
   * Drop a pending request (`notify:requestRejected`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async rejectRequest(id: string): Promise<void> {
    await this.#requests.reject(id);
  }

  /**
   * Which of our accounts a signing request is for (keyring-api resolveAccountAddress).
   *
   * @param scope - CAIP-2 chain id of the request.
   * @param request - `{ method, params }` of a signing method.
   * @returns `{ address: "eip155:<chain>:<address>" }`, or null when no account of ours signs it.
   */
  async resolveAccountAddress(
    scope: string,
    request: JsonRpcRequest,
  ): Promise<ResolvedAccountAddress | null> {
    return signingAccountAddress(this.#store.current.accounts, scope, request);
  }

  /**
   * MetaMask tells which accounts the user selected; this keyring serves all accounts alike, so
   * it only checks the ids are ours.
   *
   * @param accounts - Account ids.
   */
  async setSelectedAccounts(accounts: string[]): Promise<void> {
    accounts.forEach((id) => this.#record(id));
  }

  /**
   * A user operation's outcome (`getUserOperationReceipt`); see UserOperations.receipt.
   *
   * @param params - `{ scope: "eip155:<decimal>", userOpHash: 32-byte hex }`.
   * @returns The receipt (hex quantities), or null while unknown.
   * @throws JsonRpcError -32602 for bad params, -32001 when the chain has no config.
   */
  async userOperationReceipt(params: unknown): Promise<Json> {
    return this.#userOperations.receipt(params);
  }

  /**
   * Send a user operation from a smart account (`sendUserOperation`), after the user confirms it;
   * see UserOperations.send.
   *
   * @param params - `{ account: <account id>, scope: "eip155:<decimal>", intents: [{ to, value?, data? }, ...] }`.
   * @param origin - Who asked, shown in the dialog; the default names the snap's home page.
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws JsonRpcError 4001 when the user declines; -32602 / -32001 for bad params, unknown
   * account or missing config; the bundler's code when it refuses the operation.
   */
  async sendUserOperation(
    params: unknown,
    origin?: string,
  ): Promise<{ userOpHash: string; entryPoint: string; sender: string }> {
    return this.#userOperations.send(params, origin);
  }

  /**
   * The saved record of account `id`.
   *
   * @param id - The account id (a UUID).
   * @returns The account, its key source and ERC-4337 data.
   * @throws JsonRpcError -32001 if there is no such account.
   */
  #record(id: string): AccountRecord {
    return (
      ownEntry(this.#store.current.accounts, id) ??
      throwNotFound(`Account ${quoteId(id)} not found`)
    );
  }
}
