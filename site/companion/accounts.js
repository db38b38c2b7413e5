/**
 * The companion's "Your accounts" section: one card per account of the snap, with what a person
 * looks for (its name, kind, address, balance on each configured chain, whether an EOA is
 * upgraded, where its key comes from) and what she does with it (rename, show its private key,
 * remove), and *Find my accounts*. Names, balances and upgrades are the snap's own view
 * (`describeAccounts`), the account itself keyring-api's (`keyring_listAccounts`).
 */
import { invokeKeyring, invokeSnap } from '../common.js';
import {
  act,
  beforeAction,
  field,
  el,
  notice,
  section,
  statusLine,
  inputValue,
} from '../ui.js';
import { chainName, coinAmount } from '../words.js';

/** The private key on show, if any: hidden again by the next action. */
let shownSecret;

/** Hide the private key on show (and drop it from the page). */
function hideSecret() {
  if (shownSecret) {
    shownSecret.replaceChildren();
    shownSecret.hidden = true;
    shownSecret = undefined;
  }
}
beforeAction(hideSecret);
document.addEventListener('visibilitychange', () => {
  if (document.hidden) {
    hideSecret();
  }
});

/**
 * How a card names an account: its name, else its address.
 *
 * @param {{ name?: string, address: string }} account - The account.
 * @returns {string} The label.
 */
export const labelOf = (account) => account.name || account.address;

/**
 * The kind of an account, in words.
 *
 * @param {any} account - The keyring-api account with the snap's description.
 * @returns {string} `Smart account (EntryPoint v0.8)` or `Regular account (EOA)`.
 */
function kindOf(account) {
  return account.type === 'eip155:erc4337'
    ? `Smart account (EntryPoint v${account.entryPointVersion ?? '0.6'})`
    : 'Regular account (EOA)';
}

/**
 * What a card says of one chain: the balance, and for an EOA whether it is upgraded there.
 *
 * @param {any} account - The account.
 * @param {{ scope: string, balance?: string, code?: string }} chain - Its state on the chain.
 * @returns {any[]} The term and its description.
 */
function chainFacts(account, chain) {
  const name = chainName(chain.scope);
  if (chain.balance === undefined) {
    return [
      el('dt', {}, name),
      el('dd', {}, "Couldn't read: this chain's node didn't answer"),
    ];
  }
  const { text, exact } = coinAmount(BigInt(chain.balance), chain.scope);
  const upgrade = {
    simple7702: 'upgraded to a smart account (EIP-7702)',
    deleGator:
      "upgraded to MetaMask's smart account, which can grant spending permissions (EIP-7702)",
    other: "runs another contract's code (EIP-7702)",
    none: 'not upgraded',
  }[chain.code];
  return [
    el('dt', {}, name),
    el(
      'dd',
      {},
      el('span', { className: 'balance', title: exact }, text),
      account.type === 'eip155:eoa' && upgrade ? `, ${upgrade}` : '',
    ),
  ];
}

/**
 * One account's card.
 *
 * @param {any} account - The keyring-api account with the snap's description (`name`, `chains`, …).
 * @param {any} page - The page.
 * @returns {any} The card.
 */
function card(account, page) {
  const label = labelOf(account);
  const status = statusLine(`status:${account.id}`);
  const secret = el('div', {
    className: 'secret',
    hidden: true,
    id: `secret:${account.id}`,
  });
  const nameInput = `name:${account.id}`;
  const renameForm = el(
    'form',
    { className: 'rename', hidden: true, id: `rename-form:${account.id}` },
    field(nameInput, `New name for ${label}`, {
      value: account.name ?? '',
      autocomplete: 'off',
    }),
  );
  const saveName = el(
    'button',
    { type: 'submit', id: `rename-save:${account.id}` },
    'Save name',
  );
  const cancel = el(
    'button',
    { type: 'button', id: `rename-cancel:${account.id}` },
    'Cancel',
  );
  cancel.addEventListener('click', () => {
    renameForm.hidden = true;
  });
  renameForm.append(el('div', { className: 'actions' }, saveName, cancel));
  renameForm.addEventListener('submit', (event) => {
    event.preventDefault();
    act({
      button: saveName,
      status,
      form: 'rename',
      fields: { name: nameInput },
      busy: 'Confirm in MetaMask…',
      run: async () => {
        const name = inputValue(nameInput, ['name', 'Enter a name']);
        const { name: _old, ...options } = account.options;
        await invokeKeyring('keyring_updateAccount', {
          account: {
            id: account.id,
            address: account.address,
            type: account.type,
            scopes: account.scopes,
            methods: account.methods,
            options: { ...options, name },
          },
        });
        await page.refresh();
        page.say(`${label} is now called ${name}.`);
        return '';
      },
    }).catch(() => undefined);
  });

  /**
   * A button of the card.
   *
   * @param {string} id - Its id prefix (`export`, `delete`, `rename`).
   * @param {string} text - Its words.
   * @param {() => Promise<string | undefined>} run - Its work.
   * @returns {any} The button.
   */
  const button = (id, text, run) => {
    const element = el(
      'button',
      { type: 'button', id: `${id}:${account.id}` },
      text,
    );
    element.addEventListener('click', () => {
      act({
        button: element,
        status,
        form: id,
        busy: 'Confirm in MetaMask…',
        run,
      }).catch(() => undefined);
    });
    return element;
  };

  const renameButton = el(
    'button',
    { type: 'button', id: `rename:${account.id}` },
    'Rename',
  );
  renameButton.addEventListener('click', () => {
    hideSecret();
    renameForm.hidden = false;
    document.getElementById(nameInput).focus();
  });
  const smart = account.type === 'eip155:erc4337';
  return el(
    'article',
    {
      className: 'card account',
      id: `account:${account.id}`,
      dataset: { address: account.address },
    },
    el(
      'header',
      {},
      el(
        'h3',
        { className: 'account-name' },
        account.name || 'Unnamed account',
      ),
      el('span', { className: 'kind' }, kindOf(account)),
    ),
    el('p', { className: 'mono address' }, account.address),
    el(
      'dl',
      { className: 'facts' },
      ...(account.chains ?? []).flatMap((chain) => chainFacts(account, chain)),
      (account.chains ?? []).length === 0 && el('dt', {}, 'Balance'),
      (account.chains ?? []).length === 0 &&
        el('dd', {}, 'Add a chain under Chains to see it'),
      smart && el('dt', {}, 'Owner'),
      smart && el('dd', { className: 'mono' }, account.owner ?? 'unknown'),
      el('dt', {}, 'Key'),
      el(
        'dd',
        {},
        account.imported
          ? 'Imported: keep a copy of its key, no recovery phrase finds it again'
          : 'From your Secret Recovery Phrase',
      ),
    ),
    el(
      'div',
      { className: 'actions' },
      renameButton,
      account.options?.exportable === false
        ? undefined
        : button('export', 'Show private key', async () => {
            const { privateKey } = await invokeKeyring(
              'keyring_exportAccount',
              {
                id: account.id,
              },
            );
            const hide = el(
              'button',
              { type: 'button', id: `hide:${account.id}` },
              'Hide',
            );
            hide.addEventListener('click', hideSecret);
            secret.replaceChildren(
              el(
                'p',
                {},
                smart
                  ? `Private key of the owner of ${label} (${account.owner ?? 'its owner'}), which signs for this smart account. Never share it: it controls the account.`
                  : `Private key of ${label}. Never share it: it controls the account.`,
              ),
              el('p', { className: 'mono' }, privateKey),
              hide,
            );
            secret.hidden = false;
            shownSecret = secret;
            return '';
          }),
      button('delete', 'Remove', async () => {
        await invokeKeyring('keyring_deleteAccount', { id: account.id });
        await page.refresh();
        page.say(`Removed ${label}.`);
        return '';
      }),
    ),
    renameForm,
    secret,
    status,
  );
}

