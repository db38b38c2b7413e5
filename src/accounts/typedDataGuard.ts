import type { Json } from '@metamask/utils';

import type { TypedDataField } from './typedDataTypes';
import { invalidParams } from '../utils/errors';

/**
 * Typed data (EIP-712) an account of this snap must not sign, whatever the site says it is for.
 *
 * A userOpHash of EntryPoint v0.8 and later is an EIP-712 digest (ERC-4337; the EntryPoint's
 * `getUserOpHash`): domain `{ name: "ERC4337", version: "1", chainId, verifyingContract:
 * <EntryPoint> }`, primary type `PackedUserOperation(address sender,uint256 nonce,bytes
 * initCode,bytes callData,bytes32 accountGasLimits,uint256 preVerificationGas,bytes32 gasFees,bytes
 * paymasterAndData)`. An account running Simple7702Account (an EOA upgraded by EIP-7702) or a v0.8
 * SimpleAccount accepts the raw signature of that digest, so `eth_signTypedData_v3`/`_v4` of such
 * a struct is a user-operation signature: whoever holds it can run any call from the sender.
 *
 * The digest hangs on the exact type string and domain, so only that exact shape validates today;
 * what is recognised here is wider on purpose (a later EntryPoint, a renamed type, a wrapper
 * struct): see {@link userOperationShape}. `eth_signTypedData_v1` cannot express it: its digest is
 * keccak256 of 64 bytes (the hash of the field types and names, then the hash of the values),
 * where EIP-712's is keccak256 of 66 bytes (`0x1901`, the domain separator, the struct hash).
 */

/** A declared type name that reads as a user operation: `PackedUserOperation`, `UserOp`, `user_operation`... */
const USER_OPERATION_TYPE = /user_?op/iu;

/** A domain name that reads as an EntryPoint's: `ERC4337`, `ERC-4337`, `EntryPoint`... */
const ENTRY_POINT_DOMAIN = /4337|entry_?point/iu;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/u;

/** An address, or one left-padded to 32 bytes (as a bytes32 or uint256 would carry it). */
const PADDED_ADDRESS = /^0x(?:0{24})?([0-9a-fA-F]{40})$/u;

/** What typed data that reads as a user operation says of itself (values as signed). */
export type UserOperationShape = {
  /** The message's `sender`, when it has an address there. */
  sender?: string;
  /** The domain's `verifyingContract` (the EntryPoint, for a real one), when it has one. */
  entryPoint?: string;
  /** The message's `callData`, when it has bytes there. */
  callData?: `0x${string}`;
};

/** Typed data as normaliseTypedData returns it (only what is read here). */
type Typed = {
  /** The declared types. */
  types: Record<string, TypedDataField[]>;
  /** The struct type of `message`. */
  primaryType: string;
  /** The EIP712Domain values. */
  domain: Record<string, Json>;
  /** The primary type's values. */
  message: Record<string, Json>;
};

/**
 * Whether typed data reads as an ERC-4337 user operation, and what it says. Recognised, on
 * purpose wider than the one shape an EntryPoint accepts: any declared type whose name holds
 * `UserOp` (any case, `_` allowed), a domain name holding `4337` or `EntryPoint`, or a primary
 * type with both a `sender` and a `callData` field (any case).
 *
 * @param data - Typed data as normaliseTypedData returns it (EIP-712 v3/v4).
 * @returns The sender, EntryPoint and call data it names (each when present), or undefined when
 * it does not read as a user operation.
 */
export function userOperationShape(
  data: Typed,
): UserOperationShape | undefined {
  const fields = (data.types[data.primaryType] ?? []).map(({ name }) =>
    name.toLowerCase(),
  );
  const looksLikeOne =
    Object.keys(data.types).some((name) => USER_OPERATION_TYPE.test(name)) ||
    (typeof data.domain.name === 'string' &&
      ENTRY_POINT_DOMAIN.test(data.domain.name)) ||
    (fields.includes('sender') && fields.includes('calldata'));
  if (!looksLikeOne) {
    return undefined;
  }
  const entries = Object.entries(data.message);
  const sender = entries.find(([key]) => key.toLowerCase() === 'sender')?.[1];
  const callData = entries.find(
    ([key]) => key.toLowerCase() === 'calldata',
  )?.[1];
  const { verifyingContract } = data.domain;
  return {
    ...(typeof sender === 'string' && ADDRESS.test(sender) ? { sender } : {}),
    ...(typeof verifyingContract === 'string' && ADDRESS.test(verifyingContract)
      ? { entryPoint: verifyingContract }
      : {}),
    ...(typeof callData === 'string' && callData.startsWith('0x')
      ? { callData: callData as `0x${string}` }
      : {}),
  };
}

