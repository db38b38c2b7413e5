/**
 * How both pages start: the Connect button in the header (`.masthead`), and the page's sections, each a module
 * (`create(page)` returns its element and, optionally, `refresh()`), laid out in `<main>` in the
 * order given. A new section is a new module and one line in the page's entry file.
 */
import { askWallet, connectSnap, SNAP_ID } from './common.js';
import { act, byId, el, show, statusLine } from './ui.js';

/** What the header says once connected. */
const CONNECTED = 'Connected to Tandem Keyring';

/**
 * Start a page.
 *
 * @param {((page: any) => { element: any, refresh?: () => Promise<void> })[]} modules - Its sections.
 * @returns {any} The page: `connected`, `ensureConnected()`, `refresh()`.
 */
export function startPage(modules) {
  const sections = [];
  const page = {
    connected: false,
    /** Connect first if needed (the wallet asks the person), then go on. */
    async ensureConnected() {
      if (!page.connected) {
        await connectSnap();
        markConnected();
      }
    },
    /** Show what changed: every section reads again, in order (a later one may use an earlier one's). */
    async refresh() {
      for (const built of sections) {
        await built.refresh?.();
      }
    },
  };
  document
    .querySelector('.masthead')
    .append(
      el(
        'div',
        { className: 'connect' },
        el('button', { id: 'connect', type: 'button' }, 'Connect MetaMask'),
        el('span', { id: 'connected' }),
        statusLine('connect-status'),
      ),
    );
  sections.push(...modules.map((create) => create(page)));
  byId('sections').append(...sections.map((built) => built.element));

  /** Say so in the header. */
  function markConnected() {
    page.connected = true;
    byId('connected').textContent = CONNECTED;
    byId('connected').title = SNAP_ID;
    byId('connect').hidden = true;
  }

  const button = byId('connect');
  button.addEventListener('click', () => {
    act({
      button,
      status: byId('connect-status'),
      form: 'connect',
      busy: 'Confirm in MetaMask…',
      run: async () => {
        await connectSnap();
        markConnected();
        await page.refresh();
        return '';
      },
    }).catch(() => undefined);
  });
  // already connected (a return visit, or MetaMask's link to a waiting request): no click needed
  askWallet('wallet_getSnaps')
    .then(async (snaps) => {
      if (snaps?.[SNAP_ID]) {
        markConnected();
        await page.refresh();
      }
      return undefined;
    })
    .catch(() => undefined);
  if (!window.ethereum) {
    show(
      byId('connect-status'),
      'No wallet found: install MetaMask Flask, then reload this page',
      'error',
    );
  }
  return page;
}
