/**
 * The companion's "Add an account" section: create one (a regular account, or a smart account on
 * the chains you added, EntryPoint v0.8 unless you pick another), or import one from its private
 * key. Each form answers under the field it is about, and empties itself once the account is made.
 */
import { invokeKeyring } from '../common.js';
import {
  byId,
  choice,
  chosen,
  el,
  field,
  form,
  inputValue,
  Refusal,
  section,
} from '../ui.js';

/** The smart-account versions offered, newest first (the snap's home page offers the same). */
const VERSIONS = [
  ['0.8', 'EntryPoint v0.8 (recommended)'],
  ['0.7', 'EntryPoint v0.7'],
  ['0.6', 'EntryPoint v0.6'],
];

/**
 * The section.
 *
 * @param {any} page - The page.
 * @returns {{ element: any }} The section.
 */
export default function newAccount(page) {
  const version = choice(
    'create-version',
    'Smart-account version (each gives another address)',
    VERSIONS,
    '0.8',
  );
  version.hidden = true;
  const kind = choice(
    'create-type',
    'Kind',
    [
      ['eip155:eoa', 'Regular account (EOA)'],
      ['eip155:erc4337', 'Smart account (ERC-4337)'],
    ],
    'eip155:eoa',
  );
  kind.addEventListener('change', () => {
    version.hidden = chosen('create-type') !== 'eip155:erc4337';
  });

  const create = form({
    id: 'create',
    submit: 'Create account',
    fields: { name: 'create-name' },
    busy: 'Confirm in MetaMask…',
    children: [
      el('h3', {}, 'Create an account'),
      kind,
      version,
      field('create-name', 'Name (optional)', {
        autocomplete: 'off',
        placeholder: 'Savings',
      }),
    ],
    run: async () => {
      await page.ensureConnected();
      const type = chosen('create-type');
      const name = inputValue('create-name');
      const account = await invokeKeyring('keyring_createAccount', {
        options: {
          type,
          ...(type === 'eip155:erc4337'
            ? { entryPointVersion: chosen('create-version') }
            : {}),
          ...(name ? { name } : {}),
        },
      });
      await page.refresh();
      return `Created ${name ?? 'an account'}: ${account.address}`;
    },
  });

  const importForm = form({
    id: 'import',
    submit: 'Import account',
    fields: { privateKey: 'import-key', name: 'import-name' },
    busy: 'Confirm in MetaMask…',
    children: [
      el('h3', {}, 'Import an account'),
      el(
        'p',
        {},
        'A regular account from its private key. No recovery phrase finds it again: keep a copy of the key.',
      ),
      field('import-key', 'Private key', {
        type: 'password',
        autocomplete: 'off',
        spellcheck: false,
      }),
      field('import-name', 'Name (optional)', { autocomplete: 'off' }),
    ],
    run: async () => {
      // the key leaves the field at once, whatever happens next: never left on the page
      const privateKey = byId('import-key').value.trim();
      byId('import-key').value = '';
      if (privateKey === '') {
        throw new Refusal('privateKey', 'Enter a private key');
      }
      const name = inputValue('import-name');
      await page.ensureConnected();
      const account = await invokeKeyring('keyring_createAccount', {
        options: { privateKey, ...(name ? { name } : {}) },
      });
      await page.refresh();
      return `Imported ${name ?? 'an account'}: ${account.address}`;
    },
  });

  const element = section(
    'new-account-section',
    'Add an account',
    'A new account is derived from your Secret Recovery Phrase, so Find my accounts can bring it back.',
  );
  element.append(el('div', { className: 'columns' }, create, importForm));
  return { element };
}
