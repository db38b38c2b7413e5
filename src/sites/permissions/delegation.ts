import { encodeAbiParameters, encodeFunctionData, hashStruct } from 'viem';
import type { Hex } from 'viem';

import { DELEGATION_TYPES } from '../../accounts/deleGator/delegation';

/**
 * A delegation of MetaMask's Delegation Framework v1.3.0 (ERC-7710), built and encoded with viem's
 * pure ABI and EIP-712 helpers (no `@metamask/abi-utils` in the bundle). The shapes are the
 * framework's `Delegation` and `Caveat` structs (`src/utils/Types.sol`; the EIP-712 types are the
 * signer's, src/accounts/deleGator/delegation.ts); the encodings match `@metamask/delegation-core`'s
 * `hashDelegation` and `encodeDelegations`, which the unit tests use as the reference.
 */

/** `authority` of a root delegation: the delegator's own authority, not a redelegation. */
export const ROOT_AUTHORITY: Hex = `0x${'f'.repeat(64)}`;

/** One caveat: the enforcer contract, its terms (signed) and its args (set by the redeemer). */
export type Caveat = {
  /** The enforcer's address (lower-case hex). */
  enforcer: Hex;
  /** The terms the enforcer checks (hex bytes, part of the signed delegation). */
  terms: Hex;
  /** The redeemer's args (hex bytes, not signed; `0x` here). */
  args: Hex;
};

/** A delegation before it is signed. */
export type UnsignedDelegation = {
  /** Who may redeem it (the session account). */
  delegate: Hex;
  /** Who grants it (the snap's EOA, running the DeleGator). */
  delegator: Hex;
  /** {@link ROOT_AUTHORITY} for a root delegation. */
  authority: Hex;
  /** The caveats, in order. */
  caveats: Caveat[];
  /** A random uint256 that makes the delegation unique. */
  salt: bigint;
};

/** A signed delegation. */
export type Delegation = UnsignedDelegation & {
  /** The delegator's signature over the EIP-712 digest (ERC-1271 on the DeleGator). */
  signature: Hex;
};

const CAVEAT_COMPONENTS = [
  { name: 'enforcer', type: 'address' },
  { name: 'terms', type: 'bytes' },
  { name: 'args', type: 'bytes' },
] as const;

const DELEGATION_COMPONENTS = [
  { name: 'delegate', type: 'address' },
  { name: 'delegator', type: 'address' },
  { name: 'authority', type: 'bytes32' },
  { name: 'caveats', type: 'tuple[]', components: CAVEAT_COMPONENTS },
  { name: 'salt', type: 'uint256' },
  { name: 'signature', type: 'bytes' },
] as const;

const DISABLE_DELEGATION_ABI = [
  {
    type: 'function',
    name: 'disableDelegation',
    stateMutability: 'nonpayable',
    inputs: [
      { name: '_delegation', type: 'tuple', components: DELEGATION_COMPONENTS },
    ],
    outputs: [],
  },
] as const;

/**
 * The delegation's hash as the framework computes it (`EncoderLib._getDelegationHash`, the EIP-712
 * struct hash): the key of `disabledDelegations` and of every enforcer's per-delegation state.
 *
 * @param delegation - The delegation (its signature is not part of the hash).
 * @returns 32 bytes, hex.
 */
export function delegationHash(delegation: UnsignedDelegation): Hex {
  return hashStruct({
    data: delegation,
    primaryType: 'Delegation',
    types: DELEGATION_TYPES,
  });
}

/**
 * A permission context (ERC-7710 `_permissionContexts` item): the ABI encoding of the delegation
 * chain, leaf first, `(address,address,bytes32,(address,bytes,bytes)[],uint256,bytes)[]`.
 *
 * @param chain - The signed delegations, leaf first (one for a root grant).
 * @returns The encoded chain, hex.
 */
export function encodePermissionContext(chain: readonly Delegation[]): Hex {
  return encodeAbiParameters(
    [{ type: 'tuple[]', components: DELEGATION_COMPONENTS }],
    [chain.map(asAbiDelegation)],
  );
}

/**
 * The call data of `DelegationManager.disableDelegation(delegation)`: sent by the delegator, it
 * makes every later redemption revert with `CannotUseADisabledDelegation`.
 *
 * @param delegation - The signed delegation.
 * @returns The call data, hex.
 */
export function disableDelegationCall(delegation: Delegation): Hex {
  return encodeFunctionData({
    abi: DISABLE_DELEGATION_ABI,
    functionName: 'disableDelegation',
    args: [asAbiDelegation(delegation)],
  });
}

/**
 * A delegation as viem's ABI encoder takes it.
 *
 * @param delegation - The signed delegation.
 * @returns The same fields, caveats as `{ enforcer, terms, args }`.
 */
function asAbiDelegation(delegation: Delegation): {
  delegate: Hex;
  delegator: Hex;
  authority: Hex;
  caveats: readonly Caveat[];
  salt: bigint;
  signature: Hex;
} {
  return {
    delegate: delegation.delegate,
    delegator: delegation.delegator,
    authority: delegation.authority,
    caveats: delegation.caveats.map(({ enforcer, terms, args }) => ({
      enforcer,
      terms,
      args,
    })),
    salt: delegation.salt,
    signature: delegation.signature,
  };
}
