import { COMPANION_ORIGINS, isAllowed, METAMASK_ORIGIN } from './permissions';
import manifest from '../../snap.manifest.json';

describe('permissions', () => {
  it('the companion origins equal the manifest keyring allowedOrigins, with no localhost', () => {
    const allowed =
      manifest.initialPermissions['endowment:keyring'].allowedOrigins;
    expect([...COMPANION_ORIGINS].sort()).toStrictEqual([...allowed].sort());
    expect(allowed.join(' ')).not.toMatch(/localhost|127\.0\.0\.1/u);
  });

  it('grants MetaMask signing but not account creation or export', () => {
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_submitRequest')).toBe(true);
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_createAccount')).toBe(false);
    expect(isAllowed(METAMASK_ORIGIN, 'keyring_exportAccount')).toBe(false);
    expect(isAllowed(METAMASK_ORIGIN, 'setChainConfig')).toBe(false);
  });

  it('grants the companion dapp management but not request submission', () => {
    const [companion] = COMPANION_ORIGINS as [string];
    expect(isAllowed(companion, 'keyring_createAccount')).toBe(true);
    expect(isAllowed(companion, 'setChainConfig')).toBe(true);
    expect(isAllowed(companion, 'keyring_submitRequest')).toBe(false);
    expect(isAllowed('https://evil.example', 'keyring_listAccounts')).toBe(
      false,
    );
  });
});
