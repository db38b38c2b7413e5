/**
 * The companion's "Approvals" section: whether the snap signs as soon as MetaMask confirms, or
 * waits for an approval here; and the requests waiting, each saying what it asks (the message,
 * the data, the transaction), which account signs and for which site, with Approve and Reject.
 * MetaMask's link to a waiting request (`#/requests/<id>`) puts that one first.
 */
import { invokeKeyring, invokeSnap } from '../common.js';
import {
  act,
  choice,
  choose,
  chosen,
  form,
  el,
  notice,
  section,
  statusLine,
} from '../ui.js';
import { chainName, coinAmount } from '../words.js';

/** What a request asks, in words, by method. */
const ASKS = {
  personal_sign: 'Sign a message',
  eth_signTransaction: 'Sign a transaction',
  eth_signTypedData_v1: 'Sign structured data',
  eth_signTypedData_v3: 'Sign structured data',
  eth_signTypedData_v4: 'Sign structured data',
  eth_signUserOperation: 'Sign a smart-account operation',
  eth_prepareUserOperation: 'Prepare a smart-account operation',
  eth_patchUserOperation: 'Prepare a smart-account operation',
};

/** The longest text shown of what is signed; the rest is counted. */
const MAX_SHOWN = 4000;

/**
 * Text shown whole up to MAX_SHOWN characters.
 *
 * @param {string} text - The text.
 * @returns {string} It, or its start and how much is left out.
 */
const bounded = (text) =>
  text.length <= MAX_SHOWN
    ? text
    : `${text.slice(0, MAX_SHOWN)}… (${text.length - MAX_SHOWN} more characters)`;

/**
 * A personal_sign message as text when it is UTF-8 without control characters, else as hex.
 *
 * @param {unknown} message - The request's first param (hex bytes).
 * @returns {string} What to show.
 */
function messageText(message) {
  if (
    typeof message !== 'string' ||
    !/^0x(?:[0-9a-fA-F]{2})*$/u.test(message)
  ) {
    return String(message);
  }
  const bytes = new Uint8Array(
    message
      .slice(2)
      .match(/../gu)
      ?.map((pair) => parseInt(pair, 16)) ?? [],
  );
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // eslint-disable-next-line no-control-regex -- a message with control characters is shown as hex
    return /[\u0000-\u0008\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/u.test(
      text,
    )
      ? message
      : text;
  } catch {
    return message;
  }
}

/**
 * The lines that say what a request would sign.
 *
 * @param {any} request - The request (keyring-api's KeyringRequest).
 * @returns {[string, string][]} Labels and values.
 */
function whatLines(request) {
  const { method, params } = request.request;
  const list = Array.isArray(params) ? params : [];
  if (method === 'personal_sign') {
    return [['Message', bounded(messageText(list[0]))]];
  }
  if (method.startsWith('eth_signTypedData')) {
    let data = list[1];
    try {
      data = typeof data === 'string' ? JSON.parse(data) : data;
    } catch {
      // shown as it came
    }
    return [
      [
        'For',
        `${data?.domain?.name ?? 'unnamed'} (${data?.primaryType ?? 'data'})`,
      ],
      ['Data', bounded(JSON.stringify(data?.message ?? data, null, 2))],
    ];
  }
  if (method === 'eth_signTransaction') {
    const tx = list[0] ?? {};
    return [
      ['To', tx.to ?? 'a new contract'],
      ['Amount', coinAmount(BigInt(tx.value ?? 0), request.scope).exact],
      ['Data', bounded(tx.data ?? tx.input ?? 'none')],
    ];
  }
  return [];
}

/**
 * The section.
 *
 * @param {any} page - The page.
 * @returns {{ element: any, refresh: () => Promise<void> }} The section.
 */
