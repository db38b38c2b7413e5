import { COMPANION_ORIGINS, isAllowed, METAMASK_ORIGIN } from './permissions';
import manifest from '../../snap.manifest.json';

describe('permissions', () => {
  it('the companion origins equal the manifest keyring allowedOrigins, with no localhost', () => {
    const allowed =
      manifest.initialPermissions['endowment:keyring'].allowedOrigins;
    expect([...COMPANION_ORIGINS].sort()).toStrictEqual([...allowed].sort());
    expect(allowed.join(' ')).not.toMatch(/localhost|127\.0\.0\.1/u);
  });

  it('grants MetaMask signing and account creation but not export or discovery', () => {
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_submitRequest')).toBe(true);
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_createAccount')).toBe(true);
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_discoverAccounts')).toBe(false);
    expect(isAllowed(METAMASK_ORIGIN, 'findAccounts')).toBe(false);
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_exportAccount')).toBe(false);
    expect(isAllowed(METAMASK_ORIGIN, 'setChainConfig')).toBe(false);
  });

  it('grants the companion dapp management but not request submission', () => {
    const [companion] = COMPANION_ORIGINS as [string];
    expect(isAllowed(companion, 'keyring_createAccount')).toBe(true);
    expect(isAllowed(companion, 'setChainConfig')).toBe(true);
    expect(isAllowed(companion, 'findAccounts')).toBe(true);
    expect(isAllowed(companion, 'restoreAccount')).toBe(true);
    expect(isAllowed(companion, 'listEntropySources')).toBe(true);
    expect(isAllowed(companion, 'describeAccounts')).toBe(true);
    expect(isAllowed('https://dapp.example', 'describeAccounts')).toBe(false);
    expect(isAllowed(companion, 'keyring_discoverAccounts')).toBe(false);
    expect(isAllowed(companion, 'keyring_submitRequest')).toBe(false);
    expect(isAllowed('https://evil.example', 'keyring_listAccounts')).toBe(
      false,
    );
  });

  it('grants any other https site EIP-5792 and the send and receipt methods, nothing else', () => {
    const site = 'https://dapp.example:8443';
    for (const method of [
      'wallet_getCapabilities',
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_showCallsStatus',
      'sendUserOperation',
      'getUserOperationReceipt',
    ]) {
      expect(isAllowed(site, method)).toBe(true);
      expect(isAllowed('http://dapp.example', method)).toBe(false);
      expect(isAllowed('https://dapp.example/path', method)).toBe(false);
      expect(isAllowed(METAMASK_ORIGIN, method)).toBe(false);
    }
    for (const method of [
      'setChainConfig',
      'getChainConfigs',
      'findAccounts',
      'restoreAccount',
      'keyring_createAccount',
      'keyring_exportAccount',
      'keyring_approveRequest',
    ]) {
      expect(isAllowed(site, method)).toBe(false);
    }
  });
});
