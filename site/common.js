/**
 * What both pages share: which snap they talk to, and the three wallet methods they use
 * (wallet_requestSnaps, wallet_invokeSnap, wallet_invokeKeyring) through the page's
 * `window.ethereum` (MetaMask Flask, or anything that speaks EIP-1193).
 */

/**
 * The snap's id: `?snap=<id>` if given; the local development snap (`npm run serve:dev`) when the
 * page is served from this machine; else the published package.
 */
export const SNAP_ID =
  new URLSearchParams(window.location.search).get('snap') ??
  (['localhost', '127.0.0.1'].includes(window.location.hostname)
    ? 'local:http://localhost:8080'
    : 'npm:keyring-snap');

/**
 * The page's EIP-1193 provider.
 *
 * @returns {{ request: (args: { method: string, params?: unknown }) => Promise<any> }} The provider.
 */
function provider() {
  if (!window.ethereum) {
    throw new Error('No wallet found: install MetaMask Flask and reload.');
  }
  return window.ethereum;
}

/**
 * Connect the page to the snap (installing it if needed).
 *
 * @returns {Promise<unknown>} The wallet's answer.
 */
export async function connectSnap() {
  return provider().request({
    method: 'wallet_requestSnaps',
    params: { [SNAP_ID]: {} },
  });
}

/**
 * A request as wallet_invokeSnap and wallet_invokeKeyring carry it.
 *
 * @param {string} method - The snap's method.
 * @param {unknown} [params] - Its params, if any.
 * @returns {{ method: string, params?: unknown }} The request.
 */
function snapRequest(method, params) {
  return params === undefined ? { method } : { method, params };
}

/**
 * Call one of the snap's own methods.
 *
 * @param {string} method - The method.
 * @param {unknown} [params] - Its params.
 * @returns {Promise<any>} Its result.
 */
export async function invokeSnap(method, params) {
  return provider().request({
    method: 'wallet_invokeSnap',
    params: { snapId: SNAP_ID, request: snapRequest(method, params) },
  });
}

/**
 * Call one of the snap's account-management (keyring) methods.
 *
 * @param {string} method - The method.
 * @param {unknown} [params] - Its params.
 * @returns {Promise<any>} Its result.
 */
export async function invokeKeyring(method, params) {
  return provider().request({
    method: 'wallet_invokeKeyring',
    params: { snapId: SNAP_ID, request: snapRequest(method, params) },
  });
}

/**
 * The element with this id.
 *
 * @param {string} id - Its id.
 * @returns {any} The element.
 */
export const byId = (id) => document.getElementById(id);

/**
 * Show a message in the page's message line; an error shows its own message.
 *
 * @param {unknown} what - Text or an error.
 */
export function say(what) {
  const line = byId('message');
  const error = typeof what === 'string' ? undefined : what;
  line.textContent = error ? `Something went wrong: ${error.message}` : what;
  line.className = error ? 'error' : 'ok';
}

/**
 * Run a button's work, showing its failure instead of losing it.
 *
 * @param {string} id - The button's id.
 * @param {() => Promise<void>} work - What it does.
 */
export function onClick(id, work) {
  byId(id).addEventListener('click', () => {
    work().catch(say);
  });
}
