import { Settings } from './settings';
import { defaultState, StateStore } from './state/store';
import type { KeyringState } from './state/store';

/**
 * The IPFS settings as the home page changes them (no site involved, so no dialog), in the cases
 * the other suites do not try (each found by mutation testing, docs/testing.md "Mutation
 * testing"): a first config is stored and saved, stored credentials never go to another server,
 * a masked URL sent back keeps what is stored, and what the page is shown.
 */

const KEY = 'ipfs-key-Hq83Lm29';
const SECRET = 'ipfs-secret-Zp4Q9vN2';

/**
 * Settings over the default state, recording every saved state.
 *
 * @returns The settings and the saved states (copies, in order).
 */
function settingsWithSaves(): { settings: Settings; saved: KeyringState[] } {
  const saved: KeyringState[] = [];
  const store = new StateStore(defaultState(), async (state) => {
    saved.push(JSON.parse(JSON.stringify(state)));
  });
  return { settings: new Settings(store), saved };
}

describe('setIpfsConfig: a first config', () => {
  it('is stored, saved and shown: a plain URL as given, credentials never', async () => {
    const { settings, saved } = settingsWithSaves();
    expect(settings.ipfsSummary()).toBeNull();
    const config = {
      apiUrl: 'http://127.0.0.1:5001',
      apiKey: KEY,
      apiKeySecret: SECRET,
    };
    expect(await settings.setIpfsConfig(config)).toStrictEqual({
      apiUrl: 'http://127.0.0.1:5001',
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.ipfs).toStrictEqual(config);
    expect(settings.ipfsConfig()).toStrictEqual(config);
    expect(settings.ipfsSummary()).toStrictEqual({
      apiUrl: 'http://127.0.0.1:5001',
      hasCredentials: true,
    });
  });

  it('shows a keyed URL masked, and no credentials as none', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig({
      apiUrl: 'https://ipfs.example/KEY12345678',
    });
    expect(settings.ipfsSummary()).toStrictEqual({
      apiUrl: 'https://ipfs.example/***',
      hasCredentials: false,
    });
  });

  it('counts a secret alone as credentials', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig({
      apiUrl: 'https://ipfs.example',
      apiKeySecret: SECRET,
    });
    expect(settings.ipfsSummary()?.hasCredentials).toBe(true);
  });

  it('refuses a masked URL when nothing is stored, saving nothing', async () => {
    const { settings, saved } = settingsWithSaves();
    await expect(
      settings.setIpfsConfig({ apiUrl: 'https://ipfs.example/***' }),
    ).rejects.toThrow(/^Invalid setIpfsConfig params at apiUrl: it is masked/u);
    expect(saved).toHaveLength(0);
    expect(settings.ipfsConfig()).toBeNull();
  });
});

describe('editIpfsConfig: stored credentials stay with their server', () => {
  const stored = {
    apiUrl: 'https://ipfs.example/KEY12345678',
    apiKey: KEY,
    apiKeySecret: SECRET,
  };

  it('refuses another server while the stored key would be kept, and saves nothing', async () => {
    const { settings, saved } = settingsWithSaves();
    await settings.setIpfsConfig(stored);
    await expect(
      settings.editIpfsConfig({ apiUrl: 'https://evil.example' }),
    ).rejects.toThrow(
      /^Invalid IPFS settings at apiKey: the stored key and secret belong to another server/u,
    );
    expect(saved).toHaveLength(1);
    expect(settings.ipfsConfig()).toStrictEqual(stored);
  });

  it('refuses another server when only the stored secret would be kept', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig(stored);
    await expect(
      settings.editIpfsConfig({ apiUrl: 'https://evil.example', apiKey: 'x' }),
    ).rejects.toThrow(/at apiKey/u);
  });

  it('keeps the stored credentials for the same server, and the stored URL for its masked form', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig(stored);
    expect(
      await settings.editIpfsConfig({ apiUrl: 'https://ipfs.example/***' }),
    ).toStrictEqual({ apiUrl: 'https://ipfs.example/***' });
    expect(settings.ipfsConfig()).toStrictEqual(stored);
    await settings.editIpfsConfig({ apiUrl: 'https://ipfs.example/other' });
    expect(settings.ipfsConfig()).toStrictEqual({
      ...stored,
      apiUrl: 'https://ipfs.example/other',
    });
  });

  it('sends nothing stored to another server once the credentials are cleared or given again', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig(stored);
    await settings.editIpfsConfig({
      apiUrl: 'https://other.example',
      clearCredentials: true,
    });
    expect(settings.ipfsConfig()).toStrictEqual({
      apiUrl: 'https://other.example',
    });
    await settings.setIpfsConfig(stored);
    await settings.editIpfsConfig({
      apiUrl: 'https://other.example',
      apiKey: 'new-key-123456',
      apiKeySecret: 'new-secret-123456',
    });
    expect(settings.ipfsConfig()).toStrictEqual({
      apiUrl: 'https://other.example',
      apiKey: 'new-key-123456',
      apiKeySecret: 'new-secret-123456',
    });
  });
});
