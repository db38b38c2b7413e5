import {
  encodeFunctionData,
  getAddress,
  hexToBigInt,
  isAddressEqual,
  parseAbi,
  sliceHex,
} from 'viem';
import type { Hex } from 'viem';
import type { UserOperation } from 'viem/account-abstraction';

import { ABSOLUTE_GAS_CAPS } from './opBounds';
import type { PaymasterContext, TokenSettlement } from './paymasterModern';
import type { TokenPaymentSummary } from './send';
import type { TokenPayment, TokenQuote } from './tokenQuote';
import type { Intent } from './userop';
import { invalidParams } from '../../utils/errors';

/**
 * Gas paid in an ERC-20 token through a paymaster service in ERC-20 mode, as Pimlico's
 * SingletonPaymaster (pimlicolabs/singleton-paymaster) and its service define it: the quote
 * (`pimlico_getTokenQuotes` params `[{ tokens: [token] }, entryPoint, chainIdHex]`, reply `{ quotes:
 * [{ paymaster, token, exchangeRate, postOpGas, ... }] }`, `exchangeRate` in token base units per
 * 10^18 wei), then ERC-7677 with context `{ token }`. The account's operation batches an ERC-20
 * `approve(paymaster, maxCostInToken)` before its calls; the paymaster takes the cost from it in
 * its postOp. The quote and every reply are untrusted: the rate, the post-op gas and the data are
 * bounded, the stub and the final reply must name the quoted paymaster, and the terms the paymaster
 * signs (rate, post-op gas, token, fees) must cost at most the approve: else the send is refused,
 * never paid in ETH instead.
 */

/** A v0.7 / v0.8 operation as viem types it. */
type ModernUserOperation = UserOperation<'0.7' | '0.8'>;

/** ERC-20 `approve`. */
const approveAbi = parseAbi([
  'function approve(address spender, uint256 amount) returns (bool)',
]);

/**
 * The most an operation can cost in the token, as the paymaster computes it (SingletonPaymaster's
 * `getCostInToken`): `(preVerificationGas + verificationGasLimit + callGasLimit +
 * paymasterVerificationGasLimit + paymasterPostOpGasLimit + postOpGas) × maxFeePerGas ×
 * exchangeRate / 10^18`, rounded up.
 *
 * @param op - The operation (gas limits, `maxFeePerGas` in wei per gas).
 * @param terms - `postOpGas` (gas) and `exchangeRate` (token base units per 10^18 wei).
 * @param terms.postOpGas - Gas.
 * @param terms.exchangeRate - Token base units per 10^18 wei.
 * @returns Token base units.
 */
export function maxCostInToken(
  op: Pick<
    ModernUserOperation,
    | 'preVerificationGas'
    | 'verificationGasLimit'
    | 'callGasLimit'
    | 'paymasterVerificationGasLimit'
    | 'paymasterPostOpGasLimit'
    | 'maxFeePerGas'
  >,
  terms: { postOpGas: bigint; exchangeRate: bigint },
): bigint {
  const gas =
    op.preVerificationGas +
    op.verificationGasLimit +
    op.callGasLimit +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n) +
    terms.postOpGas;
  const scaled = gas * op.maxFeePerGas * terms.exchangeRate;
  const unit = 10n ** 18n;
  return (scaled + unit - 1n) / unit;
}

/**
 * The approve the gas estimate runs with, before the gas limits are known: at least what the
 * largest operation {@link ABSOLUTE_GAS_CAPS} allows can cost, with every byte of its length
 * non-zero, so the final (smaller) amount never costs more calldata gas. Never signed.
 *
 * @param payment - The quote.
 * @param maxFeePerGas - The operation's, wei per gas.
 * @returns Token base units.
 */
