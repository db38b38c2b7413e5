/**
 * What a person must see in typed data (EIP-712) that asks for a token allowance: an unlimited
 * amount flagged as such, as `approve()` in call data is (src/accounts/callData.ts), and every
 * deadline or expiry as a date (UTC) beside its number. Recognised shapes:
 * - EIP-2612 `Permit(owner, spender, value, nonce, deadline)`: `value` of 2^255 or more (tokens
 *   treat 2^256 − 1 as an infinite allowance);
 * - DAI-style `Permit(holder, spender, nonce, expiry, allowed)`: `allowed: true` is an unlimited
 *   allowance (DAI's `permit` sets it to 2^256 − 1);
 * - Uniswap Permit2 `PermitSingle` / `PermitBatch` (`details.amount`, uint160): 2^160 − 1 or more
 *   (Permit2 treats max uint160 as never spent);
 * - any other primary type naming a permit or an approval, whose `value`, `amount`, `allowance` or
 *   `wad` is 2^255 or more.
 * And typed data that reads as an ERC-4337 user operation (src/accounts/typedDataGuard.ts) is shown
 * as one: a warning, its sender, its EntryPoint and its calls decoded.
 */

import { describeCallData } from '../accounts/callData';
import type { NormalisedTypedData } from '../accounts/typedData';
import { userOperationShape } from '../accounts/typedDataGuard';

/** A line of a request summary, as src/keyring/requestSummary.ts builds it. */
type Line = {
  /** What the line describes (`message.value`). */
  label: string;
  /** Its value as shown. */
  value: string;
  /** Set on a warning. */
  warning?: boolean;
};

/** The typed data as it is signed (normalised): its primary type, domain and message. */
type TypedData = {
  /** The primary type's name. */
  primaryType?: unknown;
  /** The EIP-712 domain. */
  domain?: unknown;
  /** The message. */
  message?: unknown;
};

/** An amount at or above this (2^255) is unlimited for ERC-20 allowances. */
const UNLIMITED_UINT256 = 2n ** 255n;

/** Permit2's unlimited amount: max uint160. */
const UNLIMITED_UINT160 = 2n ** 160n - 1n;

/** Field names that hold a time in seconds since 1970 (a deadline, an expiry, a validity bound). */
const TIME_FIELD =
  /^(deadline|sigDeadline|expiry|expiration|expires|expiresAt|validUntil|validAfter|validBefore|startTime|endTime)$/iu;

/** The last second of the year 9999: a later time is no deadline in practice. */
const LAST_DATE = 253_402_300_799n;

/** Amount field names of an approval. */
const AMOUNT_FIELD = /^(value|amount|allowance|wad)$/iu;

/** The largest uint256, 2^256 − 1. */
const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * Flag unlimited allowances and show times as dates in a typed-data request's summary lines.
 *
 * @param lines - The summary lines (message fields labelled `message.<path>`, values as shown).
 * @param data - The typed data as it is signed (normalised).
 * @returns The lines, an unlimited amount's line marked as a warning (`unlimited (2^256 − 1)`)
 * with one warning line before the message's, and each time field's value followed by its date
 * (`1799913600 (2027-01-15 08:00:00 UTC)`).
 */
export function flagTypedData(lines: Line[], data: TypedData): Line[] {
  const primaryType =
    typeof data.primaryType === 'string' ? data.primaryType : '';
  const domainName =
    typeof data.domain === 'object' && data.domain !== null
      ? (data.domain as Record<string, unknown>).name
      : undefined;
  const permit2 =
    primaryType === 'PermitSingle' ||
    primaryType === 'PermitBatch' ||
    domainName === 'Permit2';
  const approval = /permit|approv|allowance/iu.test(primaryType);
  let unlimited = 0;
  const flagged = lines.map((line): Line => {
    if (!line.label.startsWith('message.')) {
      return line;
    }
    const field =
      line.label
        .split('.')
        .reverse()
        .find((part) => !/^[0-9]+$/u.test(part)) ?? '';
    const number = /^[0-9]{1,78}$/u.test(line.value)
      ? BigInt(line.value)
      : undefined;
    const isUnlimited =
      (permit2 &&
        field === 'amount' &&
        number !== undefined &&
        number >= UNLIMITED_UINT160) ||
      (primaryType === 'Permit' &&
        field === 'allowed' &&
        line.value === 'true') ||
      (approval &&
        !permit2 &&
        AMOUNT_FIELD.test(field) &&
        number !== undefined &&
        number >= UNLIMITED_UINT256);
    if (isUnlimited) {
      unlimited += 1;
      return {
        label: line.label,
        value: unlimitedText(line.value, number),
        warning: true,
      };
    }
    if (TIME_FIELD.test(field) && number !== undefined && number > 0n) {
      return { ...line, value: `${line.value} (${dateText(number)})` };
    }
    return line;
  });
  if (unlimited === 0) {
    return flagged;
  }
  const first = flagged.findIndex((line) => line.label.startsWith('message.'));
  return [
    ...flagged.slice(0, first),
    {
      label: 'Unlimited approval',
      value: `This signature lets the spender take all of a token, with no limit (${unlimited} ${unlimited === 1 ? 'amount' : 'amounts'} marked below). Approve only if you trust the spender.`,
      warning: true,
    },
    ...flagged.slice(first),
  ];
}

/**
 * An unlimited value as a line shows it: the maxima by name (a 78-digit number says nothing to a
 * person), any other value with its number.
 *
 * @param value - The value as shown (decimal, or `true`).
 * @param number - The value as a number, when it is one.
 * @returns `unlimited (2^256 − 1)`, `unlimited (2^160 − 1)`, or `<value> (unlimited)`.
 */
function unlimitedText(value: string, number: bigint | undefined): string {
  if (number === MAX_UINT256) {
    return 'unlimited (2^256 − 1)';
  }
  if (number === UNLIMITED_UINT160) {
    return 'unlimited (2^160 − 1)';
  }
  return `${value} (unlimited)`;
}

/**
 * A time in seconds as a date.
 *
 * @param seconds - Seconds since 1970-01-01 UTC (positive).
 * @returns `YYYY-MM-DD HH:MM:SS UTC`, or that it is beyond any date for later than the year 9999.
 */
function dateText(seconds: bigint): string {
  if (seconds > LAST_DATE) {
    return 'no limit in practice: after the year 9999';
  }
  return `${new Date(Number(seconds) * 1000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ')} UTC`;
}

/**
 * The lines that show typed data reading as a user operation as what it is (one of the snap's own
 * accounts as sender never gets here: parseEoaRequest refuses it).
 *
 * @param data - The typed data as it is signed (normalised, EIP-712 v3/v4).
 * @returns A warning, `Sender`, `EntryPoint` and the call data decoded (`Calls: ...`, as
 * describeCallData reads an operation's callData, run by the sender); none for other typed data.
 */
export function typedUserOperationLines(data: NormalisedTypedData): Line[] {
  const op = userOperationShape(data);
  if (op === undefined) {
    return [];
  }
  return [
    {
      label: 'User operation',
      value:
        'This signature is a user operation (ERC-4337): whoever holds it can make the calls below from the sender account, if this account controls it. Reject unless you meant to send exactly this.',
      warning: true,
    },
    { label: 'Sender', value: op.sender ?? 'not named' },
    { label: 'EntryPoint', value: op.entryPoint ?? 'not named' },
    ...(op.callData === undefined
      ? []
      : describeCallData(op.callData).map((line): Line => ({
          label: `Calls: ${line.label}`,
          value: line.text,
          ...(line.warning ? { warning: true } : {}),
        }))),
  ];
}
