/**
 * Secret masking for JSON-RPC endpoint URLs. Providers put the API key in many
 * places: a path segment (`/v3/<key>`, `/v2/<key>`, `/<key>/`, `/eth/<key>`,
 * `/v1/rpc/<key>`), a query parameter (`?apikey=<key>`), the userinfo
 * (`https://user:<key>@host`) or a host-name label (`https://<key>.rpc.example`).
 * Rather than guess which part is the key, every part after the host is treated
 * as secret, and so is every key-like label of the host name:
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
 * Whether a host-name label looks like a key rather than a name (`KEY.rpc.example`): at least 20
 * characters, or at least 8 mixing letters with 3 or more digits. `mainnet`, `eth-sepolia`,
 * `arb1`, `127` stay readable.
 *
 * @param label - One label of a host name.
 * @returns True when the label is treated as secret.
 */
function secretLabel(label: string): boolean {
  return (
    label.length >= 20 ||
    (label.length >= 8 &&
      /[a-z]/iu.test(label) &&
      (label.match(/[0-9]/gu) ?? []).length >= 3)
  );
}

/**
 * The labels of a URL's host name that look like keys (see {@link secretLabel}); none for an IP
 * address literal.
 *
 * @param parsed - The parsed URL.
 * @returns The secret-looking labels.
 */
function hostSecrets(parsed: URL): string[] {
  if (parsed.hostname.startsWith('[')) {
    return [];
  }
  return parsed.hostname.split('.').filter(secretLabel);
}

/**
 * The scheme, host and port of an endpoint, e.g. `https://mainnet.example.io`
 * (no userinfo, path, query or fragment): the only part of an endpoint that
 * error messages show.
 *
 * @param url - The endpoint URL.
 * @returns `<scheme>://<host>[:port]`, each key-like host label (see `secretLabel`) replaced by
 * `***`, or `(invalid URL)` when `url` is not a URL.
 * @example originOf('https://x.io/v3/0123abcd') // 'https://x.io'
 * @example originOf('https://a1b2c3d4e5f6.rpc.example/') // 'https://***.rpc.example'
 */
export function originOf(url: string): string {
  const parsed = parse(url);
  if (!parsed) {
    return '(invalid URL)';
  }
  const secret = new Set(hostSecrets(parsed));
  const hostname = parsed.hostname
    .split('.')
    .map((label) => (secret.has(label) ? MASK : label))
    .join('.');
  const host = parsed.port ? `${hostname}:${parsed.port}` : hostname;
  return `${parsed.protocol}//${host}`;
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
    hostSecrets(parsed).length > 0 ||
    url.includes('?') ||
    (parsed.pathname !== '/' && parsed.pathname !== '');
  return keyed ? `${originOf(url)}/${MASK}` : parsed.toString();
}

/**
 * Whether a URL is a masked placeholder (it holds `***`, as {@link maskUrl} and
 * {@link originOf} write it): it stands for a stored URL and is never an endpoint to call.
 *
 * @param url - A URL as given by a caller.
 * @returns True when it holds the mask.
 */
export function isMaskedUrl(url: string): boolean {
  return url.includes(MASK);
}

/**
 * Mask a URL for display only when it is keyed: as {@link maskUrl}, but a URL with nothing secret
 * is returned exactly as given (no trailing `/` added).
 *
 * @param url - An endpoint URL.
 * @returns `<origin>/***` for a keyed URL, else `url` unchanged.
 * @example maskKeyed('https://ipfs.example/KEY123abc') // 'https://ipfs.example/***'
 * @example maskKeyed('http://127.0.0.1:5001') // 'http://127.0.0.1:5001'
 */
export function maskKeyed(url: string): string {
  const masked = maskUrl(url);
  return isMaskedUrl(masked) ? masked : url;
}

/**
 * The parts of `url` that may be secret, for scrubbing free text: the path and
 * query as a whole, every path segment, query name and value, the user name and
 * password (raw and percent-decoded), key-like host labels, each at least 6
 * characters long.
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
    ...hostSecrets(parsed),
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
  const parsed = parse(url);
  // host names are case-insensitive (and parsed lower case): a key there is masked in any case
  for (const label of parsed ? hostSecrets(parsed) : []) {
    out = out.replace(
      new RegExp(label.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'), 'giu'),
      MASK,
    );
  }
  return out;
}
