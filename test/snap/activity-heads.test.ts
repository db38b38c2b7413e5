/**
 * The Activity list against a chain RPC that lies about its latest block, through the built snap,
 * on real parts: anvil with the v0.6 contracts and the Alto bundler, the snap's RPC behind the
 * limits proxy (which answers one `eth_blockNumber` with 2^200), and a second anvil of the same
 * chain id, 500 blocks ahead, standing for another node of the chain (a restarted local chain, a fork).
 * What the list shows is compared with the EntryPoint's own logs read from anvil with viem.
 */
import type { Json } from '@metamask/utils';
import { createPublicClient, http, parseAbiItem, parseEther } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { COMPANION, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { openHomePage, shownTexts, walk } from './homePage';
import type { HomePageUi } from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';

jest.setTimeout(300_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const EVENT = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
);
const WARNING = "Couldn't read the activity on Local chain (31337)";

/**
 * A hash as the page shortens it.
 *
 * @param hash - 32-byte hex.
 * @returns `0x12345678…89abcdef`.
 */
const short = (hash: string): string =>
  `${hash.slice(0, 10).toLowerCase()}…${hash.slice(-8).toLowerCase()}`;

describe('Activity list when the chain RPC lies about its latest block', () => {
  let devnet: Devnet;
  let proxy: LimitsProxy;
  let other: Anvil;
  let client: PublicClient;
  let harness: KeyringHarness;
  let account: { id: string; address: Address };
  let selfPaid: Record<string, Json>;

  /**
   * sendUserOperation through its dialog, then wait until it is mined.
   *
   * @returns The userOpHash.
   */
  async function send(): Promise<Hex> {
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: account.id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x1', data: '0x' }],
      },
    });
    await ((await request.getInterface()) as any).ok();
    const { response } = (await request) as any;
    const { userOpHash } = response.result as { userOpHash: Hex };
    expect((await bundlerReceipt(devnet.bundlerUrl, userOpHash)).success).toBe(
      true,
    );
    return userOpHash;
  }

  /**
   * The account's operations as the EntryPoint logged them on the devnet's anvil, newest first.
   *
   * @returns Each one as {@link listed} shows it: `<short hash> succeeded in block <n>`.
   */
  async function onChain(): Promise<string[]> {
    const logs = await client.getLogs({
      address: devnet.contracts.entryPoint,
      event: EVENT,
      args: { sender: account.address },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    return logs
      .map(
        (log) =>
          `${short(log.args.userOpHash as Hex)} succeeded in block ${log.blockNumber}`,
      )
      .reverse();
  }

  /**
   * The page's Activity part of the account: whether it warns that the read failed, and each listed
   * operation, in page order, as `<short hash> succeeded in block <n>` (or `<short hash> pending`).
   *
   * @param ui - The page.
   * @returns `{ warned, lines }`.
   */
  function listed(ui: HomePageUi): { warned: boolean; lines: string[] } {
    const card = [...walk(ui.content)].find(
      (node) =>
        node.type === 'Section' &&
        [...walk(node)].some(
          (child) =>
            child.type === 'Copyable' && child.props.value === account.address,
        ),
    );
    const texts = shownTexts(card);
    return {
      warned: texts.some((text) => text.startsWith(WARNING)),
      lines: [...walk(card)]
        .filter((node) => node.type === 'Row' && node.props.label === 'Sent')
        .map((node) => {
          const text = shownTexts(node.props.children).join('');
          const hash = /0x[0-9a-f]{8}…[0-9a-f]{8}/u.exec(text)?.[0];
          const block = /Succeeded in block ([0-9]+)/u.exec(text)?.[1];
          return `${hash} ${block ? `succeeded in block ${block}` : 'pending'}`;
        }),
    };
  }

  /**
   * Send an operation, reopen the page: no warning, and the list is the EntryPoint's logs, the new
   * operation first, succeeded.
   */
  async function expectNextSendListed(): Promise<void> {
    const hash = await send();
    const after = listed(await openHomePage(harness));
    expect(after).toStrictEqual({ warned: false, lines: await onChain() });
    expect(after.lines[0]).toMatch(
      new RegExp(`^${short(hash)} succeeded`, 'u'),
    );
  }

  beforeAll(async () => {
    devnet = await startDevnet();
    proxy = await startLimitsProxy({ upstream: devnet.rpcUrl });
    other = await startAnvil(); // the same chain id, 31337
    await jsonRpc(other.url, 'anvil_mine', ['0x1f4']); // 500 blocks ahead of the devnet
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsored, ...config } = devnet.chainConfig;
    selfPaid = { ...config, rpcUrl: proxy.url };
    await harness.rpcApproved('setChainConfig', selfPaid);
    account = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    await send();
    await openHomePage(harness); // the first read
  });

  afterAll(async () => {
    await proxy?.close();
    await other?.stop();
    await devnet?.stop();
  });

  it('one eth_blockNumber of 2^200 is refused (the page says the read failed) and moves nothing: the next operation is listed', async () => {
    await jsonRpc(devnet.rpcUrl, 'anvil_mine', ['0x1']); // the chain moved on since the first read
    proxy.inject({
      type: 'result',
      method: 'eth_blockNumber',
      result: `0x1${'0'.repeat(50)}`,
      times: 1,
    });
    const lied = listed(await openHomePage(harness));
    expect(lied.warned).toBe(true);
    await expectNextSendListed();
  });

  it('a new RPC URL starts the reads afresh: after another node 500 blocks ahead, the devnet’s next operation is listed', async () => {
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      rpcUrl: other.url,
    });
    await openHomePage(harness); // read from the other node, up to its block 500
    await harness.rpcApproved('setChainConfig', selfPaid);
    await expectNextSendListed();
  });
});
