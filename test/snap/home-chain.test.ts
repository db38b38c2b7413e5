/**
 * The home page tells the chain's truth, through the built snap on real parts (anvil on Prague with
 * EntryPoint v0.6, v0.7 and v0.8, Simple7702Account, Alto), driven by the README's element names:
 * each account's balance on each chain (checked against anvil's own answer; a chain that does not
 * answer says so), an EOA upgraded with EIP-7702 shown as upgraded with only the button that
 * applies and a Send form, the upgrade's dialog saying that the undo is a transaction the account
 * pays itself and about what it costs, an undo the account cannot pay refused before its dialog, a
 * send above the balance refused in words under its field (v0.6 and v0.8), and the send
 * confirmation: a title saying what happens, the account's and the chain's names, the gas and the
 * total in ETH, the nonce under Details, and a non-canonical EntryPoint named with its address.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  concatHex,
  createPublicClient,
  formatEther,
  getAddress,
  http,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { expectError, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  elementNames,
  findField,
  nextPage,
  openHomePage,
  pageJson,
  rowText,
  shownTexts,
  walk,
} from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const SIMPLE_7702: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B';
const CANONICAL_V06 = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
const LOCAL = 'Local chain (31337)';

describe('home page: what the chain holds', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let eoa: { id: string; address: Address };
  let smart: { id: string; address: Address };

  /**
   * Set an account's balance on anvil.
   *
   * @param address - The account.
   * @param ether - The balance, in ETH.
   */
  async function setBalance(address: Address, ether: string): Promise<void> {
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      address,
      `0x${parseEther(ether).toString(16)}`,
    ]);
  }

  /**
   * One account's card.
   *
   * @param ui - The page.
   * @param id - The account's id.
   * @returns The card's Section.
   */
  function card(ui: HomePageUi, id: string): any {
    return [...walk(ui.content)].find(
      (node) =>
        node.type === 'Section' &&
        elementNames(node).includes(`account-rename:${id}`),
    );
  }

  /**
   * Click a button and read the page it renders.
   *
   * @param name - The button's name.
   * @param ui - The page (default: a fresh one).
   * @returns The page after the click.
   */
  async function click(name: string, ui?: HomePageUi): Promise<HomePageUi> {
    return nextPage(ui ?? (await openHomePage(harness)), async (current) =>
      current.clickElement(name),
    );
  }

  /**
   * Fill an account's Send form and submit it.
   *
   * @param id - The account's id.
   * @param to - The recipient, as typed.
   * @param value - The value in ETH, as typed.
   * @returns The page after the submit.
   */
  async function sendFromPage(
    id: string,
    to: string,
    value: string,
  ): Promise<HomePageUi> {
    const ui = await openHomePage(harness);
    await ui.typeInField(`send-to:${id}`, to);
    await ui.typeInField(`send-value:${id}`, value);
    return click(`send:${id}-submit`, ui);
  }

  /**
   * Alto's receipt of an operation, polled (bounded).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  const receiptOf = async (userOpHash: Hex): Promise<any> =>
    bundlerReceipt(devnet.bundlerUrl, userOpHash);

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredElsewhere, ...selfPaid } =
      devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    // a second chain, whose node answers while it is configured and then goes away
    const gone = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: unknown };
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x5' }));
      });
    });
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    await harness.rpcApproved('setChainConfig', {
      scope: 'eip155:5',
      rpcUrl: `http://127.0.0.1:${(gone.address() as AddressInfo).port}`,
    });
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    eoa = await harness.createAccount({ name: 'Spending' });
    smart = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      name: 'Savings',
    });
    await setBalance(eoa.address, '1.5');
    await setBalance(smart.address, '0.001');
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('shows each account’s balance on each of its chains, as anvil answers it; a chain that does not answer says so', async () => {
    const ui = await openHomePage(harness);
    const own = card(ui, eoa.id);
    expect(rowText(own, `Balance on ${LOCAL}`)).toBe('1.5 ETH');
    expect(rowText(own, `Balance on ${LOCAL}`)).toBe(
      `${formatEther(await client.getBalance({ address: eoa.address }))} ETH`,
    );
    expect(rowText(own, 'Balance on chain 5')).toBe(
      "Couldn't read: this chain's node didn't answer",
    );
    const savings = card(ui, smart.id);
    expect(rowText(savings, `Balance on ${LOCAL}`)).toBe('0.001 ETH');
    // a smart account lives on its own chains only
    expect(rowText(savings, 'Balance on chain 5')).toBeUndefined();
    // a plain EOA: only Upgrade applies, and it has no Send form
    expect(elementNames(own)).toContain(`account-upgrade:${eoa.id}`);
    expect(elementNames(own)).not.toContain(`account-undo-upgrade:${eoa.id}`);
    expect(elementNames(own)).not.toContain(`send-to:${eoa.id}`);
    expect(rowText(own, 'Type')).toBe('Account (EOA)');
  });

  it('upgrade: its dialog says the undo is a transaction the account pays itself and about what it costs; a fresh page then shows the EOA upgraded, with Undo and a Send form only', async () => {
    harness.answerDialogs(true);
    const after = await click(`account-upgrade:${eoa.id}`);
    const dialog = shownTexts(harness.dialogs.at(-1)?.content, {
      titles: true,
    });
    expect(dialog[0]).toBe(`Upgrade Spending to a smart account on ${LOCAL}`);
    // an EOA's dialog: no 0 ETH transfer to itself, no smart-account deployment line
    expect(dialog).not.toContain('Value');
    expect(dialog).not.toContain('Deploys the account');
    expect(dialog).toContain(
      'Confirm only if you expect this upgrade. Signing lets the bundler submit it from this account.',
    );
    const undo = dialog[dialog.indexOf('Undoing it') + 1];
    expect(undo).toMatch(
      /^A transaction this account pays itself, never a paymaster, even when this upgrade is sponsored: about [0-9.]+ ETH at today's fee\./u,
    );
    const userOpHash = /user operation (0x[0-9a-f]{64})/u.exec(
      pageJson(after),
    )?.[1] as Hex;
    expect((await receiptOf(userOpHash)).success).toBe(true);
    expect(
      (
        await jsonRpc<string>(devnet.rpcUrl, 'eth_getCode', [
          eoa.address,
          'latest',
        ])
      ).toLowerCase(),
    ).toBe(concatHex(['0xef0100', SIMPLE_7702]).toLowerCase());

    const own = card(await openHomePage(harness), eoa.id);
    expect(rowText(own, 'Type')).toMatch(
      /^Upgraded to a smart account on Local chain \(31337\)/u,
    );
    expect(elementNames(own)).toContain(`account-undo-upgrade:${eoa.id}`);
    expect(elementNames(own)).not.toContain(`account-upgrade:${eoa.id}`);
    expect(elementNames(own)).toContain(`send-to:${eoa.id}`);
  });

  it.each([
    ['v0.6 smart account', (): typeof smart => smart, '0.001', '1'],
    ['upgraded EOA (v0.8)', (): typeof eoa => eoa, '', '2'],
  ] as const)(
    'a send above the balance (%s) is refused in words under the value, before any dialog; the RPC method answers -32003',
    async (_kind, account, holds, value) => {
      const { id, address } = account();
      const held = `${formatEther(await client.getBalance({ address }))} ETH`;
      // the v0.6 account holds what was set; the EOA what its upgrade left
      expect(held).toMatch(holds ? `${holds} ETH` : /ETH$/u);
      const dialogs = harness.dialogs.length;
      harness.answerDialogs(false);
      const after = await sendFromPage(id, DEAD, value);
      expect(findField(after.content, `send-value:${id}`)).toMatch(
        new RegExp(
          `^This account holds ${held.replace('.', '\\.')}; sending ${value} ETH needs more`,
          'u',
        ),
      );
      await expectError(
        harness.rpc('sendUserOperation', {
          account: id,
          scope: devnet.scope,
          intents: [{ to: DEAD, value: `0x${parseEther(value).toString(16)}` }],
        }),
        -32003,
        /^Insufficient funds on eip155:31337: the account holds \d+ wei; the value sent is \d+ wei$/u,
      );
      expect(harness.dialogs).toHaveLength(dialogs);
      harness.answerDialogs();
    },
  );

  it('the Send form refuses a wrong EIP-55 checksum, more than 18 decimals and an empty value, each under its field, and sends nothing', async () => {
    const dialogs = harness.dialogs.length;
    harness.answerDialogs(false);
    const wrongCase = DEAD.replace('dEaD', 'DeAd');
    const after = await sendFromPage(
      smart.id,
      wrongCase,
      '0.0000000000000000001',
    );
    expect(findField(after.content, `send-to:${smart.id}`)).toMatch(
      /checksum \(EIP-55\)/u,
    );
    expect(findField(after.content, `send-value:${smart.id}`)).toMatch(
      /^At most 18 decimals/u,
    );
    const empty = await sendFromPage(smart.id, DEAD, '');
    expect(findField(empty.content, `send-value:${smart.id}`)).toMatch(
      /^Enter an amount of ETH/u,
    );
    expect(findField(empty.content, `send-to:${smart.id}`)).toBeUndefined();
    expect(harness.dialogs).toHaveLength(dialogs);
    harness.answerDialogs();
  });

  it('the send confirmation: what happens, the account’s and chain’s names, gas and total in ETH, the nonce under Details, the non-canonical EntryPoint named; the create form names it too', async () => {
    const entryPoint = getAddress(devnet.chainConfig.entryPoint);
    expect(entryPoint).not.toBe(CANONICAL_V06);
    await setBalance(smart.address, '1');
    harness.answerDialogs(false);
    await sendFromPage(smart.id, DEAD, '0.0001');
    const dialog = shownTexts(harness.dialogs.at(-1)?.content, {
      titles: true,
    }).filter((text) => typeof text === 'string');
    /**
     * @param label - A row's label.
     * @returns The text after it.
     */
    const after = (label: string): string | undefined =>
      dialog.includes(label) ? dialog[dialog.indexOf(label) + 1] : undefined;
    expect(dialog[0]).toBe(`Send 0.0001 ETH from Savings on ${LOCAL}`);
    expect(after('Chain')).toBe(LOCAL);
    expect(dialog).toContain('From Savings');
    expect(JSON.stringify(harness.dialogs.at(-1))).not.toContain(
      `eip155:31337:${smart.address}`,
    );
    expect(after('EntryPoint')).toBe(
      `v0.6 at ${entryPoint}: not the canonical EntryPoint v0.6`,
    );
    const gas = /^Paid by this account: at most ([0-9.]+) ETH$/u.exec(
      after('Gas') ?? '',
    )?.[1];
    expect(gas).toBeDefined();
    expect(after('Total')).toBe(
      `at most ${formatEther(parseEther('0.0001') + parseEther(gas as string))} ETH (amount plus the most the gas can cost)`,
    );
    // the nonce is a detail: after the Details heading, not among the main rows
    expect(dialog.indexOf('Nonce')).toBeGreaterThan(dialog.indexOf('Details'));
    expect(dialog.indexOf('Details')).toBeGreaterThan(dialog.indexOf('Total'));
    harness.answerDialogs();

    const page = shownTexts((await openHomePage(harness)).content);
    expect(page).toContain(
      `On ${LOCAL}, EntryPoint v0.6 is ${entryPoint}: not the canonical EntryPoint v0.6. Create a v0.6 account there only if you trust who set it.`,
    );
  });

  it('page words: a chain URL with a user name and password is refused as such; the version choice in plain words; a notice names its chain and says when it came', async () => {
    let ui = await openHomePage(harness);
    await ui.typeInField('chain-scope', devnet.scope);
    await ui.typeInField('chain-rpcUrl', 'http://user:secret@127.0.0.1:9/');
    ui = await click('chain-form-submit', ui);
    expect(findField(ui.content, 'chain-rpcUrl')).toBe(
      'This address holds a user name and password, which this snap never sends: use the address your provider gives, with its key in the path or query',
    );
    expect(pageJson(ui)).not.toContain('setChainConfig');
    await expectError(
      harness.rpc('setChainConfig', {
        scope: devnet.scope,
        rpcUrl: 'http://user:secret@127.0.0.1:9/',
      }),
      -32602,
      /^Invalid setChainConfig params at rpcUrl: it holds a user name and password/u,
    );

    const field = [...walk(ui.content)].find(
      (node) =>
        node.type === 'Field' &&
        elementNames(node).includes('smart-entryPointVersion'),
    );
    expect(field.props.label).toMatch(
      /each gives the account a different address/u,
    );
    expect(shownTexts(field)).toContain(
      'Version 0.8: recommended, the newest (EntryPoint v0.8)',
    );

    /**
     * Save the devnet's chain on the page.
     *
     * @returns The notice's banner title.
     */
    const saveLocal = async (): Promise<string> => {
      const form = await openHomePage(harness);
      await form.typeInField('chain-scope', devnet.scope);
      await form.typeInField('chain-rpcUrl', devnet.rpcUrl);
      await form.typeInField('chain-bundlerUrl', devnet.bundlerUrl);
      await form.typeInField('chain-entryPoint', devnet.chainConfig.entryPoint);
      await form.typeInField(
        'chain-accountFactory',
        devnet.chainConfig.accountFactory,
      );
      const saved = await click('chain-form-submit', form);
      const banner = [...walk(saved.content)].find(
        (node) => node.type === 'Banner',
      );
      expect(shownTexts(banner.props.children)).toStrictEqual([
        `Saved ${LOCAL}`,
      ]);
      return banner.props.title;
    };
    const titles = [await saveLocal(), await saveLocal()];
    // the title carries the time the notice came (its value is not asserted)
    for (const title of titles) {
      expect(title).toMatch(/^Done at \d{2}:\d{2}:\d{2} UTC$/u);
    }
  });

  it('undo: an account that cannot pay the fee is told how much it needs, before any dialog; with funds it is undone and the card is a plain EOA again', async () => {
    await setBalance(eoa.address, '0');
    const dialogs = harness.dialogs.length;
    harness.answerDialogs(false);
    const short = await click(`account-undo-upgrade:${eoa.id}`);
    expect(harness.dialogs).toHaveLength(dialogs);
    expect(pageJson(short)).toMatch(
      /This account needs about [0-9.]+ ETH to undo the upgrade: it pays that fee itself \(a paymaster never does\), and it holds 0 ETH\./u,
    );
    harness.answerDialogs();

    await setBalance(eoa.address, '1');
    harness.answerDialogs(true);
    const done = await click(`account-undo-upgrade:${eoa.id}`);
    expect(JSON.stringify(harness.dialogs.at(-1))).toContain(
      'never a paymaster',
    );
    const hash = /transaction (0x[0-9a-f]{64})/u.exec(pageJson(done))?.[1];
    await client.waitForTransactionReceipt({
      hash: hash as Hex,
      timeout: 30_000,
    });
    expect(await client.getCode({ address: eoa.address })).toBeUndefined();
    const own = card(await openHomePage(harness), eoa.id);
    expect(rowText(own, 'Type')).toBe('Account (EOA)');
    expect(elementNames(own)).toContain(`account-upgrade:${eoa.id}`);
    expect(elementNames(own)).not.toContain(`account-undo-upgrade:${eoa.id}`);
    expect(elementNames(own)).not.toContain(`send-to:${eoa.id}`);
  });
});
