import {
  EthAccountType,
  EthScope,
  KeyringAccountStruct,
  KeyringEvent,
  type Keyring,
  type KeyringAccount,
  type KeyringAccountData,
  type KeyringEventPayload,
  type KeyringRequest,
  type KeyringResponse,
  type ResolvedAccountAddress,
} from '@metamask/keyring-api';
import type { Json, JsonRpcRequest } from '@metamask/utils';
import { v4 as uuidv4 } from 'uuid';

import { EOA_METHODS, parseEoaRequest, signEoaTask, type EoaTask } from './accounts/eoa';
import {
  ERC4337_METHODS,
  resolveSmartAccount,
  parseSmartAccountRequest,
  runSmartAccountTask,
  signUserOperation,
  smartAccountChain,
  type SmartTask,
} from './accounts/erc4337';
import { maskChainConfig } from './config';
import { createIpfsClient, type IpfsClient } from './ipfs';
import { fetchAccountMetadata, type AccountMetadata } from './metadata';
import { isAddressEqual, type Hex } from 'viem';
import { invalidParams, notFound, userRejected, validate } from './errors';
import { importKey } from './keys';
import { CreateAccountOptionsStruct, type CreateAccountOptions } from './options';
import { COMPANION_ORIGINS } from './permissions';
import { parseScope } from './scope';
import { cloneState, SerialQueue, type AccountRecord, type ChainConfig, type IpfsConfig, type KeyringState, type SmartAccountData } from './state';
import { ChainScopeStruct } from './structs';

/** What the Keyring needs from the snap platform; injected so Node tests can run it. */
export type KeyringPlatform = {
  saveState: (state: KeyringState) => Promise<void>;
  emitEvent: <E extends KeyringEvent>(event: E, data: KeyringEventPayload<E>) => Promise<void>;
  /** Ask the user to confirm; resolves true when confirmed. */
  confirm: (title: string, text: string) => Promise<boolean>;
  /** Derive the key of index `index` (snap_getEntropy). */
  deriveKey: (index: number) => Promise<{ privateKey: string; address: string }>;
};

/** Where the companion dapp shows a pending request (async approval mode). */
export const requestUrl = (id: string): string => `${COMPANION_ORIGINS[0]}/#/requests/${id}`;

/**
 * The keyring (keyring-api v1 `Keyring`): accounts, their keys, pending requests
 * and keyring events. Every mutation runs alone (SerialQueue), works on a copy
 * of the state, saves it, and only then emits its event; if the event is
 * refused (e.g. the user cancels in MetaMask) the saved state is rolled back.
 * Keys never leave this class except through a user-confirmed exportAccount.
 */
export class KeyringSnap implements Keyring {
  #state: KeyringState;

  readonly #platform: KeyringPlatform;

  readonly #queue = new SerialQueue();

  /** One IPFS client per config, so its CID-keyed cache lives as long as the snap instance. */
  #ipfsClient: IpfsClient | undefined;

  constructor(state: KeyringState, platform: KeyringPlatform) {
    this.#state = state;
    this.#platform = platform;
  }

