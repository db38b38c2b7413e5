import {
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  hexToBigInt,
  isAddress,
  isAddressEqual,
  numberToHex,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';

import { serviceClient } from './bundler';
import type { SmartAccountChain } from './prepare';
import type { Settled } from '../../chain';
import { readHexData, settledResult } from '../../chain';
import { invalidParams, notFound } from '../../utils/errors';
import { displayText, printable } from '../../utils/safeText';

/**
 * The quote of a paymaster service in ERC-20 mode (Pimlico's `pimlico_getTokenQuotes`: params
 * `[{ tokens: [token] }, entryPoint, chainIdHex]`, reply `{ quotes: [{ paymaster, token,
 * exchangeRate, postOpGas, ... }] }`, `exchangeRate` in token base units per 10^18 wei) and the
 * token's `decimals()` and `symbol()` from the chain: what a send paid in the token needs before
 * its draft (paymasterToken.ts uses them). Every reply is untrusted and bounded.
 */

/** Largest exchange rate accepted: 10^36 token base units per 10^18 wei (10^18 per wei). */
export const MAX_EXCHANGE_RATE = 10n ** 36n;

/** Largest post-op gas a quote may add to the cost (gas); SingletonPaymaster's is about 50,000. */
export const MAX_QUOTE_POST_OP_GAS = 1_000_000n;

/** Longest token symbol shown (characters). */
const MAX_SYMBOL_LENGTH = 16;

const QUOTE = 'paymaster service reply (pimlico_getTokenQuotes) at';

const erc20Abi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
]);

/** A checked quote of the paymaster service for one token. */
export type TokenQuote = {
  /** The token (checksummed). */
  token: Hex;
  /** The paymaster that takes it (checksummed): the approve's spender. */
  paymaster: Hex;
  /** Token base units per 10^18 wei, 1 to {@link MAX_EXCHANGE_RATE}. */
  exchangeRate: bigint;
  /** Gas the paymaster adds to the operation's for its postOp, at most {@link MAX_QUOTE_POST_OP_GAS}. */
  postOpGas: bigint;
};

/** Everything a token-paid send needs before its draft: the quote and how to show the token. */
export type TokenPayment = TokenQuote & {
  /** The token's `symbol()`, printable, at most 16 characters (empty when it has none). */
  symbol: string;
  /** The token's `decimals()`, 0 to 255. */
  decimals: number;
};

/**
 * Check a `pimlico_getTokenQuotes` reply for `token`.
 *
 * @param reply - The service's result (untrusted JSON).
 * @param token - The token asked for.
 * @returns The quote of that token.
 * @throws JsonRpcError -32602 when no quote names the token (the service does not take it), or
 * naming the field: no paymaster (or the zero address), an exchange rate that is not a hex quantity
 * from 1 to {@link MAX_EXCHANGE_RATE}, a post-op gas above {@link MAX_QUOTE_POST_OP_GAS}.
 */
export function readTokenQuote(reply: unknown, token: Hex): TokenQuote {
  const quotes = (reply as { quotes?: unknown } | null)?.quotes;
  const quote = (Array.isArray(quotes) ? quotes.slice(0, 64) : []).find(
    (item: unknown): item is Record<string, unknown> =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Record<string, unknown>).token === 'string' &&
      isAddress((item as Record<string, string>).token, { strict: false }) &&
      isAddressEqual((item as Record<string, Hex>).token, token),
  );
  if (!quote) {
    throw invalidParams(
      `The paymaster service does not take ${getAddress(token)} for gas on this chain: nothing was signed`,
    );
  }
  const { paymaster } = quote;
  if (
    typeof paymaster !== 'string' ||
    !isAddress(paymaster, { strict: false }) ||
    /^0x0{40}$/u.test(paymaster)
  ) {
    throw invalidParams(`Invalid ${QUOTE} paymaster: names no paymaster`);
  }
  return {
    token: getAddress(token),
    paymaster: getAddress(paymaster),
    exchangeRate: quantityIn(
      quote.exchangeRate,
      1n,
      MAX_EXCHANGE_RATE,
      'exchangeRate',
    ),
    postOpGas: quantityIn(
      quote.postOpGas,
      0n,
      MAX_QUOTE_POST_OP_GAS,
      'postOpGas',
    ),
  };
}

