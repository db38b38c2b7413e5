/**
 * The companion's "Chains" section: the chains the snap works on, named in words, and the form that
 * adds or replaces one. A bare chain id (`31337`) means `eip155:31337`; a refusal answers under the
 * field it is about (`Couldn't reach this node: check the address…`).
 */
import { invokeSnap } from '../common.js';
import { field, form, el, section, inputValue } from '../ui.js';
import { chainName, scopeOf } from '../words.js';

/** The form's inputs by the snap's field names. */
const FIELDS = {
  scope: 'chain-scope',
  rpcUrl: 'chain-rpc',
  bundlerUrl: 'chain-bundler',
  paymasterUrl: 'chain-paymaster',
  entryPoint: 'chain-entrypoint',
  accountFactory: 'chain-factory',
};

/**
 * One chain as the list shows it.
 *
 * @param {any} chain - The snap's chain config (URLs holding a key are masked by the snap).
 * @returns {any} The item.
 */
function chainItem(chain) {
  /**
   * One line of the chain's settings, when it is set.
   *
   * @param {string} label - What it is.
   * @param {string | undefined} value - Its value.
   * @returns {any} The line, or undefined.
   */
  const line = (label, value) =>
    value
      ? el(
          'div',
          {},
          el('dt', {}, label),
          el('dd', { className: 'mono' }, value),
        )
      : undefined;
  return el(
    'li',
    { className: 'card', dataset: { scope: chain.scope } },
    el('h3', {}, chainName(chain.scope)),
    el(
      'dl',
      { className: 'facts' },
      line('Node', chain.rpcUrl),
      line('Bundler', chain.bundlerUrl),
      line('Paymaster', chain.paymasterUrl),
    ),
  );
}

/**
 * The section.
 *
 * @param {any} page - The page.
 * @returns {{ element: any, refresh: () => Promise<void> }} The section.
 */
export default function chains(page) {
  const list = el('ul', { id: 'chains', className: 'cards plain' });
  let stored = [];
  const save = form({
    id: 'chain',
    submit: 'Save chain',
    fields: FIELDS,
    busy: 'Checking the node, then confirm in MetaMask…',
    children: [
      el('h3', {}, 'Add or replace a chain'),
      field(FIELDS.scope, 'Chain id (such as 1, 11155111 or 31337)', {
        autocomplete: 'off',
        inputMode: 'numeric',
      }),
      field(FIELDS.rpcUrl, "Node's address (RPC URL)", {
        placeholder: 'https://…',
        autocomplete: 'off',
      }),
      field(
        FIELDS.bundlerUrl,
        "Bundler's address (to send from a smart account)",
        {
          placeholder: 'https://…',
          autocomplete: 'off',
        },
      ),
      el(
        'details',
        {},
        el('summary', {}, 'Advanced: paymaster and v0.6 contracts'),
        field(
          FIELDS.paymasterUrl,
          "Paymaster's address (optional: pays the gas)",
          { autocomplete: 'off' },
        ),
        field(FIELDS.entryPoint, 'EntryPoint v0.6 contract (optional)', {
          autocomplete: 'off',
        }),
        field(
          FIELDS.accountFactory,
          'Account factory v0.6 contract (optional)',
          { autocomplete: 'off' },
        ),
      ),
    ],
    run: async () => {
      const scope = scopeOf(
        inputValue(FIELDS.scope, [
          'scope',
          'Enter the chain id, such as 31337',
        ]),
      );
      const rpcUrl = inputValue(FIELDS.rpcUrl, [
        'rpcUrl',
        "Enter the node's address (https://…)",
      ]);
      // the form has no inputs for these: replacing a chain keeps them
      const { entryPoints, gasTokens } =
        stored.find((chain) => chain.scope === scope) ?? {};
      const config = {
        scope,
        rpcUrl,
        ...(entryPoints ? { entryPoints } : {}),
        ...(gasTokens ? { gasTokens } : {}),
      };
      for (const [name, id] of Object.entries(FIELDS)) {
        const value = inputValue(id);
        if (value !== undefined && !Object.hasOwn(config, name)) {
          config[name] = value;
        }
      }
      await page.ensureConnected();
      const saved = await invokeSnap('setChainConfig', config);
      await page.refresh();
      return `Saved ${chainName(saved.scope)}.`;
    },
  });
  const element = section(
    'chains-section',
    'Chains',
    'The snap reads balances and sends on the chains you add here, through the node you name.',
  );
  element.append(list, save);
  return {
    element,
    refresh: async () => {
      stored = Object.values(await invokeSnap('getChainConfigs'));
      list.replaceChildren(
        ...(stored.length === 0
          ? [el('li', { className: 'empty' }, 'No chain yet: add one below.')]
          : stored.map(chainItem)),
      );
    },
  };
}
