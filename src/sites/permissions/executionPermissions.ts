import { array, define, object, size, unknown } from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import { bytesToBigInt } from 'viem';
import type { Hex } from 'viem';

import { GRANT_ENFORCERS, grantCaveats, PERMISSION_TYPES } from './caveats';
import type { GrantEnforcers } from './caveats';
import {
  delegationHash,
  encodePermissionContext,
  ROOT_AUTHORITY,
} from './delegation';
import {
  assertRoom,
  grantRecord,
  grantResponse,
  storedDelegation,
  withGrant,
} from './grantRecords';
import { readGrantViews } from './grantViews';
import { grantAtChainTime, parseGrantRequest } from './request';
import { disableGrant } from './revocation';
import type {
  DeleGatorState,
  GrantConfirmer,
  GrantView,
  TokenShown,
} from './types';
import { readGrantFacts } from '../../accounts/delegation/grantReads';
import type { DeleGatorPlan, DeleGators } from '../../keyring/deleGator';
import type { KeyringSnap } from '../../keyring/keyring';
import type { Settings } from '../../settings';
import type { StateStore } from '../../state/store';
import {
  alreadyWaiting,
  internalError,
  invalidParams,
  notFound,
  throwNotFound,
  unauthorized,
  userRejected,
  validate,
} from '../../utils/errors';

/** A permission context as a site sends it back: hex bytes, at most 16 KiB. */
const ContextStruct = define<string>('permission context', (value) =>
  typeof value === 'string' && /^0x(?:[0-9a-fA-F]{2}){1,16384}$/u.test(value)
    ? true
    : 'expected the permission context (hex bytes) this site was given',
);

/** The origin a revocation from the home page is sent as (named in the send dialog). */
export const HOME_ORIGIN = 'this snap’s home page (Revoke)';

/**
 * ERC-7715 execution permissions for any site, through `wallet_invokeSnap`, redeemed with ERC-7710
 * on MetaMask's Delegation Framework v1.3.0: `wallet_getSupportedExecutionPermissions`,
 * `wallet_requestExecutionPermissions` (one dialog, then the EOA's upgrade to the DeleGator when
 * needed, then the delegation signed), `wallet_getGrantedExecutionPermissions` (the site's own) and
 * `wallet_revokeExecutionPermission` (`DelegationManager.disableDelegation` sent by the account
 * through its send path; the site's own grants, any from the home page). Wire shapes of
 * `@metamask/7715-permission-types` 2.0.0; docs/permissions.md.
 */
export class ExecutionPermissions {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #keyring: KeyringSnap;

  readonly #deleGators: DeleGators;

  readonly #confirm: GrantConfirmer | undefined;

  /** The sites with a request or revocation under way (one at a time per site). */
  readonly #busy = new Set<string>();

