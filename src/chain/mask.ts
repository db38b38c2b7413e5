/**
 * Secret masking for JSON-RPC endpoint URLs. Providers put the API key in many
 * places: a path segment (`/v3/<key>`, `/v2/<key>`, `/<key>/`, `/eth/<key>`,
 * `/v1/rpc/<key>`), a query parameter (`?apikey=<key>`), the userinfo
 * (`https://user:<key>@host`) or a host-name label (`https://<key>.rpc.example`).
 * A URL shown back hides everything after the host; free text loses only the
 * parts that look like credentials, so that chain ids, version segments (`v2`)
 * and words (`bundler`, `rpc`) stay readable:
 *
 * - `maskUrl` (a URL shown back, e.g. a stored config): a "keyed" URL, one with
 *   userinfo, a query, or any path beyond `/`, becomes `<origin>/***`; a key in
 *   the host name alone is masked in place, without adding a path;
 * - `originOf` (what error messages name): the scheme, host and port only;
 * - `redact` (free text such as a network error or a node's message): the URL
 *   itself becomes its origin, and its credentials (see `secretsOf`: user-info,
 *   key-like path segments and host labels, values of key-named query
 *   parameters) are replaced wherever they appear.
 */

const MASK = '***';

/** Shortest URL part treated as a possible secret inside free text (shorter ones are path words like `v3`, `eth`). */
const MIN_SECRET_LENGTH = 6;

/** Shortest path segment or host label that can be a key (Infura's 32 hex digits, Alchemy's 32 base64url characters). */
const MIN_KEY_LENGTH = 16;

/** Query parameter names whose values are credentials (`apikey`, `api_key`, `x-api-key`, `token`, `access_token`, `secret`, `auth`). */
const KEY_NAME = /key|token|secret|auth|pass/iu;

/**
 * Parse a URL, or undefined when it is not one.
 *
 * @param url - Candidate.
 * @returns The parsed URL.
 */
function parse(url: string): URL | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // not a URL: undefined
  }
  return parsed;
}

/**
 * Whether a path segment, host label or query value looks like a key rather than a word, a chain
 * id or a version: at least 16 characters, all hex, base58 or base64url (`[A-Za-z0-9_-]`), and
 * either holding a digit, mixing upper and lower case, or one unbroken run (no `-` or `_`).
 * `11155111`, `v2`, `bundler`, `eth-mainnet-archive` stay readable; `0123456789abcdef…`,
 * `Kq3rXyZ…`, `abcdefghijklmnopqr` are keys.
 *
 * @param part - One path segment, host label or query value (percent-decoded).
 * @returns True when it is treated as secret.
 */
function isKeyLike(part: string): boolean {
  if (part.length < MIN_KEY_LENGTH || !/^[A-Za-z0-9_-]+$/u.test(part)) {
    return false;
  }
  return (
    /[0-9]/u.test(part) ||
    (/[a-z]/u.test(part) && /[A-Z]/u.test(part)) ||
    !/[-_]/u.test(part)
  );
}

/**
 * Whether a host-name label looks like a key rather than a name (`KEY.rpc.example`): see
 * {@link isKeyLike}. `mainnet`, `eth-sepolia`, `arb1`, `127` stay readable.
 *
 * @param label - One label of a host name.
 * @returns True when the label is treated as secret.
 */
function secretLabel(label: string): boolean {
  return isKeyLike(label);
}

/**
 * The labels of a URL's host name that look like keys (see {@link secretLabel}); none for an IP
 * address literal.
 *
 * @param parsed - The parsed URL.
 * @returns The secret-looking labels.
 */
