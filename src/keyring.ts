import {
  EthAccountType,
  EthMethod,
  KeyringAccountStruct,
  KeyringEvent,
} from '@metamask/keyring-api';
import type {
  Keyring,
  KeyringAccount,
  KeyringAccountData,
  KeyringEventPayload,
  KeyringRequest,
  KeyringResponse,
  ResolvedAccountAddress,
} from '@metamask/keyring-api';
import { array, object, size, string } from '@metamask/superstruct';
import type { Json, JsonRpcRequest } from '@metamask/utils';
import { v4 as uuidv4 } from 'uuid';
import type { Hex } from 'viem';

import {
  newEoaAccount,
  parseAccountRequest,
  signAccountTask,
  signerOf,
  signsNothing,
  runUnsigned,
} from './accounts';
import { newSmartAccount, resolveSmartAccount } from './accounts/erc4337';
import {
  DeployingSends,
  draftUserOperation,
  lookupUserOperationReceipt,
  rememberSent,
  submitUserOperation,
} from './accounts/erc4337';
import type { ResolvedSmartAccount } from './accounts/erc4337';
import type { SendSummary } from './accounts/erc4337';
import { assertAccountUpdate } from './accountUpdate';
import { metadataConsent, requireConsent } from './consent';
import type { ConsentAsker, Requester } from './consent';
import {
  internalError,
  invalidParams,
  notFound,
  userRejected,
  validate,
} from './errors';
import { importKey } from './keys';
import type { DerivationScheme } from './keys';
import { MetadataReader } from './metadata';
import { CreateAccountOptionsStruct } from './options';
import type { CreateAccountOptions } from './options';
import { ownEntry, quoteId } from './safeText';
import { parseScope } from './scope';
import { Settings } from './settings';
import { StateStore } from './state/store';
import type { AccountRecord, SmartAccountData } from './state/store';
import { ChainScopeStruct, Bytes32Struct } from './structs';

/** What the keyring needs from the snap platform; injected so Node tests can run it. */
export type KeyringPlatform = {
  /** Send a keyring-api event to MetaMask (snap_manageAccounts); rejects if MetaMask refuses it. */
  emitEvent: <EventType extends KeyringEvent>(
    event: EventType,
    data: KeyringEventPayload<EventType>,
  ) => Promise<void>;
  /** Ask the user to confirm; resolves true when confirmed. */
  confirm: (title: string, text: string) => Promise<boolean>;
  /** Ask the user to confirm a change a site asks for (snap_dialog); without it a site changes nothing. */
  confirmConsent?: ConsentAsker;
  /** Derive the key of index `index` in salt scheme `scheme` (snap_getEntropy, see derivationSalt). */
  deriveKey: (
    index: number,
    scheme: DerivationScheme,
  ) => Promise<{ privateKey: string; address: string }>;
  /** Show the sendUserOperation confirmation (snap_dialog); resolves true when confirmed. Without it nothing is sent. */
  confirmSend?: (summary: SendSummary) => Promise<boolean>;
};

/** Where a parked request (async approval mode) is approved: a message, and a URL of an allowed origin. */
export type ApprovalRedirect = (requestId: string) => {
  message: string;
  url?: string;
};

/** A secp256k1 key pair of an account. */
type Key = {
  /** The private key, 0x-prefixed hex (32 bytes). */
  privateKey: string;
  /** The EOA address of the key, 0x-prefixed hex (20 bytes). */
  address: string;
};

/** An account as shown to a person (see describeAccounts). */
export type AccountSummary = {
  /** The keyring-api account. */
  account: KeyringAccount;
  /** The name shown for the account. */
  name: string;
  /** Where the key comes from: a derivation index and its salt scheme (snap_getEntropy), or an imported key. */
  keySource:
    | { derivationIndex: number; derivationScheme: DerivationScheme }
    | { imported: true };
};

/** The origin sendUserOperation's dialog names when the snap's home page Send form asked. */
export const HOME_PAGE_ORIGIN = 'this snap’s home page (Send form)';

const ReceiptParamsStruct = object({
  scope: ChainScopeStruct,
  userOpHash: Bytes32Struct,
});

const SendParamsStruct = object({
  account: string(),
  scope: ChainScopeStruct,
  intents: size(array(), 1, 32),
});

