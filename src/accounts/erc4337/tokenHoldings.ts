import { formatUnits, hexToBigInt } from 'viem';
import type { Hex } from 'viem';

import { readDecimals, readSymbol, tokenRead } from './tokenQuote';
import type { ChainConfig } from './types';
import type { Settled } from '../../chain';
import { createRpcClient, readHexData, settledResult } from '../../chain';

/**
 * What the home page shows of a chain's `gasTokens`: each token's symbol (offered in the Send
 * form's *Pay gas with*) and each account's balance of it (its card). One batched round trip per
 * chain that lists tokens; a chain or a read that fails is left out, never shown as 0.
 */

/** Most accounts whose balances are read per chain (bounds the batch). */
const MAX_HOLDERS = 32;

/** A listed token of one chain. */
export type GasTokenOption = {
  /** The chain (CAIP-2). */
  scope: string;
  /** The token (checksummed). */
  token: string;
  /** Its symbol, printable (empty when it has none). */
  symbol: string;
};

/** One balance of one account. */
export type GasTokenBalance = GasTokenOption & {
  /** The decimal amount (its `decimals()` applied). */
  amount: string;
};

/** The page's view of the listed tokens. */
export type GasTokenView = {
  /** Every listed token that answered `decimals()`. */
  tokens: GasTokenOption[];
  /** Balances by account id. */
  balances: Record<string, GasTokenBalance[]>;
};

/**
 * Read the listed tokens of every chain config and the balances of the accounts on that chain.
 *
 * @param configs - The chain configs (unmasked: their RPC URLs are used).
 * @param holders - The accounts: id, address and chains.
 * @returns The view.
 */
export async function readGasTokens(
  configs: readonly ChainConfig[],
  holders: readonly { id: string; address: string; scopes: string[] }[],
): Promise<GasTokenView> {
  const view: GasTokenView = { tokens: [], balances: {} };
  await Promise.all(
    configs
      .filter((config) => (config.gasTokens ?? []).length > 0)
      .map(async (config) => {
        const tokens = (config.gasTokens ?? []) as Hex[];
        const on = holders
          .filter((holder) => holder.scopes.includes(config.scope))
          .slice(0, MAX_HOLDERS);
        const calls = tokens.flatMap((token) => [
          tokenRead(token, 'decimals'),
          tokenRead(token, 'symbol'),
          ...on.map((holder) =>
            tokenRead(token, 'balanceOf', holder.address as Hex),
          ),
        ]);
        const replies = await createRpcClient({ url: config.rpcUrl })
          .batchSettled(calls)
          .catch(() => undefined);
        tokens.forEach((token, index) => {
          const base = index * (2 + on.length);
          /**
           * The settled reply at an offset of this token's calls.
           *
           * @param at - The offset.
           * @returns The reply (an empty one when the batch failed).
           */
          const reply = (at: number): Settled =>
            replies?.[base + at] ?? { ok: true, result: null };
          let decimals: number;
          try {
            decimals = readDecimals(reply(0));
          } catch {
            return;
          }
          const option = {
            scope: config.scope,
            token,
            symbol: readSymbol(reply(1)),
          };
          view.tokens.push(option);
          on.forEach((holder, at) => {
            try {
              const word = readHexData(
                settledResult(reply(2 + at)),
                'balanceOf',
                undefined,
                32,
              );
              (view.balances[holder.id] ??= []).push({
                ...option,
                amount: formatUnits(hexToBigInt(word), decimals),
              });
            } catch {
              // an unanswered balance is left out
            }
          });
        });
      }),
  );
  return view;
}
