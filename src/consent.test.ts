import { describeConsent, metadataConsent, requireConsent } from './consent';
import type { Change } from './consent';

const SITE = 'https://companion.example';
const KEY = 'a1b2c3d4e5f60718293a';
const OTHER = '0x1111111111111111111111111111111111111111';

/**
 * Every string of a consent dialog, joined.
 *
 * @param change - The change.
 * @returns The dialog's text.
 */
const dialogText = (change: Change): string =>
  JSON.stringify(describeConsent({ origin: SITE, change }));

describe('describeConsent', () => {
  it('masks every URL of a chain config, shows contracts in full and flags non-canonical ones', () => {
    const text = dialogText({
      kind: 'chainConfig',
      replaces: false,
      config: {
        scope: 'eip155:1',
        rpcUrl: `https://rpc.example.com/v3/${KEY}`,
        bundlerUrl: `https://bundler.example.com/?apikey=${KEY}`,
        paymasterUrl: `https://user:${KEY}@pm.example.com`,
        entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
        accountFactory: OTHER,
      },
    });
    expect(text).not.toContain(KEY);
    expect(text).toContain(SITE);
    expect(text).toContain('https://rpc.example.com/***');
    expect(text).toContain('https://bundler.example.com/***');
    expect(text).toContain('https://pm.example.com/***');
    expect(text).toContain(
      '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789 (canonical EntryPoint v0.6)',
    );
    expect(text).toContain(`${OTHER} (NOT the canonical`);
  });

  it('lists the tokens a chain config offers to pay gas with, in full', () => {
    const change = {
      kind: 'chainConfig' as const,
      replaces: true,
      config: {
        scope: 'eip155:1',
        rpcUrl: 'https://rpc.example.com',
        entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
        accountFactory: OTHER,
      },
    };
    expect(dialogText(change)).not.toContain('Tokens offered to pay gas');
    expect(
      dialogText({
        ...change,
        config: { ...change.config, gasTokens: [OTHER] },
      }),
    ).toContain(`"label":"Tokens offered to pay gas","value":"${OTHER}"`);
  });

  it('shows the spending-permission contracts a chain config sets, each not canonical one in full and warned about', () => {
    const config = {
      scope: 'eip155:31337',
      rpcUrl: 'http://127.0.0.1:8545',
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      accountFactory: OTHER,
    };
    /**
     * The dialog of the config with more fields.
     *
     * @param more - Fields to add or replace.
     * @returns The dialog's text.
     */
    const rows = (
      more: Partial<typeof config> & Record<string, unknown>,
    ): ReturnType<typeof describeConsent> =>
      describeConsent({
        origin: SITE,
        change: {
          kind: 'chainConfig',
          replaces: false,
          config: { ...config, ...more },
        },
      });
    expect(rows({}).rows).toContainEqual({
      label: 'Spending permissions',
      value: 'not available on this chain',
    });
    expect(rows({ scope: 'eip155:1' }).rows).toContainEqual({
      label: 'Spending permissions',
      value: "MetaMask's Delegation Framework v1.3.0 (canonical deployment)",
    });
    const manager = '0x2222222222222222222222222222222222222222';
    const custom = rows({
      delegationEnvironment: {
        DelegationManager: manager,
        EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
        SimpleFactory: OTHER,
        implementations: { EIP7702StatelessDeleGatorImpl: OTHER },
        caveatEnforcers: {
          TimestampEnforcer: '0x1046bb45C8d673d4ea75321280DB34899413c069',
          ValueLteEnforcer: OTHER,
        },
      },
    });
    expect(custom.rows).toStrictEqual(
      expect.arrayContaining([
        { label: 'Delegation manager', value: `${manager} (NOT canonical)` },
        {
          label: 'Smart-account code of an account that grants',
          value: `${OTHER} (NOT canonical)`,
        },
        {
          label: 'Its EntryPoint',
          value: '0x0000000071727De22E5E9d8BAf0edAc6f37da032 (canonical)',
        },
        {
          label: 'Rule contract ValueLteEnforcer',
          value: `${OTHER} (NOT canonical)`,
        },
        { label: 'Other rule contracts', value: '1 canonical' },
      ]),
    );
    expect(custom.warnings.join(' ')).toContain(
      "NOT MetaMask's canonical Delegation Framework v1.3.0 deployment",
    );
  });

  it('never shows IPFS credentials; names the account of a deletion and of an export', () => {
    const ipfs = dialogText({
      kind: 'ipfsConfig',
      apiUrl: `https://ipfs.example.com/${KEY}`,
      credentials: true,
    });
    expect(ipfs).not.toContain(KEY);
    expect(ipfs).toContain('given (not shown)');
    const exported = describeConsent({
      origin: SITE,
      change: { kind: 'exportAccount', name: 'Savings', address: OTHER },
    });
    expect(exported.title).toBe(`Send private key to ${SITE}`);
    expect(exported.intro).toBe(
      `The private key of account Savings (${OTHER}) will be sent to ${SITE}. Anyone who has it controls the account.`,
    );
    expect(
      dialogText({
        kind: 'deleteAccount',
        name: 'Savings',
        address: OTHER,
        imported: false,
      }),
    ).toContain(`Savings (${OTHER})`);
  });

  it("a site's export of a smart account's key names the owner whose key is sent, with its address", () => {
    const OWNER = '0x1111111111111111111111111111111111111111';
    const exported = describeConsent({
      origin: SITE,
      change: {
        kind: 'exportAccount',
        name: 'Vault',
        address: OTHER,
        owner: OWNER,
      },
    });
    expect(exported.intro).toBe(
      `The private key of the owner (${OWNER}) of smart account Vault (${OTHER}) will be sent to ${SITE}. The smart account has no key of its own: anyone who has the owner's key controls the owner and this smart account.`,
    );
    expect(exported.rows).toContainEqual({
      label: "Owner (the key's address)",
      value: OWNER,
    });
  });

  it('a deletion says what can come back: a derived key through Find my accounts, an imported one only from a copy', () => {
    /**
     * The deletion dialog's sentence for an account.
     *
     * @param imported - Whether its key was imported.
     * @returns The dialog's intro.
     */
    function intro(imported: boolean): string {
      return describeConsent({
        origin: SITE,
        change: {
          kind: 'deleteAccount',
          name: 'Savings',
          address: OTHER,
          imported,
        },
      }).intro;
    }
    expect(intro(false)).toContain(
      "Find my accounts, on this snap's home page, brings it back while it holds funds or has history",
    );
    expect(intro(false)).not.toContain('no recovery phrase');
    expect(intro(true)).toContain(
      'no recovery phrase can bring it back: deleting it without a copy of its key loses it',
    );
    expect(intro(true)).not.toContain('Find my accounts');
  });
});