export function estimateApproveAmount(
  payment: TokenQuote,
  maxFeePerGas: bigint,
): bigint {
  const bound = maxCostInToken(
    {
      preVerificationGas: ABSOLUTE_GAS_CAPS.total,
      verificationGasLimit: 0n,
      callGasLimit: 0n,
      maxFeePerGas,
    },
    payment,
  );
  const bytes = Math.min(32, Math.ceil(bound.toString(16).length / 2));
  return 2n ** BigInt(8 * bytes) - 1n;
}

/**
 * The approve call batched first in a token-paid operation: ERC-20 `approve(paymaster, amount)`.
 *
 * @param payment - The quote (token and paymaster).
 * @param amount - Token base units.
 * @returns The intent.
 */
export function approveIntent(payment: TokenQuote, amount: bigint): Intent {
  return {
    to: payment.token,
    value: 0n,
    data: encodeFunctionData({
      abi: approveAbi,
      functionName: 'approve',
      args: [payment.paymaster, amount],
    }),
  };
}

/** The ERC-20 mode terms a SingletonPaymaster's data carries, signed by its service. */
export type SignedTokenTerms = {
  /** The token it charges. */
  token: Hex;
  /** Gas added for its postOp. */
  postOpGas: bigint;
  /** Token base units per 10^18 wei. */
  exchangeRate: bigint;
  /** A fixed fee in token base units on top (0 when absent). */
  constantFee: bigint;
  /** Tokens taken during validation (0 when absent). */
  preFund: bigint;
};

/**
 * Read the ERC-20 mode terms of a SingletonPaymaster `paymasterData` (the bytes after the
 * paymaster's address and gas limits): mode byte (`mode << 1 | allowAllBundlers`, mode 1), flags
 * (bit 0 constant fee, bit 1 recipient, bit 2 pre-fund), validUntil (6), validAfter (6), token
 * (20), postOpGas (uint128), exchangeRate (uint256), paymasterValidationGasLimit (uint128),
 * treasury (20), then the optional pre-fund (uint128), constant fee (uint128) and recipient (20),
 * in that order (`BaseSingletonPaymaster._parseErc20Config`), and the signature.
 *
 * @param paymasterData - The final paymasterData.
 * @returns The terms.
 * @throws JsonRpcError -32602 when it is not in ERC-20 mode or too short.
 */
export function readSignedTokenTerms(paymasterData: Hex): SignedTokenTerms {
  const where =
    'Invalid paymaster service reply (pm_getPaymasterData) at paymasterData';
  const bytes = (paymasterData.length - 2) / 2;
  /**
   * A number of the data.
   *
   * @param start - First byte.
   * @param size - Bytes.
   * @returns The big-endian number.
   */
  const read = (start: number, size: number): bigint =>
    bytes < start + size
      ? throwInvalid(`${where}: too short for its flags`)
      : hexToBigInt(sliceHex(paymasterData, start, start + size));
  // first byte: mode << 1 | allowAllBundlers; ERC-20 mode is 1
  if (bytes < 118 || read(0, 1) / 2n !== 1n) {
    throw invalidParams(
      `${where}: not the ERC-20 mode data of the quoted paymaster`,
    );
  }
  const flags = read(1, 1);
  const hasPreFund = (flags / 4n) % 2n === 1n;
  return {
    token: getAddress(sliceHex(paymasterData, 14, 34)),
    postOpGas: read(34, 16),
    exchangeRate: read(50, 32),
    // the optional fields in the contract's order: pre-fund, then constant fee (then recipient)
    constantFee: flags % 2n === 1n ? read(hasPreFund ? 134 : 118, 16) : 0n,
    preFund: hasPreFund ? read(118, 16) : 0n,
  };
}

/**
 * Throw -32602 (in an expression).
 *
 * @param message - The message.
 * @throws JsonRpcError -32602.
 */
function throwInvalid(message: string): never {
  throw invalidParams(message);
}

