/**
 * Redirects are never followed: every `fetch` of the snap passes `redirect: 'error'` (WHATWG Fetch
 * Standard, `RequestRedirect`), since a redirect from an https:// service could lead to http:// or
 * a loopback address and get around the https-only rule of the configured URLs. It imports
 * nothing, so the two plain libraries (src/chain/, src/ipfs/) can share it from src/net/, below both.
 */

/**
 * Whether a rejected `fetch` was refused because the server answered with a redirect (Node's
 * undici: `TypeError('fetch failed')` caused by `Error('unexpected redirect')`). Browsers reject
 * with a bare `TypeError` that does not say why; callers report those as network errors, refused
 * all the same.
 *
 * @param error - What `fetch` rejected with.
 * @returns True when the rejection or one of its first four causes names a redirect.
 */
export function isRedirectRejection(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; cause && depth < 5; depth += 1) {
    const { message } = cause as { message?: unknown };
    if (typeof message === 'string' && /redirect/iu.test(message)) {
      return true;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a response is a redirect, or came through one: a defence for `fetch` implementations
 * that ignore `redirect: 'error'`.
 *
 * @param response - The response.
 * @param response.status - Its HTTP status.
 * @param response.redirected - WHATWG `Response.redirected`, when present.
 * @returns True for a 3xx status or a redirected response.
 */
export function isRedirect(response: {
  status: number;
  redirected?: boolean;
}): boolean {
  return (
    response.redirected === true ||
    (response.status >= 300 && response.status < 400)
  );
}
