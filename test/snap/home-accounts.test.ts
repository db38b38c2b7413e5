/**
 * The home page's accounts as a person meets them, through the built snap: the introduction on
 * first open, names (suggested unique, renamed on the page, refused when they could pose as
 * another), buttons that say which account they act on, and errors in page language under the
 * input they are about, while the RPC front doors keep their precise messages.
 */
import { createServer } from 'node:net';
import { privateKeyToAddress } from 'viem/accounts';

import { COMPANION, dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  findField,
  nextPage,
  openHomePage,
  rowValues,
  shownTexts,
  walk,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';

const IMPORTED_KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const CANCELLED_TEXT = 'Cancelled: nothing changed';

describe('home page: accounts, names and errors in page language', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let harness: KeyringHarness;
  let ui: HomePageUi;

  /** Open the home page afresh (as MetaMask does when the user comes back to it). */
  async function open(): Promise<void> {
    ui = await openHomePage(harness);
  }

  /**
   * Run an action that re-renders the page, and read the page it renders (bounded: 20 s).
   *
   * @param action - The action, given the current page.
   */
  async function step(
    action: (current: HomePageUi) => Promise<void>,
  ): Promise<void> {
    // eslint-disable-next-line require-atomic-updates -- steps run one at a time; ui is this suite's current page
    ui = await nextPage(ui, action);
  }

  /**
   * Submit an account's rename form with `name`.
   *
   * @param id - The account id.
   * @param name - The name to type.
   */
  async function rename(id: string, name: string): Promise<void> {
    await ui.typeInField(`account-name:${id}`, name);
    await step(async (current) =>
      current.clickElement(`account-rename-submit:${id}`),
    );
  }

  /** @returns The text of the notice at the top of the page. */
  const notice = (): string | undefined =>
    [...walk(ui.content)].find((node) => node.type === 'Banner')?.props.children
      .props.children;

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    harness = await installKeyringSnap();
    await open();
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it('says on first open what the snap is and what to do first', () => {
    expect(shownTexts(ui.content).join(' ')).toMatch(
      /No account yet\. This snap keeps Ethereum accounts whose keys stay inside it, for MetaMask to sign with: start by creating an account below, or import a key\./u,
    );
  });

  it('a smart account without a chain: "Add a chain under Chains first" under its form; the RPC reply is unchanged', async () => {
    await step(async (current) => current.clickElement('create-smart-submit'));
    const shown = shownTexts(ui.content);
    expect(shown).toContain(
      'Add a chain under Chains first: a smart account lives on a chain',
    );
    expect(shown.join(' ')).not.toContain('setChainConfig');
    await expect(
      harness.createAccount({ type: 'eip155:erc4337' }),
    ).rejects.toMatchObject({
      code: -32001,
      message:
        'No chain is configured: call setChainConfig before creating a smart account',
    });
  });

  it('a metadata CID without IPFS settings: the page says to set them, under the CID input', async () => {
    await ui.typeInField('smart-metadataCid', CID);
    await step(async (current) => current.clickElement('create-smart-submit'));
    expect(findField(ui.content, 'smart-metadataCid')).toBe(
      'Set an IPFS API under IPFS first, or leave the metadata CID empty',
    );
    await expect(
      harness.createAccount({ type: 'eip155:erc4337', metadataCid: CID }),
    ).rejects.toMatchObject({
      code: -32001,
      message:
        'No IPFS API is configured: call setIpfsConfig before using metadataCid',
    });
  });

  it('suggests unique names: create two, delete the first, create again', async () => {
    await step(async (current) => current.clickElement('create-eoa-submit'));
    await step(async (current) => current.clickElement('create-eoa-submit'));
    const [first] = await harness.keyring('keyring_listAccounts');
    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement(`account-delete:${first.id}`),
    );
    await step(async (current) => current.clickElement('create-eoa-submit'));
    const suggested = harness.events
      .filter((event) => event.method === 'notify:accountCreated')
      .map((event) => event.params.accountNameSuggestion);
    expect(suggested).toStrictEqual([
      'Keyring Account 1',
      'Keyring Account 2',
      'Keyring Account 3',
    ]);
    expect(rowValues(ui.content, 'Name')).toStrictEqual([
      'Keyring Account 2',
      'Keyring Account 3',
    ]);
  });

  it('renames on the page; buttons name their account; a duplicate or a bidi name is refused under the input', async () => {
    const [savings, other] = await harness.keyring('keyring_listAccounts');
    await rename(savings.id, '  Savings ');
    expect(notice()).toBe(
      'Renamed to Savings here. MetaMask keeps the label it showed when the account was created: rename it in MetaMask too.',
    );
    expect(rowValues(ui.content, 'Name')).toStrictEqual([
      'Savings',
      'Keyring Account 3',
    ]);
    const buttons = buttonTexts(ui.content);
    expect(buttons).toContain('Export key of Savings');
    expect(buttons).toContain('Delete Savings');
    expect(buttons).toContain('Rename Savings');
    expect(buttons).toContain('Delete Keyring Account 3');
    expect(buttons.filter((text) => text.startsWith('Delete '))).toHaveLength(
      2,
    );
    expect(new Set(buttons).size).toBe(buttons.length);

    await rename(other.id, 'SAVINGS');
    expect(findField(ui.content, `account-name:${other.id}`)).toBe(
      `Savings (${savings.address}) has this name already: choose another`,
    );
    const spoof = 'Savings\u202E1 tnuocca';
    await rename(other.id, spoof);
    expect(findField(ui.content, `account-name:${other.id}`)).toBe(
      'This name holds an invisible character (one that changes the text direction or shows nothing), which could make it look like another name: type it again without it',
    );
    expect(JSON.stringify(ui.content)).not.toContain('\\u202e');
    expect(rowValues(ui.content, 'Name')).toStrictEqual([
      'Savings',
      'Keyring Account 3',
    ]);
    // The RPC front door refuses the same names with its own messages, naming `name`.
    await expect(
      harness.createAccount({ name: 'savings' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: `Invalid createAccount options at name: account ${savings.address} has this name already`,
    });
    await expect(harness.createAccount({ name: spoof })).rejects.toMatchObject({
      code: -32602,
      message:
        'Invalid createAccount options at name: it holds control or bidirectional characters, which could make it look like another name',
    });
  });

  it("a site's name is the account's one name: given at creation, renamed with keyring_updateAccount, the page and the Remove dialog follow; a taken name is refused without echoing it", async () => {
    const [savings] = await harness.keyring('keyring_listAccounts');
    const travel = await harness.createAccount({ name: 'Travel' });
    expect(travel.options.name).toBe('Travel');
    await open();
    expect(rowValues(ui.content, 'Name')).toContain('Travel');

    // the site renames it the way MetaMask does: keyring_updateAccount with options.name
    await harness.keyring('keyring_updateAccount', {
      account: { ...travel, options: { ...travel.options, name: 'Holiday' } },
    });
    const renamed = (await harness.keyring('keyring_listAccounts')).find(
      (account: { id: string }) => account.id === travel.id,
    );
    expect(renamed.options.name).toBe('Holiday');
    expect(harness.events.at(-1)).toEqual({
      method: 'notify:accountUpdated',
      params: { account: renamed },
    });
    await open();
    expect(rowValues(ui.content, 'Name')).toStrictEqual([
      'Savings',
      'Keyring Account 3',
      'Holiday',
    ]);
    expect(buttonTexts(ui.content)).toContain('Delete Holiday');

    // the site's Remove: its dialog names the account by its new name
    const removing = harness.snap.onKeyringRequest({
      origin: COMPANION,
      method: 'keyring_deleteAccount',
      params: { id: travel.id },
    });
    const dialog = await dialogOf(removing);
    const asked = shownTexts(dialog?.content).join(' ');
    expect(asked).toContain('Holiday');
    expect(asked).not.toContain('Travel');
    await dialog?.cancel();
    await removing;

    // another account's name (in any case) or a look-alike: -32602, nothing changed, never echoed
    for (const name of ['SAVINGS', 'S\u0430vings']) {
      const count = harness.events.length;
      const refused = await harness
        .keyring('keyring_updateAccount', {
          account: { ...renamed, options: { ...renamed.options, name } },
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: -32602,
        message: expect.stringMatching(
          new RegExp(
            `^Invalid account at options\\.name: .*account ${savings.address}`,
            'u',
          ),
        ),
      });
      expect((refused as Error).message.toLowerCase()).not.toContain('savings');
      expect(harness.events).toHaveLength(count);
    }
    await open();
    expect(rowValues(ui.content, 'Name')).toContain('Holiday');
    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement(`account-delete:${travel.id}`),
    );
    expect(rowValues(ui.content, 'Name')).not.toContain('Holiday');
  });

  it('importing with the key input empty says "Enter a private key" under it and creates nothing; so does the RPC', async () => {
    const before = await harness.keyring('keyring_listAccounts');
    const count = harness.events.length;
    await ui.typeInField('import-privateKey', '   ');
    await step(async (current) => current.clickElement('import-key-submit'));
    expect(findField(ui.content, 'import-privateKey')).toBe(
      'Enter a private key',
    );
    for (const privateKey of ['', '  ']) {
      await expect(harness.createAccount({ privateKey })).rejects.toMatchObject(
        {
          code: -32602,
          message:
            'Invalid createAccount options at privateKey: enter a private key',
        },
      );
    }
    expect(await harness.keyring('keyring_listAccounts')).toEqual(before);
    expect(harness.events).toHaveLength(count);
  });

  it('a key already used names its account under the key input; a bad key says what a key is; the RPC replies are unchanged', async () => {
    const address = privateKeyToAddress(IMPORTED_KEY);
    await ui.typeInField('import-privateKey', IMPORTED_KEY);
    await step(async (current) => current.clickElement('import-key-submit'));
    const imported = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(imported.address).toBe(address);
    await rename(imported.id, 'Cold');

    await ui.typeInField('import-privateKey', IMPORTED_KEY);
    await step(async (current) => current.clickElement('import-key-submit'));
    expect(findField(ui.content, 'import-privateKey')).toBe(
      `This key is already the account Cold (${address})`,
    );
    expect(JSON.stringify(ui.content)).not.toContain(IMPORTED_KEY.slice(2));
    await expect(
      harness.createAccount({ privateKey: IMPORTED_KEY }),
    ).rejects.toMatchObject({
      code: -32602,
      message: `Invalid createAccount options: this key already backs account ${address}; one key backs one account`,
    });

    await ui.typeInField('import-privateKey', '0x1234secretish');
    await step(async (current) => current.clickElement('import-key-submit'));
    expect(findField(ui.content, 'import-privateKey')).toBe(
      'Invalid private key: paste the key, 64 hex characters (0x optional)',
    );
    expect(JSON.stringify(ui.content)).not.toContain('1234secretish');
    await expect(
      harness.createAccount({ privateKey: '0x1234secretish' }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid private key: expected 32 bytes of hex',
    });
  });

  it('a declined export dialog says "Cancelled: nothing changed"', async () => {
    const [account] = await harness.keyring('keyring_listAccounts');
    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement(`account-export:${account.id}`),
    );
    expect(notice()).toBe(CANCELLED_TEXT);
  });

  it('an unreachable RPC URL: "Couldn\'t reach this RPC URL" under the URL; the RPC reply says the same in its words, -32002', async () => {
    const port = await closedPort();
    await ui.typeInField('chain-scope', 'eip155:31337');
    await ui.typeInField('chain-rpcUrl', `http://127.0.0.1:${port}`);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(findField(ui.content, 'chain-rpcUrl')).toBe(
      "Couldn't reach this RPC URL: check the address, and that the node is running",
    );
    expect(JSON.stringify(ui.content)).not.toMatch(/attempts|fetch failed/u);
    await expect(
      harness.rpcApproved('setChainConfig', {
        scope: 'eip155:31337',
        rpcUrl: `http://127.0.0.1:${port}`,
      }),
    ).rejects.toMatchObject({
      code: -32002,
      message:
        "Couldn't reach this node: check the address, and that the node is running",
    });
  });

  it('sending: bad fields under their inputs; no bundler URL says to add one under Chains; the RPC reply is unchanged', async () => {
    await ui.typeInField('chain-scope', 'eip155:31337');
    await ui.typeInField('chain-rpcUrl', anvil.url);
    await ui.typeInField('chain-entryPoint', contracts.entryPoint);
    await ui.typeInField('chain-accountFactory', contracts.accountFactory);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(notice()).toBe('Saved Local chain (31337)');
    await ui.typeInField('smart-metadataCid', '');
    await ui.clickElement('smart-scope:eip155:31337');
    await ui.selectInDropdown('smart-entryPointVersion', '0.6'); // this chain has v0.6 only
    await step(async (current) => current.clickElement('create-smart-submit'));
    expect(notice()).toMatch(
      /^Created smart account .+ \(0x[0-9a-fA-F]{40}\) on EntryPoint v0\.6$/u,
    );
    const smart = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(smart.type).toBe('eip155:erc4337');

    await ui.typeInField(`send-to:${smart.id}`, '0x1234');
    await step(async (current) =>
      current.clickElement(`send:${smart.id}-submit`),
    );
    expect(findField(ui.content, `send-to:${smart.id}`)).toBe(
      'Enter the address to send to: 0x and 40 hex characters',
    );

    await ui.typeInField(`send-to:${smart.id}`, smart.address);
    await ui.typeInField(`send-value:${smart.id}`, '0');
    await ui.typeInField(`send-data:${smart.id}`, '0x123');
    await step(async (current) =>
      current.clickElement(`send:${smart.id}-submit`),
    );
    expect(findField(ui.content, `send-data:${smart.id}`)).toBe(
      'Enter call data as 0x and hex bytes, or leave it empty',
    );

    await ui.typeInField(`send-data:${smart.id}`, '0x');
    await step(async (current) =>
      current.clickElement(`send:${smart.id}-submit`),
    );
    expect(shownTexts(ui.content)).toContain(
      'Add a bundler URL to this chain under Chains',
    );
    await expect(
      harness.rpc('sendUserOperation', {
        account: smart.id,
        scope: 'eip155:31337',
        intents: [{ to: smart.address, value: '0x0', data: '0x' }],
      }),
    ).rejects.toMatchObject({
      code: -32001,
      message:
        'No bundlerUrl for eip155:31337: set it with setChainConfig or in the account metadata',
    });
  });
});

/**
 * A TCP port on 127.0.0.1 that nothing listens on (taken, then released).
 *
 * @returns The port.
 */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The text of every Button, in page order (what a screen reader lists).
 *
 * @param tree - The page.
 * @returns The buttons' texts.
 */
function buttonTexts(tree: any): string[] {
  return [...walk(tree)]
    .filter((node) => node.type === 'Button')
    .map((node) => shownTexts(node.props.children).join(''));
}