/**
 * What *Find my accounts* says it did: where it searched, how much, and what it added.
 *
 * @param {any} report - The snap's report (`findAccounts`).
 * @returns {string} The words.
 */
export function findText(report) {
  if (report.noChain) {
    return 'Add a chain under Chains first: Find my accounts asks a chain which of your accounts were used.';
  }
  const read = report.chains.filter(
    (scope) => !report.unreachable.includes(scope),
  );
  /**
   * How many indices the search checked for one kind of key.
   *
   * @param {string} scheme - The kind (`eoa`, `erc4337-owner`).
   * @returns {number} The count.
   */
  const checked = (scheme) =>
    report.searched
      .filter((lane) => lane.scheme === scheme)
      .reduce((sum, lane) => sum + lane.indices, 0);
  const parts = [
    read.length > 0 &&
      `Searched ${read.map(chainName).join(', ')}: ${checked('eoa')} regular and ${checked('erc4337-owner')} smart accounts of your recovery phrase checked.`,
    ...report.unreachable.map(
      (scope) => `Couldn't search ${chainName(scope)}: its node didn't answer.`,
    ),
    report.added.length === 0
      ? 'Nothing new to add: every used account found is already here.'
      : `Added ${report.added.length}: ${report.added
          .map((found) => `${found.name} (${found.address})`)
          .join(', ')}.`,
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * The section.
 *
 * @param {any} page - The page.
 * @returns {{ element: any, refresh: () => Promise<void> }} The section and how it reads again.
 */
export default function accounts(page) {
  const list = el(
    'div',
    { id: 'accounts', className: 'cards' },
    el('p', { className: 'empty' }, 'Connect to see your accounts.'),
  );
  const { line: noticeLine, say } = notice('accounts-status');
  const findButton = el(
    'button',
    { type: 'button', id: 'find' },
    'Find my accounts',
  );
  const found = statusLine('found');
  findButton.addEventListener('click', () => {
    act({
      button: findButton,
      status: found,
      form: 'find',
      busy: 'Confirm in MetaMask, then searching…',
      run: async () => {
        await page.ensureConnected();
        const report = await invokeSnap('findAccounts');
        await page.refresh();
        return findText(report);
      },
    }).catch(() => undefined);
  });
  const element = section(
    'accounts-section',
    'Your accounts',
    'Every account of the snap, with its balance on each chain you added. Changes are confirmed in MetaMask.',
  );
  element.append(
    noticeLine,
    list,
    el(
      'div',
      { className: 'card' },
      el('h3', {}, 'Find my accounts'),
      el(
        'p',
        {},
        'After reinstalling the snap: looks on your chains for the accounts your recovery phrase made and used before, and adds them back.',
      ),
      findButton,
      found,
    ),
  );
  page.say = say;
  page.accounts = [];

  return {
    element,
    refresh: async () => {
      const [listed, described] = await Promise.all([
        invokeKeyring('keyring_listAccounts'),
        invokeSnap('describeAccounts'),
      ]);
      const byId = new Map(described.map((entry) => [entry.id, entry]));
      page.accounts = listed.map((account) => ({
        ...account,
        ...byId.get(account.id),
      }));
      list.replaceChildren(
        ...(page.accounts.length === 0
          ? [
              el(
                'p',
                { className: 'empty' },
                'No account yet: create one below.',
              ),
            ]
          : page.accounts.map((account) => card(account, page))),
      );
    },
  };
}
