/**
 * The home page's waiting requests, as a person meets them through the built snap: they come
 * first (the heading counts them), an open page catches up with Refresh, each card names the
 * account that signs, switching to sync says they still wait, deleting an account says which of
 * its requests will be rejected (and they are), a stale page's Approve/Reject answers in page
 * language while the RPC front door keeps its precise errors, and a declined dialog reads
 * "Cancelled: nothing changed". Driven by the element names (README, "The home page's elements").
 */
import { stringToHex } from 'viem';

import { expectError, installKeyringSnap, METAMASK } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import { elementNames, nextPage, openHomePage, shownTexts } from './homePage';

/**
 * The first account's name. Names holding bidirectional or control characters are refused when an
 * account is created or renamed (test/snap/home-accounts.test.ts); the cards and dialogs still show
 * names through displayText (src/ui/components/AccountCard.test.tsx checks the cleaning).
 */
const ALICE_NAME = 'Alice Savings';

describe('home page: waiting requests', () => {
  let harness: KeyringHarness;
  let ui: HomePageUi;
  let alice: any;
  let bob: any;

  /**
   * Every text the page shows, in page order (banner titles included).
   *
   * @returns The texts.
   */
  const texts = (): string[] => shownTexts(ui.content, { titles: true });

  /**
   * Where a text first shows on the page (a text that contains `part`).
   *
   * @param part - The text to look for.
   * @returns Its position in {@link texts}; the test fails when the page does not show it.
   */
  const position = (part: string): number => {
    const index = texts().findIndex((text) => text.includes(part));
    expect({ part, shown: index >= 0 }).toEqual({ part, shown: true });
    return index;
  };

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
   * Park a personal_sign request from MetaMask for an account.
   *
   * @param account - The account.
   * @param message - The message.
   * @returns The parked request's id.
   */
  async function park(account: any, message: string): Promise<string> {
    const response = await harness.submit(
      account,
      'personal_sign',
      [stringToHex(message), account.address],
      '',
    );
    expect(response.pending).toBe(true);
    const requests = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    return requests.at(-1).id;
  }

  beforeAll(async () => {
    harness = await installKeyringSnap();
    alice = await harness.createAccount({ name: ALICE_NAME });
    bob = await harness.createAccount({ name: 'Bob' });
    await open();
  });

  it('with none waiting, the heading has no count and the approval dropdown stays at the bottom', async () => {
    expect(texts()[0]).toBe('Tandem Keyring');
    expect(position('No pending request.')).toBeGreaterThan(position('IPFS'));
    expect(elementNames(ui.content)).toContain('approval-mode');
    // Sync mode: nothing can start waiting, so there is nothing to refresh.
    expect(elementNames(ui.content)).not.toContain('requests-refresh');
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'async'),
    );
    expect(await harness.rpc('getApprovalMode')).toEqual({ mode: 'async' });
    expect(elementNames(ui.content)).toContain('requests-refresh');
  });

  it('the refresh button shows requests that arrived after the page was rendered, first on the page, counted in the heading', async () => {
    await park(alice, 'first message');
    await park(bob, 'second message');
    // The open page was rendered before they arrived: it cannot know yet.
    expect(JSON.stringify(ui.content)).not.toContain('first message');
    await step(async (current) => current.clickElement('requests-refresh'));
    expect(texts()[0]).toBe('Tandem Keyring — 2 requests waiting');
    const first = position('first message');
    expect(position('Requests waiting (2)')).toBeLessThan(first);
    expect(position('second message')).toBeGreaterThan(first);
    expect(position('Accounts')).toBeGreaterThan(position('second message'));
    expect(position('IPFS')).toBeGreaterThan(position('Accounts'));
    // The dropdown keeps its place at the bottom, pointing up to the requests.
    expect(position('2 requests waiting: see the top of this page')).toBe(
      texts().length - 1,
    );
    expect(elementNames(ui.content)).toContain('approval-mode');
  });

  it('each request card names the signing account: its name and full address', async () => {
    const shown = texts();
    const firstCard = position('first message');
    const secondCard = position('second message');
    // Each card's Account and Address rows come before its message, after the previous card.
    /**
     * Where each row with this label shows.
     *
     * @param label - A row label.
     * @returns The positions of the label in the page's texts.
     */
    const rows = (label: string): number[] =>
      shown.flatMap((text, index) => (text === label ? [index] : []));
    const [aliceName, bobName] = rows('Account');
    expect(shown[aliceName + 1]).toBe(ALICE_NAME);
    expect(shown[bobName + 1]).toBe('Bob');
    const [aliceAddress, bobAddress] = rows('Address');
    expect(shown[aliceAddress + 1]).toBe(alice.address);
    expect(shown[bobAddress + 1]).toBe(bob.address);
    expect(aliceAddress).toBeLessThan(firstCard);
    expect(bobName).toBeGreaterThan(firstCard);
    expect(bobAddress).toBeLessThan(secondCard);
  });

  it('switching back to sync says the requests still wait, and where; they stay listed', async () => {
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'sync'),
    );
    expect(await harness.rpc('getApprovalMode')).toEqual({ mode: 'sync' });
    const note = position(
      '2 requests still wait below: approve or reject them here',
    );
    expect(position('Approval mode: sync')).toBeLessThan(note);
    expect(position('first message')).toBeGreaterThan(note);
    expect(position('second message')).toBeGreaterThan(note);
    expect(texts()[0]).toBe('Tandem Keyring — 2 requests waiting');
    const names = elementNames(ui.content);
    const ids = (
      await harness.keyring('keyring_listRequests', undefined, METAMASK)
    ).map((request: any) => request.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      expect(names).toContain(`request-approve:${id}`);
      expect(names).toContain(`request-reject:${id}`);
    }
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'async'),
    );
  });

  it('deleting an account names it and its waiting requests; declined changes nothing, confirmed rejects them', async () => {
    const bobSecond = await park(bob, 'third message');
    const waiting = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    const bobRequests = waiting
      .filter((request: any) => request.account === bob.id)
      .map((request: any) => request.id);
    expect(bobRequests).toHaveLength(2);
    expect(bobRequests).toContain(bobSecond);
    await open();

    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement(`account-delete:${bob.id}`),
    );
    const dialog = JSON.stringify(harness.dialogs.at(-1));
    expect(dialog).toContain('Bob');
    expect(dialog).toContain(bob.address);
    expect(dialog).toContain('Its 2 waiting requests will be rejected.');
    expect(texts()).toContain('Cancelled: nothing changed');
    expect(JSON.stringify(ui.content)).not.toContain('Nothing deleted');
    expect(
      await harness.keyring('keyring_listRequests', undefined, METAMASK),
    ).toEqual(waiting);
    expect(
      (await harness.keyring('keyring_listAccounts')).map(
        (account: any) => account.id,
      ),
    ).toContain(bob.id);

    // Alice's dialog shows her cleaned name and her one request (a fresh page: the same notice
    // again would not re-render it).
    await open();
    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement(`account-delete:${alice.id}`),
    );
    const aliceDialog = JSON.stringify(harness.dialogs.at(-1));
    expect(aliceDialog).toContain(ALICE_NAME);
    expect(aliceDialog).toContain(alice.address);
    expect(aliceDialog).toContain('Its 1 waiting request will be rejected.');

    const before = harness.events.length;
    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement(`account-delete:${bob.id}`),
    );
    const emitted = harness.events.slice(before);
    expect(emitted[0]).toEqual({
      method: 'notify:accountDeleted',
      params: { id: bob.id },
    });
    expect(
      emitted
        .filter((event) => event.method === 'notify:requestRejected')
        .map((event) => event.params.id)
        .sort(),
    ).toEqual([...bobRequests].sort());
    const left = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    expect(left.map((request: any) => request.account)).toEqual([alice.id]);
    expect(
      position(`Deleted Bob (${bob.address}); 2 waiting requests rejected`),
    ).toBeLessThan(position('Requests waiting (1)'));
    expect(texts()[0]).toBe('Tandem Keyring — 1 request waiting');
    expect(JSON.stringify(ui.content)).not.toContain('second message');
  });

  it('approve or reject on a stale page says the request was already answered or withdrawn; the RPC front door keeps its errors', async () => {
    const [pending] = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    const stale = ui;
    // Answered elsewhere (the companion dapp) after this page was rendered.
    await harness.keyring('keyring_approveRequest', {
      id: pending.id,
      data: {},
    });
    await step(async () => stale.clickElement(`request-approve:${pending.id}`));
    expect(texts()).toContain('This request was already answered or withdrawn');
    expect(JSON.stringify(ui.content)).not.toContain('not found');
    expect(JSON.stringify(ui.content)).not.toContain(pending.id);

    const withdrawn = await park(alice, 'fourth message');
    await open();
    await harness.keyring('keyring_rejectRequest', { id: withdrawn }, METAMASK);
    await step(async (current) =>
      current.clickElement(`request-reject:${withdrawn}`),
    );
    expect(texts()).toContain('This request was already answered or withdrawn');
    expect(texts()[0]).toBe('Tandem Keyring');

    await expectError(
      harness.keyring('keyring_approveRequest', { id: pending.id, data: {} }),
      -32001,
      /^Request '.*' not found$/u,
    );
    await expectError(
      harness.keyring('keyring_approveRequest', { id: 'not-a-uuid', data: {} }),
      -32602,
      /.+/u,
    );
  });
});
