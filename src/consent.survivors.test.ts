import {
  chainContractRows,
  deletionRecovery,
  describeConsent,
  isSite,
  metadataConsent,
} from './consent';
import type { Change, ConsentText } from './consent';

/**
 * Every word of each consent dialog, compared whole (each case found by mutation testing,
 * docs/testing.md "Mutation testing"): what a person is asked to approve must say what happens,
 * so a changed or dropped word, row or warning is a failure. The texts are written out here.
 */

const SITE = 'https://companion.example';
const ADDRESS = '0x1111111111111111111111111111111111111111';
const OWNER = '0x2222222222222222222222222222222222222222';
const ENTRY_POINT_V06 = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
const FACTORY_V06 = '0x9406Cc6185a346906296840746125a0E44976454';
const FACTORY_NOTE =
  "This factory is not one the snap knows: the smart-account address is computed from the account implementation the chain's RPC reports for it, so a lying RPC could give an address no one can deploy to.";

/**
 * The dialog a site's change opens.
 *
 * @param change - The change.
 * @returns Its text.
 */
const dialog = (change: Change): ConsentText =>
  describeConsent({ origin: SITE, change });

describe('isSite', () => {
  it('is true for a site, false for MetaMask itself and for the home page', () => {
    expect(isSite({ origin: SITE })).toBe(true);
    expect(isSite({ origin: 'metamask' })).toBe(false);
    expect(isSite(undefined)).toBe(false);
  });
});

describe('the chain settings dialog', () => {
  const config = {
    scope: 'eip155:1',
    rpcUrl: 'https://rpc.example.com/rpc',
    entryPoint: ENTRY_POINT_V06,
    accountFactory: FACTORY_V06,
  };

  it('says "set" for a new chain, "none" for services not given, and lists every version’s contracts as the page does', () => {
    const text = dialog({ kind: 'chainConfig', replaces: false, config });
    expect(text).toStrictEqual({
      title: 'Change chain settings',
      intro: `${SITE} asks to set the settings of chain eip155:1. Requests, user operations and smart account addresses on this chain will use them.`,
      rows: [
        { label: 'Chain', value: 'Ethereum (1)' },
        { label: 'RPC URL', value: 'https://rpc.example.com/***' },
        { label: 'Bundler URL', value: 'none' },
        { label: 'Paymaster URL', value: 'none' },
        ...chainContractRows(config),
        {
          label: 'Spending permissions',
          value:
            "MetaMask's Delegation Framework v1.3.0 (canonical deployment)",
        },
      ],
      warnings: [],
    });
    expect(chainContractRows(config).map(({ label }) => label)).toStrictEqual([
      'EntryPoint v0.6',
      'Account factory v0.6',
      'EntryPoint v0.7',
      'Account factory v0.7',
      'EntryPoint v0.8',
      'Account factory v0.8',
    ]);
  });

  it('says "replace" for a stored chain, masks its services and warns of a factory it does not know', () => {
    const text = dialog({
      kind: 'chainConfig',
      replaces: true,
      config: {
        ...config,
        bundlerUrl: 'https://bundler.example.com/rpc',
        paymasterUrl: 'https://pm.example.com/rpc',
        accountFactory: ADDRESS,
      },
    });
    expect(text.intro).toBe(
      `${SITE} asks to replace the settings of chain eip155:1. Requests, user operations and smart account addresses on this chain will use them.`,
    );
    expect(text.rows.slice(2, 4)).toStrictEqual([
      { label: 'Bundler URL', value: 'https://bundler.example.com/***' },
      { label: 'Paymaster URL', value: 'https://pm.example.com/***' },
    ]);
    expect(text.warnings.at(-1)).toBe(FACTORY_NOTE);
  });
});

describe('the IPFS dialog', () => {
  it.each([
    [true, 'given (not shown)'],
    [false, 'none'],
  ])('with credentials %s says "%s"', (credentials, words) => {
    expect(
      dialog({
        kind: 'ipfsConfig',
        apiUrl: 'https://ipfs.example.com/api',
        credentials,
      }),
    ).toStrictEqual({
      title: 'Change the IPFS API',
      intro: `${SITE} asks to set the IPFS HTTP API the snap reads account metadata from.`,
      rows: [
        { label: 'IPFS API URL', value: 'https://ipfs.example.com/***' },
        { label: 'API key', value: words },
      ],
      warnings: [],
    });
  });
});

