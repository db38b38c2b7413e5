import { isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import type { SendReview, SendSummary } from './types';
import { describeIntents } from '../accounts/callData';
import { assertFunds } from '../accounts/erc4337';
import type { SmartAccountChain } from '../accounts/erc4337/prepare';
import { CANONICAL_CONTRACTS } from '../accounts/erc4337/versions';

/**
 * What every send shows and checks before its confirmation, on every EntryPoint version and for an
 * EOA upgraded with EIP-7702: the account's funds (`eth_getBalance`), then the review the dialog
 * renders (each intent's call data decoded where it runs, the account's name, the EntryPoint's
 * address and whether it is the canonical one of its version).
 */

/**
 * Refuse a send the account cannot pay, before the dialog: the sum of the intents' values, plus
 * the most the gas can cost when no paymaster pays it, against the account's balance (the one the
 * draft read in its batch, else read now). Without this a bundler refuses it later with words a
 * person cannot read (`AA21 didn't pay prefund`).
 *
 * @param chain - The account's chain side (its RPC client and `sender`).
 * @param chain.client - The chain's RPC client.
 * @param chain.sender - The account that pays.
 * @param summary - The drafted operation (intents' values, `maxGasCost`, `paymaster`, `balance`).
 * @throws JsonRpcError -32003 (`insufficientFunds`, see assertFunds) when short; the chain's
 * errors when the balance cannot be read.
 */
export async function assertCanPay(
  { client, sender }: Pick<SmartAccountChain, 'client' | 'sender'>,
  summary: Pick<
    SendSummary,
    'intents' | 'maxGasCost' | 'paymaster' | 'scope' | 'balance'
  >,
): Promise<void> {
  assertFunds(
    summary.balance ?? (await client.getBalance(sender)),
    summary.intents.reduce((sum, intent) => sum + intent.value, 0n),
    summary.paymaster === null ? summary.maxGasCost : 0n,
    summary.scope,
  );
}

/**
 * Check the funds ({@link assertCanPay}) and build what the send confirmation shows.
 *
 * @param chain - The account's chain side (client, sender, EntryPoint and its version).
 * @param summary - The drafted operation's summary.
 * @param origin - Who asked.
 * @param name - The account's name (empty or absent: unnamed).
 * @param gasTokens - The tokens the chain's settings list to pay gas with (`gasTokens`): for gas
 * paid in a token on a chain that lists some, the review says whether that token is one of them.
 * @returns The review for `confirmSend`.
 * @throws As {@link assertCanPay}.
 */
export async function reviewSend(
  chain: Pick<
    SmartAccountChain,
    'client' | 'sender' | 'entryPoint' | 'entryPointVersion'
  >,
  summary: Omit<SendSummary, 'origin'>,
  origin: string,
  name: string | undefined,
  gasTokens: readonly string[] = [],
): Promise<SendReview> {
  await assertCanPay(chain, summary);
  const canonical =
    CANONICAL_CONTRACTS[chain.entryPointVersion ?? '0.6'].entryPoint;
  const token = summary.tokenPayment?.token;
  return {
    ...summary,
    origin,
    calls: describeIntents(summary),
    ...(name ? { name } : {}),
    entryPoint: chain.entryPoint,
    canonicalEntryPoint: isAddressEqual(chain.entryPoint, canonical as Hex),
    ...(token && gasTokens.length > 0
      ? {
          gasTokenListed: gasTokens.some((listed) =>
            isAddressEqual(listed as Hex, token),
          ),
        }
      : {}),
  };
}