  /** @returns Every account (public data only). */
  async listAccounts(): Promise<KeyringAccount[]> {
    return Object.values(this.#state.accounts).map((record) => record.account);
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
   * Create an account. Options: `{ type?: "eip155:eoa" | "eip155:erc4337", privateKey?, scopes?, metadataCid?, name? }`.
   * Without `privateKey` the key is derived from snap_getEntropy with the next index;
   * `privateKey` (32-byte hex) imports a key and is never kept in the account's options.
   *
   * @param options - Creation options.
   * @returns The new account, after state is saved and `notify:accountCreated` accepted.
   * @throws JsonRpcError -32602 on malformed options or a duplicate address.
   */
  async createAccount(options: Record<string, Json> = {}): Promise<KeyringAccount> {
    const parsed = validate<CreateAccountOptions>(options, CreateAccountOptionsStruct, 'createAccount options');
    if (parsed.scopes !== undefined && parsed.type !== EthAccountType.Erc4337) {
      throw invalidParams('Invalid createAccount options at scopes: EOA accounts serve every EVM chain (eip155:0); scopes are for eip155:erc4337');
    }
    return this.#queue.run(async () => {
      const metadata = parsed.metadataCid === undefined ? undefined : await this.#fetchMetadata(parsed.metadataCid);
      const draft = cloneState(this.#state);
      let derivationIndex: number | undefined;
      let key: { privateKey: string; address: string };
      if (parsed.privateKey === undefined) {
        ({ key, index: derivationIndex } = await this.#nextDerivedKey(draft.nextDerivationIndex));
        draft.nextDerivationIndex = derivationIndex + 1;
      } else {
        key = importKey(parsed.privateKey);
      }
      const record =
        parsed.type === EthAccountType.Erc4337
          ? await this.#newSmartAccountRecord(key, parsed.scopes && [...new Set(parsed.scopes)], metadata, derivationIndex)
          : this.#newEoaRecord(key, derivationIndex);
      if (parsed.metadataCid !== undefined) {
        record.account.options.metadataCid = parsed.metadataCid;
      }
      this.#assertUnique(record.account.address);
      draft.accounts[record.account.id] = record;
      const prefix = parsed.type === EthAccountType.Erc4337 ? 'Smart Account' : 'Keyring Account';
      const name = parsed.name ?? metadata?.name ?? `${prefix} ${Object.keys(draft.accounts).length}`;
      await this.#commit(draft, KeyringEvent.AccountCreated, {
        account: record.account,
        accountNameSuggestion: name,
      });
      return record.account;
    });
  }

  /**
   * @param id - Account id.
   * @param chains - CAIP-2 chain ids to test.
   * @returns The subset the account can serve (EOA: every `eip155:<n>` chain).
   */
  async filterAccountChains(id: string, chains: string[]): Promise<string[]> {
    const { account } = this.#record(id);
    if (account.type === EthAccountType.Erc4337) {
      return chains.filter((chain) => account.scopes.includes(chain as `${string}:${string}`));
    }
    return chains.filter((chain) => ChainScopeStruct.is(chain));
  }