describe('the approval mode dialog', () => {
  it('warns when requests will be signed at once (sync), not when they will wait (async)', () => {
    expect(
      dialog({ kind: 'approvalMode', from: 'async', to: 'sync' }),
    ).toStrictEqual({
      title: 'Change the approval mode',
      intro: `${SITE} asks to change how signing requests are approved, from async to sync.`,
      rows: [
        { label: 'Now', value: 'async' },
        { label: 'After', value: 'sync' },
      ],
      warnings: [
        'In sync mode, requests MetaMask passes to this snap are signed at once, without a second approval in the home page or the companion site.',
      ],
    });
    expect(
      dialog({ kind: 'approvalMode', from: 'sync', to: 'async' }).warnings,
    ).toStrictEqual([]);
  });
});

describe('the deletion dialog', () => {
  it.each([false, true])(
    'of an account whose key is imported: %s, says what comes back and what is rejected',
    (imported) => {
      expect(
        dialog({
          kind: 'deleteAccount',
          name: 'Savings',
          address: ADDRESS,
          imported,
          waiting: 2,
        }),
      ).toStrictEqual({
        title: 'Delete account',
        intro: `${SITE} asks to delete the account Savings (${ADDRESS}) from this snap. Its key is erased here. ${deletionRecovery(imported)}`,
        rows: [
          { label: 'Account', value: 'Savings' },
          { label: 'Address', value: ADDRESS },
        ],
        warnings: ['Its waiting requests (2 now) will be rejected.'],
      });
    },
  );

  it('counts no waiting requests as 0', () => {
    expect(
      dialog({
        kind: 'deleteAccount',
        name: 'Savings',
        address: ADDRESS,
        imported: false,
      }).warnings,
    ).toStrictEqual(['Its waiting requests (0 now) will be rejected.']);
  });
});

describe('the export dialog', () => {
  const warning =
    'Approve only if you asked this site for the key and trust it to keep it. It is not shown here: it is sent to the site.';

  it('of an EOA names the site it goes to and the account', () => {
    expect(
      dialog({ kind: 'exportAccount', name: 'Savings', address: ADDRESS }),
    ).toStrictEqual({
      title: `Send private key to ${SITE}`,
      intro: `The private key of account Savings (${ADDRESS}) will be sent to ${SITE}. Anyone who has it controls the account.`,
      rows: [
        { label: 'Sent to', value: SITE },
        { label: 'Account', value: 'Savings' },
        { label: 'Address', value: ADDRESS },
      ],
      warnings: [warning],
    });
  });

  it('of a smart account names the owner whose key is sent', () => {
    expect(
      dialog({
        kind: 'exportAccount',
        name: 'Vault',
        address: ADDRESS,
        owner: OWNER,
      }).rows,
    ).toStrictEqual([
      { label: 'Sent to', value: SITE },
      { label: 'Account', value: 'Vault' },
      { label: 'Address', value: ADDRESS },
      { label: "Owner (the key's address)", value: OWNER },
    ]);
  });
});

describe('the account metadata dialog', () => {
  const data = { entryPoint: ENTRY_POINT_V06, accountFactory: FACTORY_V06 };
  const trust =
    'Create the account only if you trust whoever published this metadata.';

  it('for services alone names each chain’s bundler and paymaster, or the chain config’s', () => {
    expect(
      metadataConsent(
        {
          address: ADDRESS,
          trusted: true,
          data: {
            ...data,
            chains: {
              'eip155:1': { bundlerUrl: 'https://b.example.com/rpc' },
              'eip155:10': { paymasterUrl: 'https://p.example.com/rpc' },
            },
          },
        },
        SITE,
      ),
    ).toStrictEqual({
      title: 'Bundler or paymaster from account metadata',
      text: [
        `${SITE} asks to create this smart account from account metadata.`,
        `The account metadata chooses services for ${ADDRESS}.`,
        'On Ethereum (1) it sends user operations to the bundler https://b.example.com/*** and uses the paymaster of the chain config.',
        'On OP Mainnet (10) it sends user operations to the bundler of the chain config and uses the paymaster https://p.example.com/***.',
        trust,
      ].join(' '),
    });
  });

  it('for contracts not configured names them and the address they give; a factory it does not know too', () => {
    expect(
      metadataConsent({ address: ADDRESS, trusted: false, data }),
    ).toStrictEqual({
      title: 'Unknown account factory',
      text: [
        `The account metadata asks for the factory ${FACTORY_V06} and EntryPoint ${ENTRY_POINT_V06}, which are not the ones configured for this chain. They give the address ${ADDRESS}.`,
        trust,
      ].join(' '),
    });
    expect(
      metadataConsent({
        address: ADDRESS,
        trusted: false,
        data: { ...data, accountFactory: OWNER },
      })?.text,
    ).toBe(
      [
        `The account metadata asks for the factory ${OWNER} and EntryPoint ${ENTRY_POINT_V06}, which are not the ones configured for this chain. They give the address ${ADDRESS}.`,
        FACTORY_NOTE,
        trust,
      ].join(' '),
    );
  });
});
