import { InvalidApiUrlError } from './errors';

/**
 * The IPFS HTTP API base URL, checked once (at config time and when a client
 * is created). Requests go to `{apiUrl}/api/v0/<command>` (Kubo RPC API,
 * https://docs.ipfs.tech/reference/kubo/rpc/); credentials travel as HTTP basic
 * auth (RFC 7617) from `apiKey`/`apiKeySecret`, never inside the URL, and
 * anything but a loopback host must use TLS.
 */

/** Longest URL accepted, in characters. */
export const MAX_API_URL_LENGTH = 2048;

/**
 * Whether a URL host is a loopback address: `localhost`, 127.0.0.0/8
 * (RFC 1122 §3.2.1.3; the WHATWG URL parser already turned `127.1` or
 * `0x7f000001` into dotted form) or `[::1]` (RFC 4291 §2.5.3).
 *
 * @param hostname - `URL.hostname` (lower case, IPv6 in brackets).
 * @returns True for a loopback host.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') {
    return true;
  }
  const octets = hostname.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every(
      (octet) => /^(?:0|[1-9]\d{0,2})$/u.test(octet) && Number(octet) <= 255,
    )
  );
}

/**
 * Normalise and validate an IPFS HTTP API base URL.
 *
 * @param url - As configured, e.g. `https://ipfs.example.com:5001/api/v0/`.
 * @returns `origin + path` without trailing slashes or `/api/v0`, e.g. `https://ipfs.example.com:5001`.
 * @throws InvalidApiUrlError naming the problem (not a URL, not http(s), user info, query,
 * fragment, plain http to a non-loopback host, longer than 2048 characters); the URL is never echoed.
 * @example
 * normalizeIpfsApiUrl('http://127.0.0.1:5001/api/v0'); // 'http://127.0.0.1:5001'
 */
export function normalizeIpfsApiUrl(url: string): string {
  if (typeof url !== 'string' || url.length > MAX_API_URL_LENGTH) {
    throw new InvalidApiUrlError(
      'length',
      `must be a string of at most ${MAX_API_URL_LENGTH} characters`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidApiUrlError('syntax', 'is not a valid absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new InvalidApiUrlError(
      'scheme',
      'must use https (or http to a loopback host)',
    );
  }
  if (
    parsed.username !== '' ||
    parsed.password !== '' ||
    /^[a-z]+:\/\/[^/?#]*@/iu.test(url.trim())
  ) {
    throw new InvalidApiUrlError(
      'userinfo',
      'must not carry credentials; set apiKey and apiKeySecret (sent as HTTP basic auth)',
    );
  }
  if (parsed.search !== '' || parsed.href.includes('?')) {
    throw new InvalidApiUrlError('query', 'must not have a query string');
  }
  if (parsed.hash !== '' || parsed.href.includes('#')) {
    throw new InvalidApiUrlError('fragment', 'must not have a fragment');
  }
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
    throw new InvalidApiUrlError(
      'insecure',
      'must use https unless the host is loopback (localhost, 127.0.0.0/8, [::1])',
    );
  }
  const path = parsed.pathname
    .replace(/\/+$/u, '')
    .replace(/\/api\/v0$/u, '')
    .replace(/\/+$/u, '');
  return `${parsed.origin}${path}`;
}
