import { encodePacked } from 'viem';
import type { Hex } from 'viem';

import type { Caveat } from './delegation';

/**
 * The caveats of a grant, as `@metamask/7715-permission-types` 2.0.0 builds them for each permission
 * type (`createNativeTokenPeriodicCaveats`: the period enforcer, then `ExactCalldataEnforcer` with
 * empty call data; `createErc20TokenPeriodicCaveats`: the period enforcer, then `ValueLteEnforcer`
 * with 0; the stream types alike), then the expiry rule (`TimestampEnforcer`, before the expiry)
 * and a `NonceEnforcer` caveat with the delegator's current nonce, in the order MetaMask's own
 * permissions provider appends them, so that the package's decoders (`makePermissionDecoderConfigs`)
 * read a grant of this snap back. Terms are packed with viem's `encodePacked`, byte for byte those of
 * `@metamask/delegation-core` (the unit tests compare them).
 */

/** The longest period a periodic permission may have: 10 years, the package's MAX_PERIOD_DURATION (seconds). */
export const MAX_PERIOD_DURATION = 10 * 365 * 24 * 60 * 60;

/** The latest timestamp TimestampEnforcer's terms accept (31 December 9999, unix seconds). */
export const MAX_TIMESTAMP = 253402300799;

/** The enforcers a grant uses, by their names in a Smart Accounts Kit environment (`caveatEnforcers`). */
export const GRANT_ENFORCERS = [
  'NativeTokenPeriodTransferEnforcer',
  'ERC20PeriodTransferEnforcer',
  'NativeTokenStreamingEnforcer',
  'ERC20StreamingEnforcer',
  'ExactCalldataEnforcer',
  'ValueLteEnforcer',
  'TimestampEnforcer',
  'NonceEnforcer',
] as const;

/** One of {@link GRANT_ENFORCERS}. */
export type GrantEnforcer = (typeof GRANT_ENFORCERS)[number];

/** The enforcers' addresses on one chain. */
export type GrantEnforcers = Record<GrantEnforcer, Hex>;

/** The permission types this snap grants (ERC-7715 types of `@metamask/7715-permission-types`). */
export const PERMISSION_TYPES = [
  'native-token-periodic',
  'erc20-token-periodic',
  'native-token-stream',
  'erc20-token-stream',
] as const;

/** One of {@link PERMISSION_TYPES}. */
export type PermissionType = (typeof PERMISSION_TYPES)[number];

/** A periodic permission: up to `periodAmount` per period of `periodDuration` seconds from `startTime`. */
type Periodic = {
  /** Base units (wei, or the token's smallest unit) per period, at least 1. */
  periodAmount: bigint;
  /** Seconds, 1 to {@link MAX_PERIOD_DURATION}. */
  periodDuration: number;
  /** Unix seconds the first period starts. */
  startTime: number;
};

/** A stream: `initialAmount` at `startTime`, then `amountPerSecond` more each second, `maxAmount` in all. */
type Stream = {
  /** Base units available at `startTime`. */
  initialAmount: bigint;
  /** Base units in all, above `initialAmount`. */
  maxAmount: bigint;
  /** Base units added per second, at least 1. */
  amountPerSecond: bigint;
  /** Unix seconds the stream starts. */
  startTime: number;
};

/** What a grant allows, with its numbers checked (see the request parser). */
export type GrantTerms =
  | ({ type: 'native-token-periodic' } & Periodic)
  | ({ type: 'erc20-token-periodic'; tokenAddress: Hex } & Periodic)
  | ({ type: 'native-token-stream' } & Stream)
  | ({ type: 'erc20-token-stream'; tokenAddress: Hex } & Stream);

/**
 * The permission type's caveats (without the rules), as the package's builder of that type makes them.
 *
 * @param terms - The checked permission.
 * @param enforcers - The chain's enforcers.
 * @returns The caveats, terms in lower-case hex, args `0x`.
 */
export function permissionCaveats(
  terms: GrantTerms,
  enforcers: GrantEnforcers,
): Caveat[] {
  switch (terms.type) {
    case 'native-token-periodic':
      return [
        caveat(
          enforcers.NativeTokenPeriodTransferEnforcer,
          encodePacked(
            ['uint256', 'uint256', 'uint256'],
            [
              terms.periodAmount,
              BigInt(terms.periodDuration),
              BigInt(terms.startTime),
            ],
          ),
        ),
        caveat(enforcers.ExactCalldataEnforcer, '0x'),
      ];
    case 'erc20-token-periodic':
      return [
        caveat(
          enforcers.ERC20PeriodTransferEnforcer,
          encodePacked(
            ['address', 'uint256', 'uint256', 'uint256'],
            [
              terms.tokenAddress,
              terms.periodAmount,
              BigInt(terms.periodDuration),
              BigInt(terms.startTime),
            ],
          ),
        ),
        caveat(enforcers.ValueLteEnforcer, uint256(0n)),
      ];
    case 'native-token-stream':
      return [
        caveat(enforcers.NativeTokenStreamingEnforcer, streamTerms(terms)),
        caveat(enforcers.ExactCalldataEnforcer, '0x'),
      ];
    default:
      return [
        caveat(
          enforcers.ERC20StreamingEnforcer,
          `0x${terms.tokenAddress.slice(2)}${streamTerms(terms).slice(2)}`,
        ),
        caveat(enforcers.ValueLteEnforcer, uint256(0n)),
      ];
  }
}

/**
 * Every caveat of a grant: the permission's, then the expiry (`TimestampEnforcer`: valid before
 * `expiry`, no lower bound), then the nonce (`NonceEnforcer`: valid while the delegator's nonce at
 * the DelegationManager is `nonce`).
 *
 * @param terms - The checked permission.
 * @param expiry - Unix seconds after which it cannot be redeemed (1 to {@link MAX_TIMESTAMP}).
 * @param nonce - The delegator's current NonceEnforcer nonce.
 * @param enforcers - The chain's enforcers.
 * @returns The caveats, in that order.
 */
export function grantCaveats(
  terms: GrantTerms,
  expiry: number,
  nonce: bigint,
  enforcers: GrantEnforcers,
): Caveat[] {
  return [
    ...permissionCaveats(terms, enforcers),
    caveat(
      enforcers.TimestampEnforcer,
      encodePacked(['uint128', 'uint128'], [0n, BigInt(expiry)]),
    ),
    caveat(enforcers.NonceEnforcer, uint256(nonce)),
  ];
}

/**
 * The packed terms of a stream (without a token address).
 *
 * @param terms - The stream.
 * @returns `initialAmount ‖ maxAmount ‖ amountPerSecond ‖ startTime`, each a uint256.
 */
function streamTerms(terms: Stream): Hex {
  return encodePacked(
    ['uint256', 'uint256', 'uint256', 'uint256'],
    [
      terms.initialAmount,
      terms.maxAmount,
      terms.amountPerSecond,
      BigInt(terms.startTime),
    ],
  );
}

/**
 * A uint256 as 32 bytes.
 *
 * @param value - 0 to 2^256 − 1.
 * @returns Hex.
 */
function uint256(value: bigint): Hex {
  return encodePacked(['uint256'], [value]);
}

/**
 * One caveat, in lower-case hex.
 *
 * @param enforcer - The enforcer.
 * @param terms - Its terms.
 * @returns The caveat, args `0x`.
 */
function caveat(enforcer: Hex, terms: Hex): Caveat {
  return {
    enforcer: enforcer.toLowerCase() as Hex,
    terms: terms.toLowerCase() as Hex,
    args: '0x',
  };
}
