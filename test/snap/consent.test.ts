/**
 * Keys and settings never change hands silently: what the companion site changes or receives is
 * confirmed in a snap_dialog naming the site and the change (URLs masked, addresses in full);
 * MetaMask's own calls need none. Through the built snap (snaps-jest), on anvil behind the limits
 * proxy (an RPC API key in the URL path).
 */
import type { Json } from '@metamask/utils';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import {
  COMPANION,
  dialogOf,
  dialogText,
  installKeyringSnap,
  METAMASK,
} from './harness';
import type { KeyringHarness, PendingRequest } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';

const RPC_KEY = 'consent-rpc-key-5e1f9a';
const OTHER_FACTORY = '0x1111111111111111111111111111111111111111';

describe('consent for what a site changes or receives', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let harness: KeyringHarness;
  let writes = 0;

  beforeAll(async () => {
    anvil = await startAnvil();
    proxy = await startLimitsProxy({ upstream: anvil.url, apiKey: RPC_KEY });
    harness = await installKeyringSnap({
      onStateWrite: () => {
        writes += 1;
      },
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  /**
   * A request from the companion site.
   *
   * @param kind - onKeyringRequest or onRpcRequest.
   * @param method - The method.
   * @param params - Its params.
   * @param origin - The caller.
   * @returns The request in flight.
   */
  const send = (
    kind: 'keyring' | 'rpc',
    method: string,
    params: Record<string, Json>,
    origin = COMPANION,
  ): PendingRequest =>
    kind === 'keyring'
      ? harness.snap.onKeyringRequest({ origin, method, params })
      : harness.snap.request({ origin, method, params });

  /**
   * What the snap reads back: chain configs, approval mode, accounts; and how many state writes.
   *
   * @returns A snapshot to compare.
   */
  const observed = async (): Promise<string> =>
    JSON.stringify([
      await harness.rpc('getChainConfigs'),
      await harness.rpc('getApprovalMode'),
      await harness.keyring('keyring_listAccounts'),
      writes,
    ]);

  /**
   * Send, expect a dialog whose text contains `expected`, cancel it: 4001 and nothing changed.
   *
   * @param pending - The request.
   * @param expected - Strings the dialog must show.
   * @returns The dialog's text.
   */
  async function cancelled(
    pending: PendingRequest,
    expected: string[],
  ): Promise<string> {
    const dialog = await dialogOf(pending);
    expect(dialog?.type).toBe('confirmation');
    const text = dialogText(dialog as NonNullable<typeof dialog>);
    for (const fragment of [COMPANION, ...expected]) {
      expect(text).toContain(fragment);
    }
    await dialog?.cancel();
    expect(((await pending).response as any).error?.code).toBe(4001);
    return text;
  }

  it('setChainConfig: the dialog names the site, masks the URL, flags a foreign factory; cancel is 4001 and nothing changes; ok applies', async () => {
    const scope = `eip155:${anvil.chainId}`;
    const params = { scope, rpcUrl: proxy.url, accountFactory: OTHER_FACTORY };
    const before = await observed();
    const text = await cancelled(send('rpc', 'setChainConfig', params), [
      scope,
      `${new URL(proxy.url).origin}/***`,
      `${OTHER_FACTORY} (NOT the canonical`,
      '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789 (canonical',
    ]);
    expect(text).not.toContain(RPC_KEY);
    expect(await observed()).toBe(before);

    const approved = send('rpc', 'setChainConfig', params);
    await (await dialogOf(approved))?.ok();
    expect(((await approved).response as any).result.scope).toBe(scope);
    expect(await harness.rpc('getChainConfigs')).toHaveLength(1);
  });

  it('setChainConfig: a dead RPC URL or one serving another chain is refused before any dialog, in words a page can show', async () => {
    const before = await observed();
    const closed = createServer();
    await new Promise<void>((resolve) =>
      closed.listen(0, '127.0.0.1', resolve),
    );
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    for (const [params, error] of [
      [
        {
          scope: `eip155:${anvil.chainId}`,
          rpcUrl: `http://127.0.0.1:${port}`,
        },
        {
          code: -32002,
          message:
            "Couldn't reach this node: check the address, and that the node is running",
          data: { reason: 'rpcUnreachable', field: 'rpcUrl' },
        },
      ],
      [
        { scope: 'eip155:1', rpcUrl: proxy.url },
        {
          code: -32602,
          message: `Invalid setChainConfig params at rpcUrl: it serves chain ${anvil.chainId}, not eip155:1`,
          data: {
            reason: 'chainMismatch',
            field: 'rpcUrl',
            chainId: String(anvil.chainId),
            scope: 'eip155:1',
          },
        },
      ],
    ] as const) {
      const pending = send('rpc', 'setChainConfig', params);
      expect(await dialogOf(pending)).toBeUndefined();
      expect(((await pending).response as any).error).toMatchObject(error);
    }
    expect(await observed()).toBe(before);
  });

  it('setIpfsConfig: masked URL, credentials never shown; cancel is 4001 and nothing is written', async () => {
    const before = await observed();
    const text = await cancelled(
      send('rpc', 'setIpfsConfig', {
        apiUrl: 'https://ipfs.example.com/gateway',
        apiKey: 'ipfs-key-77aa11',
        apiKeySecret: 'ipfs-secret-88bb22',
      }),
      ['https://ipfs.example.com/***'],
    );
    expect(text).not.toMatch(/ipfs-key-77aa11|ipfs-secret-88bb22|gateway/u);
    expect(await observed()).toBe(before);
  });

  it('setApprovalMode: cancel is 4001 and the mode stays; ok applies', async () => {
    const before = await observed();
    await cancelled(send('rpc', 'setApprovalMode', { mode: 'async' }), [
      'from sync to async',
    ]);
    expect(await observed()).toBe(before);
    expect(
      await harness.rpcApproved('setApprovalMode', { mode: 'async' }),
    ).toEqual({ mode: 'async' });
    expect(await harness.rpc('getApprovalMode')).toEqual({
      mode: 'async',
    });
    await harness.rpcApproved('setApprovalMode', { mode: 'sync' });
  });

  it('keyring_deleteAccount from the site names the account; cancel keeps it; ok deletes; MetaMask needs no dialog', async () => {
    const account = await harness.createAccount();
    const before = await observed();
    const name = harness.events.at(-1)?.params.accountNameSuggestion;
    await cancelled(
      send('keyring', 'keyring_deleteAccount', { id: account.id }),
      [`${name} (${account.address})`],
    );
    expect(await observed()).toBe(before);
    await harness.keyringApproved('keyring_deleteAccount', { id: account.id });
    expect(
      (await harness.keyring('keyring_listAccounts')).map((a: any) => a.id),
    ).not.toContain(account.id);

    const other = await harness.createAccount();
    const fromWallet = send(
      'keyring',
      'keyring_deleteAccount',
      { id: other.id },
      METAMASK,
    );
    expect(await dialogOf(fromWallet)).toBeUndefined();
    expect(((await fromWallet).response as any).result).toBeNull();
  });

  it('keyring_exportAccount says the key is sent to the site, naming the account in full; cancel is 4001', async () => {
    const account = await harness.createAccount();
    const text = await cancelled(
      send('keyring', 'keyring_exportAccount', { id: account.id }),
      [
        `Send private key to ${COMPANION}`,
        `(${account.address}) will be sent to ${COMPANION}`,
      ],
    );
    expect(text).not.toMatch(/reveal/iu);
  });

  it('an account deleted while the export dialog is open gives no key (-32001)', async () => {
    const account = await harness.createAccount();
    const exporting = send('keyring', 'keyring_exportAccount', {
      id: account.id,
    });
    const dialog = await dialogOf(exporting);
    expect(dialog?.type).toBe('confirmation');
    await harness.keyring(
      'keyring_deleteAccount',
      { id: account.id },
      METAMASK,
    );
    await dialog?.ok();
    const { response } = (await exporting) as any;
    expect(response.result).toBeUndefined();
    expect(response.error.code).toBe(-32001);
    expect(JSON.stringify(response)).not.toMatch(/[0-9a-f]{64}/iu);
  });
});
