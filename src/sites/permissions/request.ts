import {
  array,
  boolean,
  define,
  literal,
  nullable,
  object,
  optional,
  size,
  string,
  unknown,
} from '@metamask/superstruct';
import type { Struct } from '@metamask/superstruct';
import { getAddress } from 'viem';
import type { Hex } from 'viem';

import {
  MAX_PERIOD_DURATION,
  MAX_TIMESTAMP,
  PERMISSION_TYPES,
} from './caveats';
import type { GrantTerms, PermissionType } from './caveats';
import { invalidParams, validate } from '../../utils/errors';
import { AddressStruct } from '../../utils/structs';

/**
 * The wire shapes of `wallet_requestExecutionPermissions` (ERC-7715, as
 * `@metamask/7715-permission-types` 2.0.0 types them and the Smart Accounts Kit 2.0.0 sends them),
 * checked before anything is read from the chain or shown: one `PermissionRequest` `{ chainId,
 * from, to, permission: { type, isAdjustmentAllowed, data }, rules }`, every field named in a
 * -32602 error when wrong, never its value.
 */

/** The longest justification kept and shown (characters). */
export const MAX_JUSTIFICATION = 500;

/** The most wei a native-token permission may name per period or in all: 10^9 ETH (more than exists). */
export const MAX_NATIVE_AMOUNT = 10n ** 27n;

/** The most base units an ERC-20 amount may name before the token's supply is read: 2^128 − 1. */
export const MAX_TOKEN_AMOUNT = 2n ** 128n - 1n;

const METHOD = 'wallet_requestExecutionPermissions';

/** A hex quantity of at most 32 bytes (`0x0`, `0x1bc16d674ec80000`). */
const QuantityStruct = define<Hex>('hex quantity', (value) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/u.test(value)
    ? true
    : 'expected a hex quantity of at most 32 bytes',
);

/** A whole number of seconds (a duration or a unix time), 0 to {@link MAX_TIMESTAMP}. */
const SecondsStruct = define<number>('seconds', (value) =>
  typeof value === 'number' &&
  Number.isSafeInteger(value) &&
  value >= 0 &&
  value <= MAX_TIMESTAMP
    ? true
    : 'expected a whole number of seconds',
);

const JustificationStruct = optional(
  nullable(size(string(), 0, MAX_JUSTIFICATION)),
);

const PeriodicData = {
  periodAmount: QuantityStruct,
  periodDuration: SecondsStruct,
  startTime: optional(nullable(SecondsStruct)),
  justification: JustificationStruct,
};

const StreamData = {
  amountPerSecond: QuantityStruct,
  initialAmount: optional(nullable(QuantityStruct)),
  maxAmount: optional(nullable(QuantityStruct)),
  startTime: optional(nullable(SecondsStruct)),
  justification: JustificationStruct,
};

const DATA_STRUCTS = {
  'native-token-periodic': object(PeriodicData),
  'erc20-token-periodic': object({
    ...PeriodicData,
    tokenAddress: AddressStruct,
  }),
  'native-token-stream': object(StreamData),
  'erc20-token-stream': object({ ...StreamData, tokenAddress: AddressStruct }),
};

const RequestStruct = object({
  chainId: define<Hex>('chain id', (value) =>
    typeof value === 'string' && /^0x[1-9a-fA-F][0-9a-fA-F]{0,12}$/u.test(value)
      ? true
      : 'expected a chain id as a hex quantity',
  ),
  from: optional(AddressStruct),
  to: AddressStruct,
  permission: object({
    type: size(string(), 1, 64),
    isAdjustmentAllowed: boolean(),
    data: unknown(),
  }),
  rules: optional(nullable(size(array(unknown()), 0, 8))),
});

const ExpiryRuleStruct = object({
  type: literal('expiry'),
  data: object({ timestamp: SecondsStruct }),
});

