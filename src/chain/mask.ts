/**
 * Secret masking for JSON-RPC endpoint URLs. Providers put the API key in many
 * places: a path segment (`/v3/<key>`, `/v2/<key>`, `/<key>/`, `/eth/<key>`,
 * `/v1/rpc/<key>`), a query parameter (`?apikey=<key>`) or the userinfo
 * (`https://user:<key>@host`). Rather than guess which part is the key, every
 * part after the host is treated as secret:
 *
 * - `maskUrl` (a URL shown back, e.g. a stored config): a "keyed" URL, one with
 *   userinfo, a query, or any path beyond `/`, becomes `<origin>/***`;
 * - `originOf` (what error messages name): the scheme, host and port only;
 * - `redact` (free text such as a network error or a node's message): the URL
 *   and every path segment, query value and credential in it are replaced.
 */

const MASK = '***';

/** Shortest URL part treated as a possible secret inside free text (shorter ones are path words like `v3`, `eth`). */
const MIN_SECRET_LENGTH = 6;

/**
 * Parse a URL, or undefined when it is not one.
 *
 * @param url - Candidate.
 * @returns The parsed URL.
 */
function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * The scheme, host and port of an endpoint, e.g. `https://mainnet.example.io`
 * (no userinfo, path, query or fragment): the only part of an endpoint that
 * error messages show.
 *
 * @param url - The endpoint URL.
 * @returns `<scheme>://<host>[:port]`, or `(invalid URL)` when `url` is not a URL.
 * @example originOf('https://x.io/v3/0123abcd') // 'https://x.io'
 */
export function originOf(url: string): string {
  const parsed = parse(url);
  return parsed ? `${parsed.protocol}//${parsed.host}` : '(invalid URL)';
}

/**
 * Mask an endpoint URL for display (stored configs shown back). A keyed URL,
 * one with userinfo, a query, or any path beyond `/`, becomes `<origin>/***`:
 * its whole path, query, fragment and credentials are hidden, whatever the
 * provider's key layout. A URL without any of those is returned as parsed. A
 * string that is not a URL is masked entirely.
 *
 * @param url - An endpoint URL such as `https://mainnet.example.io/v3/abc123`.
 * @returns The masked URL, e.g. `https://mainnet.example.io/***`.
 * @example maskUrl('https://x.io/v3/0123abcd') // 'https://x.io/***'
 * @example maskUrl('https://x.io/') // 'https://x.io/'
 */
export function maskUrl(url: string): string {
  const parsed = parse(url);
  if (!parsed) {
    return MASK;
  }
  const keyed =
    parsed.username !== '' ||
    parsed.password !== '' ||
    parsed.search !== '' ||
    parsed.hash !== '' ||
    url.includes('?') ||
    (parsed.pathname !== '/' && parsed.pathname !== '');
  return keyed ? `${originOf(url)}/${MASK}` : parsed.toString();
}

/**
 * The parts of `url` that may be secret, for scrubbing free text: the path and
 * query as a whole, every path segment, query name and value, the user name and
 * password (raw and percent-decoded), each at least 6 characters long.
 *
 * @param url - The endpoint URL.
 * @returns The strings to remove, longest first.
 */
export function secretsOf(url: string): string[] {
  const parsed = parse(url);
  if (!parsed) {
    return [url];
  }
  const parts = [
    `${parsed.pathname}${parsed.search}`,
    parsed.pathname,
    parsed.search.slice(1),
    parsed.username,
    parsed.password,
    ...parsed.pathname.split('/'),
    ...parsed.search
      .slice(1)
      .split('&')
      .flatMap((pair) => pair.split('=')),
  ];
  const decoded = parts.flatMap((part) => {
    try {
      return [part, decodeURIComponent(part)];
    } catch {
      return [part];
    }
  });
  return [...new Set(decoded)]
    .filter((part) => part.length >= MIN_SECRET_LENGTH && part !== '/')
    .sort((a, b) => b.length - a.length);
}

/**
 * Remove an endpoint's secrets from free text (a network error, a node's error
 * message): the URL itself becomes its origin, and every secret of `secretsOf`
 * becomes `***`.
 *
 * @param text - Free text.
 * @param url - The endpoint URL whose secrets must not appear.
 * @returns The scrubbed text.
 */
export function redact(text: string, url: string): string {
  let out = text.split(url).join(originOf(url));
  for (const secret of secretsOf(url)) {
    out = out.split(secret).join(MASK);
  }
  return out;
}
