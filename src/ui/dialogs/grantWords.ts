import { formatUnits } from 'viem';

import type { GrantTerms } from '../../sites/permissions/caveats';
import type { TokenShown } from '../../sites/permissions/types';

/**
 * An execution permission in words, for its dialog and the home page: what the session account may
 * spend ("up to 0.5 ETH every hour"), from when until when ("from 14:00 UTC today until 1 December
 * 2025 at 00:00 UTC"). Times are the chain's, shown in UTC (a snap does not know the person's time
 * zone).
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const UNITS: [number, string][] = [
  [604_800, 'week'],
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** How an amount of the chain's native currency is written (`0.5 ETH`). */
export type NativeFormatter = (wei: bigint) => string;

/**
 * A period in words.
 *
 * @param seconds - 1 or more.
 * @returns `every hour`, `every 2 days`, `every 90 minutes`.
 */
export function periodWords(seconds: number): string {
  const [size, name] = UNITS.find(([unit]) => seconds % unit === 0) ?? [
    1,
    'second',
  ];
  const count = seconds / size;
  return count === 1 ? `every ${name}` : `every ${count} ${name}s`;
}

/**
 * An amount of the permission's token (or the native currency).
 *
 * @param amount - Base units.
 * @param native - Writes a native amount.
 * @param token - The ERC-20 token, if any.
 * @returns `0.5 ETH`, `10 USDC`.
 */
export function amountWords(
  amount: bigint,
  native: NativeFormatter,
  token?: TokenShown,
): string {
  if (!token) {
    return native(amount);
  }
  const symbol = token.symbol === '' ? 'tokens' : token.symbol;
  return `${formatUnits(amount, token.decimals)} ${symbol}`;
}

/**
 * What the session account may spend, in words.
 *
 * @param terms - The permission.
 * @param native - Writes a native amount.
 * @param token - The ERC-20 token, if any.
 * @returns `up to 0.5 ETH every hour`; for a stream `0.001 ETH per second (0.1 ETH at once), up to 1 ETH in all`.
 */
export function limitWords(
  terms: GrantTerms,
  native: NativeFormatter,
  token?: TokenShown,
): string {
  /**
   * @param value - Base units.
   * @returns The amount in words.
   */
  const amount = (value: bigint): string => amountWords(value, native, token);
  if ('periodAmount' in terms) {
    return `up to ${amount(terms.periodAmount)} ${periodWords(terms.periodDuration)}`;
  }
  const initial =
    terms.initialAmount > 0n ? ` (${amount(terms.initialAmount)} at once)` : '';
  return `${amount(terms.amountPerSecond)} per second${initial}, up to ${amount(terms.maxAmount)} in all`;
}

/**
 * A time in words, relative to `now` when it is today or tomorrow.
 *
 * @param seconds - Unix seconds.
 * @param now - The chain's time, unix seconds.
 * @returns `14:00 UTC today`, `09:30 UTC tomorrow`, `1 December 2025 at 00:00 UTC`.
 */
export function timeWords(seconds: number, now: number): string {
  const date = new Date(seconds * 1000);
  const clock = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
  const day = Math.floor(seconds / 86_400) - Math.floor(now / 86_400);
  if (day === 0) {
    return `${clock} today`;
  }
  if (day === 1) {
    return `${clock} tomorrow`;
  }
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} at ${clock}`;
}

/**
 * @param value - 0 to 59.
 * @returns Two digits.
 */
function pad(value: number): string {
  return value.toString().padStart(2, '0');
}
