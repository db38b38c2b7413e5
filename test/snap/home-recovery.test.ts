/**
 * Getting accounts back from the home page, through the built snap: a first install makes
 * accounts (one used on anvil, one never used, one imported); a second install with the same
 * recovery phrase and an empty state presses *Find my accounts* (progress while it runs, the used
 * one added back, the others not invented, a second press adds nothing, the result still there when
 * the person comes back), restores by index without a chain, and the deletion dialogs and the
 * imported card say what can and cannot come back. Each account comes back with the name the first
 * install's page showed for it, never another's.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { recoverMessageAddress, stringToHex } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { COMPANION, dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  elementNames,
  findField,
  inputValue,
  nextPage,
  openHomePage,
  pagesDuring,
  rowValues,
  shownTexts,
  walk,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { jsonRpc } from '../../devnet/json-rpc';

const IMPORTED_KEY =
  '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6';
const NO_CHAIN =
  'Add a chain under Chains first: Find my accounts asks a chain which accounts were used. An account whose index you know can be restored below without one.';

/** A JSON-RPC proxy in front of anvil that can hold every request until released. */
type Gate = {
  /** The proxy's URL on 127.0.0.1. */
  url: string;
  /** Hold the requests that arrive from now on. */
  hold: () => void;
  /** Let the held requests (and later ones) through. */
  release: () => void;
  /** How many requests wait at the gate now. */
  waiting: () => number;
  /** Stop the proxy. */
  close: () => Promise<void>;
};

/**
 * Start a proxy on a free 127.0.0.1 port that forwards JSON-RPC POSTs to `target`, and can hold
 * them: the search is then "running" for as long as the test needs, without timing.
 *
 * @param target - anvil's URL.
 * @returns The gate.
 */