/** A permission request, checked (numbers in range; chain facts not read yet). */
export type GrantRequest = {
  /** The chain's id. */
  chainId: number;
  /** `eip155:<chainId>`. */
  scope: string;
  /** The granting account (checksummed), as the site named it. */
  from: Hex;
  /** The session account that may redeem it (checksummed). */
  to: Hex;
  /** What it allows; `startTime` 0 when the site left it to the snap (the chain's time then). */
  terms: GrantTerms;
  /** Unix seconds after which it cannot be redeemed (the expiry rule). */
  expiry: number;
  /** The site's justification, as given (bounded), if any. */
  justification?: string;
  /** Echoed in the response: this snap grants what was asked or nothing. */
  isAdjustmentAllowed: boolean;
};

/**
 * Parse `wallet_requestExecutionPermissions` params: exactly one request.
 *
 * @param params - `[PermissionRequest]`.
 * @returns The checked request.
 * @throws JsonRpcError -32602 naming the field: not one request; an unknown permission type or
 * rule type; no expiry rule, or two; no `from`; `to` the zero address or `from` itself; a zero
 * amount or period, an amount above {@link MAX_NATIVE_AMOUNT} (native) or {@link MAX_TOKEN_AMOUNT}
 * (ERC-20), a period above 10 years; a stream without `maxAmount` or with `maxAmount` not above
 * `initialAmount`; a start at or after the expiry.
 */
export function parseGrantRequest(params: unknown): GrantRequest {
  const [raw] = validate(
    params,
    size(array(unknown()), 1, 1),
    `${METHOD} params (exactly one permission request)`,
  );
  const request = validate(raw, RequestStruct, `${METHOD} request`);
  const type = request.permission.type as PermissionType;
  if (!PERMISSION_TYPES.includes(type)) {
    throw invalidParams(
      `Unsupported permission type: this snap grants ${PERMISSION_TYPES.join(', ')}`,
    );
  }
  const data: Record<string, unknown> = validate(
    request.permission.data,
    DATA_STRUCTS[type] as unknown as Struct<Record<string, unknown>>,
    `${METHOD} permission.data (${type})`,
  );
  const expiry = parseRules(request.rules ?? []);
  if (!request.from) {
    throw invalidParams(
      `Invalid ${METHOD} request: from is required (the account of this snap that grants it)`,
    );
  }
  const from = getAddress(request.from);
  const to = getAddress(request.to);
  if (BigInt(to) === 0n) {
    throw invalidParams(
      `Invalid ${METHOD} request: to is the zero address (name the session account that redeems it)`,
    );
  }
  if (to === from) {
    throw invalidParams(
      `Invalid ${METHOD} request: to is the granting account itself (name another session account)`,
    );
  }
  const terms = parseTerms(type, data);
  if (terms.startTime !== 0 && terms.startTime >= expiry) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.startTime: it must be before the expiry`,
    );
  }
  const chainId = Number(BigInt(request.chainId));
  const justification = data.justification as string | null | undefined;
  return {
    chainId,
    scope: `eip155:${chainId}`,
    from,
    to,
    terms,
    expiry,
    ...(justification ? { justification } : {}),
    isAdjustmentAllowed: request.permission.isAdjustmentAllowed,
  };
}

/**
 * The rules: exactly one `expiry`.
 *
 * @param rules - The request's rules (at most 8).
 * @returns The expiry, unix seconds.
 * @throws JsonRpcError -32602 for another rule type, no expiry, two expiries, or a zero one.
 */
function parseRules(rules: unknown[]): number {
  const expiries = rules.map((rule, index) => {
    if ((rule as { type?: unknown } | null)?.type !== 'expiry') {
      throw invalidParams(
        `Unsupported rule type at ${METHOD} rules.${index}: this snap supports the expiry rule only`,
      );
    }
    return validate(rule, ExpiryRuleStruct, `${METHOD} rules.${index}`).data
      .timestamp;
  });
  if (expiries.length !== 1) {
    throw invalidParams(
      `Invalid ${METHOD} rules: exactly one expiry rule is required (a permission without an end is refused)`,
    );
  }
  const [expiry] = expiries as [number];
  if (expiry === 0) {
    throw invalidParams(`Invalid ${METHOD} expiry: it must be a future time`);
  }
  return expiry;
}

/**
 * The permission's terms from its checked data.
 *
 * @param type - The permission type.
 * @param data - Its data (struct-checked).
 * @returns The terms, `startTime` 0 when absent.
 * @throws JsonRpcError -32602 for a zero or absurd amount or period.
 */
function parseTerms(
  type: PermissionType,
  data: Record<string, unknown>,
): GrantTerms {
  const token = type.startsWith('erc20');
  const max = token ? MAX_TOKEN_AMOUNT : MAX_NATIVE_AMOUNT;
  const startTime = (data.startTime as number | null | undefined) ?? 0;
  const tokenAddress = token
    ? { tokenAddress: getAddress(data.tokenAddress as string) }
    : {};
  if (token && BigInt(tokenAddress.tokenAddress as string) === 0n) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.tokenAddress: the zero address is not a token`,
    );
  }
  if (type.endsWith('periodic')) {
    const periodDuration = data.periodDuration as number;
    if (periodDuration === 0 || periodDuration > MAX_PERIOD_DURATION) {
      throw invalidParams(
        `Invalid ${METHOD} permission.data.periodDuration: expected 1 second to 10 years`,
      );
    }
    return {
      type,
      ...tokenAddress,
      periodAmount: amount(data.periodAmount, 'periodAmount', 1n, max),
      periodDuration,
      startTime,
    } as GrantTerms;
  }
  if (data.maxAmount === undefined || data.maxAmount === null) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.maxAmount: a stream needs the most it may spend in all`,
    );
  }
  const initialAmount =
    data.initialAmount === undefined || data.initialAmount === null
      ? 0n
      : amount(data.initialAmount, 'initialAmount', 0n, max);
  const maxAmount = amount(data.maxAmount, 'maxAmount', 1n, max);
  if (maxAmount <= initialAmount) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.maxAmount: it must be above initialAmount`,
    );
  }
  return {
    type,
    ...tokenAddress,
    initialAmount,
    maxAmount,
    amountPerSecond: amount(data.amountPerSecond, 'amountPerSecond', 1n, max),
    startTime,
  } as GrantTerms;
}

