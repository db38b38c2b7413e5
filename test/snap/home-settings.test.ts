/**
 * The home page's settings parts (Chains, IPFS, the smart-account chain choice) through the built
 * snap, as a person meets them: what is shown under a field, what the page shows after, what state
 * keeps (read back through the RPC front doors) and what reaches the network (a counting JSON-RPC
 * server on 127.0.0.1 that serves chain 5 on any path).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  findField,
  inputValue,
  nextPage,
  openHomePage,
  pageJson,
  placeholder,
  rowText,
  shownTexts,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';

const KEY = 'KEYnever4shown9x';
const IPFS_SECRET = 'ipfs-secret-never-shown-7f3a';

describe('home page settings', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let harness: KeyringHarness;
  let ui: HomePageUi;
  let server: Server;
  let base: string;
  /** The paths of every request the counting server received, in order. */
  const requests: string[] = [];

  /**
   * The page's content as text, to look for what it shows (and what it must never show).
   *
   * @returns The JSON of the page's content.
   */
  const page = (): string => pageJson(ui);

  /** Open the home page afresh (as MetaMask does when the user comes back to it). */
  async function open(): Promise<void> {
    ui = await openHomePage(harness);
  }

  /**
   * Run an action that re-renders the page, and read the page it renders (bounded: an action that
   * renders nothing new fails the test after 20 s instead of hanging).
   *
   * @param action - The action, given the current page.
   */
  async function step(
    action: (current: HomePageUi) => Promise<void>,
  ): Promise<void> {
    // eslint-disable-next-line require-atomic-updates -- steps run one at a time; ui is this suite's current page
    ui = await nextPage(ui, action);
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        let id: unknown = null;
        try {
          ({ id } = JSON.parse(body) as Record<string, unknown>);
        } catch {
          // not JSON: answered with a null id
        }
        response
          .writeHead(200, {
            'Content-Type': 'application/json',
            'Access-Control-Allow-Origin': '*',
          })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x5' }));
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    harness = await installKeyringSnap();
    await open();
  });

  afterAll(async () => {
    await anvil?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('each chain input shows an example, and a bare chain id is saved as eip155:<id>', async () => {
    expect(placeholder(ui.content, 'chain-scope')).toBe('eip155:11155111');
    expect(placeholder(ui.content, 'chain-rpcUrl')).toBe('https://…');
    expect(placeholder(ui.content, 'chain-bundlerUrl')).toBe('https://…');
    await ui.typeInField('chain-scope', '5');
    await ui.typeInField('chain-rpcUrl', `${base}/v3/${KEY}`);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(page()).toContain('Saved chain 5');
    expect(page()).not.toContain(KEY);
    expect(await harness.rpc('getChainConfigs')).toMatchObject([
      { scope: 'eip155:5', rpcUrl: `${base}/***` },
    ]);
    expect(requests.at(-1)).toBe(`/v3/${KEY}`);
  });

  it('an edited chain moved to another scope refuses its masked RPC URL under the field, before any request', async () => {
    const before = requests.length;
    await step(async (current) => current.clickElement('chain-edit:eip155:5'));
    expect(inputValue(ui.content, 'chain-rpcUrl')).toBe(`${base}/***`);
    await ui.typeInField('chain-scope', 'eip155:10');
    await step(async (current) => current.clickElement('chain-form-submit'));
    // in words, not the RPC method's (its message names the param: see below)
    expect(findField(ui.content, 'chain-rpcUrl')).toBe(
      'This address is hidden (***) because it holds a key, and a hidden address only keeps the saved one: enter the full address again',
    );
    expect(requests).toHaveLength(before);
    expect(
      (await harness.rpc('getChainConfigs')).map(
        (chain: { scope: string }) => chain.scope,
      ),
    ).toStrictEqual(['eip155:5']);
    // the masked URL is emptied (it holds a placeholder for a key); the scope stays to be fixed
    expect(inputValue(ui.content, 'chain-rpcUrl')).toBe('');
    expect(inputValue(ui.content, 'chain-scope')).toBe('eip155:10');

    // the RPC front door refuses it the same way (no dialog, no request)
    await expect(
      harness.rpcApproved('setChainConfig', {
        scope: 'eip155:10',
        rpcUrl: `${base}/***`,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/at rpcUrl: it is masked/u),
    });
    await expect(
      harness.rpcApproved('setChainConfig', {
        scope: 'eip155:5',
        rpcUrl: `${base}/***`,
        bundlerUrl: `${base}/***`,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/at bundlerUrl: it is masked/u),
    });
    expect(requests).toHaveLength(before);
  });

  it('a failed save empties an RPC URL input that holds a key; the other inputs stay', async () => {
    await ui.typeInField('chain-scope', 'eip155:6');
    await ui.typeInField('chain-rpcUrl', `${base}/v3/${KEY}`);
    await ui.typeInField('chain-bundlerUrl', 'http://127.0.0.1:1/rpc');
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(findField(ui.content, 'chain-rpcUrl')).toMatch(
      /serves chain 5, not chain 6/u,
    );
    expect(inputValue(ui.content, 'chain-rpcUrl')).toBe('');
    expect(inputValue(ui.content, 'chain-bundlerUrl')).toBe('');
    expect(inputValue(ui.content, 'chain-scope')).toBe('eip155:6');
    expect(page()).not.toContain(KEY);
    // a URL without a key stays in its input
    await ui.typeInField('chain-rpcUrl', base);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(inputValue(ui.content, 'chain-rpcUrl')).toBe(base);
    await ui.typeInField('chain-scope', '');
    await ui.typeInField('chain-rpcUrl', '');
  });

  it('says what no ticked chain means for a smart account', () => {
    expect(shownTexts(ui.content)).toContain(
      'None ticked: the account is made on every configured chain.',
    );
  });

  it('removes a chain only after a dialog that names its smart accounts; they stay', async () => {
    await harness.rpcApproved('setChainConfig', {
      scope: 'eip155:31337',
      rpcUrl: anvil.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    });
    const smart = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: ['eip155:31337'],
    });
    await open();
    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement('chain-remove:eip155:31337'),
    );
    const dialog = shownTexts(harness.dialogs.at(-1)?.content).join(' ');
    expect(dialog).toContain('Remove the settings of Local chain (31337)');
    expect(dialog).not.toContain('eip155:31337');
    expect(dialog).toContain(smart.address);
    expect(dialog).toContain('They keep their address');
    expect(page()).toContain('Cancelled: nothing changed');
    expect(
      (await harness.rpc('getChainConfigs')).map(
        (chain: { scope: string }) => chain.scope,
      ),
    ).toContain('eip155:31337');

    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement('chain-remove:eip155:31337'),
    );
    expect(page()).toContain('Removed Local chain (31337)');
    expect(
      (await harness.rpc('getChainConfigs')).map(
        (chain: { scope: string }) => chain.scope,
      ),
    ).toStrictEqual(['eip155:5']);
    expect(page()).not.toContain('chain-remove:eip155:31337');
    const accounts = await harness.keyring('keyring_listAccounts');
    expect(accounts.map((account: { id: string }) => account.id)).toContain(
      smart.id,
    );
    // a chain with no smart account says so
    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement('chain-remove:eip155:5'),
    );
    expect(shownTexts(harness.dialogs.at(-1)?.content)).toContain(
      'No smart account uses this chain.',
    );
  });

  it('the IPFS form: blank key and secret keep the stored ones; another server needs them again or the clear box', async () => {
    await ui.typeInField('ipfs-apiUrl', 'http://127.0.0.1:5001');
    await ui.typeInField('ipfs-apiKey', 'ipfs-key-1');
    await ui.typeInField('ipfs-apiKeySecret', IPFS_SECRET);
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(rowText(ui.content, 'Credentials')).toBe('set');

    // the URL alone changes (same server): the credentials stay
    await ui.typeInField('ipfs-apiUrl', 'http://127.0.0.1:5001/kubo');
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(rowText(ui.content, 'Credentials')).toBe('set');
    expect(page()).toContain('IPFS API set to http://127.0.0.1:5001/***');

    // another server with blank inputs: refused under the key, nothing changes
    await ui.typeInField('ipfs-apiUrl', 'http://127.0.0.1:5002');
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(findField(ui.content, 'ipfs-apiKey')).toMatch(
      /^The stored key and secret belong to another server: enter them again for this address, or tick Remove the stored key and secret$/u,
    );
    expect(rowText(ui.content, 'API URL')).toBe('http://127.0.0.1:5001/***');
    expect(rowText(ui.content, 'Credentials')).toBe('set');

    // the clear box drops them, explicitly
    await ui.clickElement('ipfs-clearCredentials');
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(rowText(ui.content, 'API URL')).toBe('http://127.0.0.1:5002');
    expect(rowText(ui.content, 'Credentials')).toBe('none');
    expect(page()).not.toContain(IPFS_SECRET);
  });

  it('the IPFS part: a key in the API URL is shown masked, on the page and in the notice', async () => {
    await ui.typeInField('ipfs-apiUrl', `https://ipfs.example/${KEY}`);
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(page()).toContain('IPFS API set to https://ipfs.example/***');
    expect(rowText(ui.content, 'API URL')).toBe('https://ipfs.example/***');
    expect(page()).not.toContain(KEY);
    await open();
    expect(rowText(ui.content, 'API URL')).toBe('https://ipfs.example/***');
    expect(page()).not.toContain(KEY);
  });

  it('the IPFS form: stored credentials never follow the URL to a host whose masked origin looks the same', async () => {
    await ui.typeInField('ipfs-apiUrl', 'https://ipfs2024x.io');
    await ui.typeInField('ipfs-apiKey', 'ipfs-key-2');
    await ui.typeInField('ipfs-apiKeySecret', IPFS_SECRET);
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(rowText(ui.content, 'Credentials')).toBe('set');
    // https://attack777.io masks as https://***.io too: refused under the key, nothing stored
    await ui.typeInField('ipfs-apiUrl', 'https://attack777.io');
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(findField(ui.content, 'ipfs-apiKey')).toMatch(
      /^The stored key and secret belong to another server: enter them again for this address, or tick Remove the stored key and secret$/u,
    );
    expect(rowText(ui.content, 'Credentials')).toBe('set');
  });
});
