/**
 * The example app's spending permission (ERC-7715), asked for with MetaMask's Smart Accounts Kit
 * 2.0.0 as any dapp would: the kit's `erc7715ProviderActions` on a viem client whose transport
 * wraps each call in `wallet_invokeSnap` to this snap (MetaMask keeps its own
 * `wallet_requestExecutionPermissions` for its preinstalled permission snaps). The person sees one
 * dialog in MetaMask; the app gets a permission context its session account redeems on chain with
 * the kit (ERC-7710, `sendTransactionWithDelegation`). Lists the app's own permissions and revokes
 * one (`wallet_revokeExecutionPermission`, which the kit has no action for).
 *
 * The kit is bundled for the browser by `npm run site` (scripts/site-kit.mjs) into
 * vendor/smart-accounts-kit.js and loaded on first use, so the rest of the page works without it.
 * This module adds its own section to the page.
 */
import { invokeSnap } from './common.js';

/**
 * An element of this part by its id.
 *
 * @param {string} id - The element's id.
 * @returns {any} The element.
 */
const byId = (id) => document.getElementById(id);

/** The periods offered, in seconds, as the page names them. */
const PERIODS = [
  [3600, 'every hour'],
  [86400, 'every day'],
  [604800, 'every week'],
];

let client;

/**
 * The kit's ERC-7715 client over `wallet_invokeSnap`, loaded on first use.
 *
 * @returns {Promise<any>} The viem client extended with erc7715ProviderActions, and viem's helpers.
 */
async function kit() {
  // built by `npm run site`, never committed
  // eslint-disable-next-line import-x/no-unresolved
  const loaded = await import('./vendor/smart-accounts-kit.js').catch(() => {
    throw new Error(
      'The Smart Accounts Kit bundle is missing: serve the site with npm run site',
    );
  });
  client ??= loaded
    .createClient({
      transport: loaded.custom({
        request: async ({ method, params }) => invokeSnap(method, params),
      }),
    })
    .extend(loaded.erc7715ProviderActions());
  return { client, viem: loaded };
}

/**
 * Show a line in this part's status.
 *
 * @param {unknown} what - Text or an error.
 */
function tell(what) {
  const line = byId('perm-status');
  line.textContent =
    typeof what === 'string' ? what : `Something went wrong: ${what.message}`;
  line.className = typeof what === 'string' ? 'ok' : 'error';
}

/**
 * Run a button's work, showing its failure in this part's status instead of losing it.
 *
 * @param {string} id - The button's id.
 * @param {() => Promise<void>} work - What the button does.
 */
function onClick(id, work) {
  byId(id).addEventListener('click', () => {
    work().catch(tell);
  });
}

/**
 * This part's section, added to the page.
 */
function mount() {
  const section = document.createElement('section');
  section.id = 'permissions';
  section.innerHTML = `
    <h2>Spending permission (ERC-7715)</h2>
    <p>Let this app's session account spend up to an amount every period from your account, until
      a date, without asking you each time. You approve it once in MetaMask; you can revoke it
      here or on the snap's home page.</p>
    <label>Your account's address <input id="perm-from" /></label>
    <label>Chain number (for example 31337) <input id="perm-chain" /></label>
    <label>Session account that may spend <input id="perm-to" /></label>
    <label>Amount per period, in ETH <input id="perm-amount" value="0.01" /></label>
    <label>Period <select id="perm-period">${PERIODS.map(
      ([seconds, words]) => `<option value="${seconds}">${words}</option>`,
    ).join('')}</select></label>
    <label>Days until it ends <input id="perm-days" value="7" /></label>
    <label>Why you ask (shown as your words) <input id="perm-why" /></label>
    <button id="perm-request">Ask for the permission</button>
    <button id="perm-list">This app's permissions</button>
    <p id="perm-status" role="status"></p>
    <ul id="perm-granted"></ul>`;
  document.body.append(section);
}

/**
 * List the app's permissions (the snap returns only this site's), each with *Revoke*.
 */
async function list() {
  const { client: kitClient, viem } = await kit();
  const granted = await kitClient.getGrantedExecutionPermissions();
  const items = granted.map((permission) => {
    const item = document.createElement('li');
    const { data } = permission.permission;
    const expiry = permission.rules?.find((rule) => rule.type === 'expiry');
    item.textContent = `${permission.permission.type}: ${
      data.periodAmount === undefined
        ? ''
        : `${viem.formatEther(data.periodAmount)} ETH every ${data.periodDuration} s`
    } to ${permission.to}${
      expiry
        ? `, until ${new Date(expiry.data.timestamp * 1000).toUTCString()}`
        : ''
    }. Context ${permission.context.slice(0, 18)}… `;
    const revoke = document.createElement('button');
    revoke.textContent = 'Revoke';
    revoke.addEventListener('click', () => {
      tell('Confirm the revocation in MetaMask…');
      revokeOne(permission.context).catch(tell);
    });
    item.append(revoke);
    return item;
  });
  byId('perm-granted').replaceChildren(...items);
  if (items.length === 0) {
    tell('This app holds no permission.');
  }
}

/**
 * Revoke one of the app's permissions (once it is on chain), then list them again.
 *
 * @param {string} permissionContext - The permission's context.
 */
async function revokeOne(permissionContext) {
  await invokeSnap('wallet_revokeExecutionPermission', { permissionContext });
  tell('Revoked: the session account can no longer use it.');
  await list();
}

mount();

onClick('perm-request', async () => {
  const { client: kitClient, viem } = await kit();
  tell('Confirm in MetaMask…');
  const days = Number(byId('perm-days').value.trim());
  const [granted] = await kitClient.requestExecutionPermissions([
    {
      chainId: Number(byId('perm-chain').value.trim()),
      from: viem.getAddress(byId('perm-from').value.trim()),
      to: viem.getAddress(byId('perm-to').value.trim()),
      expiry: Math.floor(Date.now() / 1000) + Math.round(days * 86400),
      permission: {
        type: 'native-token-periodic',
        isAdjustmentAllowed: false,
        data: {
          periodAmount: viem.parseEther(byId('perm-amount').value.trim()),
          periodDuration: Number(byId('perm-period').value),
          justification: byId('perm-why').value.trim() || undefined,
        },
      },
    },
  ]);
  tell(
    `Granted. Your session account redeems it with the kit's sendTransactionWithDelegation (delegation manager ${granted.delegationManager}).`,
  );
  await list();
});

onClick('perm-list', async () => {
  await list().catch(tell);
});