/**
 * An untrusted hex quantity of a quote within bounds.
 *
 * @param value - The value.
 * @param min - Smallest accepted.
 * @param max - Largest accepted.
 * @param field - The field, for the message.
 * @returns The number.
 * @throws JsonRpcError -32602 naming the field.
 */
function quantityIn(
  value: unknown,
  min: bigint,
  max: bigint,
  field: string,
): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/u.test(value)) {
    throw invalidParams(`Invalid ${QUOTE} ${field}: expected a hex quantity`);
  }
  const number = BigInt(value);
  if (number < min || number > max) {
    throw invalidParams(`Invalid ${QUOTE} ${field}: expected ${min} to ${max}`);
  }
  return number;
}

/**
 * Ask the chain's paymaster service for a quote of `token` and read the token's `decimals()` and
 * `symbol()` from the chain, at the same time (one round trip each).
 *
 * @param chain - The account's chain side (its `paymasterUrl` is the service).
 * @param token - The ERC-20 token to pay gas with.
 * @returns The quote, symbol and decimals.
 * @throws JsonRpcError -32001 when the chain has no paymasterUrl; -32602 from
 * {@link readTokenQuote}, or when `decimals()` fails or is above 255; the service's and the chain's
 * errors.
 */
export async function prepareTokenPayment(
  chain: SmartAccountChain,
  token: Hex,
): Promise<TokenPayment> {
  if (!chain.paymasterUrl) {
    throw notFound(
      `No paymasterUrl for eip155:${chain.chainId}: paying gas in a token needs the chain's paymaster service (setChainConfig)`,
    );
  }
  const [reply, [decimals, symbol]] = await Promise.all([
    serviceClient(chain.paymasterUrl, 'paymaster service').request(
      'pimlico_getTokenQuotes',
      [
        { tokens: [getAddress(token)] },
        chain.entryPoint,
        numberToHex(chain.chainId),
      ],
    ),
    chain.client.batchSettled([
      tokenRead(token, 'decimals'),
      tokenRead(token, 'symbol'),
    ]),
  ]);
  return {
    ...readTokenQuote(reply, token),
    decimals: readDecimals(decimals),
    symbol: readSymbol(symbol),
  };
}

/**
 * The token's `decimals()` reply.
 *
 * @param settled - The eth_call's outcome.
 * @returns 0 to 255.
 * @throws JsonRpcError -32602 when the call failed or returned something else.
 */
export function readDecimals(settled: Settled): number {
  try {
    const data = readHexData(
      settledResult(settled),
      'decimals()',
      undefined,
      32,
    );
    const value = hexToBigInt(data);
    if (value <= 255n) {
      return Number(value);
    }
  } catch {
    // reported below
  }
  throw invalidParams(
    'Invalid gasToken: its decimals() did not answer a number from 0 to 255 (not an ERC-20 token on this chain?)',
  );
}

/**
 * The token's `symbol()` reply, made safe to show.
 *
 * @param settled - The eth_call's outcome.
 * @returns The printable symbol, at most 16 characters; empty when the call failed or returned no string.
 */
export function readSymbol(settled: Settled): string {
  try {
    const data = readHexData(settledResult(settled), 'symbol()');
    if (data.length > 2 + 2 * 4096) {
      return '';
    }
    const text = decodeFunctionResult({
      abi: erc20Abi,
      functionName: 'symbol',
      data,
    });
    return displayText(printable(text, MAX_SYMBOL_LENGTH));
  } catch {
    return '';
  }
}

/**
 * One `eth_call` of an ERC-20 read at the latest block.
 *
 * @param token - The token.
 * @param functionName - `decimals`, `symbol` or `balanceOf`.
 * @param holder - The holder, for `balanceOf`.
 * @returns The call.
 */
export function tokenRead(
  token: Hex,
  functionName: 'decimals' | 'symbol' | 'balanceOf',
  holder?: Hex,
): { method: string; params: unknown[] } {
  const data =
    functionName === 'balanceOf'
      ? encodeFunctionData({
          abi: erc20Abi,
          functionName,
          args: [holder ?? token],
        })
      : encodeFunctionData({ abi: erc20Abi, functionName });
  return { method: 'eth_call', params: [{ to: token, data }, 'latest'] };
}
