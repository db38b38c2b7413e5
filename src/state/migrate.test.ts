import { migrate, STATE_VERSION } from './store';

const ACCOUNT = {
  id: '5d3c2f1e-8a4b-4c6d-9e0f-1a2b3c4d5e6f',
  type: 'eip155:eoa',
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  scopes: ['eip155:0'],
  methods: ['personal_sign'],
  options: { exportable: true },
};
const KEY = `0x${'11'.repeat(32)}`;

/**
 * A state as schema version 2 saved it.
 *
 * @returns One derived EOA, next indexes.
 */
function version2(): Record<string, any> {
  return {
    version: 2,
    accounts: {
      [ACCOUNT.id]: {
        account: ACCOUNT,
        name: 'Keyring Account 1',
        privateKey: KEY,
        derivationIndex: 4,
        derivationScheme: 'eoa',
      },
    },
    nextDerivationIndex: { legacy: 2, eoa: 5, 'erc4337-owner': 1 },
    pendingRequests: {},
    approvalMode: 'sync',
    chains: {},
    ipfs: null,
    sentUserOperations: [],
  };
}

describe('schema version 2 to 3', () => {
  it('keeps everything, the primary phrase by leaving entropySource out, and no other source counted yet', () => {
    const stored = version2();
    const state = migrate(JSON.parse(JSON.stringify(stored)));
    expect(STATE_VERSION).toBe(3);
    expect(state).toStrictEqual({
      ...stored,
      version: 3,
      nextIndexBySource: {},
    });
  });

  it('reads a version 3 account from another phrase, and refuses a source on an imported key', () => {
    const stored: Record<string, any> = {
      ...version2(),
      version: 3,
      nextIndexBySource: { alternative: { eoa: 1, 'erc4337-owner': 0 } },
    };
    stored.accounts[ACCOUNT.id].entropySource = 'alternative';
    expect(
      migrate(JSON.parse(JSON.stringify(stored))).accounts[ACCOUNT.id]
        ?.entropySource,
    ).toBe('alternative');
    delete stored.accounts[ACCOUNT.id].derivationIndex;
    delete stored.accounts[ACCOUNT.id].derivationScheme;
    expect(() => migrate(JSON.parse(JSON.stringify(stored)))).toThrow(
      /Stored state is invalid at accounts\..*: expected entropySource only on a derived account/u,
    );
  });
});