  /**
   * Update an account's options (and narrow its methods). Address, type and scopes are fixed.
   *
   * @param account - The full account with changes.
   * @throws JsonRpcError -32001 when unknown, -32602 when a fixed field changes.
   */
  async updateAccount(account: KeyringAccount): Promise<void> {
    validate(account, KeyringAccountStruct, 'account');
    await this.#queue.run(async () => {
      const current = this.#record(account.id).account;
      if (!isAddressEqual(current.address as `0x${string}`, account.address as `0x${string}`) || current.type !== account.type) {
        throw invalidParams('Invalid account: address and type cannot be changed');
      }
      if (JSON.stringify(current.scopes) !== JSON.stringify(account.scopes)) {
        throw invalidParams('Invalid account: scopes cannot be changed');
      }
      const unsupported = account.methods.filter((method) => !current.methods.includes(method));
      if (unsupported.length > 0) {
        throw invalidParams(`Invalid account: methods not supported by this account: ${unsupported.join(', ')}`);
      }
      if ('privateKey' in account.options) {
        throw invalidParams('Invalid account: options.privateKey is not allowed');
      }
      const updated: KeyringAccount = { ...current, methods: account.methods, options: account.options };
      const draft = cloneState(this.#state);
      (draft.accounts[account.id] as AccountRecord).account = updated;
      await this.#commit(draft, KeyringEvent.AccountUpdated, { account: updated });
    });
  }

  /**
   * Delete an account, its key and its pending requests (each then gets `notify:requestRejected`).
   *
   * @param id - Account id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async deleteAccount(id: string): Promise<void> {
    await this.#queue.run(async () => {
      this.#record(id);
      const draft = cloneState(this.#state);
      delete draft.accounts[id];
      const dropped = Object.values(draft.pendingRequests).filter((request) => request.account === id);
      dropped.forEach((request) => delete draft.pendingRequests[request.id]);
      await this.#commit(draft, KeyringEvent.AccountDeleted, { id });
      for (const request of dropped) {
        // Best effort: tell the wallet the request will never be signed; it may have forgotten it.
        await this.#platform.emitEvent(KeyringEvent.RequestRejected, { id: request.id }).catch(() => undefined);
      }
    });
  }

  /**
   * Export an account's private key after the user confirms in a snap_dialog.
   * The handler lets only the companion dapp call this.
   *
   * @param id - Account id.
   * @returns `{ privateKey }` (32-byte hex; for a smart account, its owner's key).
   * @throws JsonRpcError 4001 when the user declines, -32001 when unknown.
   */
  async exportAccount(id: string): Promise<KeyringAccountData> {
    const record = this.#record(id);
    if (record.account.options.exportable === false) {
      throw invalidParams(`Account ${id} is not exportable`);
    }
    const confirmed = await this.#platform.confirm(
      'Export private key',
      `Reveal the private key of ${record.account.address}? Anyone who sees it controls this account.`,
    );
    if (!confirmed) {
      throw userRejected('The user declined to export the private key');
    }
    return { privateKey: record.privateKey };
  }

  /** @returns Pending requests (async approval mode). */
  async listRequests(): Promise<KeyringRequest[]> {
    return Object.values(this.#state.pendingRequests);
  }

  /**
   * @param id - Request id.
   * @returns The pending request.
   * @throws JsonRpcError -32001 when unknown.
   */
  async getRequest(id: string): Promise<KeyringRequest> {
    return this.#state.pendingRequests[id] ?? throwNotFound(`Request '${id}' not found`);
  }

  /**
   * Validate a signing request, then sign it now (sync mode: `{ pending: false, result }`)
   * or park it for the companion dapp (async mode: `{ pending: true, redirect }`).
   *
   * @param request - keyring-api KeyringRequest: `{ id, scope, account, origin, request: { method, params } }`.
   * @returns The keyring response.
   * @throws JsonRpcError -32001 for an unknown account, -32602 for a method the account
   * does not list or malformed params.
   */
  async submitRequest(request: KeyringRequest): Promise<KeyringResponse> {
    const record = this.#record(request.account);
    const task = this.#parse(record, request);
    if (task.method === 'eth_prepareUserOperation' || task.method === 'eth_patchUserOperation') {
      // Nothing is signed: answer at once, whatever the approval mode.
      return { pending: false, result: await runSmartAccountTask(this.#smartChain(record, request.scope), task) };
    }
    if (this.#state.approvalMode === 'sync') {
      return { pending: false, result: await this.#sign(record, request.scope, task) };
    }
    return this.#queue.run(async () => {
      if (this.#state.pendingRequests[request.id]) {
        throw invalidParams(`Request '${request.id}' is already pending`);
      }
      const draft = cloneState(this.#state);
      draft.pendingRequests[request.id] = request;
      await this.#commit(draft);
      return {
        pending: true,
        redirect: { url: requestUrl(request.id), message: 'Review and approve this request in the Keyring Snap companion' },
      };
    });
  }

  /**
   * Sign a pending request and resolve it (`notify:requestApproved`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async approveRequest(id: string): Promise<void> {
    await this.#queue.run(async () => {
      const request = await this.getRequest(id);
      const record = this.#record(request.account);
      const result = await this.#sign(record, request.scope, this.#parse(record, request));
      const draft = cloneState(this.#state);
      delete draft.pendingRequests[id];
      await this.#commit(draft, KeyringEvent.RequestApproved, { id, result });
    });
  }

  /**
   * Drop a pending request (`notify:requestRejected`).
   *
   * @param id - Request id.
   * @throws JsonRpcError -32001 when unknown.
   */
  async rejectRequest(id: string): Promise<void> {
    await this.#queue.run(async () => {
      await this.getRequest(id);
      const draft = cloneState(this.#state);
      delete draft.pendingRequests[id];
      await this.#commit(draft, KeyringEvent.RequestRejected, { id });
    });
  }

  /**
   * Which of our accounts a signing request is for (keyring-api resolveAccountAddress).
   *
   * @param scope - CAIP-2 chain id of the request.
   * @param request - `{ method, params }` of a signing method.
   * @returns `{ address: "eip155:<chain>:<address>" }`, or null when no account of ours signs it.
   */
  async resolveAccountAddress(scope: string, request: JsonRpcRequest): Promise<ResolvedAccountAddress | null> {
    parseScope(scope);
    const candidate = signerOf(request);
    const record = candidate
      ? Object.values(this.#state.accounts).find(
          (entry) => entry.account.address.toLowerCase() === candidate.toLowerCase() && entry.account.methods.includes(request.method),
        )
      : undefined;
    return record ? { address: `${scope}:${record.account.address}` as `${string}:${string}:${string}` } : null;
  }

  /**
   * MetaMask tells which accounts the user selected; this keyring serves all
   * accounts alike, so it only checks the ids are ours.
   *
   * @param accounts - Account ids.
   */
  async setSelectedAccounts(accounts: string[]): Promise<void> {
    accounts.forEach((id) => this.#record(id));
  }

  /**
   * Store the chain config of one scope (replacing the previous one).
   *
   * @param config - A validated config (src/config.ts).
   * @returns The stored config with its URLs' API keys masked.
   */
  async setChainConfig(config: ChainConfig): Promise<ChainConfig> {
    return this.#queue.run(async () => {
      const draft = cloneState(this.#state);
      draft.chains[config.scope] = config;
      await this.#commit(draft);
      return maskChainConfig(config);
    });
  }

  /** @returns Every stored chain config, API keys masked. */
  getChainConfigs(): ChainConfig[] {
    return Object.values(this.#state.chains).map(maskChainConfig);
  }

  /**
   * @param scope - CAIP-2 chain id.
   * @returns The stored config (unmasked, for the snap's own use), or undefined.
   */
  chainConfig(scope: string): ChainConfig | undefined {
    return this.#state.chains[scope];
  }

  /**
   * Every EntryPoint that may hold this snap's operations on `scope`: the chain config's and
   * each smart account's own (an account keeps the one it was created with).
   *
   * @param scope - CAIP-2 chain id.
   * @returns Distinct addresses.
   */
  entryPoints(scope: string): string[] {
    const all = Object.values(this.#state.accounts)
      .filter((record) => record.smartAccount && record.account.scopes.includes(scope as `${string}:${string}`))
      .map((record) => (record.smartAccount as SmartAccountData).entryPoint);
    const configured = this.#state.chains[scope]?.entryPoint;
    return [...new Set([...(configured ? [configured] : []), ...all])];
  }

  /**
   * Store the IPFS API settings; the credentials stay in encrypted state.
   *
   * @param config - A validated config.
   */
  async setIpfsConfig(config: IpfsConfig): Promise<void> {
    await this.#queue.run(async () => {
      const draft = cloneState(this.#state);
      draft.ipfs = config;
      await this.#commit(draft);
      this.#ipfsClient = undefined;
    });
  }

  /** @returns The approval mode, `sync` or `async`. */
  getApprovalMode(): 'sync' | 'async' {
    return this.#state.approvalMode;
  }

  /**
   * @param mode - `sync` (sign at once) or `async` (companion dapp approves).
   */
  async setApprovalMode(mode: 'sync' | 'async'): Promise<void> {
    await this.#queue.run(async () => {
      const draft = cloneState(this.#state);
      draft.approvalMode = mode;
      await this.#commit(draft);
    });
  }

  #parse(record: AccountRecord, request: KeyringRequest): EoaTask | SmartTask {
    const { method, params } = request.request;
    if (!record.account.methods.includes(method)) {
      throw invalidParams(`Method '${method}' is not supported by account ${record.account.id}`);
    }
    if (record.smartAccount) {
      this.#smartChain(record, request.scope);
      return parseSmartAccountRequest(record.account.address, record.smartAccount, method, params ?? []);
    }
    return parseEoaRequest(record.account.address, request.scope, method, params ?? []);
  }

  async #sign(record: AccountRecord, scope: string, task: EoaTask | SmartTask): Promise<Json> {
    if (task.method !== 'eth_signUserOperation') {
      return signEoaTask(record.privateKey, task as EoaTask);
    }
    const chain = this.#smartChain(record, scope);
    return signUserOperation(record.privateKey as Hex, task.userOp, chain.entryPoint, chain.chainId);
  }

  #smartChain(record: AccountRecord, scope: string) {
    const data = record.smartAccount as SmartAccountData;
    return smartAccountChain(record.account.address, data, record.account.scopes, scope, this.#state.chains[scope]);
  }

  /** A SimpleAccount v0.6 owned by `key` on `scopes` (default: every configured chain); see resolveSmartAccount. */
  async #newSmartAccountRecord(
    key: { privateKey: string; address: string },
    scopes: string[] | undefined,
    metadata: AccountMetadata | undefined,
    derivationIndex?: number,
  ): Promise<AccountRecord> {
    const resolved = await resolveSmartAccount(key.address as Hex, scopes ?? Object.keys(this.#state.chains), this.#state.chains, metadata);
    return {
      account: {
        id: uuidv4(),
        type: EthAccountType.Erc4337,
        address: resolved.address,
        scopes: resolved.scopes as `${string}:${string}`[],
        methods: [...ERC4337_METHODS],
        options: { exportable: true },
      },
      privateKey: key.privateKey,
      ...(derivationIndex === undefined ? {} : { derivationIndex }),
      smartAccount: resolved.data,
    };
  }

  /** The first derived key from `index` on whose address no account holds (an imported key may). */
  async #nextDerivedKey(index: number): Promise<{ key: { privateKey: string; address: string }; index: number }> {
    for (let candidate = index; candidate < index + 16; candidate += 1) {
      const key = await this.#platform.deriveKey(candidate);
      if (!this.#holds(key.address)) {
        return { key, index: candidate };
      }
    }
    throw invalidParams('The next 16 derived keys are all imported already');
  }

  #holds(address: string): boolean {
    return Object.values(this.#state.accounts).some((entry) => entry.account.address.toLowerCase() === address.toLowerCase());
  }

  async #fetchMetadata(cid: string): Promise<AccountMetadata> {
    const config = this.#state.ipfs ?? throwNotFound('No IPFS API is configured: call setIpfsConfig before using metadataCid');
    this.#ipfsClient ??= createIpfsClient(config);
    return fetchAccountMetadata(this.#ipfsClient, cid);
  }

  #record(id: string): AccountRecord {
    return this.#state.accounts[id] ?? throwNotFound(`Account '${id}' not found`);
  }

  #assertUnique(address: string): void {
    if (this.#holds(address)) {
      throw invalidParams(`Account address already in use: ${address}`);
    }
  }

  #newEoaRecord(key: { privateKey: string; address: string }, derivationIndex?: number): AccountRecord {
    return {
      account: {
        id: uuidv4(),
        type: EthAccountType.Eoa,
        address: key.address,
        scopes: [EthScope.Eoa],
        methods: [...EOA_METHODS],
        options: { exportable: true },
      },
      privateKey: key.privateKey,
      ...(derivationIndex === undefined ? {} : { derivationIndex }),
    };
  }

  /**
   * Save `draft`, make it current, then emit `event`; roll back an account change if the event is refused.
   */
  async #commit<E extends KeyringEvent>(draft: KeyringState, event?: E, data?: KeyringEventPayload<E>): Promise<void> {
    const previous = this.#state;
    await this.#platform.saveState(draft);
    this.#state = draft;
    if (event === undefined || data === undefined) {
      return;
    }
    try {
      await this.#platform.emitEvent(event, data);
    } catch (error) {
      // A resolved request stays resolved: MetaMask may have forgotten it (restart), and rolling
      // back would leave it pending for ever. Account changes the wallet refused are undone.
      if (event !== KeyringEvent.RequestApproved && event !== KeyringEvent.RequestRejected) {
        this.#state = previous;
        await this.#platform.saveState(previous);
      }
      throw error;
    }
  }
}

function throwNotFound(message: string): never {
  throw notFound(message);
}

/** The signer address a signing request names, or undefined. */
function signerOf(request: JsonRpcRequest): string | undefined {
  const params = Array.isArray(request.params) ? request.params : [];
  const first = params[0] as Record<string, Json> | string | undefined;
  switch (request.method) {
    case 'personal_sign':
      return typeof params[1] === 'string' ? params[1] : undefined;
    case 'eth_signTransaction':
      return typeof first === 'object' && first !== null && typeof first.from === 'string' ? first.from : undefined;
    case 'eth_signUserOperation':
    case 'eth_patchUserOperation':
      return typeof first === 'object' && first !== null && typeof first.sender === 'string' ? first.sender : undefined;
    default:
      return typeof first === 'string' ? first : undefined;
  }
}
