/**
 * The example app's "Send" section: up to two calls sent as one batch (EIP-5792 wallet_sendCalls,
 * version 2.0.0, all or nothing), amounts in ETH; then the batch (its user operation) followed
 * with wallet_getCallsStatus until it is settled, Send disabled meanwhile.
 */
import { invokeSnap } from '../common.js';
import { Refusal, field, form, el, section, show } from '../ui.js';
import { parseEth } from '../words.js';

/** What each EIP-5792 status code says. */
const STATUS = {
  100: 'waiting to be included…',
  200: 'done: every call happened.',
  400: 'not sent: the batch failed before reaching the chain.',
  500: 'failed on the chain: no call happened.',
  600: 'partly failed on the chain.',
};

/** How long to follow a batch: every second, at most five minutes. */
const FOLLOW = { every: 1000, times: 300 };

/**
 * One call of the form, or undefined when all its inputs are empty (the second call is optional).
 *
 * @param {number} index - 1 or 2.
 * @returns {{ to: string, value?: string, data?: string } | undefined} The call.
 */
function call(index) {
  const to = document.getElementById(`to-${index}`).value.trim();
  const amount = document.getElementById(`value-${index}`).value.trim();
  const data = document.getElementById(`data-${index}`).value.trim();
  if (index > 1 && !to && !amount && !data) {
    return undefined;
  }
  if (!/^0x[0-9a-fA-F]{40}$/u.test(to)) {
    throw new Refusal(
      `to-${index}`,
      to
        ? 'Enter an address: 0x and 40 hex characters'
        : 'Enter the address to send to',
    );
  }
  const wei = amount ? parseEth(amount) : 0n;
  if (wei === undefined) {
    throw new Refusal(`value-${index}`, 'Enter an amount of ETH, such as 0.01');
  }
  if (data && !/^0x(?:[0-9a-fA-F]{2})*$/u.test(data)) {
    throw new Refusal(
      `data-${index}`,
      'Enter call data as 0x and hex bytes, or leave it empty',
    );
  }
  return {
    to,
    ...(wei > 0n ? { value: `0x${wei.toString(16)}` } : {}),
    ...(data ? { data } : {}),
  };
}

/**
 * The section.
 *
 * @param {any} page - The page (`from()`, `chainId()` from the account section).
 * @returns {{ element: any }} The section.
 */
export default function batch(page) {
  const fields = {};
  const groups = [1, 2].map((index) => {
    for (const name of ['to', 'value', 'data']) {
      fields[`${name}-${index}`] = `${name}-${index}`;
    }
    return el(
      'fieldset',
      { className: 'call' },
      el('legend', {}, index === 1 ? 'First call' : 'Second call (optional)'),
      field(`to-${index}`, 'To', {
        autocomplete: 'off',
        placeholder: '0x…',
        className: 'code',
      }),
      field(`value-${index}`, 'Amount in ETH (optional)', {
        autocomplete: 'off',
        inputMode: 'decimal',
        placeholder: 'such as 0.01',
      }),
      field(`data-${index}`, 'Data (optional)', {
        autocomplete: 'off',
        placeholder: '0x',
        className: 'code',
      }),
    );
  });
  const send = form({
    id: 'send',
    submit: 'Send',
    fields: { ...fields, from: 'from', chain: 'chain' },
    busy: 'Confirm in MetaMask…',
    children: [el('div', { className: 'columns' }, ...groups)],
    run: async () => {
      const calls = [call(1), call(2)].filter(Boolean);
      const from = page.from();
      const chainId = page.chainId();
      await page.ensureConnected();
      const { id } = await invokeSnap('wallet_sendCalls', [
        { version: '2.0.0', from, chainId, atomicRequired: true, calls },
      ]);
      return follow(id);
    },
  });
  const progress = send.querySelector('#send-status');
  progress.id = 'progress';

  /**
   * Follow a batch until it is settled, saying its state in the status line.
   *
   * @param {string} id - The batch id (the snap's user operation hash).
   * @returns {Promise<{ text: string, kind: string } | string>} What it ended as.
   */
  async function follow(id) {
    /**
     * The status line's words.
     *
     * @param {string} state - The batch's state.
     * @returns {string} The words.
     */
    const said = (state) => `User operation ${id}: ${state}`;
    for (let attempt = 0; attempt < FOLLOW.times; attempt += 1) {
      const status = await invokeSnap('wallet_getCallsStatus', [id]);
      progress.dataset.status = String(status.status);
      if (status.status !== 100) {
        const hash = status.receipts?.[0]?.transactionHash;
        return {
          text: said(
            `${STATUS[status.status] ?? 'unknown state.'}${hash ? ` Transaction ${hash}.` : ''}`,
          ),
          kind: status.status === 200 ? 'ok' : 'error',
        };
      }
      show(progress, said(STATUS[100]), 'busy');
      await new Promise((resolve) => setTimeout(resolve, FOLLOW.every));
    }
    return said('still waiting: check again later.');
  }

  const element = section(
    'send-section',
    'Send calls in one go',
    'Both happen, or neither does: one confirmation in MetaMask, one user operation.',
  );
  element.append(send);
  send.addEventListener('submit', () => {
    delete progress.dataset.status;
  });
  return { element };
}
