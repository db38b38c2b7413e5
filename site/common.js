/**
 * What both pages share: which snap they talk to, and the wallet methods they use
 * (wallet_requestSnaps, wallet_invokeSnap, wallet_invokeKeyring) through the page's
 * `window.ethereum` (MetaMask Flask, or anything that speaks EIP-1193).
 */

/** The published snap: `npm:` and the package name (package.json `name`, the manifest's `packageName`). */
export const PUBLISHED_SNAP_ID = 'npm:keyring-snap';

/** The development snap `npm run serve` serves on this machine. */
export const LOCAL_SNAP_ID = 'local:http://localhost:8080';

/** The hosts a developer serves the site from (`npm run site`). */
const LOCAL_HOSTS = ['localhost', '127.0.0.1'];

/**
 * The snap a page at `location` talks to. Anywhere but on this machine it is the published snap,
 * whatever the address says: a link to the companion with `?snap=<another snap>` must not make the
 * page hand a typed private key to another snap. On `localhost` and `127.0.0.1`, `?snap=<id>` picks
 * one (a developer's build), else the local development snap.
 *
 * @param {{ hostname: string, search: string }} location - The page's address.
 * @returns {string} The snap id.
 */
export function snapIdAt(location) {
  if (!LOCAL_HOSTS.includes(location.hostname)) {
    return PUBLISHED_SNAP_ID;
  }
  return new URLSearchParams(location.search).get('snap') ?? LOCAL_SNAP_ID;
}

/** The snap this page talks to. */
export const SNAP_ID = snapIdAt(window.location);

/**
 * The page's EIP-1193 provider.
 *
 * @returns {{ request: (args: { method: string, params?: unknown }) => Promise<any> }} The provider.
 * @throws {Error} With `code: 'noWallet'` when the browser has none.
 */
function provider() {
  if (!window.ethereum) {
    throw Object.assign(new Error('no wallet'), { code: 'noWallet' });
  }
  return window.ethereum;
}

/**
 * Ask the wallet itself (EIP-1193), e.g. `eth_requestAccounts`.
 *
 * @param {string} method - The wallet method.
 * @param {unknown} [params] - Its params.
 * @returns {Promise<any>} Its result.
 */
export async function askWallet(method, params) {
  return provider().request(
    params === undefined ? { method } : { method, params },
  );
}

/**
 * Connect the page to the snap (MetaMask installs it first if needed).
 *
 * @returns {Promise<unknown>} The wallet's answer.
 */
export async function connectSnap() {
  return askWallet('wallet_requestSnaps', { [SNAP_ID]: {} });
}

/**
 * Call one of the snap's own methods (wallet_invokeSnap).
 *
 * @param {string} method - The method.
 * @param {unknown} [params] - Its params.
 * @returns {Promise<any>} Its result.
 */
export async function invokeSnap(method, params) {
  return askWallet('wallet_invokeSnap', {
    snapId: SNAP_ID,
    request: params === undefined ? { method } : { method, params },
  });
}

/**
 * Call one of the snap's account-management (keyring) methods (wallet_invokeKeyring).
 *
 * @param {string} method - The method.
 * @param {unknown} [params] - Its params.
 * @returns {Promise<any>} Its result.
 */
export async function invokeKeyring(method, params) {
  return askWallet('wallet_invokeKeyring', {
    snapId: SNAP_ID,
    request: params === undefined ? { method } : { method, params },
  });
}
