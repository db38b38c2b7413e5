/**
 * The example app's "Your account" section: the accounts MetaMask connected to this app, offered
 * in full (nothing to paste), the chain, and what the chosen account can do there (EIP-5792
 * wallet_getCapabilities). Other sections read the choice through `page.from()` and `page.chainId()`.
 */
import { askWallet, invokeSnap } from '../common.js';
import {
  act,
  byId,
  el,
  field,
  inputValue,
  Refusal,
  section,
  show,
  statusLine,
} from '../ui.js';
import { chainName } from '../words.js';

/**
 * What wallet_getCapabilities says of one chain, in words.
 *
 * @param {any} here - The capabilities of the chain asked, if any.
 * @param {string} chainId - The chain (hex).
 * @returns {string} The words.
 */
function abilitiesText(here, chainId) {
  if (!here) {
    return `This account cannot send on ${chainName(BigInt(chainId).toString())}.`;
  }
  return [
    here.atomic?.status === 'ready'
      ? 'Sends several calls at once, all or nothing, once you approve its upgrade to a smart account (EIP-7702).'
      : 'Sends several calls at once, all or nothing.',
    here.paymasterService?.supported
      ? 'Its gas can be paid by a paymaster.'
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * The section.
 *
 * @param {any} page - The page: gets `from()` and `chainId()`.
 * @returns {{ element: any, refresh: () => Promise<void> }} The section.
 */
export default function account(page) {
  const from = el(
    'fieldset',
    { id: 'from', className: 'choices' },
    el('legend', {}, 'Account'),
    el('p', { className: 'empty' }, 'Connect to choose one of your accounts.'),
  );
  const fromError = el('p', {
    id: 'from-error',
    className: 'field-error',
    hidden: true,
  });
  const abilities = statusLine('abilities');
  const check = el(
    'button',
    { type: 'button', id: 'capabilities' },
    'What can this account do here?',
  );
  /**
   * The address chosen.
   *
   * @returns {string | undefined} It.
   */
  const chosen = () => from.querySelector('input:checked')?.value;

  page.from = () => {
    const address = chosen();
    if (!address) {
      throw new Refusal('from', 'Connect, then choose an account');
    }
    return address;
  };
  page.chainId = () => {
    const id = inputValue('chain', [
      'chain',
      'Enter the chain id, such as 31337',
    ]);
    if (!/^[0-9]+$/u.test(id)) {
      throw new Refusal(
        'chain',
        'Enter the chain id as a number, such as 31337',
      );
    }
    return `0x${BigInt(id).toString(16)}`;
  };
  /**
   * What was said of another account or chain no longer holds.
   *
   * @returns {void}
   */
  const stale = () => show(abilities, '');
  from.addEventListener('change', stale);

  check.addEventListener('click', () => {
    act({
      button: check,
      status: abilities,
      form: 'capabilities',
      fields: { chain: 'chain', from: 'from' },
      run: async () => {
        const address = page.from();
        const chainId = page.chainId();
        await page.ensureConnected();
        const answer = await invokeSnap('wallet_getCapabilities', [
          address,
          [chainId],
        ]);
        return abilitiesText(answer[chainId], chainId);
      },
    }).catch(() => undefined);
  });

  const element = section(
    'account-section',
    'Your account',
    'The account this app asks to send from, and the chain.',
  );
  const chain = field('chain', 'Chain id (such as 1 or 31337)', {
    inputMode: 'numeric',
    autocomplete: 'off',
  });
  chain.querySelector('input').addEventListener('input', stale);
  element.append(
    el('div', { className: 'card' }, from, fromError, chain, check, abilities),
  );
  return {
    element,
    refresh: async () => {
      const [addresses, chainHex] = await Promise.all([
        askWallet('eth_requestAccounts'),
        askWallet('eth_chainId').catch(() => undefined),
      ]);
      const before = chosen() ?? addresses[0];
      from.replaceChildren(
        el('legend', {}, 'Account'),
        ...(addresses.length === 0
          ? [el('p', { className: 'empty' }, 'No account connected.')]
          : addresses.map((address) =>
              el(
                'label',
                { className: 'choice' },
                el('input', {
                  type: 'radio',
                  name: 'from',
                  id: `from:${address}`,
                  value: address,
                  checked: address === before,
                }),
                el('span', { className: 'mono' }, address),
              ),
            )),
      );
      if (chainHex && byId('chain').value === '') {
        byId('chain').value = BigInt(chainHex).toString();
      }
    },
  };
}
