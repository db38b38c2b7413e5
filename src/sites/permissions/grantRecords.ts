import type { Json } from '@metamask/utils';
import { getAddress, numberToHex } from 'viem';
import type { Hex } from 'viem';

import type { GrantTerms } from './caveats';
import { encodePermissionContext } from './delegation';
import type { Delegation } from './delegation';
import type { GrantRequest } from './request';
import type { GrantStatus, TokenShown } from './types';
import { MAX_GRANTS } from '../../state/grants';
import type { PermissionGrant } from '../../state/grants';
import { internalError } from '../../utils/errors';

/**
 * Grants as they are stored (src/state/grants.ts) and as they go back to a site: the
 * `PermissionResponse` of `@metamask/7715-permission-types` 2.0.0 (the request, its permission with
 * the start time filled in, plus `context`, `dependencies` and `delegationManager`).
 */

/**
 * The stored grant of an approved, signed request.
 *
 * @param parts - What was granted.
 * @param parts.origin - The site.
 * @param parts.accountId - The granting account's id.
 * @param parts.request - The checked request, `startTime` filled in.
 * @param parts.delegation - The signed delegation.
 * @param parts.hash - Its hash.
 * @param parts.delegationManager - The chain's DelegationManager.
 * @param parts.token - The token shown, for an ERC-20 permission.
 * @returns The record (lower-case hex).
 */
export function grantRecord(parts: {
  origin: string;
  accountId: string;
  request: GrantRequest;
  delegation: Delegation;
  hash: Hex;
  delegationManager: Hex;
  token?: TokenShown;
}): PermissionGrant {
  const { request, delegation, token } = parts;
  const { type, ...numbers } = request.terms;
  const data: PermissionGrant['permission']['data'] = {
    startTime: request.terms.startTime,
  };
  for (const [key, value] of Object.entries(numbers)) {
    (data as Record<string, unknown>)[key] =
      typeof value === 'bigint' ? numberToHex(value) : value;
  }
  if (request.justification !== undefined) {
    data.justification = request.justification;
  }
  return {
    origin: parts.origin,
    accountId: parts.accountId,
    scope: request.scope,
    delegationManager: parts.delegationManager.toLowerCase(),
    hash: parts.hash.toLowerCase(),
    delegation: {
      delegate: delegation.delegate.toLowerCase(),
      delegator: delegation.delegator.toLowerCase(),
      authority: delegation.authority,
      caveats: delegation.caveats.map((caveat) => ({ ...caveat })),
      salt: delegation.salt.toString(),
      signature: delegation.signature.toLowerCase(),
    },
    permission: {
      type,
      isAdjustmentAllowed: request.isAdjustmentAllowed,
      data,
    },
    expiry: request.expiry,
    ...(token
      ? { token: { symbol: token.symbol, decimals: token.decimals } }
      : {}),
  };
}

/**
 * The stored delegation, typed.
 *
 * @param grant - The stored grant.
 * @returns The signed delegation.
 */
export function storedDelegation(grant: PermissionGrant): Delegation {
  const { delegation } = grant;
  return {
    delegate: delegation.delegate as Hex,
    delegator: delegation.delegator as Hex,
    authority: delegation.authority as Hex,
    caveats: delegation.caveats.map((caveat) => ({
      enforcer: caveat.enforcer as Hex,
      terms: caveat.terms as Hex,
      args: caveat.args as Hex,
    })),
    salt: BigInt(delegation.salt),
    signature: delegation.signature as Hex,
  };
}

/**
 * The grant's `PermissionResponse`, as `wallet_requestExecutionPermissions` answered it and
 * `wallet_getGrantedExecutionPermissions` lists it.
 *
 * @param grant - The stored grant.
 * @returns `{ chainId, from, to, permission, rules, context, dependencies: [], delegationManager }`.
 */
export function grantResponse(grant: PermissionGrant): Json {
  const { permission } = grant;
  return {
    chainId: numberToHex(BigInt(grant.scope.slice('eip155:'.length))),
    from: getAddress(grant.delegation.delegator),
    to: getAddress(grant.delegation.delegate),
    permission: {
      type: permission.type,
      isAdjustmentAllowed: permission.isAdjustmentAllowed,
      data: {
        ...permission.data,
        ...(permission.data.tokenAddress
          ? { tokenAddress: getAddress(permission.data.tokenAddress) }
          : {}),
      },
    },
    rules: [{ type: 'expiry', data: { timestamp: grant.expiry } }],
    context: encodePermissionContext([storedDelegation(grant)]),
    dependencies: [],
    delegationManager: getAddress(grant.delegationManager),
  };
}

/**
 * The grant's terms, from its stored permission.
 *
 * @param grant - The stored grant.
 * @returns The terms.
 */
export function grantTerms(grant: PermissionGrant): GrantTerms {
  const { type, data } = grant.permission;
  /**
   * @param value - A stored hex quantity, if any.
   * @returns It, or 0.
   */
  const big = (value: string | undefined): bigint => BigInt(value ?? '0x0');
  const token = data.tokenAddress
    ? { tokenAddress: getAddress(data.tokenAddress) }
    : {};
  if (type.endsWith('periodic')) {
    return {
      type,
      ...token,
      periodAmount: big(data.periodAmount),
      periodDuration: data.periodDuration ?? 0,
      startTime: data.startTime,
    } as GrantTerms;
  }
  return {
    type,
    ...token,
    initialAmount: big(data.initialAmount),
    maxAmount: big(data.maxAmount),
    amountPerSecond: big(data.amountPerSecond),
    startTime: data.startTime,
  } as GrantTerms;
}

/**
 * A grant's state at `now`.
 *
 * @param grant - The stored grant.
 * @param now - Unix seconds (the chain's time when known).
 * @param disabled - Whether the chain says it is disabled (undefined: not read).
 * @returns `revoked` once disabled (by this snap or on chain), `expired` from its expiry on, else `active`.
 */
export function grantStatus(
  grant: PermissionGrant,
  now: number,
  disabled?: boolean,
): GrantStatus {
  if (grant.revoked || disabled) {
    return 'revoked';
  }
  return now >= grant.expiry ? 'expired' : 'active';
}

/**
 * The list with `grant` added last; when full, the oldest revoked or expired grant leaves first.
 *
 * @param grants - The stored grants, oldest first.
 * @param grant - The new one.
 * @param now - Unix seconds.
 * @returns The new list.
 * @throws JsonRpcError -32603 when {@link MAX_GRANTS} grants are all active.
 */
export function withGrant(
  grants: readonly PermissionGrant[],
  grant: PermissionGrant,
  now: number,
): PermissionGrant[] {
  const list = [...grants];
  if (list.length >= MAX_GRANTS) {
    list.splice(assertRoom(list, now), 1);
  }
  return [...list, grant];
}

/**
 * Check there is room for one more grant (before its dialog).
 *
 * @param grants - The stored grants, oldest first.
 * @param now - Unix seconds.
 * @returns The index of the grant a new one replaces (the oldest revoked or expired), or -1 while
 * the list is not full.
 * @throws JsonRpcError -32603 when {@link MAX_GRANTS} grants are all active.
 */
export function assertRoom(
  grants: readonly PermissionGrant[],
  now: number,
): number {
  if (grants.length < MAX_GRANTS) {
    return -1;
  }
  const spent = grants.findIndex((item) => grantStatus(item, now) !== 'active');
  if (spent < 0) {
    throw internalError(
      `This snap keeps at most ${MAX_GRANTS} active permissions: revoke some on its home page first`,
    );
  }
  return spent;
}