describe('requireConsent', () => {
  const change: Change = { kind: 'approvalMode', from: 'async', to: 'sync' };

  it('asks a site, not MetaMask or the home page; a refusal is 4001', async () => {
    const ask = jest.fn().mockResolvedValue(false);
    await requireConsent(ask, undefined, change);
    await requireConsent(ask, { origin: 'metamask' }, change);
    expect(ask).not.toHaveBeenCalled();
    await expect(
      requireConsent(ask, { origin: SITE }, change),
    ).rejects.toMatchObject({ code: 4001 });
    expect(ask).toHaveBeenCalledWith({ origin: SITE, change });
    ask.mockResolvedValue(true);
    expect(await requireConsent(ask, { origin: SITE }, change)).toBeUndefined();
  });

  it('refuses a site when the platform cannot ask', async () => {
    await expect(
      requireConsent(undefined, { origin: SITE }, change),
    ).rejects.toMatchObject({ code: -32603 });
  });
});

describe('metadataConsent', () => {
  const data = {
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
  };

  it('asks for bundler and paymaster URLs (masked), not for configured contracts alone', () => {
    expect(
      metadataConsent({ address: OTHER, trusted: true, data }),
    ).toBeUndefined();
    const consent = metadataConsent({
      address: OTHER,
      trusted: true,
      data: {
        ...data,
        chains: {
          'eip155:1': { bundlerUrl: `https://b.example.com/v1/${KEY}` },
        },
      },
    });
    expect(consent?.text).toContain('https://b.example.com/***');
    expect(consent?.text).toContain(OTHER);
    expect(consent?.text).not.toContain(KEY);
  });

  it('names the site that asks, cleaned of hidden characters; the home page names none', () => {
    const account = {
      address: OTHER,
      trusted: true,
      data: {
        ...data,
        chains: { 'eip155:1': { bundlerUrl: 'https://b.example.com/rpc' } },
      },
    };
    expect(metadataConsent(account, SITE)?.text).toContain(
      `${SITE} asks to create this smart account`,
    );
    expect(
      metadataConsent(account, 'https://evil\u202e.example')?.text,
    ).not.toContain('\u202e');
    expect(metadataConsent(account)?.text).not.toContain('asks to create');
  });
});
