import { getAddress, isAddressEqual } from 'viem';
import type { Hex } from 'viem';
import { signTypedData } from 'viem/accounts';

import type { DelegationEnvironment } from './canonical';
import { invalidParams } from '../../utils/errors';

/**
 * A delegation of MetaMask's Delegation Framework (ERC-7710), as the DelegationManager verifies
 * it: EIP-712 typed data under the domain `{ name: "DelegationManager", version: "1", chainId,
 * verifyingContract: <DelegationManager> }` (`DelegationManager.sol`, `getDelegationHash`; the Smart
 * Accounts Kit's `SIGNABLE_DELEGATION_TYPED_DATA`). A DeleGator checks the signature with ERC-1271
 * against the EOA's own key, so the EOA's signature of that digest is a valid grant.
 */

/** The DelegationManager's EIP-712 domain name. */
export const DELEGATION_DOMAIN_NAME = 'DelegationManager';

/** The structs a delegation's signature covers (caveats' `args` are not signed). */
export const DELEGATION_TYPES = {
  Caveat: [
    { name: 'enforcer', type: 'address' },
    { name: 'terms', type: 'bytes' },
  ],
  Delegation: [
    { name: 'delegate', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'authority', type: 'bytes32' },
    { name: 'caveats', type: 'Caveat[]' },
    { name: 'salt', type: 'uint256' },
  ],
} as const;

/** A delegation before its signature. */
export type UnsignedDelegation = {
  /** Who may redeem it (the session account). */
  delegate: Hex;
  /** The account whose authority is delegated (the EOA). */
  delegator: Hex;
  /** `ROOT_AUTHORITY` (`0xff…ff`) for a root grant, else the parent delegation's hash. */
  authority: Hex;
  /** The rules, each an enforcer and its terms. */
  caveats: { enforcer: Hex; terms: Hex }[];
  /** A number that tells equal delegations apart. */
  salt: bigint;
};

/**
 * Sign a delegation with the delegator's key: the raw 65-byte ECDSA signature of its EIP-712
 * digest. Refuses a delegation of another account than the key's, and one without caveats (a
 * blank cheque: its delegate could move everything the account holds).
 *
 * @param privateKey - The delegator EOA's 32-byte key.
 * @param address - That EOA's address.
 * @param environment - The chain's Delegation Framework (its DelegationManager is the domain's
 * verifying contract).
 * @param chainId - The chain's id.
 * @param delegation - The delegation.
 * @returns The signature.
 * @throws JsonRpcError -32602 for another delegator or no caveats (nothing signed).
 */
export async function signDelegationWithKey(
  privateKey: Hex,
  address: Hex,
  environment: DelegationEnvironment,
  chainId: bigint,
  delegation: UnsignedDelegation,
): Promise<Hex> {
  if (!isAddressEqual(delegation.delegator, address)) {
    throw invalidParams(
      'Refused: a delegation is signed only by its own delegator: nothing was signed',
    );
  }
  if (delegation.caveats.length === 0) {
    throw invalidParams(
      'Refused: a delegation without caveats lets its delegate take everything: nothing was signed',
    );
  }
  return signTypedData({
    privateKey,
    domain: {
      name: DELEGATION_DOMAIN_NAME,
      version: '1',
      chainId: Number(chainId),
      verifyingContract: getAddress(environment.DelegationManager),
    },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      delegate: getAddress(delegation.delegate),
      delegator: getAddress(delegation.delegator),
      authority: delegation.authority,
      caveats: delegation.caveats.map(({ enforcer, terms }) => ({
        enforcer: getAddress(enforcer),
        terms,
      })),
      salt: delegation.salt,
    },
  });
}