  /**
   * @param parts - What the methods work with.
   * @param parts.store - The state store (the grants).
   * @param parts.settings - Chain settings (RPC).
   * @param parts.keyring - The accounts, the send path and receipts.
   * @param parts.deleGators - The EOA's DeleGator state, upgrade and the delegation signer.
   * @param parts.confirm - Shows the grant dialog (without it nothing is granted).
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    keyring: KeyringSnap;
    deleGators: DeleGators;
    confirm?: GrantConfirmer;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#keyring = parts.keyring;
    this.#deleGators = parts.deleGators;
    this.#confirm = parts.confirm;
  }

  /**
   * `wallet_getSupportedExecutionPermissions`: each type this snap grants, with the configured chains
   * that have the Delegation Framework, and the rule types (`expiry`).
   *
   * @param params - `[]` or none.
   * @returns `{ [type]: { chainIds: Hex[], ruleTypes: ["expiry"] } }`.
   * @throws JsonRpcError -32602 for other params.
   */
  supported(params: unknown): Json {
    validate(params ?? [], size(array(unknown()), 0, 0), 'params');
    const chainIds = Object.keys(this.#settings.allChainConfigs())
      .filter((scope) => this.#enforcers(scope))
      .map(
        (scope) => `0x${BigInt(scope.slice('eip155:'.length)).toString(16)}`,
      );
    return Object.fromEntries(
      PERMISSION_TYPES.map((type) => [
        type,
        { chainIds, ruleTypes: ['expiry'] },
      ]),
    );
  }

  /**
   * `wallet_requestExecutionPermissions`: check the request, read the chain (its time, the nonce,
   * the token), show the dialog, then upgrade the EOA to the DeleGator if it is not one (resolves
   * once on chain), sign the delegation and keep it for the site.
   *
   * @param params - `[PermissionRequest]` (one request).
   * @param origin - The site.
   * @returns `[PermissionResponse]`.
   * @throws JsonRpcError -32602 for a bad request (see parseGrantRequest), a smart account as
   * `from`, a chain without the Delegation Framework, a passed expiry, an amount above the token's
   * supply; 4100 when `from` is not this snap's; -32001 without chain settings; 4001 when the person
   * declines (nothing signed, nothing upgraded); -32002 while the site has a request under way; the
   * upgrade's and the chain's errors.
   */
  async request(params: unknown, origin: string): Promise<Json> {
    const request = parseGrantRequest(params);
    return this.#alone(origin, async () => {
      const account = await this.#account(request.from);
      const config =
        this.#settings.chainConfig(request.scope) ??
        throwNotFound(
          `No chain settings for ${request.scope}: this snap does not know that chain`,
          { reason: 'noChainConfig' },
        );
      const contracts = this.#settings.delegationEnvironment(request.scope);
      const enforcers = this.#enforcers(request.scope);
      if (!contracts || !enforcers) {
        throw invalidParams('This chain has no Delegation Framework settings');
      }
      const token =
        'tokenAddress' in request.terms
          ? request.terms.tokenAddress
          : undefined;
      const facts = await readGrantFacts(config.rpcUrl, request.chainId, {
        delegator: request.from,
        delegationManager: contracts.DelegationManager as Hex,
        nonceEnforcer: enforcers.NonceEnforcer,
        ...(token ? { token } : {}),
      });
      const granted = grantAtChainTime(
        request,
        facts.now,
        facts.token?.totalSupply,
      );
      const shown: TokenShown | undefined =
        token && facts.token
          ? {
              address: token,
              symbol: facts.token.symbol,
              decimals: facts.token.decimals,
            }
          : undefined;
      assertRoom(this.#store.current.grants ?? [], facts.now);
      const plan = await this.#deleGators.planDeleGator(
        account.id,
        request.scope,
      );
      if (!this.#confirm) {
        throw internalError(
          'This platform cannot show the permission dialog: nothing was granted',
        );
      }
      const approved = await this.#confirm({
        origin,
        account: {
          address: request.from,
          ...(this.#store.current.accounts[account.id]?.name
            ? { name: this.#store.current.accounts[account.id]?.name }
            : {}),
        },
        scope: request.scope,
        delegate: request.to,
        terms: granted.terms,
        ...(shown ? { token: shown } : {}),
        expiry: granted.expiry,
        now: facts.now,
        ...(granted.justification
          ? { justification: granted.justification }
          : {}),
        deleGator: deleGatorState(plan),
      });
      if (!approved) {
        throw userRejected(
          'The user declined the permission request: nothing was signed',
        );
      }
      await this.#deleGators.ensureDeleGator(account.id, request.scope, plan);
      const unsigned = {
        delegate: request.to.toLowerCase() as Hex,
        delegator: request.from.toLowerCase() as Hex,
        authority: ROOT_AUTHORITY,
        caveats: grantCaveats(
          granted.terms,
          granted.expiry,
          facts.nonce,
          enforcers,
        ),
        salt: bytesToBigInt(
          globalThis.crypto.getRandomValues(new Uint8Array(32)),
        ),
      };
      const signature = await this.#deleGators.signDelegation(
        account.id,
        request.scope,
        unsigned,
      );
      const grant = grantRecord({
        origin,
        accountId: account.id,
        request: granted,
        delegation: { ...unsigned, signature },
        hash: delegationHash(unsigned),
        delegationManager: contracts.DelegationManager as Hex,
        ...(shown ? { token: shown } : {}),
      });
      await this.#store.run(async () => {
        const state = this.#store.draft();
        state.grants = withGrant(state.grants ?? [], grant, facts.now);
        await this.#store.commit(state);
      });
      return [grantResponse(grant)];
    });
  }

  /**
   * `wallet_getGrantedExecutionPermissions`: the calling site's grants that are not revoked.
   *
   * @param params - `[]` or none.
   * @param origin - The site.
   * @returns `[PermissionResponse]`, oldest first.
   * @throws JsonRpcError -32602 for other params.
   */
  granted(params: unknown, origin: string): Json {
    validate(params ?? [], size(array(unknown()), 0, 0), 'params');
    return (this.#store.current.grants ?? [])
      .filter((grant) => grant.origin === origin && !grant.revoked)
      .map(grantResponse);
  }

  /**
   * `wallet_revokeExecutionPermission`: the account sends `DelegationManager.disableDelegation` for
   * the site's grant of that context (a user operation through its send path and its dialog), and
   * this resolves once the revocation is on chain.
   *
   * @param params - `{ permissionContext }`.
   * @param origin - The site.
   * @returns `{}` (also for a grant already revoked).
   * @throws JsonRpcError -32602 for bad params or a context this site was not granted; 4001 when the
   * person declines the send; -32603 when the revocation reverted or was not seen on chain in time;
   * the send path's errors.
   */
  async revoke(params: unknown, origin: string): Promise<Json> {
    const { permissionContext } = validate(
      params,
      object({ permissionContext: ContextStruct }),
      'wallet_revokeExecutionPermission params',
    );
    const context = permissionContext.toLowerCase();
    const grant = (this.#store.current.grants ?? []).find(
      (item) =>
        item.origin === origin &&
        encodePermissionContext([storedDelegation(item)]) === context,
    );
    if (!grant) {
      throw invalidParams(
        'Unknown permission context: this site was granted no such permission',
      );
    }
    return this.#alone(origin, async () =>
      disableGrant(this.#parts(), grant, origin),
    );
  }

  /**
   * The home page's list: every account's grants, newest first, with what is left now and their
   * state (read from the chain; see readGrantViews).
   *
   * @returns The views by account id.
   */
  async views(): Promise<Record<string, GrantView[]>> {
    return readGrantViews(
      this.#store.current.grants ?? [],
      (scope) => this.#settings.chainConfig(scope)?.rpcUrl,
      Math.floor(Date.now() / 1000),
    );
  }

  /**
   * The home page's *Revoke*: any grant, by its hash.
   *
   * @param hash - The delegation's hash.
   * @returns `{}` once on chain.
   * @throws As {@link revoke}; -32001 for an unknown hash.
   */
  async revokeFromHome(hash: string): Promise<Json> {
    const grant = (this.#store.current.grants ?? []).find(
      (item) => item.hash === hash.toLowerCase(),
    );
    if (!grant) {
      throw notFound('That permission is not one this snap granted');
    }
    return disableGrant(this.#parts(), grant, HOME_ORIGIN);
  }

  /**
   * What a revocation works with.
   *
   * @returns The keyring and the store.
   */
  #parts(): { keyring: KeyringSnap; store: StateStore } {
    return { keyring: this.#keyring, store: this.#store };
  }

  /**
   * The grant enforcers of a chain's environment.
   *
   * @param scope - The chain.
   * @returns Them, or undefined when the chain has no environment or lacks one of them.
   */
  #enforcers(scope: string): GrantEnforcers | undefined {
    const environment = this.#settings.delegationEnvironment(scope);
    if (!environment) {
      return undefined;
    }
    const found = GRANT_ENFORCERS.map(
      (name) => environment.caveatEnforcers[name],
    );
    return found.every((address) => typeof address === 'string')
      ? (Object.fromEntries(
          GRANT_ENFORCERS.map((name, index) => [name, found[index]]),
        ) as GrantEnforcers)
      : undefined;
  }

  /**
   * The snap's EOA with this address.
   *
   * @param address - Checksummed.
   * @returns The account.
   * @throws JsonRpcError 4100 when no account of this snap has it; -32602 for a smart account.
   */
  async #account(address: Hex): Promise<{ id: string }> {
    const account = (await this.#keyring.listAccounts()).find(
      (candidate) => candidate.address.toLowerCase() === address.toLowerCase(),
    );
    if (!account) {
      throw unauthorized(
        'That address (from) is not one of this snap’s accounts',
      );
    }
    if (account.type !== 'eip155:eoa') {
      throw invalidParams(
        'A smart account (SimpleAccount) cannot grant permissions: grant from an EOA of this snap, which becomes a MetaMask DeleGator',
      );
    }
    return account;
  }

  /**
   * Run `task` unless the site has one under way.
   *
   * @param origin - The site.
   * @param task - The work.
   * @returns What it returns.
   * @throws JsonRpcError -32002 while the site has one under way.
   */
  async #alone<Result>(
    origin: string,
    task: () => Promise<Result>,
  ): Promise<Result> {
    if (this.#busy.has(origin)) {
      throw alreadyWaiting(
        'A permission request from this site is already waiting: answer it in MetaMask first',
      );
    }
    this.#busy.add(origin);
    try {
      return await task();
    } finally {
      this.#busy.delete(origin);
    }
  }
}

/**
 * What the grant dialog says of the account's DeleGator plan.
 *
 * @param plan - The seam's plan (planDeleGator).
 * @returns Ready, or the upgrade or switch and who pays it.
 */
function deleGatorState(plan: DeleGatorPlan): DeleGatorState {
  if (plan.needs === 'nothing' || !plan.upgrade) {
    return { ready: true };
  }
  return {
    ready: false,
    change: plan.needs,
    sponsored: plan.upgrade.paymaster !== null,
    maxCost: plan.upgrade.maxCost,
  };
}
