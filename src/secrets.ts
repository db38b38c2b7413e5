import { JsonRpcError } from '@metamask/rpc-errors';

import { redact } from './chain';
import type { Domain } from './keyring';

/** Shortest credential scrubbed as free text (shorter ones would mangle ordinary words). */
const MIN_SECRET_LENGTH = 8;

/**
 * Remove the snap's configured credentials from an error before it leaves the snap. Messages from
 * servers (a node's or a bundler's JSON-RPC error, a paymaster's refusal) are passed on, and a
 * server may quote the URL it was called at, API key included, or the key alone. Every configured
 * service URL (chain configs, accounts' bundler and paymaster URLs) is masked and its secrets
 * (`/v3/<key>` path segment, password, key-like query values) replaced by `***`; so are the IPFS
 * API key and secret.
 *
 * @param error - The error about to be returned.
 * @param domain - The loaded domain (its settings and accounts name the credentials), if loaded.
 * @returns The same error, or a copy with the credentials replaced (same code).
 */
export function scrubError(
  error: JsonRpcError<never>,
  domain: Domain | undefined,
): JsonRpcError<never> {
  if (!domain) {
    return error;
  }
  const { settings, keyring } = domain;
  const urls = [
    ...Object.values(settings.allChainConfigs()).flatMap((config) => [
      config.rpcUrl,
      config.bundlerUrl,
      config.paymasterUrl,
    ]),
    ...keyring.serviceUrls(),
  ].filter((url): url is string => typeof url === 'string');
  const ipfs = settings.ipfsConfig();
  return redactError(error, urls, [ipfs?.apiKey, ipfs?.apiKeySecret]);
}

/**
 * Replace `urls` (masked) and their secrets, and the `plain` credentials, in an error's message and
 * string data.
 *
 * @param error - A JSON-RPC error.
 * @param urls - Service URLs that may carry keys.
 * @param plain - Credentials given on their own (shorter than 8 characters or undefined: ignored).
 * @returns The same error, or a copy with the credentials replaced (same code).
 */
export function redactError(
  error: JsonRpcError<never>,
  urls: readonly string[],
  plain: readonly (string | undefined)[] = [],
): JsonRpcError<never> {
  const secrets = plain.filter(
    (secret): secret is string =>
      typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH,
  );
  /**
   * Mask every secret and every configured URL's credentials in `text`.
   *
   * @param text - An error message or string data.
   * @returns The text with secrets replaced by `***`.
   */
  const scrub = (text: string): string =>
    secrets.reduce(
      (out, secret) => out.split(secret).join('***'),
      urls.reduce((out, url) => redact(out, url), text),
    );
  const message = scrub(error.message);
  const data = typeof error.data === 'string' ? scrub(error.data) : error.data;
  return message === error.message && data === error.data
    ? error
    : new JsonRpcError(error.code, message, data as never);
}
