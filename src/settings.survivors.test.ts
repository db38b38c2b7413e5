import { JsonRpcError } from '@metamask/rpc-errors';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { parseChainConfig } from './accounts/erc4337';
import { describeConsent } from './consent';
import type { ConsentText } from './consent';
import { isKeyedUrl, Settings } from './settings';
import { defaultState, StateStore } from './state/store';
import type { KeyringState } from './state/store';
import { redactError } from './utils/secrets';

/**
 * The IPFS settings as the home page changes them (no site involved, so no dialog), in the cases
 * the other suites do not try (each found by mutation testing, docs/testing.md "Mutation
 * testing"): a first config is stored and saved, stored credentials never go to another server,
 * a masked URL sent back keeps what is stored, and what the page is shown.
 */

const KEY = 'ipfs-key-Hq83Lm29';
const SECRET = 'ipfs-secret-Zp4Q9vN2';
const URL_KEY = 'Uk5Wq2Ze8Rt1Yp4Ia7Sd';

/**
 * A JSON-RPC error with the given message.
 *
 * @param message - The message.
 * @returns The error.
 */
function rpcError(message: string): JsonRpcError<never> {
  return new JsonRpcError(-32000, message);
}

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

  it('counts a key alone as credentials', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig({
      apiUrl: 'https://ipfs.example',
      apiKey: KEY,
    });
    expect(settings.ipfsSummary()?.hasCredentials).toBe(true);
  });

  it('is stored from the page when nothing was stored', async () => {
    const { settings, saved } = settingsWithSaves();
    expect(
      await settings.editIpfsConfig({
        apiUrl: 'https://ipfs.example',
        apiKey: KEY,
      }),
    ).toStrictEqual({ apiUrl: 'https://ipfs.example' });
    expect(saved).toHaveLength(1);
    expect(settings.ipfsConfig()).toStrictEqual({
      apiUrl: 'https://ipfs.example',
      apiKey: KEY,
    });
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

  it('refuses another server while a stored key alone would be kept', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig({
      apiUrl: 'https://ipfs.example',
      apiKey: KEY,
    });
    await expect(
      settings.editIpfsConfig({ apiUrl: 'https://evil.example' }),
    ).rejects.toThrow(/^Invalid IPFS settings at apiKey/u);
    expect(settings.ipfsConfig()).toStrictEqual({
      apiUrl: 'https://ipfs.example',
      apiKey: KEY,
    });
  });

  it('keeps the stored credentials for the masked form of a keyed host, whose origin differs from the stored one', async () => {
    const { settings } = settingsWithSaves();
    const keyedHost = {
      apiUrl: `https://${URL_KEY.toLowerCase()}.ipfs.example`,
      apiKey: KEY,
    };
    await settings.setIpfsConfig(keyedHost);
    const shown = settings.ipfsSummary()?.apiUrl;
    expect(shown).toBe('https://***.ipfs.example');
    expect(await settings.editIpfsConfig({ apiUrl: shown })).toStrictEqual({
      apiUrl: shown,
    });
    expect(settings.ipfsConfig()).toStrictEqual(keyedHost);
  });

  it('names a URL that is not one as the URL, before any check of the stored credentials', async () => {
    const { settings } = settingsWithSaves();
    await settings.setIpfsConfig(stored);
    await expect(
      settings.editIpfsConfig({ apiUrl: 'not a url' }),
    ).rejects.toThrow(/^Invalid setIpfsConfig params at apiUrl/u);
    expect(settings.ipfsConfig()).toStrictEqual(stored);
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

describe('a site’s change is shown before it is made, in the words of the dialog', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // a JSON-RPC node for chain 31337 on any path (what verifyChainConfig asks: eth_chainId)
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        if (request.url === '/missing') {
          response.writeHead(404).end('not found');
          return;
        }
        if (request.url === '/page') {
          response.writeHead(200).end('<html>a web page</html>');
          return;
        }
        const { id } = JSON.parse(body) as Record<string, unknown>;
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' }));
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(
    async () => new Promise<void>((resolve) => server.close(() => resolve())),
  );

  const SITE = { origin: 'https://site.example' };

  /**
   * Settings whose dialogs are recorded and confirmed.
   *
   * @returns The settings, the saved states and the dialogs' texts, in order.
   */
  function withDialogs(): {
    settings: Settings;
    saved: KeyringState[];
    dialogs: ConsentText[];
  } {
    const saved: KeyringState[] = [];
    const dialogs: ConsentText[] = [];
    const store = new StateStore(defaultState(), async (state) => {
      saved.push(JSON.parse(JSON.stringify(state)));
    });
    const settings = new Settings(store, async (consent) => {
      dialogs.push(describeConsent(consent));
      return true;
    });
    return { settings, saved, dialogs };
  }

  it('checks the node before the dialog: a dead URL or one serving another chain is refused with no dialog and nothing saved', async () => {
    const { settings, saved, dialogs } = withDialogs();
    const closed = createServer();
    await new Promise<void>((resolve) =>
      closed.listen(0, '127.0.0.1', resolve),
    );
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const dead = await settings
      .setChainConfig(
        { scope: 'eip155:31337', rpcUrl: `http://127.0.0.1:${port}` },
        SITE,
      )
      .catch((error: unknown) => error);
    expect(dead).toMatchObject({
      code: -32002,
      message:
        "Couldn't reach this node: check the address, and that the node is running",
      data: { reason: 'rpcUnreachable', field: 'rpcUrl' },
    });
    for (const [path, status] of [
      ['/missing', 404],
      ['/page', undefined],
    ] as const) {
      const notNode = await settings
        .setChainConfig(
          { scope: 'eip155:31337', rpcUrl: `${base}${path}` },
          SITE,
        )
        .catch((error: unknown) => error);
      expect(notNode).toMatchObject({
        code: -32002,
        message: `This address doesn't answer as an Ethereum node${status ? ` (it answered HTTP ${status})` : ''}: check the address, and its key if the provider gave one`,
        data: {
          reason: 'rpcUnreachable',
          field: 'rpcUrl',
          ...(status ? { status } : {}),
        },
      });
    }
    const other = await settings
      .setChainConfig({ scope: 'eip155:1', rpcUrl: base }, SITE)
      .catch((error: unknown) => error);
    expect(other).toMatchObject({
      code: -32602,
      data: { reason: 'chainMismatch', field: 'rpcUrl', chainId: '31337' },
    });
    expect(dialogs).toStrictEqual([]);
    expect(saved).toStrictEqual([]);
  });

  it('says "set" for a new chain and "replace" for a stored one', async () => {
    const { settings, dialogs } = withDialogs();
    await settings.setChainConfig(
      { scope: 'eip155:31337', rpcUrl: base },
      SITE,
    );
    await settings.setChainConfig(
      { scope: 'eip155:31337', rpcUrl: base },
      SITE,
    );
    expect(dialogs.map(({ title }) => title)).toStrictEqual([
      'Change chain settings',
      'Change chain settings',
    ]);
    expect(dialogs[0]?.intro).toMatch(
      /^https:\/\/site\.example asks to set the settings of chain eip155:31337\./u,
    );
    expect(dialogs[1]?.intro).toMatch(
      /^https:\/\/site\.example asks to replace the settings of chain eip155:31337\./u,
    );
  });

  it('says whether an IPFS API key comes with the URL: a key alone, a secret alone, neither', async () => {
    const { settings, dialogs } = withDialogs();
    const apiUrl = 'http://127.0.0.1:5001';
    await settings.setIpfsConfig({ apiUrl, apiKey: KEY }, SITE);
    await settings.setIpfsConfig({ apiUrl, apiKeySecret: SECRET }, SITE);
    await settings.setIpfsConfig({ apiUrl }, SITE);
    expect(dialogs.map(({ title }) => title)).toStrictEqual([
      'Change the IPFS API',
      'Change the IPFS API',
      'Change the IPFS API',
    ]);
    expect(dialogs.map(({ rows }) => rows)).toStrictEqual([
      [
        { label: 'IPFS API URL', value: 'http://127.0.0.1:5001/' },
        { label: 'API key', value: 'given (not shown)' },
      ],
      [
        { label: 'IPFS API URL', value: 'http://127.0.0.1:5001/' },
        { label: 'API key', value: 'given (not shown)' },
      ],
      [
        { label: 'IPFS API URL', value: 'http://127.0.0.1:5001/' },
        { label: 'API key', value: 'none' },
      ],
    ]);
    expect(JSON.stringify(dialogs)).not.toContain(KEY);
    expect(JSON.stringify(dialogs)).not.toContain(SECRET);
  });

  it('changes the approval mode: shown from and to, stored, saved, and refused when neither', async () => {
    const { settings, saved, dialogs } = withDialogs();
    expect(settings.approvalMode()).toBe('sync');
    expect(
      await settings.setApprovalMode({ mode: 'async' }, SITE),
    ).toStrictEqual({ mode: 'async' });
    expect(dialogs[0]?.title).toBe('Change the approval mode');
    expect(dialogs[0]?.rows).toStrictEqual([
      { label: 'Now', value: 'sync' },
      { label: 'After', value: 'async' },
    ]);
    expect(settings.approvalMode()).toBe('async');
    expect(saved.map((state) => state.approvalMode)).toStrictEqual(['async']);
    await expect(settings.setApprovalMode({ mode: 'fast' })).rejects.toThrow(
      /^Invalid setApprovalMode params at mode/u,
    );
    expect(saved).toHaveLength(1);
    expect(await settings.setApprovalMode({ mode: 'sync' })).toStrictEqual({
      mode: 'sync',
    });
    expect(settings.approvalMode()).toBe('sync');
    expect(saved.map((state) => state.approvalMode)).toStrictEqual([
      'async',
      'sync',
    ]);
  });

  it('keeps the stored URL unmasked for the snap’s own calls, and names a bad scope on removal', async () => {
    const { settings } = withDialogs();
    const keyed = `${base}/v3/${URL_KEY}`;
    await settings.setChainConfig({ scope: 'eip155:31337', rpcUrl: keyed });
    expect(settings.allChainConfigs()['eip155:31337']?.rpcUrl).toBe(keyed);
    expect(settings.chainConfigs()[0]?.rpcUrl).toBe(`${base}/***`);
    await expect(settings.removeChainConfig('bitcoin')).rejects.toThrow(
      /^Invalid removeChainConfig scope/u,
    );
  });

  it('scrubs from later errors a key given with a chain config the node refuses', async () => {
    const { settings, saved } = withDialogs();
    const bundlerKey = 'Bq7Zr2Xw9Lk4Tm6Vn3Hs';
    await expect(
      settings.setChainConfig({
        scope: 'eip155:1', // the node serves 31337: refused, nothing stored
        rpcUrl: base,
        bundlerUrl: `${base}/bundler/${bundlerKey}`,
      }),
    ).rejects.toThrow(/serves chain 31337/u);
    expect(saved).toStrictEqual([]);
    expect(
      redactError(rpcError(`bundler says ${bundlerKey} is unknown`), [])
        .message,
    ).toBe('bundler says *** is unknown');
  });
});

describe('credentials stay scrubbed from errors for the whole session', () => {
  it('scrubs the stored chain URLs’ and IPFS keys from the moment the settings load', () => {
    const keys = [
      'Rk1Qw8Er5Ty2Ui9Op3As',
      'Bk2Df7Gh4Jk1Lz8Xc5Vb',
      'Pk3Nm6Qw9Er2Ty5Ui8Op',
      'ipfs-load-key-4Hx9',
      'ipfs-load-secret-5Jy2',
    ];
    const state = defaultState();
    state.chains['eip155:31337'] = {
      ...parseChainConfig({
        scope: 'eip155:31337',
        rpcUrl: `https://rpc.example.io/v3/${keys[0]}`,
        bundlerUrl: `https://bundler.example.io/${keys[1]}`,
        paymasterUrl: `https://paymaster.example.io/?apikey=${keys[2]}`,
      }),
    };
    state.ipfs = {
      apiUrl: 'http://127.0.0.1:5001',
      apiKey: keys[3],
      apiKeySecret: keys[4],
    };
    const message = `failed: ${keys.join(' ')}`;
    expect(redactError(rpcError(message), []).message).toBe(message);
    // eslint-disable-next-line no-new
    new Settings(new StateStore(state, async () => undefined));
    expect(redactError(rpcError(message), []).message).toBe(
      'failed: *** *** *** *** ***',
    );
  });

  it('scrubs IPFS keys once they are set', async () => {
    const { settings } = settingsWithSaves();
    const key = 'ipfs-set-key-7Kq3';
    const secret = 'ipfs-set-secret-8Lw4';
    await settings.setIpfsConfig({
      apiUrl: 'http://127.0.0.1:5001',
      apiKey: key,
      apiKeySecret: secret,
    });
    expect(redactError(rpcError(`bad ${key} / ${secret}`), []).message).toBe(
      'bad *** / ***',
    );
  });
});

describe('isKeyedUrl: what a form must not keep in an input', () => {
  it('is false for a URL shown whole, true for a keyed one and for text that is not a URL', () => {
    expect(isKeyedUrl('http://127.0.0.1:5001')).toBe(false);
    expect(isKeyedUrl(`https://rpc.example.io/v3/${URL_KEY}`)).toBe(true);
    expect(isKeyedUrl('not a url')).toBe(true);
  });
});
