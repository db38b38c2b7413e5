import { privateKeyToAddress } from 'viem/accounts';

import { DEFAULT_ACCOUNT_FACTORY } from './accounts/erc4337/constants';
import { describeConsent, metadataConsent } from './consent';
import type { Consent } from './consent';
import { createDomain } from './domain';
import { defaultState } from './state/store';

const SITE = 'https://companion.example';
const CUSTOM = '0x1111111111111111111111111111111111111111';
const NOTE =
  /not one the snap knows: the smart-account address is computed from the account implementation the chain's RPC reports/u;

/**
 * The text of a site's chain-settings dialog for a factory.
 *
 * @param accountFactory - The factory of the config.
 * @returns The dialog's text.
 */
function chainDialog(accountFactory: string): string {
  return JSON.stringify(
    describeConsent({
      origin: SITE,
      change: {
        kind: 'chainConfig',
        replaces: false,
        config: {
          scope: 'eip155:1',
          rpcUrl: 'https://rpc.example.com',
          entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
          accountFactory,
        },
      },
    }),
  );
}

describe('dialogs say when a factory’s implementation is read from the chain', () => {
  it('the chain-settings dialog of a custom factory says so; of the canonical factory it does not', () => {
    expect(chainDialog(CUSTOM)).toMatch(NOTE);
    expect(chainDialog(DEFAULT_ACCOUNT_FACTORY)).not.toMatch(NOTE);
  });

  it('the metadata dialog of a custom factory says so', () => {
    const consent = metadataConsent(
      {
        address: '0x2222222222222222222222222222222222222222',
        trusted: false,
        data: {
          entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
          accountFactory: CUSTOM,
        },
      },
      SITE,
    );
    expect(consent?.title).toBe('Unknown account factory');
    expect(consent?.text).toMatch(NOTE);
  });
});

describe("a site's deletion dialog", () => {
  it("says that the account's waiting requests will be rejected, and how many", async () => {
    const key =
      '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
    const asked: Consent[] = [];
    const { keyring } = createDomain(
      { ...defaultState(), approvalMode: 'async' },
      {
        saveState: async () => undefined,
        emitEvent: async () => undefined,
        confirm: async () => true,
        confirmConsent: async (consent) => {
          asked.push(consent);
          return true;
        },
        deriveKey: async () => ({
          privateKey: key,
          address: privateKeyToAddress(key),
        }),
      },
      () => ({ message: 'approve on the home page' }),
    );
    const account = await keyring.createAccount();
    for (const id of [
      '1c0a9a52-6a7e-4f5e-8f3e-2a4f0d1b6c01',
      '1c0a9a52-6a7e-4f5e-8f3e-2a4f0d1b6c02',
    ]) {
      await keyring.submitRequest({
        id,
        scope: '',
        account: account.id,
        origin: 'https://dapp.example',
        request: { method: 'personal_sign', params: ['0x00', account.address] },
      });
    }
    await keyring.deleteAccount(account.id, { origin: SITE });
    expect(asked).toHaveLength(1);
    expect(describeConsent(asked[0]).warnings).toContain(
      'Its waiting requests (2 now) will be rejected.',
    );
    expect(await keyring.listRequests()).toStrictEqual([]);
  });
});