/**
 * Check the final token-paid operation against what the account approved: the paymaster is the
 * quoted one, the signed terms charge the token asked for, and the most they can take (the final
 * gas limits, the signed rate and post-op gas, any constant fee) and any pre-fund are at most the
 * approve.
 *
 * @param op - The final operation (paymaster and paymasterData from `pm_getPaymasterData`).
 * @param payment - The quote.
 * @param approved - The approve's amount, token base units.
 * @throws JsonRpcError -32602 naming what is out of bounds; nothing is signed.
 */
export function assertTokenTerms(
  op: ModernUserOperation,
  payment: TokenQuote,
  approved: bigint,
): void {
  const where = 'paymaster service reply (pm_getPaymasterData) at';
  assertQuotedPaymaster(op.paymaster, payment, where);
  const terms = readSignedTokenTerms(op.paymasterData ?? '0x');
  if (!isAddressEqual(terms.token, payment.token)) {
    throw invalidParams(
      `Invalid ${where} paymasterData: charges another token than asked`,
    );
  }
  if (
    terms.preFund > approved ||
    maxCostInToken(op, terms) + terms.constantFee > approved
  ) {
    throw invalidParams(
      `Invalid ${where} paymasterData: its exchange rate, post-op gas or fees can take more than the quote allows (${approved} token units)`,
    );
  }
}

/**
 * Refuse a reply that names another paymaster than the quote.
 *
 * @param paymaster - The paymaster the reply names.
 * @param payment - The quote.
 * @param where - The reply, for the message.
 * @throws JsonRpcError -32602.
 */
export function assertQuotedPaymaster(
  paymaster: Hex | undefined,
  payment: TokenQuote,
  where: string,
): void {
  if (!paymaster || !isAddressEqual(paymaster, payment.paymaster)) {
    throw invalidParams(
      `Invalid ${where} paymaster: names another paymaster than the quote`,
    );
  }
}

/** A token-paid draft's parts (see {@link payInToken}). */
type TokenDraftParts = {
  /** The call data the estimate runs with (the approve of {@link estimateApproveAmount} first). */
  callData: Hex;
  /** Refuse stub data that names another paymaster than the quote. */
  checkStub: (paymaster: Hex | undefined) => void;
  /** The approve's final amount and the final reply's check (paymasterModern.ts). */
  settlement: TokenSettlement & { context: Required<PaymasterContext> };
  /** What the dialog shows, once the approve is final. */
  summary: () => TokenPaymentSummary;
};

/**
 * The parts a v0.7 / v0.8 draft needs to pay its gas in a token: the estimate's call data, the
 * stub's check, the settlement (the approve of {@link maxCostInToken} of the estimated operation,
 * then {@link assertTokenTerms} on the final reply) and the summary.
 *
 * @param payment - The quote and the token's symbol and decimals.
 * @param maxFeePerGas - The operation's, wei per gas.
 * @param encode - The account's call data for `[approve, ...intents]`.
 * @returns The parts.
 */
export function payInToken(
  payment: TokenPayment,
  maxFeePerGas: bigint,
  encode: (approve: Intent) => Hex,
): TokenDraftParts {
  let approved = 0n;
  return {
    callData: encode(
      approveIntent(payment, estimateApproveAmount(payment, maxFeePerGas)),
    ),
    checkStub: (paymaster): void =>
      assertQuotedPaymaster(
        paymaster,
        payment,
        'paymaster service reply (pm_getPaymasterStubData) at',
      ),
    settlement: {
      context: { token: payment.token },
      bind: (op): ModernUserOperation => {
        approved = maxCostInToken(op, payment);
        return { ...op, callData: encode(approveIntent(payment, approved)) };
      },
      check: (op): void => assertTokenTerms(op, payment, approved),
    },
    summary: (): TokenPaymentSummary => ({
      token: payment.token,
      symbol: payment.symbol,
      decimals: payment.decimals,
      paymaster: payment.paymaster,
      maxCost: approved,
    }),
  };
}
