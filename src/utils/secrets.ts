import { JsonRpcError } from '@metamask/rpc-errors';

import { redact } from '../chain';
import { printable } from './safeText';

/** Shortest credential scrubbed as free text (shorter ones would mangle ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** Most service URLs and plain credentials remembered since the snap started (each; oldest dropped first). */
export const MAX_REMEMBERED_CREDENTIALS = 256;

/** How deep `data` is scrubbed (JSON levels); deeper parts are replaced by `[truncated]`. */
const DATA_DEPTH = 16;

/**
 * Every service URL and plain credential configured since the snap started (in memory only, never
 * stored): an error raised by a call made with a key that a concurrent `setChainConfig` or
 * `setIpfsConfig` has since replaced is still masked.
 */
const remembered = { urls: new Set<string>(), plain: new Set<string>() };

/**
 * Add to a bounded set, dropping the oldest entry past the bound.
 *
 * @param set - The set (insertion-ordered).
 * @param value - The value to add (moved to the newest place when present).
 */
function remember(set: Set<string>, value: string): void {
  set.delete(value);
  set.add(value);
  if (set.size > MAX_REMEMBERED_CREDENTIALS) {
    set.delete(set.values().next().value as string);
  }
}

/**
 * Remember credentials for the rest of the session, so that errors are scrubbed of them even after
 * they are replaced. Called with every config before it is stored and with the one it replaces.
 *
 * @param urls - Service URLs that may carry keys (undefined entries ignored).
 * @param plain - Credentials given on their own (shorter than 8 characters or undefined: ignored).
 */
export function rememberCredentials(
  urls: readonly (string | undefined)[],
  // Stryker disable next-line ArrayDeclaration: equivalent for every caller: a default holding a text (`['Stryker was here']`) is remembered as a credential and shows only in an error quoting that very text
  plain: readonly (string | undefined)[] = [],
): void {
  for (const url of urls) {
    if (typeof url === 'string' && url.length > 0) {
      remember(remembered.urls, url);
    }
  }
  for (const secret of plain) {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) {
      remember(remembered.plain, secret);
    }
  }
}

/**
 * Replace `urls` (masked) and their secrets, the `plain` credentials, and every credential
 * remembered this session (see {@link rememberCredentials}) in an error's message and data (every
 * string of it, keys included, at any depth up to 16 levels); cut the message to 300 printable
 * characters (`printable`).
 *
 * @param error - A JSON-RPC error.
 * @param urls - Service URLs that may carry keys (remembered for the session).
 * @param plain - Credentials given on their own (shorter than 8 characters or undefined: ignored; remembered).
 * @returns The same error, or a copy with the credentials replaced (same code).
 */
export function redactError(
  error: JsonRpcError<never>,
  urls: readonly string[],
  plain: readonly (string | undefined)[] = [],
): JsonRpcError<never> {
  rememberCredentials(urls, plain);
  const allUrls = [...remembered.urls];
  const secrets = [...remembered.plain].sort((a, b) => b.length - a.length);
  /**
   * Mask every secret and every remembered URL's credentials in `text`.
   *
   * @param text - An error message or a string of its data.
   * @returns The text with secrets replaced by `***`.
   */
  const scrub = (text: string): string =>
    secrets.reduce(
      (out, secret) => out.split(secret).join('***'),
      allUrls.reduce((out, url) => redact(out, url), text),
    );
  const message = printable(scrub(error.message));
  const data = scrubData(error.data, scrub, DATA_DEPTH);
  return message === error.message && data === error.data
    ? error
    : new JsonRpcError(error.code, message, data as never);
}

/**
 * A copy of an error's `data` with every string (values and keys) passed through `scrub`; the
 * same value when nothing changed.
 *
 * @param value - The data, or a part of it.
 * @param scrub - The text scrubber.
 * @param depth - Levels left; deeper parts become `[truncated]`.
 * @returns The scrubbed data.
 */
function scrubData(
  value: unknown,
  scrub: (text: string) => string,
  depth: number,
): unknown {
  if (typeof value === 'string') {
    return scrub(value);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if (depth === 0) {
    return '[truncated]';
  }
  let changed = false;
  /**
   * Scrub one member, noting whether anything changed.
   *
   * @param item - The member.
   * @returns It scrubbed.
   */
  const each = (item: unknown): unknown => {
    const out = scrubData(item, scrub, depth - 1);
    changed ||= out !== item;
    return out;
  };
  const copy = Array.isArray(value)
    ? value.map(each)
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [each(key), each(item)]),
      );
  return changed ? copy : value;
}
