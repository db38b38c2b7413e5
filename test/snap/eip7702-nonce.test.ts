/**
 * The EIP-7702 authorization nonce comes from the chain's RPC, which may lie: one that reports a
 * future nonce gets an authorization (and the operation carrying it) that becomes valid later. The
 * built snap reads the EOA's nonce at `latest` and at `pending` and refuses when they differ, or
 * when they fall below a nonce it already signed an authorization with for that EOA. Parts: anvil
 * (Prague) with EntryPoint v0.8 and Simple7702Account, Alto; in front of anvil a proxy that lies
 * about `eth_getTransactionCount` on demand, in front of Alto a bundler that keeps what it is sent.
 * Checked: the error, no dialog, nothing handed to the bundler, the EOA's code still empty.
 */
import { parseEther } from 'viem';
import type { Address, Hex } from 'viem';

import { COMPANION, dialogOf, installKeyringSnap, rejection } from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  startKeepingBundler,
  startRewritingProxy,
} from '../fixtures/rewriting-proxy';
import type {
  KeepingBundler,
  RewritingProxy,
} from '../fixtures/rewriting-proxy';

jest.setTimeout(240_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';

describe('EIP-7702: an RPC that lies about the EOA’s nonce gets nothing signed (built snap)', () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let keeping: KeepingBundler;
  let rpc: RewritingProxy;
  /** How the proxy answers eth_getTransactionCount per block tag (absent: the truth). */
  let lie: Partial<Record<'latest' | 'pending', Hex>> = {};

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    keeping = await startKeepingBundler(devnet.bundlerUrl);
    rpc = await startRewritingProxy(devnet.rpcUrl, (call) => {
      const tag = call.params?.[1] as 'latest' | 'pending' | undefined;
      const told = tag ? lie[tag] : undefined;
      return call.method === 'eth_getTransactionCount' && told
        ? { result: told }
        : undefined;
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      rpcUrl: rpc.url,
      bundlerUrl: keeping.url,
    });
  });

  afterEach(() => {
    lie = {}; // a failed test leaves the next one an honest RPC
  });

  afterAll(async () => {
    await rpc?.stop();
    await keeping?.stop();
    await devnet?.stop();
  });

  /**
   * Start sendUserOperation from the EOA (0x10 wei to 0xdEaD).
   *
   * @param id - The EOA's account id.
   * @returns The request in flight.
   */
  const send = (id: string): ReturnType<KeyringHarness['snap']['request']> =>
    harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x10', data: '0x' }],
      },
    });

  /**
   * Expect a send refused before any dialog, with nothing handed to the bundler.
   *
   * @param id - The EOA's account id.
   * @param address - Its address.
   * @param message - What the error must say.
   */
  async function expectRefusedUnsigned(
    id: string,
    address: Address,
    message: RegExp,
  ): Promise<void> {
    const kept = keeping.kept.length;
    const pending = send(id);
    expect(await dialogOf(pending)).toBeUndefined();
    const { response } = (await pending) as any;
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toMatch(message);
    expect(response.error.message).toMatch(/nothing was signed/u);
    expect(keeping.kept).toHaveLength(kept);
    expect(
      await jsonRpc<string>(devnet.rpcUrl, 'eth_getCode', [address, 'latest']),
    ).toBe('0x');
  }

  it('refuses when the RPC reports a future nonce as pending (latest and pending disagree)', async () => {
    const eoa = await harness.createAccount({});
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      eoa.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    lie = { pending: '0x5' };
    await expectRefusedUnsigned(
      eoa.id,
      eoa.address,
      /nonce as 0 in the latest block but 5 pending/u,
    );
    lie = { latest: '0x3', pending: '0x0' };
    await expectRefusedUnsigned(
      eoa.id,
      eoa.address,
      /as 3 in the latest block but 0 pending/u,
    );
  });

  it('refuses a nonce below one it already signed an authorization with for that EOA', async () => {
    const eoa = await harness.createAccount({});
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      eoa.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    await jsonRpc(devnet.rpcUrl, 'anvil_setNonce', [eoa.address, '0x2']);
    // the truth: an upgrading operation with an authorization at nonce 2, which the bundler
    // "refuses" (and keeps)
    const kept = keeping.kept.length;
    harness.answerDialogs(true);
    const refused = await rejection(
      harness.rpc('sendUserOperation', {
        account: eoa.id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x10', data: '0x' }],
      }),
    );
    expect(refused.message).toMatch(/may still be submitted/u);
    expect(keeping.kept).toHaveLength(kept + 1);
    const dialog = JSON.stringify(harness.dialogs.at(-1));
    expect(dialog).toContain('Authorization nonce');
    expect((keeping.kept.at(-1)?.[0].eip7702Auth as { nonce: Hex }).nonce).toBe(
      '0x2',
    );
    // then the RPC says 1, at latest and pending alike
    lie = { latest: '0x1', pending: '0x1' };
    await expectRefusedUnsigned(
      eoa.id,
      eoa.address,
      /nonce as 1, below 2, which this snap already signed with/u,
    );
  });
});
