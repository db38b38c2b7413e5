/**
 * Each account's Activity list on the home page, through the built snap, on real parts: anvil
 * (Prague) with EntryPoint v0.6, v0.7 and v0.8, Simple7702Account and the Alto bundler, and the
 * snap's chain RPC behind the limits proxy (test-only: it counts the eth_getLogs calls that reach
 * the provider, and caps their results). Smart accounts on each EntryPoint version send
 * operations, an EOA is upgraded (EIP-7702), sends one and is undone; the page's list is compared
 * with what viem reads from anvil directly (the EntryPoints' UserOperationEvent logs, the undo's
 * receipt). The first read goes through a provider that returns at most one log per call (the
 * list is still complete); a reopened page asks only for the blocks mined since.
 */
import {
  createPublicClient,
  pad,
  formatEther,
  http,
  parseAbiItem,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { COMPANION, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { nextPage, openHomePage, pageJson, shownTexts, walk } from './homePage';
import type { HomePageUi } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { roundedWei } from '../../src/ui/chainNames';

jest.setTimeout(300_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const EVENT = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
);
const LABELS = ['Sent', 'Upgrade to a smart account', 'Undo upgrade'];

/**
 * An amount as the page shows it for reading.
 *
 * @param wei - The exact amount.
 * @returns `0.0003 ETH`.
 */
const readable = (wei: bigint): string => `${formatEther(roundedWei(wei))} ETH`;

/**
 * A hash as the page shortens it.
 *
 * @param hash - 32-byte hex.
 * @returns `0x12345678…89abcdef`.
 */
const short = (hash: string): string =>
  `${hash.slice(0, 10).toLowerCase()}…${hash.slice(-8).toLowerCase()}`;

describe('Activity list on the home page, read from the chain (every EntryPoint version, EIP-7702)', () => {
  let devnet: Devnet;
  let proxy: LimitsProxy;
  let client: PublicClient;
  let harness: KeyringHarness;
  const accounts: { id: string; address: Address; label: string }[] = [];
  let undoHash: Hex;
  /** What each operation sent to 0x…dEaD, by userOpHash (lower case). */
  const sentValues = new Map<string, bigint>();

  /**
   * Alto's receipt of an operation, polled (devnet/json-rpc.ts: bounded, 200 × 100 ms).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  async function receiptOf(userOpHash: Hex): Promise<any> {
    return bundlerReceipt(devnet.bundlerUrl, userOpHash);
  }

  /**
   * sendUserOperation through its dialog, then wait until it is mined.
   *
   * @param id - The account id.
   * @param value - Wei sent to 0x…dEaD.
   * @returns The userOpHash.
   */
  async function send(id: string, value: string): Promise<Hex> {
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value, data: '0x' }],
      },
    });
    await ((await request.getInterface()) as any).ok();
    const { response } = (await request) as any;
    const { userOpHash } = response.result as { userOpHash: Hex };
    expect((await receiptOf(userOpHash)).success).toBe(true);
    sentValues.set(userOpHash.toLowerCase(), BigInt(value));
    return userOpHash;
  }

  /**
   * Create an account in the snap and give it 1 ETH on anvil.
   *
   * @param options - keyring_createAccount options.
   * @param label - What the test calls it.
   * @returns The account.
   */
  async function funded(
    options: Record<string, any>,
    label: string,
  ): Promise<{ id: string; address: Address; label: string }> {
    const account = await harness.createAccount(options);
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    const entry = { id: account.id, address: account.address, label };
    accounts.push(entry);
    return entry;
  }

  /**
   * The Activity lines of one account's card: `<kind>: <text>`, in page order.
   *
   * @param ui - The page.
   * @param address - The account's address.
   * @returns The lines.
   */
  function activityLines(ui: HomePageUi, address: Address): string[] {
    const card = [...walk(ui.content)].find(
      (node) =>
        node.type === 'Section' &&
        [...walk(node)].some(
          (child) => child.type === 'Copyable' && child.props.value === address,
        ),
    );
    return [...walk(card)]
      .filter(
        (node) => node.type === 'Row' && LABELS.includes(node.props.label),
      )
      .map(
        (node) =>
          `${node.props.label}: ${shownTexts(node.props.children).join('')}`,
      );
  }

  /**
   * What the list must show for an account, read from anvil with viem: its UserOperationEvent logs
   * of the three EntryPoints (and, for the EOA, its undo's receipt), newest first.
   *
   * @param address - The account.
   * @param upgrade - The userOpHash of the EOA's upgrade, if any.
   * @returns The lines.
   */
  async function expectedLines(
    address: Address,
    upgrade?: Hex,
  ): Promise<string[]> {
    const deployments = devnet.entryPoints as EntryPointsDeployment;
    const logs = await client.getLogs({
      address: [
        devnet.contracts.entryPoint,
        deployments['0.7'].entryPoint,
        deployments['0.8'].entryPoint,
      ],
      event: EVENT,
      args: { sender: address },
      fromBlock: 0n,
      toBlock: 'latest',
    });
    const lines = logs.map((log) => {
      const sent = sentValues.get((log.args.userOpHash as Hex).toLowerCase());
      const what = sent === undefined ? '' : `${readable(sent)} to ${DEAD} · `;
      return {
        block: log.blockNumber,
        text: `${log.args.userOpHash === upgrade ? LABELS[1] : LABELS[0]}: ${what}${log.args.success ? 'Succeeded' : 'Failed'} in block ${log.blockNumber} · fee ${readable(log.args.actualGasCost as bigint)} · ${short(log.args.userOpHash as Hex)}`,
      };
    });
    if (upgrade) {
      const receipt = await client.getTransactionReceipt({ hash: undoHash });
      lines.push({
        block: receipt.blockNumber,
        text: `${LABELS[2]}: ${receipt.status === 'success' ? 'Succeeded' : 'Failed'} in block ${receipt.blockNumber} · fee ${readable(receipt.gasUsed * receipt.effectiveGasPrice)} · ${short(undoHash)}`,
      });
    }
    return lines
      .sort((a, b) => Number(b.block - a.block))
      .map((line) => line.text);
  }

  let upgradeHash: Hex;
  /** The EOA's first Activity line right after the undo was sent. */
  let pendingUndo: string | undefined;

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    // every read of the list goes through a provider that returns at most one log per call
    proxy = await startLimitsProxy({ upstream: devnet.rpcUrl, maxResults: 1 });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      rpcUrl: proxy.url,
    });

    const v06 = await funded(
      { type: 'eip155:erc4337', scopes: [devnet.scope] },
      'v0.6',
    );
    await send(v06.id, '0x1');
    for (const version of ['0.7', '0.8'] as const) {
      const smart = await funded(
        {
          type: 'eip155:erc4337',
          scopes: [devnet.scope],
          entryPointVersion: version,
        },
        `v${version}`,
      );
      await send(smart.id, '0x2');
      await send(smart.id, '0x3');
    }
    const eoa = await funded({}, 'EOA');
    const ui = await openHomePage(harness);
    harness.answerDialogs(true);
    const upgraded = await nextPage(ui, async (current) =>
      current.clickElement(`account-upgrade:${eoa.id}`),
    );
    upgradeHash = /user operation (0x[0-9a-f]{64})/u.exec(
      pageJson(upgraded),
    )?.[1] as Hex;
    await receiptOf(upgradeHash);
    await send(eoa.id, '0x4');
    // a fresh page reads the EOA's code: upgraded, so it offers Undo upgrade only
    const reopened = await openHomePage(harness);
    harness.answerDialogs(true);
    const undone = await nextPage(reopened, async (current) =>
      current.clickElement(`account-undo-upgrade:${eoa.id}`),
    );
    undoHash = /transaction (0x[0-9a-f]{64})/u.exec(
      pageJson(undone),
    )?.[1] as Hex;
    pendingUndo = activityLines(undone, eoa.address)[0];
    await client.waitForTransactionReceipt({ hash: undoHash, timeout: 30_000 });
  });

  afterAll(async () => {
    await proxy?.close();
    await devnet?.stop();
  });

  it('lists every account’s operations (v0.6, v0.7, v0.8, an EOA’s upgrade, operation and undo) as anvil’s own logs and receipt say, even through a provider that returns one log per call', async () => {
    // the undo was listed as pending as soon as it was sent
    expect(pendingUndo).toBe(
      `${LABELS[2]}: Pending: sent, not in a block yet · ${short(undoHash)}`,
    );
    const ui = await openHomePage(harness);
    // the cap was met, and the reads split within it
    expect(proxy.stats.limitErrors).toBeGreaterThan(0);
    for (const account of accounts) {
      const upgrade = account.label === 'EOA' ? upgradeHash : undefined;
      const expected = await expectedLines(account.address, upgrade);
      expect(expected.length).toBeGreaterThan(0);
      expect({
        account: account.label,
        lines: activityLines(ui, account.address),
      }).toEqual({
        account: account.label,
        lines: expected,
      });
    }
  });

  it('reopening the page asks the provider only for the blocks mined since the last read', async () => {
    proxy.options.maxResults = 10_000;
    await openHomePage(harness);
    const before = await client.getBlockNumber();
    proxy.resetStats();
    await openHomePage(harness);
    // nothing mined: no eth_getLogs at all
    expect(proxy.stats.methods.eth_getLogs ?? 0).toBe(0);

    await jsonRpc(devnet.rpcUrl, 'anvil_mine', ['0x5']);
    proxy.resetStats();
    const ui = await openHomePage(harness);
    const ranges = proxy.stats.getLogsFilters.map((filter) => [
      BigInt(filter.fromBlock as string),
      BigInt(filter.toBlock as string),
    ]);
    // one call per account, each over the five new blocks only
    expect(ranges).toEqual(accounts.map(() => [before + 1n, before + 5n]));
    for (const account of accounts) {
      expect(activityLines(ui, account.address)).toEqual(
        await expectedLines(
          account.address,
          account.label === 'EOA' ? upgradeHash : undefined,
        ),
      );
    }
  });

  it('the Refresh activity button (activity-refresh:<id>) reads that account alone and lists its new operation', async () => {
    const v08 = accounts.find((account) => account.label === 'v0.8') as {
      id: string;
      address: Address;
    };
    const ui = await openHomePage(harness);
    const hash = await send(v08.id, '0x5');
    proxy.resetStats();
    const after = await nextPage(ui, async (current) =>
      current.clickElement(`activity-refresh:${v08.id}`),
    );
    // one eth_getLogs, for this account's sender alone
    expect(
      proxy.stats.getLogsFilters.map(
        (filter) => (filter.topics as string[])[2],
      ),
    ).toStrictEqual([pad(v08.address.toLowerCase() as Hex)]);
    const lines = activityLines(after, v08.address);
    expect(lines[0]).toContain(short(hash));
    expect(lines).toStrictEqual(await expectedLines(v08.address));
  });
});
