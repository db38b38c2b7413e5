/**
 * Secret masking for RPC endpoint URLs (spec part (a), "Authentication": the API
 * key is a path segment, `{base_url}/v3/<API_KEY>`). Every error message built by
 * `src/chain` goes through these helpers; the snap reuses `maskUrl` for configs.
 */

const MASK = '***';

/** Query parameters whose values are treated as secrets. */
const SECRET_QUERY = /^(api[-_]?key|key|token|access[-_]?token|secret|auth|apikey)$/iu;

/**
 * Mask the secrets in an endpoint URL: the path segment after `/v3/` (the API
 * key; likewise after any `/v<n>/`, as other providers version their paths),
 * any password (and user name) in the authority, and query parameters
 * named like keys or tokens. A string that is not a URL is masked entirely
 * after its first 8 characters, so no secret can slip through.
 *
 * @param url - An endpoint URL such as `https://mainnet.example.io/v3/abc123`.
 * @returns The same URL with secrets replaced by `***`,
 * e.g. `https://mainnet.example.io/v3/***`.
 * @example maskUrl('https://x.io/v3/0123abcd') // 'https://x.io/v3/***'
 */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.length <= 8 ? MASK : `${url.slice(0, 8)}${MASK}`;
  }
  if (parsed.username) {
    parsed.username = MASK;
  }
  if (parsed.password) {
    parsed.password = MASK;
  }
  parsed.pathname = parsed.pathname.replace(/\/(v\d+)\/[^/]+/u, `/$1/${MASK}`);
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY.test(key)) {
      parsed.searchParams.set(key, MASK);
    }
  }
  return parsed.toString().replace(/%2A%2A%2A/gu, MASK);
}

/**
 * The secret strings contained in `url` (the API key path segment, credentials
 * and secret query values), for scrubbing free text such as a network error.
 *
 * @param url - The endpoint URL.
 * @returns The list of non-empty secrets found.
 */
export function secretsOf(url: string): string[] {
  const secrets: string[] = [];
  try {
    const parsed = new URL(url);
    const key = /\/v\d+\/([^/]+)/u.exec(parsed.pathname)?.[1];
    if (key) {
      secrets.push(key, decodeURIComponent(key));
    }
    if (parsed.password) {
      secrets.push(parsed.password);
    }
    for (const [name, value] of parsed.searchParams) {
      if (SECRET_QUERY.test(name) && value) {
        secrets.push(value);
      }
    }
  } catch {
    // not a URL: nothing identifiable beyond the whole string
  }
  return secrets.filter((secret) => secret.length > 0);
}

/**
 * Replace every occurrence of `url` and of its secrets in `text` by masked forms.
 *
 * @param text - Free text, e.g. an underlying `fetch` error message.
 * @param url - The endpoint URL whose secrets must not appear.
 * @returns The scrubbed text.
 */
export function redact(text: string, url: string): string {
  let out = text.split(url).join(maskUrl(url));
  for (const secret of secretsOf(url)) {
    out = out.split(secret).join(MASK);
  }
  return out;
}
