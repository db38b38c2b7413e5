import { chainName, nativeAmount } from './chainNames';
import { amountWords, limitWords, timeWords } from './dialogs/grantWords';
import type { GrantStatus, GrantView } from '../sites/permissions/types';
import { displayText } from '../utils/safeText';

/** One spending permission as the home page shows it: text only (the page's model is JSON). */
export type GrantLine = {
  /** The delegation's hash (what *Revoke* names). */
  hash: string;
  /** The site, display-safe. */
  site: string;
  /** The session account, in full. */
  delegate: `0x${string}`;
  /** `up to 0.5 ETH every hour on Local chain (31337)`. */
  limit: string;
  /** The token contract of an ERC-20 permission. */
  token?: `0x${string}`;
  /** What is left now, in words; absent when the chain did not answer. */
  left?: string;
  /** The expiry in words. */
  until: string;
  /** Active, expired or revoked. */
  status: GrantStatus;
};

/**
 * The page's lines of one account's grants.
 *
 * @param views - The grants as the domain read them.
 * @param now - Unix seconds (for "today").
 * @returns The lines, in the same order.
 */
export function grantLines(
  views: readonly GrantView[],
  now: number,
): GrantLine[] {
  return views.map((view) => {
    /**
     * @param wei - An amount of the chain's native currency.
     * @returns It in words.
     */
    const native = (wei: bigint): string => nativeAmount(wei, view.scope);
    return {
      hash: view.hash,
      site: displayText(view.origin),
      delegate: view.delegate,
      limit: `${limitWords(view.terms, native, view.token)} on ${chainName(view.scope)}`,
      ...(view.token ? { token: view.token.address } : {}),
      ...(view.available === undefined
        ? {}
        : { left: amountWords(view.available, native, view.token) }),
      until: timeWords(view.expiry, now),
      status: view.status,
    };
  });
}
