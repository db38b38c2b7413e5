/**
 * The home page after a send, and what each account's Activity says, through the built snap on
 * real parts (anvil on Prague with EntryPoint v0.6, v0.7 and v0.8, Simple7702Account, Alto): a
 * send from the page's Send form says what was sent and to whom, and its status follows by itself
 * until the operation is in a block (no button to press); the Activity lists what each account
 * sent and received (a plain transaction the snap signed, ETH received from it and from a smart
 * account), with amounts and recipients, each checked against anvil's own receipts and balances;
 * amounts are rounded for reading with the exact value under Details; notices name chains in
 * words; an upgraded EOA never shows as a plain one while Find my accounts runs; and no page word
 * is a method or field name.
 */
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import {
  bytesToHex,
  createPublicClient,
  formatEther,
  http,
  numberToHex,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import {
  cardOf,
  elementNames,
  findField,
  nextPage,
  noticeText,
  openHomePage,
  pageJson,
  pagesDuring,
  rowText,
  rowValues,
  shownTexts,
  walk,
} from './homePage';
import type { HomePageUi } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import { roundedWei } from '../../src/ui/chainNames';

jest.setTimeout(300_000);

const LOCAL = 'Local chain (31337)';

/** An account of the test. */
type Named = {
  /** Its keyring id. */
  id: string;
  /** Its address. */
  address: Address;
  /** The name it was created with. */
  name: string;
};

/**
 * An amount as the page shows it for reading.
 *
 * @param wei - The exact amount.
 * @returns `0.0003 ETH`.
 */
const readable = (wei: bigint): string => `${formatEther(roundedWei(wei))} ETH`;

/**
 * A hash as the Activity list shortens it.
 *
 * @param hash - 32-byte hex.
 * @returns `0x12345678…89abcdef`.
 */
const short = (hash: string): string =>
  `${hash.slice(0, 10).toLowerCase()}…${hash.slice(-8).toLowerCase()}`;

describe('home page: a send that follows itself, and an Activity of what was sent and received', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let alice: Named;
  let bob: Named;
  let savings: Named;
  let transferHash: Hex;
  let sentOp: Hex;

  /**
   * Create a named account from the companion.
   *
   * @param name - Its name.
   * @param options - More keyring_createAccount options.
   * @returns The account.
   */
  async function create(
    name: string,
    options: Record<string, any> = {},
  ): Promise<Named> {
    const account = await harness.createAccount({ ...options, name });
    return { id: account.id, address: account.address, name };
  }

  /**
   * The Activity lines of one account's card: `<label>: <text>`, in page order.
   *
   * @param ui - The page.
   * @param address - The account's address.
   * @returns The lines.
   */
  function activityLines(ui: HomePageUi, address: Address): string[] {
    return [...walk(cardOf(ui, address))]
      .filter(
        (node) =>
          node.type === 'Row' &&
          ['Sent', 'Received', 'Upgrade to a smart account'].includes(
            node.props.label,
          ),
      )
      .map(
        (node) =>
          `${node.props.label}: ${shownTexts(node.props.children).join('')}`,
      );
  }

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    alice = await create('Alice');
    bob = await create('Bob');
    savings = await create('Savings', {
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      entryPointVersion: '0.8',
    });
    for (const [account, ether] of [
      [alice, '2'],
      [savings, '1'],
    ] as const) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        account.address,
        numberToHex(parseEther(ether)),
      ]);
    }
    // Alice signs a plain EIP-1559 transaction paying Bob 0.5 ETH; it is broadcast as MetaMask would
    const tx = {
      type: '0x2',
      from: alice.address,
      to: bob.address,
      chainId: numberToHex(devnet.chainId),
      nonce: numberToHex(
        await client.getTransactionCount({ address: alice.address }),
      ),
      gasLimit: '0x5208',
      maxFeePerGas: numberToHex(parseEther('0.00000005')),
      maxPriorityFeePerGas: '0x3b9aca00',
      value: numberToHex(parseEther('0.5')),
      data: '0x',
    };
    const { result } = await harness.submit(
      alice,
      'eth_signTransaction',
      [tx],
      devnet.scope,
    );
    const raw = bytesToHex(
      createTx({ ...tx, ...result } as never, {
        common: createCustomCommon({ chainId: devnet.chainId }, Mainnet),
      }).serialize(),
    );
    transferHash = await client.sendRawTransaction({
      serializedTransaction: raw,
    });
    await client.waitForTransactionReceipt({
      hash: transferHash,
      timeout: 30_000,
    });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('a send from the Send form: the notice says what was sent, to whom, from which account and chain; the status follows by itself until it is in a block; no button to refresh it', async () => {
    const ui = await openHomePage(harness);
    await ui.typeInField(`send-to:${savings.id}`, bob.address);
    await ui.typeInField(`send-value:${savings.id}`, '0.1');
    harness.answerDialogs(true);
    const pages = await pagesDuring(ui, async (current) =>
      current.clickElement(`send:${savings.id}-submit`),
    );
    expect(pages.length).toBeGreaterThan(1);
    const sent = `Sent 0.1 ETH to Bob (${bob.address}) from Savings on ${LOCAL}`;
    expect(noticeText(pages[0])).toMatch(
      new RegExp(
        `^${sent.replace(/[().]/gu, '\\$&')}: waiting for it to be in a block \\(user operation 0x[0-9a-f]{64}\\)$`,
        'u',
      ),
    );
    sentOp = /user operation (0x[0-9a-f]{64})/u.exec(
      noticeText(pages[0]) ?? '',
    )?.[1] as Hex;
    const receipt = await bundlerReceipt(devnet.bundlerUrl, sentOp);
    expect(receipt.success).toBe(true);
    const last = pages.at(-1) as HomePageUi;
    expect(noticeText(last)).toBe(
      `${sent}: succeeded in block ${BigInt(receipt.receipt.blockNumber)}, fee ${readable(BigInt(receipt.actualGasCost))} (user operation ${sentOp})`,
    );
    for (const page of pages) {
      expect(
        elementNames(page.content).filter((name) =>
          name.startsWith('userop-status'),
        ),
      ).toStrictEqual([]);
      expect(shownTexts(page.content)).not.toContain('Refresh status');
    }
    // the Activity of the last page lists it as sent, with its amount and recipient
    expect(activityLines(last, savings.address)[0]).toBe(
      `Sent: 0.1 ETH to Bob (${bob.address}) · Succeeded in block ${BigInt(receipt.receipt.blockNumber)} · fee ${readable(BigInt(receipt.actualGasCost))} · ${short(sentOp)}`,
    );
  });

  it('activity lists a plain transaction the snap signed, and the ETH each account received, as anvil’s receipts and balances say', async () => {
    const ui = await openHomePage(harness);
    const transfer = await client.getTransactionReceipt({ hash: transferHash });
    const opReceipt = await bundlerReceipt(devnet.bundlerUrl, sentOp);
    const opBlock = BigInt(opReceipt.receipt.blockNumber);
    // Bob holds what he received, as anvil says
    expect(await client.getBalance({ address: bob.address })).toBe(
      parseEther('0.6'),
    );
    expect(activityLines(ui, bob.address)).toStrictEqual([
      `Received: 0.1 ETH · in block ${opBlock}`,
      `Received: 0.5 ETH from Alice (${alice.address}) · in block ${transfer.blockNumber} · ${short(transferHash)}`,
    ]);
    expect(activityLines(ui, alice.address)).toContain(
      `Sent: 0.5 ETH to Bob (${bob.address}) · Succeeded in block ${transfer.blockNumber} · fee ${readable(transfer.gasUsed * transfer.effectiveGasPrice)} · ${short(transferHash)}`,
    );
    // the exact amounts are one look away: the entry's tooltip
    const row = [...walk(cardOf(ui, alice.address))].find(
      (node) =>
        node.type === 'Row' &&
        node.props.label === 'Sent' &&
        shownTexts(node.props.children).join('').includes('0.5 ETH'),
    );
    expect(row.props.tooltip).toBe(
      `Exact: 0.5 ETH, fee ${formatEther(transfer.gasUsed * transfer.effectiveGasPrice)} ETH. Transaction ${transferHash}`,
    );
  });

  it('balances are rounded for reading, the exact value under Details', async () => {
    const carol = await create('Carol');
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      carol.address,
      numberToHex(parseEther('0.989634217')),
    ]);
    await jsonRpc(devnet.rpcUrl, 'anvil_mine', ['0x1']);
    const card = cardOf(await openHomePage(harness), carol.address);
    expect(rowText(card, `Balance on ${LOCAL}`)).toBe('0.9896 ETH');
    const texts = shownTexts(card);
    expect(texts.indexOf(`Exact balance on ${LOCAL}`)).toBeGreaterThan(
      texts.indexOf('Details'),
    );
    expect(rowValues(card, `Exact balance on ${LOCAL}`)).toStrictEqual([
      '0.989634217 ETH',
    ]);
  });

  it('the upgrade’s notice names the chain in words and follows it too; while Find my accounts runs, the upgraded EOA never shows as a plain one', async () => {
    harness.answerDialogs(true);
    const pages = await pagesDuring(
      await openHomePage(harness),
      async (current) => current.clickElement(`account-upgrade:${alice.id}`),
    );
    expect(noticeText(pages[0])).toMatch(
      new RegExp(`^Upgrade sent on ${LOCAL.replace(/[()]/gu, '\\$&')}`, 'u'),
    );
    expect(noticeText(pages.at(-1) as HomePageUi)).toMatch(
      /: succeeded in block \d+, fee [0-9.]+ ETH \(user operation 0x[0-9a-f]{64}\)$/u,
    );
    // an upgrade that sends nothing lists no transfer to the account itself
    expect(activityLines(pages.at(-1) as HomePageUi, alice.address)[0]).toMatch(
      /^Upgrade to a smart account: Succeeded in block \d+ · fee [0-9.]+ ETH · 0x[0-9a-f]{8}…[0-9a-f]{8}$/u,
    );
    const upgraded = await openHomePage(harness);
    expect(rowText(cardOf(upgraded, alice.address), 'Type')).toMatch(
      /^Upgraded to a smart account on Local chain \(31337\)/u,
    );
    const searching = await pagesDuring(upgraded, async (current) =>
      current.clickElement('accounts-restore'),
    );
    expect(searching.length).toBeGreaterThan(1);
    for (const page of searching) {
      expect(rowText(cardOf(page, alice.address), 'Type')).toMatch(
        /^Upgraded to a smart account on Local chain \(31337\)/u,
      );
    }
  });

  it('page words: the bundler is not called optional; no "intent"; the IPFS form answers a URL with a user name and password in words, never a method or field name', async () => {
    let ui = await openHomePage(harness);
    const bundler = [...walk(ui.content)].find(
      (node) =>
        node.type === 'Field' &&
        elementNames(node).includes('chain-bundlerUrl'),
    );
    expect(bundler.props.label).not.toMatch(/optional/iu);
    expect(bundler.props.label).toMatch(/needed to send from smart accounts/u);
    expect(pageJson(ui)).not.toMatch(/\bintents?\b/iu);

    await ui.typeInField('ipfs-apiUrl', 'https://user:secret@ipfs.example');
    ui = await nextPage(ui, async (current) =>
      current.clickElement('ipfs-form-submit'),
    );
    const error = findField(ui.content, 'ipfs-apiUrl');
    expect(error).toBe(
      'This address holds a user name and password: enter the address without them, and the user name and password as the API key and secret below',
    );
    expect(noticeText(ui)).toBe(error);
    expect(shownTexts(ui.content).join('\n')).not.toMatch(
      /setIpfsConfig|apiUrl|apiKey|Invalid /u,
    );
  });

  // snaps-jest runs one install at a time: this one comes last, the first install stops here.
  it('after Find my accounts on a new install, the Activity reads what each operation sent back from the chain', async () => {
    const again = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await again.rpcApproved('setChainConfig', selfPaid);
    await again.rpcApproved('findAccounts');
    const ui = await openHomePage(again);
    const receipt = await bundlerReceipt(devnet.bundlerUrl, sentOp);
    const sentLine = activityLines(ui, savings.address).find((line) =>
      line.includes(short(sentOp)),
    );
    expect(sentLine).toMatch(
      new RegExp(
        `^Sent: 0\\.1 ETH to .+ \\(${bob.address}\\) · Succeeded in block ${BigInt(receipt.receipt.blockNumber)} · `,
        'u',
      ),
    );
  });
});
