import {
  array,
  boolean,
  define,
  enums,
  exactOptional,
  integer,
  literal,
  max,
  min,
  object,
  size,
  string,
} from '@metamask/superstruct';

import {
  AddressStruct,
  Bytes32Struct,
  ChainScopeStruct,
} from '../utils/structs';

/**
 * The execution permissions (ERC-7715) the snap's accounts granted to sites, as kept in state:
 * each with the signed delegation (MetaMask's Delegation Framework v1.3.0), its hash and the
 * permission as answered to the site. Part of the persisted state (src/state/schema.ts).
 */

/** The most grants kept; a grant beyond it replaces the oldest revoked or expired one. */
export const MAX_GRANTS = 128;

/** One granted permission. */
export type PermissionGrant = {
  /** The site it was granted to (its origin): only that site lists or revokes it. */
  origin: string;
  /** The granting account's id. */
  accountId: string;
  /** The chain, CAIP-2. */
  scope: string;
  /** The chain's DelegationManager when it was granted. */
  delegationManager: string;
  /** The delegation's hash (lower-case hex). */
  hash: string;
  /** The signed delegation (addresses and bytes lower-case hex, salt a decimal string). */
  delegation: {
    delegate: string;
    delegator: string;
    authority: string;
    caveats: { enforcer: string; terms: string; args: string }[];
    salt: string;
    signature: string;
  };
  /** The permission as answered (`{ type, isAdjustmentAllowed, data }`, data's amounts hex). */
  permission: {
    type:
      | 'native-token-periodic'
      | 'erc20-token-periodic'
      | 'native-token-stream'
      | 'erc20-token-stream';
    isAdjustmentAllowed: boolean;
    data: {
      periodAmount?: string;
      periodDuration?: number;
      amountPerSecond?: string;
      initialAmount?: string;
      maxAmount?: string;
      startTime: number;
      tokenAddress?: string;
      justification?: string;
    };
  };
  /** The expiry rule's timestamp (unix seconds). */
  expiry: number;
  /** The token's symbol and decimals as read when granted (ERC-20 permissions). */
  token?: { symbol: string; decimals: number };
  /** The revocation's user operation, once `disableDelegation` was sent. */
  revokedBy?: string;
  /** Whether the revocation is on chain. */
  revoked?: true;
};

const HexBytesStruct = define<string>('hex bytes', (value) =>
  typeof value === 'string' && /^0x(?:[0-9a-f]{2}){0,4096}$/u.test(value)
    ? true
    : 'expected lower-case hex bytes',
);

const QuantityStruct = define<string>('hex quantity', (value) =>
  typeof value === 'string' && /^0x(?:0|[1-9a-f][0-9a-f]{0,63})$/u.test(value)
    ? true
    : 'expected a hex quantity',
);

const SecondsStruct = min(integer(), 0);

/** A stored grant's struct (checked when state loads). */
export const PermissionGrantStruct = object({
  origin: size(string(), 1, 2048),
  accountId: size(string(), 1, 128),
  scope: ChainScopeStruct,
  delegationManager: AddressStruct,
  hash: Bytes32Struct,
  delegation: object({
    delegate: AddressStruct,
    delegator: AddressStruct,
    authority: Bytes32Struct,
    caveats: size(
      array(
        object({
          enforcer: AddressStruct,
          terms: HexBytesStruct,
          args: HexBytesStruct,
        }),
      ),
      1,
      8,
    ),
    salt: define<string>('salt', (value) =>
      typeof value === 'string' && /^[0-9]{1,78}$/u.test(value)
        ? true
        : 'expected a decimal salt',
    ),
    signature: HexBytesStruct,
  }),
  permission: object({
    type: enums([
      'native-token-periodic',
      'erc20-token-periodic',
      'native-token-stream',
      'erc20-token-stream',
    ]),
    isAdjustmentAllowed: boolean(),
    data: object({
      periodAmount: exactOptional(QuantityStruct),
      periodDuration: exactOptional(SecondsStruct),
      amountPerSecond: exactOptional(QuantityStruct),
      initialAmount: exactOptional(QuantityStruct),
      maxAmount: exactOptional(QuantityStruct),
      startTime: SecondsStruct,
      tokenAddress: exactOptional(AddressStruct),
      justification: exactOptional(size(string(), 0, 500)),
    }),
  }),
  expiry: SecondsStruct,
  token: exactOptional(
    object({
      symbol: size(string(), 0, 16),
      decimals: max(min(integer(), 0), 255),
    }),
  ),
  revokedBy: exactOptional(Bytes32Struct),
  revoked: exactOptional(literal(true)),
});

/** The `grants` list's struct. */
export const GrantsStruct = size(array(PermissionGrantStruct), 0, MAX_GRANTS);