async function startGate(target: string): Promise<Gate> {
  let open: Promise<void> = Promise.resolve();
  let release: (() => void) | undefined;
  let held = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      held += 1;
      /**
       * Forward the request once the gate is open, and answer with anvil's reply.
       *
       * @returns When answered.
       */
      const forward = async (): Promise<void> => {
        await open;
        held -= 1;
        const reply = await fetch(target, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: Buffer.concat(chunks),
          signal: AbortSignal.timeout(10_000),
        });
        response
          .writeHead(reply.status, { 'Content-Type': 'application/json' })
          .end(Buffer.from(await reply.arrayBuffer()));
      };
      forward().catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (): void => {
      open = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release: () => release?.(),
    waiting: () => held,
    close: async () =>
      new Promise<void>((resolve) => {
        release?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The texts a page shows, joined with spaces.
 *
 * @param ui - The page.
 * @returns Its text.
 */
const textOf = (ui: HomePageUi): string => shownTexts(ui.content).join(' ');

/**
 * The notice at the top of a page.
 *
 * @param ui - The page.
 * @returns The notice's text, or undefined.
 */
const noticeOf = (ui: HomePageUi): string | undefined =>
  [...walk(ui.content)].find((node) => node.type === 'Banner')?.props.children
    .props.children;

/**
 * Wait, bounded, until a condition holds (polled every 20 ms, at most 10 s).
 *
 * @param condition - The condition.
 * @param what - What is awaited, for the failure message.
 */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if (condition()) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('home page: getting accounts back', () => {
  let anvil: Anvil;
  let gate: Gate;
  let first: KeyringHarness;
  let second: KeyringHarness;
  let used: { id: string; address: Hex };
  let unused: { id: string; address: Hex };
  let imported: { id: string; address: Hex };
  let other: { id: string; address: Hex };

  beforeAll(async () => {
    anvil = await startAnvil();
    gate = await startGate(anvil.url);
    first = await installKeyringSnap();
    used = await first.createAccount({});
    unused = await first.createAccount({});
    imported = await first.createAccount({ privateKey: IMPORTED_KEY });
    // `used` holds funds on the chain; `unused` and the imported key never appear there.
    await jsonRpc(anvil.url, 'anvil_setBalance', [
      used.address,
      '0xde0b6b3a7640000',
    ]);
    await jsonRpc(anvil.url, 'anvil_setBalance', [imported.address, '0x1']);
  });

  afterAll(async () => {
    await gate?.close();
    await anvil?.stop();
  });

  it("an imported account's card says to keep a copy of its key; a derived one's says where it comes from", async () => {
    const ui = await openHomePage(first);
    // creating comes before getting accounts back
    const names = elementNames(ui.content);
    expect(names.indexOf('create-eoa')).toBeLessThan(
      names.indexOf('accounts-restore'),
    );
    expect(imported.address).toBe(privateKeyToAddress(IMPORTED_KEY));
    expect(rowValues(ui.content, 'Key')).toStrictEqual([
      'derived from your Secret Recovery Phrase (index 0)',
      'derived from your Secret Recovery Phrase (index 1)',
      'Imported — keep a copy of its key',
    ]);
  });

  it("the page's delete dialog says what brings an account back: Find my accounts for a derived one, only a copy for an imported one", async () => {
    const ui = await openHomePage(first);
    // Both declined: the click ends once the page has said "Cancelled: nothing changed".
    first.answerDialogs(false, false);
    await ui.clickElement(`account-delete:${imported.id}`);
    await ui.clickElement(`account-delete:${used.id}`);
    const [importedDialog, derivedDialog] = first.dialogs
      .slice(-2)
      .map((dialog) => shownTexts(dialog.content).join(' '));
    expect(importedDialog).toContain(
      'Its key was imported, so no recovery phrase can bring it back: deleting it without a copy of its key loses it, and whatever it holds.',
    );
    expect(importedDialog).not.toContain('Find my accounts');
    expect(derivedDialog).toContain(
      "Its key comes from your Secret Recovery Phrase: Find my accounts, on this snap's home page, brings it back while it holds funds or has history on a chain you have added",
    );
    expect(derivedDialog).not.toContain('no recovery phrase');
    expect(await first.keyring('keyring_listAccounts')).toHaveLength(3);
  });

  it("a site's deletion dialog says the same", async () => {
    for (const [account, sentence] of [
      [imported, 'no recovery phrase can bring it back'],
      [used, 'Find my accounts, on this snap'],
    ] as const) {
      const pending = first.snap.onKeyringRequest({
        origin: COMPANION,
        method: 'keyring_deleteAccount',
        params: { id: account.id },
      });
      const dialog = await dialogOf(pending);
      expect(JSON.stringify(dialog?.content)).toContain(sentence);
      await dialog?.cancel();
      await pending;
    }
    expect(await first.keyring('keyring_listAccounts')).toHaveLength(3);
  });

  it('the account forms offer the recovery phrase: an account of the other phrase is not one of the primary phrase', async () => {
    let ui = await openHomePage(first);
    expect(elementNames(ui.content)).toStrictEqual(
      expect.arrayContaining(['create-eoa-source', 'smart-source']),
    );
    await ui.selectInDropdown('create-eoa-source', 'alternative');
    ui = await nextPage(ui, async (current) =>
      current.clickElement('create-eoa-submit'),
    );
    other = (await first.keyring('keyring_listAccounts')).at(-1);
    expect(noticeOf(ui)).toMatch(
      new RegExp(`^Created .+ \\(${other.address}\\)$`, 'u'),
    );
    // the next creation is of the primary phrase again unless chosen
    expect(inputValue(ui.content, 'create-eoa-source')).toBe('default');
    expect([used.address, unused.address]).not.toContain(other.address);
  });

  // snaps-jest runs one install at a time: the first one stops when the second starts.
  describe('a second install with the same recovery phrase and an empty state', () => {
    /** The name the first install's page showed for each account, by address. */
    const firstNames = new Map<string, string>();

    /**
     * The names a page shows, by the address of each account's card.
     *
     * @param harness - The install.
     * @returns Name by address, as the home page shows them.
     */
    async function shownNames(
      harness: KeyringHarness,
    ): Promise<Map<string, string>> {
      const accounts = await harness.keyring('keyring_listAccounts');
      const names = rowValues((await openHomePage(harness)).content, 'Name');
      return new Map(
        accounts.map((account: { address: string }, at: number) => [
          account.address,
          names[at],
        ]),
      );
    }

    beforeAll(async () => {
      for (const [address, name] of await shownNames(first)) {
        firstNames.set(address, name);
      }
      second = await installKeyringSnap();
    });

    it('the first install named its accounts by their index and phrase', () => {
      expect(firstNames).toStrictEqual(
        new Map([
          [used.address, 'Keyring Account 1'],
          [unused.address, 'Keyring Account 2'],
          [imported.address, 'Imported Keyring Account 1'],
          [
            other.address,
            'Keyring Account 1 (Alternative Secret Recovery Phrase)',
          ],
        ]),
      );
    });

    it('without a chain, Find my accounts says what to add first and adds nothing', async () => {
      const ui = await openHomePage(second);
      const pages = await pagesDuring(ui, async (current) =>
        current.clickElement('accounts-restore'),
      );
      const last = pages.at(-1) as HomePageUi;
      expect(noticeOf(last)).toBe(NO_CHAIN);
      expect(await second.keyring('keyring_listAccounts')).toHaveLength(0);
    });

    it('restores by index without a chain: index 1 is the first install’s second account; a bad index is refused under its input', async () => {
      let ui = await openHomePage(second);
      expect(elementNames(ui.content)).toStrictEqual(
        expect.arrayContaining([
          'restore-form',
          'restore-index',
          'restore-type',
          'restore-source',
          'restore-form-submit',
        ]),
      );
      await ui.typeInField('restore-index', '1.5');
      ui = await nextPage(ui, async (current) =>
        current.clickElement('restore-form-submit'),
      );
      expect(findField(ui.content, 'restore-index')).toBe(
        "Enter the account's index: a whole number, 0 or more (the number on its card)",
      );
      expect(await second.keyring('keyring_listAccounts')).toHaveLength(0);

      await ui.typeInField('restore-index', '1');
      await ui.selectInDropdown('restore-type', 'eip155:eoa');
      ui = await nextPage(ui, async (current) =>
        current.clickElement('restore-form-submit'),
      );
      const accounts = await second.keyring('keyring_listAccounts');
      expect(
        accounts.map((account: { address: string }) => account.address),
      ).toStrictEqual([unused.address]);
      // the name it had on the first install, not the first free number
      expect(noticeOf(ui)).toBe(
        `Restored ${firstNames.get(unused.address)} (${unused.address}) from index 1`,
      );
      expect(rowValues(ui.content, 'Key')).toStrictEqual([
        'derived from your Secret Recovery Phrase (index 1)',
      ]);
    });

    it('restores the other phrase’s account by index and phrase', async () => {
      let page = await openHomePage(second);
      await page.typeInField('restore-index', '0');
      await page.selectInDropdown('restore-source', 'alternative');
      page = await nextPage(page, async (current) =>
        current.clickElement('restore-form-submit'),
      );
      expect(noticeOf(page)).toBe(
        `Restored ${firstNames.get(other.address)} (${other.address}) from index 0`,
      );
      expect(
        (await second.keyring('keyring_listAccounts')).map(
          (account: { address: string }) => account.address,
        ),
      ).toStrictEqual([unused.address, other.address]);
    });

    it('pressing Find my accounts with a chain: progress while it runs, a page opened meanwhile says it is searching, the used account comes back and signs as itself', async () => {
      await second.rpcApproved('setChainConfig', {
        scope: 'eip155:31337',
        rpcUrl: gate.url,
      });
      const before = second.events.length;
      const ui = await openHomePage(second);
      // the "add a chain first" of the last press is stale now that a chain is saved
      expect(textOf(ui)).not.toContain('Add a chain under Chains first');
      gate.hold();
      let comeBack: HomePageUi | undefined;
      let pressedAgain: HomePageUi | undefined;
      const pages = await pagesDuring(ui, async (current) => {
        const pressed = current.clickElement('accounts-restore');
        // The search waits at the gate: the person leaves and comes back meanwhile.
        await until(() => gate.waiting() > 0, 'the search to ask the chain');
        comeBack = await openHomePage(second);
        pressedAgain = await nextPage(comeBack, async (page) =>
          page.clickElement('accounts-restore'),
        );
        gate.release();
        await pressed;
      });
      expect(textOf(comeBack as HomePageUi)).toContain('Searching…');
      expect(noticeOf(pressedAgain as HomePageUi)).toMatch(
        /^Find my accounts is already searching: Searching…/u,
      );
      const texts = pages.map(textOf);
      expect(
        texts.some((text) =>
          /Searching your accounts \(EOA\)[^:]*: \d+ checked/u.test(text),
        ),
      ).toBe(true);
      // words a person knows: no index counts, no version numbers of the snap's state
      for (const text of texts) {
        expect(text).not.toMatch(/\bindex \d+ \(|\bindices\b|version 2/u);
      }
      const last = pages.at(-1) as HomePageUi;
      expect(noticeOf(last)).toBe(
        'Found 1 used account on Local chain (31337): added 1',
      );
      expect(textOf(last)).toContain(
        `Added ${firstNames.get(used.address)} (${used.address}): Account (EOA) #0 of Default Secret Recovery Phrase`,
      );
      // every account back under the name the first install showed, on its own address
      const back = await shownNames(second);
      expect([...back.keys()]).toStrictEqual([
        unused.address,
        other.address,
        used.address,
      ]);
      for (const [address, name] of back) {
        expect(name).toBe(firstNames.get(address));
      }

      const accounts = await second.keyring('keyring_listAccounts');
      const addresses = accounts.map(
        (account: { address: string }) => account.address,
      );
      expect(addresses).toStrictEqual([
        unused.address,
        other.address,
        used.address,
      ]);
      expect(addresses).not.toContain(imported.address);
      expect(
        second.events
          .slice(before)
          .filter((event) => event.method === 'notify:accountCreated'),
      ).toHaveLength(1);
      const found = accounts[2];
      const message = stringToHex('found again');
      const { result } = (await second.submit(found, 'personal_sign', [
        message,
        found.address,
      ])) as { result: Hex };
      expect(
        await recoverMessageAddress({
          message: { raw: message },
          signature: result,
        }),
      ).toBe(used.address);

      // Back later: a fresh page still says how the search went.
      expect(textOf(await openHomePage(second))).toContain(
        `Added ${firstNames.get(used.address)} (${used.address})`,
      );
    });

    it('a second press adds nothing and says the account was here already', async () => {
      const before = second.events.length;
      const ui = await openHomePage(second);
      const pages = await pagesDuring(ui, async (current) =>
        current.clickElement('accounts-restore'),
      );
      expect(noticeOf(pages.at(-1) as HomePageUi)).toBe(
        'Found 1 used account on Local chain (31337): added 0, 1 was here already',
      );
      expect(second.events.slice(before)).toHaveLength(0);
      expect(await second.keyring('keyring_listAccounts')).toHaveLength(3);
    });

    it('an unnamed primary phrase is named once in the phrase dropdowns', async () => {
      const mock = second.snap.mockJsonRpc({
        method: 'snap_listEntropySources',
        result: [
          { id: 'default', name: '', primary: true },
          { id: 'alternative', name: '', primary: false },
        ],
      });
      const ui = await openHomePage(second);
      mock.unmock();
      const dropdown = [...walk(ui.content)].find(
        (node) =>
          node.type === 'Dropdown' && node.props.name === 'restore-source',
      );
      const options = [...walk(dropdown)]
        .filter((node) => node.type === 'Option')
        .map((node) => node.props.children);
      expect(options).toStrictEqual([
        'your primary recovery phrase',
        'recovery phrase 2',
      ]);
    });

    it('a chain that refuses connections is said not searched, never "nothing found"', async () => {
      await gate.close(); // the chain's RPC URL now refuses connections
      const ui = await openHomePage(second);
      const pages = await pagesDuring(ui, async (current) =>
        current.clickElement('accounts-restore'),
      );
      const last = pages.at(-1) as HomePageUi;
      expect(noticeOf(last)).toBe(
        "Couldn't search Local chain (31337): it didn't answer. Nothing was checked.",
      );
      expect(textOf(last)).not.toContain('No used account found');
      expect(await second.keyring('keyring_listAccounts')).toHaveLength(3);
    });
  });
});
