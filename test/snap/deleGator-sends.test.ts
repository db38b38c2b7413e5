/**
 * Every send path of an EOA that runs MetaMask's EIP7702StatelessDeleGator, through the built snap,
 * on real parts: anvil (Prague) with the Delegation Framework deployed by the Smart Accounts Kit on
 * the canonical EntryPoint v0.7, Alto, and the token paymaster service. The EOA is made a DeleGator
 * outside the snap (its own EIP-7702 authorization in a type-4 transaction a funded anvil account
 * sends), so the snap meets it as it would after a grant. Checked independently: the EOA's code,
 * Alto's receipts and the operation it holds (its signature equal to the kit's
 * `toMetaMaskSmartAccount` signature), balances, the recorders' storage and the token balances.
 */
import {
  Implementation,
  toMetaMaskSmartAccount,
} from '@metamask/smart-accounts-kit';
import type { Json } from '@metamask/utils';
import {
  concatHex,
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { COMPANION, dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { nextPage, openHomePage, pageJson } from './homePage';
import { ANVIL_KEYS } from '../../devnet/anvil';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';
import {
  mintTestToken,
  readTestToken,
  TEST_TOKEN,
  TOKEN_PAYMASTERS,
} from '../../devnet/token-paymaster';
import type { TokenPaymaster } from '../../devnet/token-paymaster';

jest.setTimeout(300_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const DAPP = 'https://dapp.example';

describe('a DeleGator EOA sends through every path of the snap (EntryPoint v0.7)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let environment: NonNullable<Devnet['delegationEnvironment']>;
  let eoa: { id: string; address: Address; key: Hex };
  let selfPaid: Record<string, Json>;

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true, tokenPaymaster: true });
    environment = devnet.delegationEnvironment as typeof environment;
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    await Promise.all(
      RECORDERS.map(async (address) => installRecorder(devnet.rpcUrl, address)),
    );
    harness = await installKeyringSnap();
    const { paymasterUrl: _v06Service, ...rest } = devnet.chainConfig;
    selfPaid = { ...rest, delegationEnvironment: environment };
    await harness.rpcApproved('setChainConfig', selfPaid);
    const account = await harness.createAccount({});
    const { privateKey } = await harness.keyringApproved(
      'keyring_exportAccount',
      { id: account.id },
    );
    eoa = {
      id: account.id,
      address: getAddress(account.address),
      key: privateKey,
    };
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      eoa.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    // the EOA's own authorization to the DeleGator, sent by a funded anvil account
    const authorization = await privateKeyToAccount(eoa.key).signAuthorization({
      address: environment.implementations.EIP7702StatelessDeleGatorImpl,
      chainId: devnet.chainId,
      nonce: await client.getTransactionCount({ address: eoa.address }),
    });
    const wallet = createWalletClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
      account: privateKeyToAccount(ANVIL_KEYS[0]),
    });
    const hash = await wallet.sendTransaction({
      to: eoa.address,
      data: '0x',
      authorizationList: [authorization],
    });
    await client.waitForTransactionReceipt({ hash, timeout: 30_000 });
    if ((await codeOf(eoa.address)) !== deleGatorCode()) {
      throw new Error('the EOA is not a DeleGator');
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * The DeleGator's delegation indicator.
   *
   * @returns `0xef0100 ++ EIP7702StatelessDeleGatorImpl`, lower case.
   */
  function deleGatorCode(): string {
    return concatHex([
      '0xef0100',
      environment.implementations.EIP7702StatelessDeleGatorImpl,
    ]).toLowerCase();
  }

  /**
   * An address's code on anvil, lower case.
   *
   * @param address - The address.
   * @returns Its code.
   */
  async function codeOf(address: Address): Promise<string> {
    return ((await client.getCode({ address })) ?? '0x').toLowerCase();
  }

  it('sendUserOperation: a batch from the EOA on the DeleGator EntryPoint, no upgrade in the dialog, signed as the kit signs it', async () => {
    const before = await client.getBalance({ address: DEAD });
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
    const dialog = await dialogOf(request);
    const shown = JSON.stringify(dialog?.content);
    expect(shown).not.toContain('Upgrades this account');
    expect(shown).toContain('"EntryPoint"');
    expect(shown).toContain('v0.7');
    await dialog?.ok();
    const { response } = (await request) as any;
    expect(response.result).toEqual({
      userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
      entryPoint: getAddress(environment.EntryPoint),
      sender: eoa.address,
    });
    const receipt = await bundlerReceipt(
      devnet.bundlerUrl,
      response.result.userOpHash,
    );
    expect(receipt.success).toBe(true);
    expect(getAddress(receipt.sender)).toBe(eoa.address);
    expect(getAddress(receipt.entryPoint)).toBe(
      getAddress(environment.EntryPoint),
    );
    expect(await client.getBalance({ address: DEAD })).toBe(before + 0x300n);
    expect(await codeOf(eoa.address)).toBe(deleGatorCode());

    const { userOperation: op } = await jsonRpc<any>(
      devnet.bundlerUrl,
      'eth_getUserOperationByHash',
      [response.result.userOpHash],
    );
    const kit = await toMetaMaskSmartAccount({
      client,
      implementation: Implementation.Stateless7702,
      address: eoa.address,
      signer: { account: privateKeyToAccount(eoa.key) },
      environment,
    });
    expect(
      await kit.signUserOperation({
        sender: op.sender,
        nonce: BigInt(op.nonce),
        callData: op.callData,
        callGasLimit: BigInt(op.callGasLimit),
        verificationGasLimit: BigInt(op.verificationGasLimit),
        preVerificationGas: BigInt(op.preVerificationGas),
        maxFeePerGas: BigInt(op.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
        signature: '0x',
        chainId: devnet.chainId,
      } as never),
    ).toBe(op.signature);
  });

  it('wallet_sendCalls from a site: both calls run from the EOA, wallet_getCallsStatus reaches 200', async () => {
    const chainId = `0x${devnet.chainId.toString(16)}`;
    const pending = harness.snap.request({
      origin: DAPP,
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          from: eoa.address,
          chainId,
          atomicRequired: true,
          calls: [0, 1].map((offset) => ({
            to: RECORDERS[offset],
            value: '0x0',
            data: recordCalldata(40 + offset, 0xd1 + offset),
          })),
        },
      ],
    });
    await (await dialogOf(pending))?.ok();
    const { id } = ((await pending).response as any).result;
    let status: any;
    for (let attempt = 0; attempt < 200; attempt += 1) {
      status = await harness.rpc('wallet_getCallsStatus', [id], DAPP);
      if (status.status !== 100) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.status).toBe(200);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 40)).toBe(0xd1n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 41)).toBe(0xd2n);
  });

  it('the home page: the card says it runs MetaMask’s smart-account code, offers Send and no Upgrade; the Send form sends', async () => {
    const recipient = getAddress(`0x${'6d'.repeat(19)}07`);
    let ui = await openHomePage(harness);
    const page = pageJson(ui);
    expect(page).toContain(
      "runs MetaMask's smart-account code (EIP7702StatelessDeleGator)",
    );
    expect(page).toContain(`send-to:${eoa.id}`);
    expect(page).not.toContain(`account-upgrade:${eoa.id}`);
    expect(page).toContain(`account-undo-upgrade:${eoa.id}`);
    await ui.typeInField(`send-to:${eoa.id}`, recipient);
    await ui.typeInField(`send-value:${eoa.id}`, '0.002');
    harness.answerDialogs(true);
    ui = await nextPage(ui, async (current) =>
      current.clickElement(`send:${eoa.id}-submit`),
    );
    const userOpHash = /\(user operation (0x[0-9a-f]{64})\)/u.exec(
      pageJson(ui),
    )?.[1] as Hex;
    expect(userOpHash).toBeDefined();
    expect((await bundlerReceipt(devnet.bundlerUrl, userOpHash)).success).toBe(
      true,
    );
    expect(await client.getBalance({ address: recipient })).toBe(
      parseEther('0.002'),
    );
  });

  it('gas paid in T20 through the token paymaster (v0.7): success with 0 ETH, the token spent', async () => {
    const service = devnet.tokenPaymaster as TokenPaymaster;
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      paymasterUrl: service.url,
    });
    try {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [eoa.address, '0x0']);
      await mintTestToken(devnet.rpcUrl, eoa.address, parseEther('1000'));
      const held = await readTestToken(devnet.rpcUrl, [
        'balanceOf',
        eoa.address,
      ]);
      const request = harness.snap.request({
        origin: COMPANION,
        method: 'sendUserOperation',
        params: {
          account: eoa.id,
          scope: devnet.scope,
          intents: [{ to: DEAD, value: '0x0', data: '0x' }],
          gasToken: TEST_TOKEN,
        },
      });
      const dialog = await dialogOf(request);
      expect(JSON.stringify(dialog?.content)).toContain(
        'T20, an ERC-20 token, from this account (not ETH)',
      );
      await dialog?.ok();
      const { response } = (await request) as any;
      const receipt = await bundlerReceipt(
        devnet.bundlerUrl,
        response.result.userOpHash,
      );
      expect(receipt.success).toBe(true);
      expect(getAddress(receipt.paymaster)).toBe(TOKEN_PAYMASTERS['0.7']);
      expect(await client.getBalance({ address: eoa.address })).toBe(0n);
      expect(
        await readTestToken(devnet.rpcUrl, ['balanceOf', eoa.address]),
      ).toBeLessThan(held);
    } finally {
      await harness.rpcApproved('setChainConfig', selfPaid);
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        eoa.address,
        `0x${parseEther('1').toString(16)}`,
      ]);
    }
  });

  it('home page: Undo upgrade names the DeleGator, says grants are not revoked; the code is empty after', async () => {
    const ui = await openHomePage(harness);
    harness.answerDialogs(true);
    const after = await nextPage(ui, async (current) =>
      current.clickElement(`account-undo-upgrade:${eoa.id}`),
    );
    const shown = JSON.stringify(harness.dialogs.at(-1));
    expect(shown).toContain('EIP7702StatelessDeleGator');
    expect(shown).toContain('they are not revoked');
    const hash = /transaction (0x[0-9a-f]{64})/u.exec(pageJson(after))?.[1];
    expect(hash).toBeDefined();
    const receipt = await client.waitForTransactionReceipt({
      hash: hash as Hex,
      timeout: 30_000,
    });
    expect(receipt.status).toBe('success');
    expect(await codeOf(eoa.address)).toBe('0x');
  });
});
