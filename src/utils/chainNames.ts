import { formatEther } from 'viem';

import { ownEntry } from './safeText';

/**
 * Chains named for a person: the name of a well-known chain beside its id (`Ethereum (1)`), from
 * the chain ids registered in ethereum-lists/chains (https://chainid.network) and, for 31337, the
 * id local development nodes (anvil, Hardhat) use. Any other chain is shown by its id alone. The
 * page, every dialog and the domain's confirmation texts name chains and amounts with this file.
 */
const KNOWN: Readonly<Record<string, string>> = {
  '1': 'Ethereum',
  '10': 'OP Mainnet',
  '56': 'BNB Smart Chain',
  '97': 'BNB Smart Chain Testnet',
  '100': 'Gnosis',
  '137': 'Polygon',
  '324': 'zkSync Era',
  '5000': 'Mantle',
  '8453': 'Base',
  '17000': 'Holesky',
  '42161': 'Arbitrum One',
  '42220': 'Celo',
  '43114': 'Avalanche C-Chain',
  '59144': 'Linea',
  '80002': 'Polygon Amoy',
  '84532': 'Base Sepolia',
  '421614': 'Arbitrum Sepolia',
  '11155111': 'Sepolia',
  '11155420': 'OP Sepolia',
  '31337': 'Local chain',
};

/**
 * A chain as the page names it.
 *
 * @param chain - A CAIP-2 scope (`eip155:1`) or a decimal chain id (`1`).
 * @returns `<name> (<chain id>)` for a known EVM chain (`Ethereum (1)`, `Local chain (31337)`),
 * `chain <id>` for another EVM chain, else the text as given.
 */
export function chainName(chain: string): string {
  const id = chain.startsWith('eip155:')
    ? chain.slice('eip155:'.length)
    : chain;
  if (!/^[0-9]+$/u.test(id)) {
    return chain;
  }
  const name = ownEntry(KNOWN, id);
  return name === undefined ? `chain ${id}` : `${name} (${id})`;
}

/**
 * Native currencies that are not ETH, by chain id (ethereum-lists/chains `nativeCurrency.symbol`).
 */
const SYMBOLS: Readonly<Record<string, string>> = {
  '56': 'BNB',
  '97': 'tBNB',
  '100': 'XDAI',
  '137': 'POL',
  '5000': 'MNT',
  '42220': 'CELO',
  '43114': 'AVAX',
  '80002': 'POL',
};

/**
 * The symbol of a chain's native currency: the table's for a chain known to use another currency
 * than ETH, else ETH (every such chain counts it in 18 decimals, as wei).
 *
 * @param scope - The chain's CAIP-2 scope (`eip155:137`) or decimal chain id.
 * @returns `POL`, `BNB`, ..., or `ETH`.
 */
export function nativeSymbol(scope = ''): string {
  return ownEntry(SYMBOLS, scope.replace('eip155:', '')) ?? 'ETH';
}

/**
 * An amount of a chain's native currency, exactly (`1.5 ETH`, `2 POL`): 18 decimals and
 * {@link nativeSymbol}.
 *
 * @param wei - The amount in the currency's smallest unit (wei), as a bigint or a decimal or hex string.
 * @param scope - The chain's CAIP-2 scope (or decimal chain id).
 * @returns The decimal amount and the symbol.
 */
export function nativeAmount(wei: bigint | string, scope = ''): string {
  return `${formatEther(BigInt(wei))} ${nativeSymbol(scope)}`;
}

/** 10^14 wei: amounts of at least this (0.0001 ETH) are shown to 4 decimals. */
const TEN_THOUSANDTH = 10n ** 14n;

/**
 * Round an amount of wei for reading: to 4 decimals of the currency (0.98963 → 0.9896), or, below
 * 0.0001, to 2 significant digits (0.00001934 → 0.000019), so a non-zero amount never reads as 0.
 * Halves round away from zero; `up` rounds up instead (for a bound: "at most" stays true). Where it
 * is shown rounded, the exact amount is shown too (under Details).
 *
 * @param wei - The amount, in wei (non-negative).
 * @param up - Round up rather than to the nearest.
 * @returns The rounded amount, in wei.
 */
export function roundedWei(wei: bigint, up = false): bigint {
  const unit =
    wei >= TEN_THOUSANDTH
      ? TEN_THOUSANDTH
      : 10n ** BigInt(Math.max(wei.toString().length - 2, 0));
  return ((wei + (up ? unit - 1n : unit / 2n)) / unit) * unit;
}

/**
 * An amount of a chain's native currency for reading (`0.9896 ETH`): {@link roundedWei} (up, for
 * a bound), with the chain's symbol ({@link nativeAmount}).
 *
 * @param wei - The amount, in wei, as a bigint or a decimal or hex string.
 * @param scope - The chain's CAIP-2 scope (or decimal chain id).
 * @param up - Round up (a bound) rather than to the nearest.
 * @returns The rounded amount and the symbol.
 */
export function readableAmount(
  wei: bigint | string,
  scope = '',
  up = false,
): string {
  return nativeAmount(roundedWei(BigInt(wei), up), scope);
}
