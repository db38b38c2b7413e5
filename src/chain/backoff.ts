import { LimitExceededError, TransportError } from './errors';
import type { CallBudget } from './transportTypes';

/**
 * Retry and rate-limit helpers of the JSON-RPC transport (src/chain/transport.ts):
 * the pause, its jitter, a provider's requested wait (`Retry-After`, RFC 9110
 * §10.2.3) and the rate-limit test of a call's error.
 */

/**
 * Wait.
 *
 * @param ms - Milliseconds.
 * @returns A promise resolved after `ms` milliseconds.
 */
export const sleep = async (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A jitter factor in [0.5, 1.5) from `crypto.getRandomValues` (present in Node 20
 * and in the snap; the snap build flags the non-cryptographic generator).
 *
 * @returns The factor.
 */
export const jitter = (): number =>
  0.5 + globalThis.crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;

/**
 * The pause a provider asks for: an HTTP `Retry-After` (delay-seconds or an
 * HTTP-date, RFC 9110 §10.2.3), or Infura's `data.backoff_seconds` on a
 * -32005. Untrusted: anything else, negative or non-finite gives undefined.
 *
 * @param value - The header value, or the number of seconds.
 * @returns Milliseconds to wait, or undefined.
 */
export function retryAfterMs(
  value: string | number | null | undefined,
): number | undefined {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0
      ? Math.ceil(value * 1000)
      : undefined;
  }
  if (typeof value !== 'string' || value.length > 64) {
    return undefined;
  }
  const text = value.trim();
  if (/^\d{1,9}$/u.test(text)) {
    return Number(text) * 1000;
  }
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * Whether a call's error is a rate limit (a -32005 that is not a result cap or a query timeout).
 *
 * @param error - The call's error.
 * @returns True for a rate limit.
 */
export const isRateLimit = (error: unknown): error is LimitExceededError =>
  error instanceof LimitExceededError && error.reason === 'rate';

/**
 * Whether a CallBudget (if any) can pay for an attempt of `calls` JSON-RPC calls starting in
 * `delay` milliseconds: it has the calls, and the attempt starts before its deadline.
 *
 * @param budget - The budget, or undefined (no bound).
 * @param calls - The calls the attempt sends.
 * @param delay - Milliseconds until it starts (default 0).
 * @returns True without a budget, or when it can pay.
 */
export const affords = (
  budget: CallBudget | undefined,
  calls: number,
  delay = 0,
): boolean =>
  !budget || (budget.calls >= calls && Date.now() + delay < budget.deadline);

/**
 * Take an attempt's calls from a CallBudget (if any) when it can pay for them.
 *
 * @param budget - The budget, or undefined (no bound).
 * @param calls - The calls the attempt sends.
 * @param timeoutMs - The attempt's own timeout, in milliseconds.
 * @returns How long the attempt may run (its timeout, cut at the budget's deadline), or undefined
 * when the budget cannot pay (nothing taken).
 */
export function spend(
  budget: CallBudget | undefined,
  calls: number,
  timeoutMs: number,
): number | undefined {
  if (!budget) {
    return timeoutMs;
  }
  if (!affords(budget, calls)) {
    return undefined;
  }
  budget.calls -= calls;
  return Math.min(timeoutMs, budget.deadline - Date.now());
}

/**
 * Whether a transport fault is worth retrying: network, timeout (unless excluded), HTTP 429 or 5xx.
 *
 * @param error - The error of the attempt.
 * @param retryTimeouts - Whether a timeout counts as retryable.
 * @returns True when another attempt may be made.
 */
export const isRetryable = (error: unknown, retryTimeouts: boolean): boolean =>
  error instanceof TransportError &&
  (error.kind === 'network' ||
    (error.kind === 'timeout' && retryTimeouts) ||
    (error.kind === 'http' &&
      error.status !== undefined &&
      (error.status === 429 || error.status >= 500)));