/** How many derivation indexes of a scheme createAccount tries past ones whose key backs an account already (imported). */
const DERIVATION_SKIP_LIMIT = 16;

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

  readonly #metadata: MetadataReader;

  readonly #platform: KeyringPlatform;

  readonly #redirect: ApprovalRedirect;

  /** Derivation indexes taken by creations still running (not yet saved), as `<scheme>:<index>`. */
  readonly #reserved = new Set<string>();

  /** Smart accounts with a deploying operation in flight (sendUserOperation refuses a second one). */
  readonly #deploying = new DeployingSends();

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
    this.#metadata = parts.metadata;
    this.#platform = parts.platform;
    this.#redirect = parts.redirect;
  }

  /** @returns Every account (public data only). */
  async listAccounts(): Promise<KeyringAccount[]> {
    return Object.values(this.#store.current.accounts).map(
      (record) => record.account,
    );
  }

  /**
   * @param id - Account id (UUID v4).
   * @returns The account.
   * @throws JsonRpcError -32001 when unknown.
   */
  async getAccount(id: string): Promise<KeyringAccount> {
    return this.#record(id).account;
  }

  /**
   * The accounts as a person sees them: the keyring-api account, the name it was created with,
   * and where its key comes from (the snap_getEntropy index it was derived with, or imported).
   * Never the key.
   *
   * @returns One entry per account, in creation order.
   */
  describeAccounts(): AccountSummary[] {
    return Object.values(this.#store.current.accounts).map((record) => ({
      account: record.account,
      name: record.name ?? '',
      keySource:
        record.derivationIndex === undefined
          ? { imported: true as const }
          : {
              derivationIndex: record.derivationIndex,
              derivationScheme: record.derivationScheme ?? 'legacy',
            },
    }));
  }

  /** @returns The bundler and paymaster URLs smart accounts took from their metadata (to scrub from errors). */
  serviceUrls(): string[] {
    return Object.values(this.#store.current.accounts).flatMap((record) =>
      Object.values(record.smartAccount?.chains ?? {}).flatMap((chain) =>
        [chain.bundlerUrl, chain.paymasterUrl].filter(
          (url): url is string => url !== undefined,
        ),
      ),
    );
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
    const parsed = validate<CreateAccountOptions>(
      options,
      CreateAccountOptionsStruct,
      'createAccount options',
    );
    const smart = parsed.type === EthAccountType.Erc4337;
    if (parsed.scopes !== undefined && !smart) {
      throw invalidParams(
        'Invalid createAccount options at scopes: EOA accounts serve every EVM chain (eip155:0); scopes are for eip155:erc4337',
      );
    }
    const metadata =
      parsed.metadataCid === undefined
        ? undefined
        : await this.#metadata.read(parsed.metadataCid);
    const scheme: DerivationScheme = smart ? 'erc4337-owner' : 'eoa';
    const { key, derivationIndex } =
      parsed.privateKey === undefined
        ? await this.#reserveDerivedKey(scheme)
        : { key: importKey(parsed.privateKey), derivationIndex: undefined };
    try {
      // before any network call or dialog; checked again in the state queue
      this.#assertUnique(key);
      const resolved = smart
        ? await this.#resolveSmartAccount(
            key,
            parsed.scopes,
            metadata?.overrides,
            requester,
          )
        : undefined;
      const account = resolved
        ? newSmartAccount(resolved)
        : newEoaAccount(key.address);
      // keyring-api account options: where the key comes from (imported, or the snap's own
      // snap_getEntropy derivation, which has no BIP-44 path), so MetaMask can show it.
      account.options.entropy = {
        type: derivationIndex === undefined ? 'private-key' : 'custom',
      };
      if (parsed.metadataCid !== undefined) {
        account.options.metadataCid = parsed.metadataCid;
      }
      const record: AccountRecord = {
        account,
        name: '',
        privateKey: key.privateKey,
        ...(derivationIndex === undefined
          ? {}
          : { derivationIndex, derivationScheme: scheme }),
        ...(resolved ? { smartAccount: resolved.data } : {}),
      };
      return await this.#store.run(async () => {
        this.#assertUnique(key, account.address);
        const draft = this.#store.draft();
        if (derivationIndex !== undefined) {
          draft.nextDerivationIndex[scheme] = Math.max(
            draft.nextDerivationIndex[scheme],
            derivationIndex + 1,
          );
        }
        const name =
          parsed.name ??
          metadata?.name ??
          `${smart ? 'Smart Account' : 'Keyring Account'} ${Object.keys(draft.accounts).length + 1}`;
        draft.accounts[account.id] = { ...record, name };
        await this.#store.commit(draft, async () =>
          this.#platform.emitEvent(KeyringEvent.AccountCreated, {
            account,
            accountNameSuggestion: name,
          }),
        );
        return account;
      });
    } finally {
      if (derivationIndex !== undefined) {
        this.#reserved.delete(`${scheme}:${derivationIndex}`);
      }
    }
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
   * Update an account's options (and narrow its methods). Address, type, scopes and the options
   * `exportable`, `entropy` and `metadataCid` are fixed (see assertAccountUpdate).
   *
   * @param account - The full account with changes.
   * @throws JsonRpcError -32001 when unknown, -32602 when a fixed field changes.
   */
  async updateAccount(account: KeyringAccount): Promise<void> {
    validate(account, KeyringAccountStruct, 'account');
    await this.#store.run(async () => {
      const current = this.#record(account.id).account;
      assertAccountUpdate(current, account);
      const updated: KeyringAccount = {
        ...current,
        methods: account.methods,
        options: account.options,
      };
      const draft = this.#store.draft();
      draft.accounts[account.id].account = updated;
      await this.#store.commit(draft, async () =>
        this.#platform.emitEvent(KeyringEvent.AccountUpdated, {
          account: updated,
        }),
      );
    });
  }

  /**
   * Delete an account, its key and its pending requests (each then gets `notify:requestRejected`).
   * When a site asks (not MetaMask, not the home page, which confirms in the page), the user first
   * confirms a dialog naming the site and the account (name and full address).
   *
   * @param id - Account id.
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @throws JsonRpcError -32001 when unknown, 4001 when the user declines (nothing deleted).
   */
  async deleteAccount(id: string, requester?: Requester): Promise<void> {
    const { account, name } = this.#record(id);
    await requireConsent(this.#platform.confirmConsent, requester, {
      kind: 'deleteAccount',
      name: name ?? '',
      address: account.address,
    });
    await this.#store.run(async () => {
      this.#record(id);
      const draft = this.#store.draft();
      delete draft.accounts[id];
      const dropped = Object.values(draft.pendingRequests).filter(
        (request) => request.account === id,
      );
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
          },
        })
      : await this.#platform.confirm(
          'Show private key',
          `Show the private key of ${record.account.address} in the next dialog? Anyone who sees it controls this account.`,
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
    return Object.values(this.#store.current.pendingRequests);
  }

  /**
   * @param id - Request id.
   * @returns The pending request.
   * @throws JsonRpcError -32001 when unknown.
   */
  async getRequest(id: string): Promise<KeyringRequest> {
    return (
      ownEntry(this.#store.current.pendingRequests, id) ??
      throwNotFound(`Request ${quoteId(id)} not found`)
    );
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
    const record = this.#record(request.account);
    const task = parseAccountRequest(
      record,
      request,
      this.#settings.chainConfig(request.scope),
    );
    if (signsNothing(task)) {
      return { pending: false, result: await runUnsigned(task) };
    }
    if (this.#settings.approvalMode() === 'sync') {
      return {
        pending: false,
        result: await signAccountTask(record.privateKey, task),
      };
    }
    return this.#store.run(async () => {
      if (this.#store.current.pendingRequests[request.id]) {
        throw invalidParams(`Request '${request.id}' is already pending`);
      }
      const draft = this.#store.draft();
      draft.pendingRequests[request.id] = request;
      await this.#store.commit(draft);
      return { pending: true, redirect: this.#redirect(request.id) };
    });
  }

  /**
   * Sign a pending request and resolve it (`notify:requestApproved`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async approveRequest(id: string): Promise<void> {
    await this.#store.run(async () => {
      const request = await this.getRequest(id);
      const record = this.#record(request.account);
      const result = await signAccountTask(
        record.privateKey,
        parseAccountRequest(
          record,
          request,
          this.#settings.chainConfig(request.scope),
        ),
      );
      const draft = this.#store.draft();
      delete draft.pendingRequests[id];
      // A resolved request stays resolved: the wallet may have forgotten it (restart).
      await this.#store.commit(
        draft,
        async () =>
          this.#platform.emitEvent(KeyringEvent.RequestApproved, {
            id,
            result,
          }),
        false,
      );
    });
  }

  /**
   * Drop a pending request (`notify:requestRejected`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async rejectRequest(id: string): Promise<void> {
    await this.#store.run(async () => {
      await this.getRequest(id);
      const draft = this.#store.draft();
      delete draft.pendingRequests[id];
      await this.#store.commit(
        draft,
        async () =>
          this.#platform.emitEvent(KeyringEvent.RequestRejected, { id }),
        false,
      );
    });
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
    parseScope(scope);
    const candidate = signerOf(request)?.toLowerCase();
    const record = candidate
      ? Object.values(this.#store.current.accounts).find(
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
   * A user operation's outcome (EntryPoint v0.6 `UserOperationEvent`) on the chain of `scope`. One
   * this snap sent: its bundler's `eth_getUserOperationReceipt`, else the EntryPoint logs from the
   * block remembered at send time. Any other: the bundlers of the chain's accounts, else the
   * EntryPoint logs of the last `RECENT_RECEIPT_BLOCKS` blocks, under every EntryPoint this snap's
   * accounts use there.
   *
   * @param params - `{ scope: "eip155:<decimal>", userOpHash: 32-byte hex }`.
   * @returns `{ userOpHash, sender, nonce, success, actualGasCost, actualGasUsed, transactionHash, blockNumber }` (hex quantities), or null while unknown.
   * @throws JsonRpcError -32602 for bad params, -32001 when the chain has no config.
   */
  async userOperationReceipt(params: unknown): Promise<Json> {
    const { scope, userOpHash } = validate(
      params,
      ReceiptParamsStruct,
      'getUserOperationReceipt params',
    );
    const config =
      this.#settings.chainConfig(scope) ??
      throwNotFound(`No chain config for ${scope}: call setChainConfig first`);
    const hash = userOpHash.toLowerCase() as Hex;
    const sent = (this.#store.current.sentUserOperations ?? []).find(
      (entry) => entry.userOpHash === hash && entry.scope === scope,
    );
    return lookupUserOperationReceipt(
      {
        rpcUrl: config.rpcUrl,
        entryPoints: this.#entryPoints(scope),
        sent,
        bundlerUrls: this.#bundlerUrls(scope),
      },
      hash,
    );
  }

  /**
   * Send a user operation from a smart account without the wallet's ERC-4337 support, reusing the
   * code of the three keyring methods: prepare (with the fees in the same chain round trip) and
   * the paymaster (eth_prepareUserOperation, eth_patchUserOperation), then the confirmation dialog,
   * then the owner's signature (eth_signUserOperation), then `eth_sendUserOperation` to the
   * account's bundler. The hash, bundler and starting block are remembered for receipts.
   *
   * @param params - `{ account: <account id>, scope: "eip155:<decimal>", intents: [{ to, value?, data? }, ...] }`
   * (1 to 32 intents; value in wei, hex or decimal; data hex bytes).
   * @param origin - Who asked, shown in the dialog: the site's origin as MetaMask reported it to
   * onRpcRequest; the default names the snap's own home page (its Send form).
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws JsonRpcError 4001 when the user declines (nothing signed or sent); -32602 for bad
   * params or an account that is not a smart account; -32001 for an unknown account or missing
   * chain config / bundlerUrl; the bundler's code (-32500 to -32507, ...) with a readable message
   * when it refuses the operation.
   */
  async sendUserOperation(
    params: unknown,
    origin = HOME_PAGE_ORIGIN,
  ): Promise<{ userOpHash: string; entryPoint: string; sender: string }> {
    const {
      account: id,
      scope,
      intents,
    } = validate(params, SendParamsStruct, 'sendUserOperation params');
    if (!this.#record(id).smartAccount) {
      throw invalidParams(
        'Invalid sendUserOperation params at account: not a smart account (eip155:erc4337)',
      );
    }
    const prepare = parseAccountRequest(
      this.#record(id),
      ownRequest(id, scope, EthMethod.PrepareUserOperation, intents as Json[]),
      this.#settings.chainConfig(scope),
    );
    if (
      prepare.type !== 'erc4337' ||
      prepare.task.method !== 'eth_prepareUserOperation'
    ) {
      throw invalidParams(
        'Invalid sendUserOperation params at account: not a smart account (eip155:erc4337)',
      );
    }
    // A fresh random nonce key per send (see randomNonceKey): concurrent sends never share a nonce.
    const draft = await draftUserOperation(
      prepare.chain,
      scope,
      prepare.task.intents,
    );
    const { chain } = prepare;
    this.#deploying.note(chain.sender, draft.summary.deploys);
    let hash: Hex;
    try {
      if (!this.#platform.confirmSend) {
        throw internalError(
          'This platform cannot show the send confirmation: nothing was signed',
        );
      }
      if (!(await this.#platform.confirmSend({ ...draft.summary, origin }))) {
        throw userRejected('The user declined to send the user operation');
      }
      const record = this.#record(id); // still there after the dialog
      const signing = parseAccountRequest(
        record,
        ownRequest(id, scope, EthMethod.SignUserOperation, [draft.userOp]),
        this.#settings.chainConfig(scope),
      );
      const signature = (await signAccountTask(
        record.privateKey,
        signing,
      )) as string;
      hash = await submitUserOperation(chain, {
        ...draft.userOp,
        signature,
      });
    } catch (error) {
      if (draft.summary.deploys) {
        this.#deploying.release(chain.sender);
      }
      throw error;
    }
    const entry = {
      userOpHash: hash.toLowerCase(),
      scope,
      entryPoint: chain.entryPoint,
      bundlerUrl: chain.bundlerUrl as string,
      fromBlock: draft.fromBlock,
    };
    // Best effort: the operation is sent either way; without the entry its receipt is searched as a foreign one.
    await this.#store
      .run(async () => {
        const state = this.#store.draft();
        state.sentUserOperations = rememberSent(
          state.sentUserOperations ?? [],
          entry,
        );
        await this.#store.commit(state);
      })
      .catch(() => undefined);
    return {
      userOpHash: hash,
      entryPoint: chain.entryPoint,
      sender: chain.sender,
    };
  }

  /**
   * The bundlers of `scope`: the chain config's and each smart account's own for that chain.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The bundler URLs, each once.
   */
  #bundlerUrls(scope: string): string[] {
    const own = this.#smartAccountsOn(scope).map(
      (data) => data.chains?.[scope]?.bundlerUrl,
    );
    return distinct([this.#settings.chainConfig(scope)?.bundlerUrl, ...own]);
  }

  /**
   * Every EntryPoint that may hold this snap's operations on `scope`: the chain config's and each
   * smart account's own.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The EntryPoint addresses, each once.
   */
  #entryPoints(scope: string): Hex[] {
    const own = this.#smartAccountsOn(scope).map((data) => data.entryPoint);
    return distinct([
      this.#settings.chainConfig(scope)?.entryPoint,
      ...own,
    ]) as Hex[];
  }

  /**
   * The ERC-4337 data of the smart accounts that serve `scope`.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The smart accounts' data (factory, EntryPoint, per-chain bundler).
   */
  #smartAccountsOn(scope: string): SmartAccountData[] {
    return Object.values(this.#store.current.accounts)
      .filter((record) =>
        record.account.scopes.includes(scope as `${string}:${string}`),
      )
      .flatMap((record) => (record.smartAccount ? [record.smartAccount] : []));
  }

  /**
   * Resolve a smart account on `scopes` (default: every configured chain); confirm contracts
   * metadata chose.
   *
   * @param key - The owner key of the smart account.
   * @param scopes - CAIP-2 chain ids to resolve it on; `undefined` for every configured chain.
   * @param overrides - Factory and EntryPoint from the account metadata, if any.
   * @param requester - The site that asks (named in the metadata confirmation); undefined for the
   * home page.
   * @returns The resolved smart account (address, ERC-4337 data, whether the contracts are the
   * configured ones).
   * @throws JsonRpcError 4001 if the user declines a factory, bundler or paymaster the metadata named.
   */
  async #resolveSmartAccount(
    key: Key,
    scopes: string[] | undefined,
    overrides: ResolvedOverrides,
    requester?: Requester,
  ): Promise<ResolvedSmartAccount> {
    const chains = this.#settings.allChainConfigs();
    const resolved = await resolveSmartAccount(
      key.address as Hex,
      scopes ? [...new Set(scopes)] : Object.keys(chains),
      { ...chains },
      overrides,
    );
    const consent = metadataConsent(resolved, requester?.origin);
    if (consent) {
      const confirmed = await this.#platform.confirm(
        consent.title,
        consent.text,
      );
      if (!confirmed) {
        throw userRejected(
          'The user declined the factory or services named by the metadata',
        );
      }
    }
    return resolved;
  }

  /**
   * Take the first derivation index of `scheme` from its saved next index that no running creation
   * holds and whose key backs no account (an imported key may), and derive its key.
   *
   * @param scheme - The salt scheme (`eoa` or `erc4337-owner`).
   * @returns The key and its derivation index, which stays reserved until the caller releases it.
   * @throws JsonRpcError -32602 if the next DERIVATION_SKIP_LIMIT keys are all imported already.
   */
  async #reserveDerivedKey(
    scheme: DerivationScheme,
  ): Promise<{ key: Key; derivationIndex: number }> {
    let candidate = this.#store.current.nextDerivationIndex[scheme];
    for (
      let tries = 0;
      tries < DERIVATION_SKIP_LIMIT;
      tries += 1, candidate += 1
    ) {
      while (this.#reserved.has(`${scheme}:${candidate}`)) {
        candidate += 1;
      }
      const key = await this.#deriveReserved(candidate, scheme);
      if (!this.#backed(key) && !this.#holds(key.address)) {
        return { key, derivationIndex: candidate };
      }
      this.#reserved.delete(`${scheme}:${candidate}`);
    }
    throw invalidParams(
      `The next ${DERIVATION_SKIP_LIMIT} derived keys are all imported already`,
    );
  }

  /**
   * Reserve derivation index `index` of `scheme` and derive its key; the reservation is released
   * if the derivation fails.
   *
   * @param index - The derivation index.
   * @param scheme - Its salt scheme (see derivationSalt).
   * @returns The derived key.
   */
  async #deriveReserved(index: number, scheme: DerivationScheme): Promise<Key> {
    this.#reserved.add(`${scheme}:${index}`);
    return this.#platform.deriveKey(index, scheme).catch((error: unknown) => {
      this.#reserved.delete(`${scheme}:${index}`);
      throw error;
    });
  }

  /**
   * Whether an account holds `address` (case-insensitive).
   *
   * @param address - A 0x-prefixed hex address.
   * @returns True if an account of the keyring has this address.
   */
  #holds(address: string): boolean {
    return Object.values(this.#store.current.accounts).some(
      (entry) => entry.account.address.toLowerCase() === address.toLowerCase(),
    );
  }

  /**
   * The account `key` backs already: the EOA whose key it is, or the smart account it owns.
   *
   * @param key - A key pair (the private key is lower-case hex, as stored).
   * @returns That account's record, or undefined.
   */
  #backed(key: Key): AccountRecord | undefined {
    return Object.values(this.#store.current.accounts).find(
      (entry) => entry.privateKey === key.privateKey.toLowerCase(),
    );
  }

  /**
   * One key, one account: refuse a key that backs an account already (as an EOA or as a smart
   * account's owner, either way round), and an address an account holds already.
   *
   * @param key - The new account's key.
   * @param address - The new account's address, once known.
   * @throws JsonRpcError -32602 naming the existing account's address (never the key).
   */
  #assertUnique(key: Key, address?: string): void {
    const backed = this.#backed(key);
    if (backed) {
      throw invalidParams(
        `Invalid createAccount options: this key already backs account ${backed.account.address}; one key backs one account`,
      );
    }
    if (address !== undefined && this.#holds(address)) {
      throw invalidParams(
        'Invalid createAccount options: an account with this address exists already',
      );
    }
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

