import { KeyringEvent } from '@metamask/keyring-api';
import type { KeyringRequest, KeyringResponse } from '@metamask/keyring-api';
import type { Json } from '@metamask/utils';
import { v4 as uuidv4 } from 'uuid';

import type { ApprovalRedirect, KeyringPlatform } from './types';
import {
  parseAccountRequest,
  runUnsigned,
  signAccountTask,
  signsNothing,
} from '../accounts';
import { CANONICAL_DELEGATION_ENVIRONMENT } from '../accounts/deleGator/canonical';
import type { Settings } from '../settings';
import type { AccountRecord } from '../state/schema';
import type { StateStore } from '../state/store';
import { invalidParams, throwNotFound } from '../utils/errors';
import { ownEntry, quoteId } from '../utils/safeText';

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
export function ownRequest(
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

/**
 * The defined strings of `values`, each once, in order.
 *
 * @param values - Strings, some possibly undefined.
 * @returns The strings without `undefined` and duplicates.
 */
export function distinct(values: (string | undefined)[]): string[] {
  return [
    ...new Set(
      values.filter((value): value is string => typeof value === 'string'),
    ),
  ];
}

/**
 * The keyring's signing requests (keyring-api `submitRequest`, and in async approval mode the
 * parked requests `listRequests`, `getRequest`, `approveRequest`, `rejectRequest`).
 */
export class PendingRequests {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #platform: KeyringPlatform;

  readonly #redirect: ApprovalRedirect;

  readonly #record: (id: string) => AccountRecord;

  /**
   * @param parts - What the requests work with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - Chain settings and the approval mode.
   * @param parts.platform - Keyring events.
   * @param parts.redirect - Where a parked request is approved.
   * @param parts.record - The saved record of an account id; throws -32001 if there is none.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: KeyringPlatform;
    redirect: ApprovalRedirect;
    record: (id: string) => AccountRecord;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#platform = parts.platform;
    this.#redirect = parts.redirect;
    this.#record = parts.record;
  }

  /** @returns The address of every account of the snap. */
  #addresses(): string[] {
    return Object.values(this.#store.current.accounts).map(
      ({ account }) => account.address,
    );
  }

  /**
   * @returns The DelegationManager of every configured chain's Delegation Framework and the
   * canonical v1.3.0 one: typed data of a `Delegation` under any of them is refused.
   */
  #delegationManagers(): string[] {
    return [
      CANONICAL_DELEGATION_ENVIRONMENT.DelegationManager,
      ...Object.values(this.#settings.allChainConfigs()).flatMap(
        (config) => config.delegationEnvironment?.DelegationManager ?? [],
      ),
    ];
  }

  /** @returns Pending requests (async approval mode). */
  async list(): Promise<KeyringRequest[]> {
    return Object.values(this.#store.current.pendingRequests);
  }

  /**
   * @param id - Request id.
   * @returns The pending request.
   * @throws JsonRpcError -32001 when unknown.
   */
  async get(id: string): Promise<KeyringRequest> {
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
  async submit(request: KeyringRequest): Promise<KeyringResponse> {
    const record = this.#record(request.account);
    const task = parseAccountRequest(
      record,
      request,
      this.#settings.chainConfig(request.scope),
      this.#addresses(),
      this.#delegationManagers(),
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
  async approve(id: string): Promise<void> {
    await this.#store.run(async () => {
      const request = await this.get(id);
      const record = this.#record(request.account);
      const result = await signAccountTask(
        record.privateKey,
        parseAccountRequest(
          record,
          request,
          this.#settings.chainConfig(request.scope),
          this.#addresses(),
          this.#delegationManagers(),
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
  async reject(id: string): Promise<void> {
    await this.#store.run(async () => {
      await this.get(id);
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
}