/**
 * Refuse typed data that would be an instruction to one of this snap's own accounts:
 * - a user operation (see {@link userOperationShape}) naming one of them anywhere in its message
 *   (as `sender`, or any other address): the snap signs its own accounts' user operations only
 *   through its own send, behind its own confirmation; this holds whatever the account runs today,
 *   since it may be upgraded later;
 * - any typed data whose domain's `verifyingContract` is one of them: a message for the account's
 *   own code (an upgraded EOA runs a contract at its own address), which the snap cannot read.
 *
 * - a `Delegation` of MetaMask's Delegation Framework (ERC-7710): typed data under the domain
 *   name `DelegationManager` whose `verifyingContract` is a configured or the canonical
 *   DelegationManager, or any typed data with a `delegator` (any case, at any depth) that is one of
 *   the snap's accounts. Once an EOA runs the DeleGator, such a signature is a grant; one without
 *   caveats is a blank cheque. Only the grant flow signs delegations (keyring/deleGator.ts).
 *
 * @param data - Typed data as normaliseTypedData returns it (EIP-712 v3/v4).
 * @param own - The addresses of this snap's accounts (the signing one included), any case.
 * @param delegationManagers - The DelegationManagers (configured chains' and the canonical one).
 * @throws JsonRpcError -32602 naming the account (its public address) and why.
 */
export function assertNotOwnInstruction(
  data: Typed,
  own: readonly string[],
  delegationManagers: readonly string[] = [],
): void {
  const mine = new Set(own.map((address) => address.toLowerCase()));
  assertNotDelegation(data, mine, delegationManagers);
  const { verifyingContract } = data.domain;
  if (
    typeof verifyingContract === 'string' &&
    mine.has(verifyingContract.toLowerCase())
  ) {
    throw invalidParams(
      `Invalid typed data at domain.verifyingContract: it is account ${verifyingContract} of this snap. A message to an account's own code is not signed here: after an upgrade (EIP-7702) that code can run calls with it.`,
    );
  }
  if (userOperationShape(data) === undefined) {
    return;
  }
  const named = addresses(data.message).find((address) =>
    mine.has(address.toLowerCase()),
  );
  if (named !== undefined) {
    throw invalidParams(
      `Invalid typed data: it is a user operation (ERC-4337) for account ${named} of this snap. Its signature would let whoever holds it make any call from that account; this snap signs its accounts' user operations only when you send from the snap itself.`,
    );
  }
}

/** What the guard says of a delegation. */
const DELEGATION_REFUSAL =
  "Invalid typed data: it is a delegation (MetaMask's Delegation Framework, ERC-7710). Its signature would let its delegate spend from this snap's account; this snap signs delegations only in its own permission flow, behind its own dialog.";

/**
 * Refuse typed data of a `Delegation` (see {@link assertNotOwnInstruction}).
 *
 * @param data - Normalised typed data.
 * @param mine - The snap's accounts, lower case.
 * @param managers - The DelegationManagers, any case.
 * @throws JsonRpcError -32602.
 */
function assertNotDelegation(
  data: Typed,
  mine: ReadonlySet<string>,
  managers: readonly string[],
): void {
  const { name, verifyingContract } = data.domain;
  const underManager =
    typeof name === 'string' &&
    name.toLowerCase() === 'delegationmanager' &&
    typeof verifyingContract === 'string' &&
    managers.some(
      (manager) => manager.toLowerCase() === verifyingContract.toLowerCase(),
    );
  if (
    underManager ||
    delegators(data.message).some((found) => mine.has(found))
  ) {
    throw invalidParams(DELEGATION_REFUSAL);
  }
}

/**
 * The values of every `delegator` field (any case) at any depth, as lower-case addresses.
 *
 * @param value - A normalised typed-data value.
 * @returns The addresses.
 */
function delegators(value: Json): string[] {
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(key.toLowerCase() === 'delegator'
      ? addresses(inner).map((address) => address.toLowerCase())
      : []),
    ...delegators(inner),
  ]);
}

/**
 * Every address in a value, at any depth (bounded by what normaliseTypedData let through): a
 * string of 0x + 40 hex digits, or one left-padded with zeros to 32 bytes.
 *
 * @param value - A normalised typed-data value.
 * @returns The addresses (0x + 40 hex digits), in order.
 */
function addresses(value: Json): string[] {
  if (typeof value === 'string') {
    const found = PADDED_ADDRESS.exec(value)?.[1];
    return found === undefined ? [] : [`0x${found}`];
  }
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return Object.values(value).flatMap(addresses);
}
