/**
 * EIP-7702 through the built snap, on real parts: anvil (Prague) with EntryPoint v0.8 and
 * Simple7702Account v0.8 at their canonical addresses, and the Alto bundler. An EOA of the snap is
 * upgraded from the home page (`account-upgrade:<id>`) and through `sendUserOperation`, sends a
 * batch from its own address, still signs `personal_sign` as itself, and is undone
 * (`account-undo-upgrade:<id>`). Outcomes are checked independently: the EOA's code on anvil, the
 * authorization Alto holds recovered with viem, balances, receipts, and the recovered signature.
 */
import {
  concatHex,
  createPublicClient,
  getAddress,
  http,
  keccak256,
  parseEther,
  recoverMessageAddress,
  stringToHex,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { recoverAuthorizationAddress } from 'viem/utils';

import { COMPANION, expectError, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { nextPage, openHomePage, pageJson } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const SIMPLE_7702: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B';
const DELEGATED = concatHex(['0xef0100', SIMPLE_7702]).toLowerCase();

describe('EIP-7702: an EOA of the snap upgraded in place (Alto, EntryPoint v0.8)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let eoa: { id: string; address: Address };

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    eoa = await fundedEoa();
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * Create an EOA in the snap and give it 1 ETH on anvil.
   *
   * @returns The account.
   */
  async function fundedEoa(): Promise<{ id: string; address: Address }> {
    const account = await harness.createAccount({});
    expect(account.type).toBe('eip155:eoa');
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    return account;
  }

  /**
   * Alto's receipt of an operation, polled (bounded).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  const receiptOf = async (userOpHash: Hex): Promise<any> =>
    bundlerReceipt(devnet.bundlerUrl, userOpHash);

  /**
   * The EOA's code on anvil (lower case; `0x` when empty).
   *
   * @param address - The EOA.
   * @returns Its code.
   */
  async function codeOf(address: Address): Promise<string> {
    return (
      await jsonRpc<string>(devnet.rpcUrl, 'eth_getCode', [address, 'latest'])
    ).toLowerCase();
  }

  it('the canonical Simple7702Account sits on the devnet, with the code hash the snap pins', async () => {
    const deployed = (devnet.entryPoints as EntryPointsDeployment)['0.8']
      .simple7702Account;
    expect(getAddress(deployed)).toBe(SIMPLE_7702);
    expect(keccak256((await codeOf(SIMPLE_7702)) as Hex)).toBe(
      '0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3',
    );
  });

  it('home page: Upgrade to a smart account explains the upgrade, sends the authorization with the first operation; the EOA then runs Simple7702Account', async () => {
    expect(await codeOf(eoa.address)).toBe('0x');
    const ui = await openHomePage(harness);
    expect(pageJson(ui)).toContain(`account-upgrade:${eoa.id}`);
    // no code on the chain: nothing to undo, so only Upgrade is offered
    expect(pageJson(ui)).not.toContain(`account-undo-upgrade:${eoa.id}`);
    harness.answerDialogs(true);
    const after = await nextPage(ui, async (current) =>
      current.clickElement(`account-upgrade:${eoa.id}`),
    );
    const shown = JSON.stringify(harness.dialogs.at(-1));
    expect(shown).toContain('Upgrades this account (EIP-7702)');
    expect(shown).toContain('will run the code of the contract below');
    expect(shown).toContain('Undo upgrade');
    expect(shown).toContain(SIMPLE_7702);
    const userOpHash = /user operation (0x[0-9a-f]{64})/u.exec(
      pageJson(after),
    )?.[1] as Hex;
    expect(userOpHash).toBeDefined();
    const receipt = await receiptOf(userOpHash);
    expect(receipt.success).toBe(true);
    expect(getAddress(receipt.sender)).toBe(eoa.address);

    // the EOA's code is the delegation indicator to Simple7702Account
    expect(await codeOf(eoa.address)).toBe(DELEGATED);

    // the bundle transaction carried the EOA's authorization: to Simple7702Account, this chain, nonce 0
    const bundle = await client.getTransaction({
      hash: receipt.receipt.transactionHash,
    });
    expect(bundle.type).toBe('eip7702');
    const [auth] = bundle.authorizationList ?? [];
    expect(getAddress(auth?.address)).toBe(SIMPLE_7702);
    expect(auth?.chainId).toBe(devnet.chainId);
    expect(auth?.nonce).toBe(0);
    expect(
      await recoverAuthorizationAddress({
        authorization: auth,
      }),
    ).toBe(eoa.address);
  });

  it('sendUserOperation with the EOA’s id sends a batch from its own address (balances and receipt)', async () => {
    const before = await client.getBalance({ address: DEAD });
    const ownBefore = await client.getBalance({ address: eoa.address });
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: eoa.id,
        scope: devnet.scope,
        intents: [
          { to: DEAD, value: '0x100', data: '0x' },
          { to: DEAD, value: '0x200', data: '0x' },
        ],
      },
    });
    const dialog: any = await request.getInterface();
    // upgraded already: this confirmation does not upgrade again
    expect(JSON.stringify(dialog.content)).not.toContain(
      'Upgrades this account',
    );
    await dialog.ok();
    const { response } = (await request) as any;
    expect(response.result).toEqual({
      userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
      entryPoint: (devnet.entryPoints as EntryPointsDeployment)['0.8']
        .entryPoint,
      sender: eoa.address,
    });
    const receipt = await receiptOf(response.result.userOpHash);
    expect(receipt.success).toBe(true);
    expect(getAddress(receipt.sender)).toBe(eoa.address);
    expect(await client.getBalance({ address: DEAD })).toBe(before + 0x300n);
    // the EOA paid the values and its own gas
    expect(await client.getBalance({ address: eoa.address })).toBeLessThan(
      ownBefore - 0x300n,
    );
    expect(await codeOf(eoa.address)).toBe(DELEGATED);
  });

  it('personal_sign still recovers to the same address (viem)', async () => {
    const message = 'still an EOA';
    const response = await harness.submit(eoa, 'personal_sign', [
      stringToHex(message),
      eoa.address,
    ]);
    expect(
      await recoverMessageAddress({ message, signature: response.result }),
    ).toBe(eoa.address);
  });

  it('sendUserOperation from a fresh EOA upgrades it the first time: the confirmation says so', async () => {
    const fresh = await fundedEoa();
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: fresh.id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x1', data: '0x' }],
      },
    });
    const dialog: any = await request.getInterface();
    const shown = JSON.stringify(dialog.content);
    expect(shown).toContain('Upgrades this account (EIP-7702)');
    expect(shown).toContain('Undo upgrade');
    await dialog.ok();
    const { response } = (await request) as any;
    expect(response.result.sender).toBe(fresh.address);
    expect((await receiptOf(response.result.userOpHash)).success).toBe(true);
    expect(await codeOf(fresh.address)).toBe(DELEGATED);
  });

  it('refuses to upgrade when Simple7702Account’s code on the chain is not the canonical one (nothing signed, no dialog)', async () => {
    const fresh = await fundedEoa();
    const original = await codeOf(SIMPLE_7702);
    await jsonRpc(devnet.rpcUrl, 'anvil_setCode', [
      SIMPLE_7702,
      `${original}00`,
    ]);
    try {
      await expectError(
        harness.rpc('sendUserOperation', {
          account: fresh.id,
          scope: devnet.scope,
          intents: [{ to: DEAD, value: '0x1', data: '0x' }],
        }),
        -32602,
        /not the canonical v0\.8 code/u,
      );
      const ui = await openHomePage(harness);
      const after = await nextPage(ui, async (current) =>
        current.clickElement(`account-upgrade:${fresh.id}`),
      );
      expect(pageJson(after)).toContain('not the canonical v0.8 code');
      expect(await codeOf(fresh.address)).toBe('0x');
    } finally {
      await jsonRpc(devnet.rpcUrl, 'anvil_setCode', [SIMPLE_7702, original]);
    }
  });

  it('home page: Undo upgrade shows the fee, sends a type-4 transaction signed by the EOA; its code is empty after', async () => {
    expect(await codeOf(eoa.address)).toBe(DELEGATED);
    const ui = await openHomePage(harness);
    harness.answerDialogs(true);
    const after = await nextPage(ui, async (current) =>
      current.clickElement(`account-undo-upgrade:${eoa.id}`),
    );
    const shown = JSON.stringify(harness.dialogs.at(-1));
    expect(shown).toContain('Undo the upgrade');
    expect(shown).toContain('on Local chain (31337) stops running');
    // the most the fee can cost, rounded up for reading, then exactly: gas × fee
    const [, rounded, exact, gas, fee] =
      /at most ([0-9.]+) ETH \(exactly ([0-9.]+) ETH: (\d+) gas × (\d+) wei per gas\)/u.exec(
        shown,
      ) ?? [];
    expect(parseEther(exact ?? 'x')).toBe(BigInt(gas ?? 0) * BigInt(fee ?? 0));
    expect(parseEther(rounded ?? 'x')).toBeGreaterThanOrEqual(
      parseEther(exact ?? 'x'),
    );
    const hash = /transaction (0x[0-9a-f]{64})/u.exec(pageJson(after))?.[1];
    expect(hash).toBeDefined();
    const receipt = await client.waitForTransactionReceipt({
      hash: hash as Hex,
      timeout: 30_000,
    });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(eoa.address);
    expect(receipt.gasUsed * receipt.effectiveGasPrice).toBeLessThanOrEqual(
      parseEther(exact ?? 'x'),
    );
    const transaction = await client.getTransaction({ hash: hash as Hex });
    expect(transaction.type).toBe('eip7702');
    expect(await codeOf(eoa.address)).toBe('0x');

    // undone: a fresh page offers Upgrade again, and no Undo
    const fresh = pageJson(await openHomePage(harness));
    expect(fresh).toContain(`account-upgrade:${eoa.id}`);
    expect(fresh).not.toContain(`account-undo-upgrade:${eoa.id}`);
  });
});
