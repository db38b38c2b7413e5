import { formatEther } from 'viem';

import { ownEntry } from '../utils/safeText';

/**
 * Chains named for a person: the name of a well-known chain beside its id (`Ethereum (1)`), from
 * the chain ids registered in ethereum-lists/chains (https://chainid.network) and, for 31337, the
 * id local development nodes (anvil, Hardhat) use. Any other chain is shown by its id alone.
 */
const KNOWN: Readonly<Record<string, string>> = {
  '1': 'Ethereum',
  '10': 'OP Mainnet',
  '56': 'BNB Smart Chain',
  '100': 'Gnosis',
  '137': 'Polygon',
  '324': 'zkSync Era',
  '8453': 'Base',
  '17000': 'Holesky',
  '42161': 'Arbitrum One',
  '43114': 'Avalanche C-Chain',
  '59144': 'Linea',
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
  '100': 'XDAI',
  '137': 'POL',
  '43114': 'AVAX',
};

/**
 * An amount of a chain's native currency as the page shows it (`1.5 ETH`): 18 decimals, the
 * symbol of a chain known to use another currency than ETH, else ETH.
 *
 * @param wei - The amount in the currency's smallest unit (wei), as a bigint or a decimal string.
 * @param scope - The chain's CAIP-2 scope (or decimal chain id).
 * @returns The decimal amount and the symbol.
 */
export function nativeAmount(wei: bigint | string, scope = ''): string {
  return `${formatEther(BigInt(wei))} ${ownEntry(SYMBOLS, scope.replace('eip155:', '')) ?? 'ETH'}`;
}