export default function approvals(page) {
  const list = el('div', { id: 'requests', className: 'cards' });
  const { line: status, say } = notice('requests-status');

  /**
   * One waiting request.
   *
   * @param {any} request - The request (keyring-api's KeyringRequest).
   * @returns {any} Its card.
   */
  const card = (request) => {
    const account = page.accounts?.find(
      (entry) => entry.id === request.account,
    );
    const asker =
      request.origin === 'metamask'
        ? 'a site MetaMask did not name'
        : request.origin;
    const wanted = window.location.hash === `#/requests/${request.id}`;
    const line = statusLine(`request-status:${request.id}`);
    /**
     * Approve or Reject.
     *
     * @param {string} id - `approve` or `reject`.
     * @param {string} text - Its words.
     * @param {string} method - The keyring method it calls.
     * @param {string} said - What the page says once done.
     * @returns {any} The button.
     */
    const button = (id, text, method, said) => {
      const element = el(
        'button',
        {
          type: 'button',
          id: `${id}:${request.id}`,
          className: id === 'approve' ? 'primary' : '',
        },
        text,
      );
      element.addEventListener('click', () => {
        act({
          button: element,
          status: line,
          form: id,
          run: async () => {
            await invokeKeyring(
              method,
              id === 'approve'
                ? { id: request.id, data: {} }
                : { id: request.id },
            );
            await page.refresh();
            say(said);
            return '';
          },
        }).catch(() => undefined);
      });
      return element;
    };
    return el(
      'article',
      {
        className: `card request${wanted ? ' wanted' : ''}`,
        id: `request:${request.id}`,
      },
      el('h3', {}, `${ASKS[request.request.method] ?? 'Sign'} for ${asker}`),
      el(
        'dl',
        { className: 'facts' },
        el('dt', {}, 'Account'),
        el(
          'dd',
          {},
          account ? `${account.name || 'Unnamed'} ` : request.account,
          account && el('span', { className: 'mono' }, account.address),
        ),
        el('dt', {}, 'Chain'),
        el('dd', {}, chainName(request.scope)),
        ...whatLines(request).flatMap(([label, value]) => [
          el('dt', {}, label),
          el('dd', {}, el('pre', { className: 'signed' }, value)),
        ]),
      ),
      el(
        'div',
        { className: 'actions' },
        button(
          'approve',
          'Approve and sign',
          'keyring_approveRequest',
          `Signed: MetaMask hands the signature to ${asker}.`,
        ),
        button(
          'reject',
          'Reject',
          'keyring_rejectRequest',
          `Rejected: ${asker} gets no signature.`,
        ),
      ),
      line,
    );
  };

  const mode = form({
    id: 'mode',
    submit: 'Save',
    busy: 'Confirm in MetaMask…',
    children: [
      choice('mode-choice', 'When a site asks one of your accounts to sign', [
        ['sync', 'Sign once I confirm in MetaMask'],
        ['async', 'Wait for my approval on this page'],
      ]),
    ],
    run: async () => {
      await page.ensureConnected();
      const picked = chosen('mode-choice');
      await invokeSnap('setApprovalMode', { mode: picked });
      return picked === 'async'
        ? 'Saved: requests will wait here for your approval.'
        : 'Saved: requests are signed once you confirm in MetaMask.';
    },
  });
  const refreshButton = el(
    'button',
    { type: 'button', id: 'requests-refresh' },
    'Refresh',
  );
  refreshButton.addEventListener('click', () => {
    act({
      button: refreshButton,
      status,
      form: 'requests',
      run: async () => {
        await page.ensureConnected();
        await page.refresh();
        return '';
      },
    }).catch(() => undefined);
  });
  const element = section(
    'approvals-section',
    'Approvals',
    'Choose who signs: MetaMask’s confirmation alone, or you, here, request by request.',
  );
  element.append(
    mode,
    el('h3', {}, 'Waiting for your approval'),
    status,
    list,
    refreshButton,
  );
  /** Read the mode and the waiting requests again. */
  const refresh = async () => {
    const [{ mode: current }, requests] = await Promise.all([
      invokeSnap('getApprovalMode'),
      invokeKeyring('keyring_listRequests'),
    ]);
    choose('mode-choice', current);
    /**
     * Whether MetaMask's link names this request (it goes first).
     *
     * @param {any} request - The request.
     * @returns {number} 1 or 0.
     */
    const wanted = (request) =>
      Number(window.location.hash === `#/requests/${request.id}`);
    list.replaceChildren(
      ...(requests.length === 0
        ? [el('p', { className: 'empty' }, 'Nothing is waiting.')]
        : requests.sort((a, b) => wanted(b) - wanted(a)).map(card)),
    );
  };
  window.addEventListener('hashchange', () => {
    if (page.connected) {
      refresh().catch(() => undefined);
    }
  });
  return { element, refresh };
}