function hostSecrets(parsed: URL): string[] {
  // Stryker disable next-line ConditionalExpression,MethodExpression,BlockStatement: equivalent: an IP literal's one "label" holds `[` and `:`, which isKeyLike refuses anyway; the check only says so
  if (parsed.hostname.startsWith('[')) {
    // Stryker disable next-line ArrayDeclaration: equivalent for every text but the mutant's own: a list holding some text would mask only that text
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
 * @example originOf('https://a1b2c3d4e5f6a7b8.rpc.example/') // 'https://***.rpc.example'
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
 * provider's key layout. A URL whose only key is a label of its host name has
 * that label masked and keeps its own (empty) path: `https://***.rpc.example/`.
 * A URL without any of those is returned as parsed. A string that is not a URL
 * is masked entirely.
 *
 * @param url - An endpoint URL such as `https://mainnet.example.io/v3/abc123`.
 * @returns The masked URL, e.g. `https://mainnet.example.io/***`.
 * @example maskUrl('https://x.io/v3/0123abcd') // 'https://x.io/***'
 * @example maskUrl('https://x.io/') // 'https://x.io/'
 * @example maskUrl('https://0123456789abcdef.rpc.example/') // 'https://***.rpc.example/'
 */
export function maskUrl(url: string): string {
  const parsed = parse(url);
  if (!parsed) {
    return MASK;
  }
  const keyed =
    parsed.username !== '' ||
    parsed.password !== '' ||
    // Stryker disable next-line ConditionalExpression: equivalent: a URL with a query has a `?`, which url.includes('?') checks (it also catches an empty query)
    parsed.search !== '' ||
    parsed.hash !== '' ||
    url.includes('?') ||
    (parsed.pathname !== '/' && parsed.pathname !== '');
  if (keyed) {
    return `${originOf(url)}/${MASK}`;
  }
  return hostSecrets(parsed).length > 0
    ? `${originOf(url)}/`
    : parsed.toString();
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
 * is returned exactly as given (no trailing `/` added), and a URL whose only key is in its host
 * name gets no path added either.
 *
 * @param url - An endpoint URL.
 * @returns `<origin>/***` for a keyed URL, the URL with its host key masked, else `url` unchanged.
 * @example maskKeyed('https://ipfs.example/KEY123abc') // 'https://ipfs.example/***'
 * @example maskKeyed('http://127.0.0.1:5001') // 'http://127.0.0.1:5001'
 * @example maskKeyed('https://0123456789abcdef.ipfs.example') // 'https://***.ipfs.example'
 */
export function maskKeyed(url: string): string {
  const masked = maskUrl(url);
  if (!isMaskedUrl(masked)) {
    return url;
  }
  const parsed = parse(url);
  const bare = parsed !== undefined && !masked.endsWith(`/${MASK}`);
  return bare && !url.endsWith('/') ? masked.slice(0, -1) : masked;
}

/**
 * The credentials of `url`, for scrubbing free text: its user name and password (and
 * `user:password@`), key-like path segments and host labels (see {@link isKeyLike}), and the
 * values of query parameters whose names say they are keys (`apikey`, `api_key`, `key`, `token`,
 * `secret`, `auth`) or that look like keys themselves (a bare item, `?<key>`, is a value without a
 * name), raw and percent-decoded, each at least 6 characters long. Never a chain id, a version
 * segment or a word of the path.
 *
 * @param url - The endpoint URL.
 * @returns The strings to remove, longest first; the whole string when it is not a URL.
 */
export function secretsOf(url: string): string[] {
  const parsed = parse(url);
  if (!parsed) {
    return [url];
  }
  const pairs = parsed.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      // a bare item (`?<key>`) is a value without a name
      // Stryker disable next-line StringLiteral: equivalent for any name without a key word (Stryker's own text has none): the value alone then decides
      return at < 0 ? ['', pair] : [pair.slice(0, at), pair.slice(at + 1)];
    });
  const parts = [
    ...(parsed.username || parsed.password
      ? [`${parsed.username}:${parsed.password}@`]
      : // Stryker disable next-line ArrayDeclaration: equivalent for every text but the mutant's own: a list holding some text would mask only that text
        []),
    parsed.username,
    parsed.password,
    ...hostSecrets(parsed),
    ...parsed.pathname
      .split('/')
      .filter((segment) => isKeyLike(decoded(segment))),
    ...pairs
      .filter(
        ([name, value]) =>
          KEY_NAME.test(decoded(name)) || isKeyLike(decoded(value)),
      )
      .map(([, value]) => value),
  ];
  const all = parts.flatMap((part) => [part, decoded(part)]);
  return [...new Set(all)]
    .filter((part) => part.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/**
 * Percent-decode a URL part.
 *
 * @param part - A path segment, query name or value, user name or password.
 * @returns It decoded (`+` in a query stays), or as given when it is not valid percent-encoding.
 */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
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
  // Stryker disable next-line ArrayDeclaration: equivalent for every text but the mutant's own: a list holding some text would mask only that text
  for (const label of parsed ? hostSecrets(parsed) : []) {
    // Stryker disable next-line StringLiteral: equivalent: a key-like label is only [A-Za-z0-9_-], so the escape (kept for safety) changes nothing
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
    out = out.replace(new RegExp(escaped, 'giu'), MASK);
  }
  return out;
}
