import { DEFAULT_ACCOUNT_FACTORY } from './accounts/erc4337/constants';
import { describeConsent, metadataConsent } from './consent';

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