/** Factory and EntryPoint chosen by account metadata, as resolveSmartAccount takes them. */
type ResolvedOverrides = Parameters<typeof resolveSmartAccount>[3];

/**
 * Throw a not-found error; usable as an expression (`value ?? throwNotFound(...)`).
 *
 * @param message - What was not found.
 * @throws JsonRpcError -32001 (resource not found), always.
 */
function throwNotFound(message: string): never {
  throw notFound(message);
}

/**
 * The defined strings of `values`, each once, in order.
 *
 * @param values - Strings, some possibly undefined.
 * @returns The strings without `undefined` and duplicates.
 */
function distinct(values: (string | undefined)[]): string[] {
  return [
    ...new Set(
      values.filter((value): value is string => typeof value === 'string'),
    ),
  ];
}

/**
 * A keyring request the snap makes of its own account code (sendUserOperation), routed like
 * MetaMask's.
 *
 * @param account - The account id (a UUID).
 * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
 * @param method - The keyring-api account method (`eth_prepareUserOperation`, `eth_signUserOperation`).
 * @param params - The method's JSON-RPC params.
 * @returns A keyring-api request with a fresh id and origin `snap`.
 */
function ownRequest(
  account: string,
  scope: string,
  method: string,
  params: Json[],
): KeyringRequest {
  return {
    id: uuidv4(),
    scope,
    account,
    origin: 'snap',
    request: { method, params },
  };
}
