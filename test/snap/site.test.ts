/**
 * The companion site as a person meets it, in headless Chromium (test/snap/siteBrowser.ts) with the
 * built snap behind a test `window.ethereum` and a devnet (anvil, Alto) behind the snap. Each test
 * types and clicks as a person would and reads what the page shows; outcomes are checked on their
 * own (the snap's accounts, signatures recovered with viem, balances read from anvil).
 */
/* eslint-disable jest/no-standalone-expect, no-restricted-globals -- the tests are itInBrowser (it or it.skip); page code runs in the browser */
import { parseEther, stringToHex, verifyMessage } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { NO_CHROMIUM, startSiteBrowser } from './siteBrowser';
import type { SiteBrowser } from './siteBrowser';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { freePort } from '../../devnet/ports';

jest.setTimeout(180_000);

const itInBrowser = NO_CHROMIUM ? it.skip : it;

/** A key typed into the Import form (anvil's well-known test key 7). */
const TYPED_KEY: Hex =
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356';

/** Technical words the page must never show (method, field and struct names). */
const TECHNICAL =
  /Invalid |params at|setChainConfig|keyring_|createAccount|superstruct|Expected|-326\d\d|fetch failed|attempts/u;

describe(`the companion site in headless Chromium${NO_CHROMIUM ? ` (skipped: ${NO_CHROMIUM})` : ''}`, () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let site: SiteBrowser;

  /**
   * The snap's accounts as its own view describes them (name, owner, chains).
   *
   * @returns The descriptions.
   */
  const described = async (): Promise<any[]> => harness.rpc('describeAccounts');

  /**
   * The card of the account called `name`, as a selector.
   *
   * @param name - The account's name.
   * @returns `#account:<id>` (escaped).
   */
  const cardOf = async (name: string): Promise<string> => {
    const account = (await described()).find((entry) => entry.name === name);
    expect(account).toBeDefined();
    return `[id="account:${account.id}"]`;
  };

  /**
   * Everything the page says.
   *
   * @returns Its visible text.
   */
  const pageText = async (): Promise<string> => site.text('body');

  beforeAll(async () => {
    if (NO_CHROMIUM) {
      return;
    }
    devnet = await startDevnet({ entryPoints: true });
    harness = await installKeyringSnap();
    site = await startSiteBrowser({ harness, chainId: devnet.chainId });
    await site.connect('');
  });

  afterAll(async () => {
    await site?.stop();
    await devnet?.stop();
  });

  itInBrowser(
    'the chain form: empty inputs answered, a dead node answered next to its field in words, a bare chain id saved and named "Local chain (31337)", the form then cleared',
    async () => {
      await site.page.click('#chain-submit');
      expect(await site.waitText('#chain-scope-error', /./u)).toBe(
        'Enter the chain id, such as 31337',
      );

      const dead = `http://127.0.0.1:${await freePort()}`;
      await site.fill('#chain-scope', String(devnet.chainId));
      await site.fill('#chain-rpc', dead);
      await site.page.click('#chain-submit');
      expect(await site.waitText('#chain-rpc-error', /./u)).toBe(
        "Couldn't reach this node: check the address, and that the node is running",
      );
      expect(await site.text('#chain-status')).toBe('');
      expect(await harness.rpc('getChainConfigs')).toEqual([]);

      const { chainConfig } = devnet;
      await site.fill('#chain-rpc', chainConfig.rpcUrl);
      await site.fill('#chain-bundler', chainConfig.bundlerUrl);
      await site.fill('#chain-entrypoint', chainConfig.entryPoint);
      await site.fill('#chain-factory', chainConfig.accountFactory);
      await site.page.click('#chain-submit');
      expect(await site.waitText('#chain-status', /Saved/u)).toBe(
        'Saved Local chain (31337).',
      );
      expect(await site.text('#chains')).toContain('Local chain (31337)');
      expect(await site.text('#chain-rpc-error')).toBe('');
      const [saved] = await harness.rpc('getChainConfigs');
      expect(saved).toMatchObject({
        scope: 'eip155:31337',
        rpcUrl: expect.stringContaining(chainConfig.rpcUrl),
      });
      for (const input of ['chain-scope', 'chain-rpc', 'chain-bundler']) {
        expect(
          await site.page.$eval(
            `#${input}`,
            (element) => (element as HTMLInputElement).value,
          ),
        ).toBe('');
      }
      expect(await pageText()).not.toMatch(TECHNICAL);
    },
  );

  itInBrowser(
    'creating: the version is hidden for a regular account and v0.8 for a smart one; each card shows its name, kind, balance on the chain and whether it is upgraded; a taken name answered under the field',
    async () => {
      /**
       * Whether the version choice shows.
       *
       * @returns True when it is laid out.
       */
      const versionShown = async (): Promise<boolean> =>
        site.page.$eval(
          '#create-version',
          (element) => (element as HTMLElement).offsetParent !== null,
        );
      expect(await versionShown()).toBe(false);
      await site.page.click('[id="create-type:eip155:erc4337"]');
      expect(await versionShown()).toBe(true);
      expect(
        await site.page.$eval(
          '#create-version input:checked',
          (element) => element.value,
        ),
      ).toBe('0.8');
      await site.fill('#create-name', 'Vault');
      await site.page.click('#create-submit');
      expect(await site.waitText('#create-status', /Created/u)).toMatch(
        /^Created Vault: 0x[0-9a-fA-F]{40}$/u,
      );
      expect(
        await site.page.$eval(
          '#create-name',
          (element) => (element as HTMLInputElement).value,
        ),
      ).toBe('');
      const vault = (await described()).find((entry) => entry.name === 'Vault');
      expect(vault).toMatchObject({ entryPointVersion: '0.8' });

      await site.page.click('[id="create-type:eip155:eoa"]');
      expect(await versionShown()).toBe(false);
      await site.fill('#create-name', 'Savings');
      await site.page.click('#create-submit');
      await site.waitText('#create-status', /Created Savings/u);
      const savings = await cardOf('Savings');
      const savingsAddress = (await described()).find(
        (entry) => entry.name === 'Savings',
      ).id;
      expect(savingsAddress).toBeDefined();
      const [listed] = (await harness.keyring('keyring_listAccounts')).filter(
        (account: any) => account.type === 'eip155:eoa',
      );
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        listed.address,
        `0x${parseEther('1.23456789').toString(16)}`,
      ]);
      await site.page.click('#requests-refresh');
      const card = await site.waitText(savings, /1\.2346 ETH/u);
      expect(card).toContain('Savings');
      expect(card).toContain('Regular account (EOA)');
      expect(card).toContain(listed.address);
      expect(card).toMatch(
        /Local chain \(31337\)\s+1\.2346 ETH, not upgraded/u,
      );
      expect(await site.text(await cardOf('Vault'))).toMatch(
        /Smart account \(EntryPoint v0\.8\)[\s\S]*Local chain \(31337\)\s+0 ETH/u,
      );

      const before = (await harness.keyring('keyring_listAccounts')).length;
      await site.fill('#create-name', 'savings');
      await site.page.click('#create-submit');
      expect(await site.waitText('#create-name-error', /./u)).toBe(
        'Another account has this name: choose another',
      );
      expect(await harness.keyring('keyring_listAccounts')).toHaveLength(
        before,
      );
      expect(await pageText()).not.toMatch(TECHNICAL);
    },
  );

  itInBrowser(
    'importing: an empty key is answered "Enter a private key" and nothing is made; a key imported shows as imported, and the field is emptied',
    async () => {
      const before = site.calls.length;
      await site.page.click('#import-submit');
      expect(await site.waitText('#import-key-error', /./u)).toBe(
        'Enter a private key',
      );
      expect(
        site.calls
          .slice(before)
          .some((call) => call.snapMethod === 'keyring_createAccount'),
      ).toBe(false);

      await site.fill('#import-key', TYPED_KEY);
      await site.fill('#import-name', 'Imported one');
      await site.page.click('#import-submit');
      await site.waitText('#import-status', /Imported/u);
      const card = await site.text(await cardOf('Imported one'));
      expect(card).toContain(privateKeyToAddress(TYPED_KEY));
      expect(card).toContain('Imported: keep a copy of its key');
      expect(
        await site.page.$eval(
          '#import-key',
          (element) => (element as HTMLInputElement).value,
        ),
      ).toBe('');
      expect(await pageText()).not.toContain(TYPED_KEY.slice(2));
      await site.screenshot('accounts', '#accounts-section');
    },
  );

  itInBrowser(
    "Show private key names whose key it is (a smart account's owner), hides on Hide and by itself on the next action",
    async () => {
      const vault = (await described()).find((entry) => entry.name === 'Vault');
      await site.page.click(`[id="export:${vault.id}"]`);
      const shown = await site.waitText(
        `[id="secret:${vault.id}"]`,
        /Private key/u,
      );
      expect(shown).toContain(
        `Private key of the owner of Vault (${vault.owner})`,
      );
      const key = /0x[0-9a-f]{64}/u.exec(shown)?.[0] as Hex;
      expect(privateKeyToAddress(key)).toBe(vault.owner);
      await site.page.click(`[id="hide:${vault.id}"]`);
      expect(await pageText()).not.toContain(key.slice(2));

      await site.page.click(`[id="export:${vault.id}"]`);
      await site.waitText(`[id="secret:${vault.id}"]`, /Private key/u);
      expect(await pageText()).toContain(key.slice(2));
      await site.page.click('#requests-refresh'); // any next action
      expect(await pageText()).not.toContain(key.slice(2));
    },
  );

  itInBrowser(
    'renaming: an empty name is answered "Enter a name"',
    async () => {
      const savings = (await described()).find(
        (entry) => entry.name === 'Savings',
      );
      await site.page.click(`[id="rename:${savings.id}"]`);
      await site.fill(`[id="name:${savings.id}"]`, '  ');
      await site.page.click(`[id="rename-save:${savings.id}"]`);
      expect(await site.waitText(`[id="name:${savings.id}-error"]`, /./u)).toBe(
        'Enter a name',
      );
    },
  );

  itInBrowser(
    "renaming on the page renames the snap's one name (its home page and dialogs use it); a name another account has is answered under the field",
    async () => {
      const all = await described();
      const { id } = all.find((entry) => entry.name === 'Savings');
      const vault = all.find((entry) => entry.name === 'Vault');

      await site.page.click(`[id="rename:${id}"]`);
      await site.fill(`[id="name:${id}"]`, vault.name);
      await site.page.click(`[id="rename-save:${id}"]`);
      expect(await site.waitText(`[id="name:${id}-error"]`, /./u)).toBe(
        'Another account has this name: choose another',
      );
      await site.fill(`[id="name:${id}"]`, 'Spending');
      await site.page.click(`[id="rename-save:${id}"]`);
      expect(await site.waitText('#accounts-status', /./u)).toBe(
        'Savings is now called Spending.',
      );
      expect(await site.text(`[id="account:${id}"]`)).toMatch(/^Spending/u);
      expect((await described()).find((entry) => entry.id === id)?.name).toBe(
        'Spending',
      );
      const [listed] = (await harness.keyring('keyring_listAccounts')).filter(
        (account: any) => account.id === id,
      );
      expect(listed.options.name).toBe('Spending');
      // back, for the tests that follow
      await site.page.click(`[id="rename:${id}"]`);
      await site.fill(`[id="name:${id}"]`, 'Savings');
      await site.page.click(`[id="rename-save:${id}"]`);
      await site.waitText('#accounts-status', /now called Savings/u);
    },
  );

  itInBrowser(
    'Approve: a request MetaMask parked ("Wait for my approval on this page") shows its message and account, and Approve signs it',
    async () => {
      await site.page.click('[id="mode-choice:async"]');
      await site.page.click('#mode-submit');
      expect(await site.waitText('#mode-status', /Saved/u)).toBe(
        'Saved: requests will wait here for your approval.',
      );
      const accounts = await harness.keyring('keyring_listAccounts');
      const savings = (await described()).find(
        (entry) => entry.name === 'Savings',
      );
      const account = accounts.find((entry: any) => entry.id === savings.id);
      const message = 'Sign in to dapp.example: nonce 42';
      const parked = await harness.submit(
        account,
        'personal_sign',
        [stringToHex(message), account.address],
        devnet.scope,
      );
      expect(parked).toMatchObject({ pending: true });
      const [request] = await harness.keyring('keyring_listRequests');

      // MetaMask's link to it
      await site.page.goto(`${site.url}/#/requests/${request.id}`);
      const card = await site.waitText(
        `[id="request:${request.id}"]`,
        /Message/u,
      );
      expect(card).toContain('Sign a message for https://dapp.example');
      expect(card).toMatch(
        new RegExp(`Account\\s+Savings\\s+${account.address}`, 'u'),
      );
      expect(card).toContain(message);
      await site.screenshot('approval', '#approvals-section');

      await site.page.click(`[id="approve:${request.id}"]`);
      expect(await site.waitText('#requests-status', /Signed/u)).toBe(
        'Signed: MetaMask hands the signature to https://dapp.example.',
      );
      expect(await site.text('#requests')).toContain('Nothing is waiting.');
      const approved = harness.events.find(
        (event) =>
          event.method === 'notify:requestApproved' &&
          event.params.id === request.id,
      );
      expect(
        await verifyMessage({
          address: account.address as Address,
          message,
          signature: approved?.params.result as Hex,
        }),
      ).toBe(true);
    },
  );

  itInBrowser(
    'Remove takes an account off the page; Find my accounts then says where it searched, how much, and that it added it back',
    async () => {
      const savings = (await described()).find(
        (entry) => entry.name === 'Savings',
      );
      const [{ address }] = (
        await harness.keyring('keyring_listAccounts')
      ).filter((account: any) => account.id === savings.id);
      await site.page.click(`[id="delete:${savings.id}"]`);
      expect(await site.waitText('#accounts-status', /./u)).toBe(
        'Removed Savings.',
      );
      expect(site.dialogs.at(-1)?.text).toContain(address);
      expect(await site.text('#accounts')).not.toContain(address);

      await site.page.click('#find');
      const said = await site.waitText('#found', /Searched|Added|Nothing/u);
      expect(said).toMatch(
        /^Searched Local chain \(31337\): \d+ regular and \d+ smart accounts of your recovery phrase checked\. Added 1: .+ \(0x[0-9a-fA-F]{40}\)\.$/u,
      );
      expect(said).toContain(address);
      expect(await site.text('#accounts')).toContain(address);
    },
  );

  itInBrowser(
    'the IPFS form: an address it refuses is answered under the field, in words',
    async () => {
      await site.page.click('#ipfs-submit');
      expect(await site.waitText('#ipfs-url-error', /./u)).toBe(
        "Enter the IPFS server's address",
      );
      await site.fill('#ipfs-url', 'https://someone:hunter22@ipfs.example');
      await site.page.click('#ipfs-submit');
      expect(await site.waitText('#ipfs-url-error', /./u)).toMatch(
        /^Enter the IPFS server's address, such as https:\/\/…|^This address holds a user name and password/u,
      );
      expect(await pageText()).not.toMatch(TECHNICAL);
      expect(await pageText()).not.toContain('hunter22');
    },
  );

  itInBrowser(
    'reads at phone width: nothing wider than the screen, no word broken mid-word',
    async () => {
      await site.page.setViewport({ width: 360, height: 800 });
      await site.page.reload({ waitUntil: 'load' });
      await site.waitText('#accounts', /Vault/u);
      const layout = await site.page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        breaking: [...document.querySelectorAll('body *')]
          .filter((element) => {
            const style = getComputedStyle(element);
            return (
              style.wordBreak === 'break-all' ||
              (style.overflowWrap === 'anywhere' &&
                !element.closest('.mono, .signed'))
            );
          })
          .map((element) => element.outerHTML.slice(0, 80)),
      }));
      expect(layout).toStrictEqual({ width: 360, breaking: [] });
      await site.screenshot('companion-phone');
      await site.page.setViewport({ width: 1000, height: 900 });
    },
  );
});