/**
 * A checked amount in range.
 *
 * @param value - A struct-checked hex quantity.
 * @param field - Its field name, for the message.
 * @param min - The least allowed.
 * @param max - The most allowed.
 * @returns The amount, base units.
 * @throws JsonRpcError -32602 naming the field: zero (when `min` is 1) or above `max`.
 */
function amount(
  value: unknown,
  field: string,
  min: bigint,
  max: bigint,
): bigint {
  const number = BigInt(value as string);
  if (number < min) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.${field}: it must be above zero`,
    );
  }
  if (number > max) {
    throw invalidParams(
      `Invalid ${METHOD} permission.data.${field}: the amount is absurdly large (more than could ever be spent)`,
    );
  }
  return number;
}

/**
 * The request with its start time filled in and its numbers checked against the chain.
 *
 * @param request - The checked request.
 * @param now - The chain's time (unix seconds).
 * @param supply - The token's total supply, when it answered one.
 * @returns The request to grant.
 * @throws JsonRpcError -32602 when the expiry has passed, or an amount is above the token's supply.
 */
export function grantAtChainTime(
  request: GrantRequest,
  now: number,
  supply?: bigint,
): GrantRequest {
  if (request.expiry <= now) {
    throw invalidParams(
      'Invalid wallet_requestExecutionPermissions expiry: that time has passed',
    );
  }
  const amounts = Object.entries(request.terms).filter(
    (entry): entry is [string, bigint] => typeof entry[1] === 'bigint',
  );
  const tooMuch = amounts.find(
    ([, value]) => supply !== undefined && value > supply,
  );
  if (tooMuch && request.terms.type.startsWith('erc20')) {
    throw invalidParams(
      `Invalid wallet_requestExecutionPermissions permission.data.${tooMuch[0]}: more than the token's whole supply`,
    );
  }
  return {
    ...request,
    terms: {
      ...request.terms,
      startTime: request.terms.startTime === 0 ? now : request.terms.startTime,
    },
  };
}
