import { AccountMetadataError, parseAccountMetadata } from './metadata';

const full = {
  version: 1,
  name: 'Savings',
  icon: 'bafkreihragldlahh322z6cihh4ziei6a6eyr5e753qvuwhdlma3vsdovue',
  chains: {
    'eip155:11155111': {
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
      bundlerUrl: 'https://bundler.example.com/rpc',
      paymasterUrl: 'https://paymaster.example.com:4337',
    },
  },
};

/**
 * Expect `parseAccountMetadata` to refuse `json`, naming `field`.
 *
 * @param json - The document.
 * @param field - The failing field's dotted path.
 * @param message - A fragment of the message.
 */
function expectRefused(json: unknown, field: string, message?: RegExp): void {
  let caught: unknown;
  try {
    parseAccountMetadata(json);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AccountMetadataError);
  expect((caught as AccountMetadataError).field).toBe(field);
  expect((caught as Error).message).toContain(field);
  if (message) {
    expect((caught as Error).message).toMatch(message);
  }
}

describe('parseAccountMetadata', () => {
  it('accepts a full document and a minimal one', () => {
    expect(parseAccountMetadata(full)).toStrictEqual(full);
    expect(parseAccountMetadata({ version: 1, name: 'A' })).toStrictEqual({
      version: 1,
      name: 'A',
    });
    expect(
      parseAccountMetadata({
        version: 1,
        name: 'x',
        icon: 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
        chains: {},
      }),
    ).toHaveProperty('icon', 'Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD');
  });

  it('refuses a non-object document', () => {
    expectRefused('hello', '(document)', /JSON object/u);
    expectRefused(null, '(document)');
    expectRefused([full], '(document)');
  });

  it('requires version 1', () => {
    expectRefused({ name: 'A' }, 'version', /missing/u);
    expectRefused(
      { version: 2, name: 'A' },
      'version',
      /unsupported version 2/u,
    );
    expectRefused({ version: '1', name: 'A' }, 'version');
  });

  it('checks the name', () => {
    expectRefused({ version: 1 }, 'name', /missing/u);
    expectRefused({ version: 1, name: '' }, 'name');
    expectRefused({ version: 1, name: 'x'.repeat(65) }, 'name');
    expectRefused({ version: 1, name: 'a\nb' }, 'name', /control/u);
    expectRefused({ version: 1, name: 7 }, 'name');
    expect(
      parseAccountMetadata({ version: 1, name: 'x'.repeat(64) }).name,
    ).toHaveLength(64);
  });

  it('checks the icon CID', () => {
    expectRefused({ version: 1, name: 'A', icon: 'not-a-cid' }, 'icon', /CID/u);
    expectRefused(
      {
        version: 1,
        name: 'A',
        icon: '/ipfs/Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
      },
      'icon',
    );
  });

  it('checks chain scopes and settings', () => {
    /**
     * An account metadata document with one chain entry.
     *
     * @param scope - The key of the entry (a CAIP-2 scope, or not).
     * @param settings - The chain's settings.
     * @returns The document.
     */
    const withChain = (scope: string, settings: unknown): unknown => ({
      version: 1,
      name: 'A',
      chains: { [scope]: settings },
    });
    expectRefused(withChain('eip155:0x1', {}), 'chains.eip155:0x1', /eip155/u);
    expectRefused(withChain('eip155:01', {}), 'chains.eip155:01');
    expectRefused(withChain('cosmos:1', {}), 'chains.cosmos:1');
    expectRefused(
      withChain('eip155:1', { entryPoint: '0x1234' }),
      'chains.eip155:1.entryPoint',
      /20-byte/u,
    );
    expectRefused(
      withChain('eip155:1', { accountFactory: 'vitalik.eth' }),
      'chains.eip155:1.accountFactory',
    );
    expectRefused(
      withChain('eip155:1', { bundlerUrl: 'ftp://x.example' }),
      'chains.eip155:1.bundlerUrl',
      /http/u,
    );
    expectRefused(
      withChain('eip155:1', { paymasterUrl: 'not a url' }),
      'chains.eip155:1.paymasterUrl',
    );
    expectRefused(withChain('eip155:1', 'https://x'), 'chains.eip155:1');
  });

  it.each([
    ['bundlerUrl', 'http://127.0.0.1:4337/rpc'],
    ['paymasterUrl', 'https://localhost/pm'],
    ['bundlerUrl', 'http://[::1]:3000'],
    ['paymasterUrl', 'https://127.1.2.3'],
  ])('refuses a loopback %s from metadata (%s)', (field, url) => {
    expectRefused(
      { version: 1, name: 'A', chains: { 'eip155:1': { [field]: url } } },
      `chains.eip155:1.${field}`,
      /loopback URL .* never comes from metadata/u,
    );
  });

  it('never takes an RPC URL or other unknown fields from metadata', () => {
    expectRefused(
      {
        version: 1,
        name: 'A',
        chains: { 'eip155:1': { rpcUrl: 'https://evil.example' } },
      },
      'chains.eip155:1.rpcUrl',
      /never comes from metadata/u,
    );
    expectRefused(
      { version: 1, name: 'A', rpcUrl: 'https://evil.example' },
      'rpcUrl',
    );
    expectRefused(
      { version: 1, name: 'A', owner: '0x' },
      'owner',
      /unknown field/u,
    );
  });
});
