import { nativeAmount } from './chainNames';

/** 10^14 wei: amounts of at least this (0.0001 ETH) are shown to 4 decimals. */
const TEN_THOUSANDTH = 10n ** 14n;

/**
 * Round an amount of wei for reading: to 4 decimals of the currency (0.98963 → 0.9896), or, below
 * 0.0001, to 2 significant digits (0.00001934 → 0.000019), so a non-zero amount never reads as 0.
 * Halves round away from zero. The exact amount is shown beside it (under Details).
 *
 * @param wei - The amount, in wei (non-negative).
 * @returns The rounded amount, in wei.
 */
export function roundedWei(wei: bigint): bigint {
  const unit =
    wei >= TEN_THOUSANDTH
      ? TEN_THOUSANDTH
      : 10n ** BigInt(Math.max(wei.toString().length - 2, 0));
  return ((wei + unit / 2n) / unit) * unit;
}

/**
 * An amount of a chain's native currency as the page shows it for reading (`0.9896 ETH`):
 * {@link roundedWei}, with the chain's currency symbol (nativeAmount).
 *
 * @param wei - The amount, in wei, as a bigint or a decimal or hex string.
 * @param scope - The chain's CAIP-2 scope (or decimal chain id).
 * @returns The rounded amount and the symbol.
 */
export function readableAmount(wei: bigint | string, scope = ''): string {
  return nativeAmount(roundedWei(BigInt(wei)), scope);
}
