import type { KeyringAccount } from '@metamask/keyring-api';

import { renderHome } from './HomePage';
import type { HomeModel } from '../homeModel';

/**
 * An EOA account as keyring-api describes it.
 *
 * @param id - Its id.
 * @param address - Its address.
 * @returns The account.
 */
const eoa = (id: string, address: string): KeyringAccount => ({
  id,
  address,
  type: 'eip155:eoa',
  scopes: ['eip155:0'],
  methods: ['personal_sign'],
  options: {},
});

/**
 * The text of every Button of a JSX tree.
 *
 * @param node - The tree.
 * @returns The buttons' texts, in tree order.
 */
function buttons(node: any): string[] {
  if (node === null || typeof node !== 'object') {
    return [];
  }
  if (Array.isArray(node)) {
    return node.flatMap(buttons);
  }
  const own =
    node.type === 'Button' ? [[node.props.children].flat().join('')] : [];
  return [...own, ...buttons(node.props?.children)];
}

/**
 * The texts of every Row labelled `label` of a JSX tree.
 *
 * @param node - The tree.
 * @param label - The label.
 * @returns The rows' texts, in tree order.
 */
function rows(node: any, label: string): string[] {
  if (node === null || typeof node !== 'object') {
    return [];
  }
  if (Array.isArray(node)) {
    return node.flatMap((child) => rows(child, label));
  }
  const own =
    node.type === 'Row' && node.props.label === label
      ? [String(node.props.children.props.children)]
      : [];
  return [...own, ...rows(node.props?.children, label)];
}

describe('AccountCard', () => {
  const model: HomeModel = {
    accounts: [
      {
        // a name saved before names were checked, or from metadata: shown, never obeyed
        account: eoa(
          '11111111-1111-4111-8111-111111111111',
          '0x1111111111111111111111111111111111111111',
        ),
        name: 'Savings\u202Egnivas',
        keySource: { imported: true },
      },
      {
        account: eoa(
          '22222222-2222-4222-8222-222222222222',
          '0xAbCd00000000000000000000000000000000Ef12',
        ),
        name: '',
        keySource: { derivationIndex: 0, derivationScheme: 'eoa' },
      },
    ],
    chains: [],
    ipfs: null,
    approvalMode: 'sync',
    requests: [],
    errors: {},
    values: {},
  };

  it('buttons name their account (short address when unnamed); a bidi override cannot pose as another name', () => {
    const tree = renderHome(model);
    const texts = buttons(tree);
    expect(texts).toStrictEqual(
      expect.arrayContaining([
        'Rename Savings\uFFFDgnivas',
        'Export key of Savings\uFFFDgnivas',
        'Delete Savings\uFFFDgnivas',
        'Rename 0xAbCd…Ef12',
        'Export key of 0xAbCd…Ef12',
        'Delete 0xAbCd…Ef12',
      ]),
    );
    expect(JSON.stringify(tree)).not.toContain('\\u202e');
    expect(JSON.stringify(tree)).not.toContain('\u202E');
  });

  it('the Key row: an imported key says to keep a copy; a derived one names its recovery phrase and index', () => {
    /**
     * A derived account of index 4.
     *
     * @param entropySource - Its recovery phrase's id, when not the primary one.
     * @returns Its summary.
     */
    const derived = (
      entropySource?: string,
    ): HomeModel['accounts'][number] => ({
      account: eoa(
        '33333333-3333-4333-8333-333333333333',
        '0x3333333333333333333333333333333333333333',
      ),
      name: 'Other',
      keySource: {
        derivationIndex: 4,
        derivationScheme: 'eoa',
        ...(entropySource ? { entropySource } : {}),
      },
    });
    const tree = renderHome({
      ...model,
      entropySources: [
        { id: 'default', name: 'Wallet', primary: true },
        { id: 'second', name: 'Savings phrase', primary: false },
      ],
      accounts: [...model.accounts, derived('second'), derived('gone')],
    });
    const keys = rows(tree, 'Key');
    expect(keys).toStrictEqual([
      'Imported — keep a copy of its key',
      'derived from your Secret Recovery Phrase (index 0)',
      'derived from Savings phrase (index 4)',
      'derived from another recovery phrase (index 4)',
    ]);
  });
});
