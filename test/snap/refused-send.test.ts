/**
 * A "refused" send must not be payable twice. A hostile bundler in front of Alto answers every
 * `eth_sendUserOperation` with a JSON-RPC error but keeps the operation; the person retries the same
 * intents (refused again); then the test itself runs every kept operation through the devnet's real
 * EntryPoint (`handleOps`, one transaction each from a funded anvil account). At most one of them
 * may pay: the snap signs a retry with the nonce of the operation that has not landed (one nonce
 * key per account, EntryPoint nonce `key << 64 | sequence`). Cases: SimpleAccount on EntryPoint
 * v0.6, v0.7 and v0.8 (deployed first through Alto), and an EOA upgraded by the refused operation itself
 * (EIP-7702), then again once upgraded. Everything goes through the built snap; payments are read
 * from anvil.
 */
import { createPublicClient, createWalletClient, http, parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import {
  entryPoint06Abi,
  entryPoint07Abi,
  entryPoint08Abi,
  formatUserOperation,
  toPackedUserOperation,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { installKeyringSnap, rejection } from './harness';
import type { KeyringHarness } from './harness';
import { ANVIL_KEYS } from '../../devnet/anvil';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import { startKeepingBundler } from '../fixtures/rewriting-proxy';
import type { KeepingBundler } from '../fixtures/rewriting-proxy';

jest.setTimeout(300_000);

const PAYMENT = parseEther('0.1');

describe('a send the bundler "refused" and its retry: at most one executes (built snap, keeping bundler, real EntryPoints)', () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let keeping: KeepingBundler;
  let selfPaid: Record<string, string>;

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    keeping = await startKeepingBundler(devnet.bundlerUrl);
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...config } = devnet.chainConfig;
    selfPaid = config;
  });

  afterAll(async () => {
    await keeping?.stop();
    await devnet?.stop();
  });

  /**
   * Point the chain config's bundler at `bundlerUrl`.
   *
   * @param bundlerUrl - Alto or the keeping bundler.
   */
  async function useBundler(bundlerUrl: string): Promise<void> {
    await harness.rpcApproved('setChainConfig', { ...selfPaid, bundlerUrl });
  }

  /**
   * The balance of an address on anvil, in wei.
   *
   * @param address - The address.
   * @returns The balance.
   */
  async function balanceOf(address: Address): Promise<bigint> {
    return BigInt(
      await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [address, 'latest']),
    );
  }

  /**
   * An account of the snap with 1 ETH on anvil.
   *
   * @param options - keyring_createAccount options.
   * @returns The account.
   */
  async function fundedAccount(
    options: Record<string, string | string[]>,
  ): Promise<{ id: string; address: Address }> {
    const account = await harness.createAccount(options);
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    return account;
  }

  /**
   * Send `intents` from `id` and confirm the dialog: the keeping bundler refuses it.
   *
   * @param id - The account id.
   * @param to - The recipient of 0.1 ETH.
   * @returns The error the snap answered.
   */
  async function refusedSend(
    id: string,
    to: Address,
  ): Promise<{ code: number; message: string }> {
    harness.answerDialogs(true);
    return rejection(
      harness.rpc('sendUserOperation', {
        account: id,
        scope: devnet.scope,
        intents: [{ to, value: `0x${PAYMENT.toString(16)}`, data: '0x' }],
      }),
    );
  }

  /**
   * The `handleOps` ABI and operation form of the EntryPoint an operation was sent to: v0.6 takes
   * the operation as it is; v0.7 and v0.8 take it packed (viem's `toPackedUserOperation`, with the
   * `0x7702` marker as initCode for an EIP-7702 operation).
   *
   * @param entryPoint - The EntryPoint the snap named.
   * @param op - The operation (viem's form: quantities as bigints).
   * @returns `{ abi, op }` for `handleOps`.
   */
  function handleOpsForm(entryPoint: string, op: any): { abi: any; op: any } {
    const { entryPoints } = devnet as { entryPoints: EntryPointsDeployment };
    const named = entryPoint.toLowerCase();
    if (named === devnet.contracts.entryPoint.toLowerCase()) {
      return { abi: entryPoint06Abi, op };
    }
    return {
      abi:
        named === entryPoints['0.7'].entryPoint.toLowerCase()
          ? entryPoint07Abi
          : entryPoint08Abi,
      op: toPackedUserOperation(op),
    };
  }

  /**
   * Run one kept operation through the EntryPoint's `handleOps` in a transaction of its own from a
   * funded anvil account (with the operation's EIP-7702 authorization in a type-4 transaction when
   * it carries one), and wait (bounded) until it is mined.
   *
   * @param kept - `[userOp in RPC form, entryPoint]` as the snap sent it.
   * @returns Whether the transaction succeeded (a failed operation reverts handleOps).
   */
  async function handleOps(
    kept: [Record<string, unknown>, string],
  ): Promise<boolean> {
    const [rpcOp, entryPoint] = kept;
    const { eip7702Auth, ...rest } = rpcOp as Record<string, any>;
    const { abi, op } = handleOpsForm(
      entryPoint,
      formatUserOperation(rest as any),
    );
    const account = privateKeyToAccount(ANVIL_KEYS[0]);
    const chain = devnetChain(devnet.chainId, devnet.rpcUrl);
    const transport = http(devnet.rpcUrl);
    const hash = await createWalletClient({
      account,
      chain,
      transport,
    }).writeContract({
      address: entryPoint,
      abi,
      functionName: 'handleOps',
      args: [[op], account.address],
      gas: 3_000_000n,
      ...(eip7702Auth
        ? {
            authorizationList: [
              {
                address: eip7702Auth.address,
                chainId: Number(eip7702Auth.chainId),
                nonce: Number(eip7702Auth.nonce),
                r: eip7702Auth.r,
                s: eip7702Auth.s,
                yParity: Number(eip7702Auth.yParity),
              },
            ],
          }
        : {}),
    } as any);
    const receipt = await createPublicClient({
      chain,
      transport,
    }).waitForTransactionReceipt({ hash, timeout: 10_000 });
    return receipt.status === 'success';
  }

  /**
   * The check: a refused send, its retry (refused too), then every operation the bundler kept for
   * `sender` run through handleOps; the recipient is paid once at most (here: exactly once).
   *
   * @param account - The sending account.
   * @param account.id - Its id.
   * @param account.address - Its address (the operations' sender).
   */
  async function sendRefuseRetryAndReplay(account: {
    id: string;
    address: Address;
  }): Promise<void> {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const first = keeping.kept.length;
    const errors = [
      await refusedSend(account.id, to),
      await refusedSend(account.id, to),
    ];
    const kept = keeping.kept.slice(first);
    expect(kept).toHaveLength(2);
    for (const [op] of kept) {
      expect((op.sender as string).toLowerCase()).toBe(
        account.address.toLowerCase(),
      );
    }
    for (const operation of kept) {
      await handleOps(operation);
    }
    // the one check that matters: the recipient was paid once, not twice
    expect(await balanceOf(to)).toBe(PAYMENT);
    // the retry reused the refused operation's nonce
    expect(kept[1]?.[0].nonce).toBe(kept[0]?.[0].nonce);
    for (const error of errors) {
      expect(error.message).toMatch(
        /may still be submitted until it is replaced/u,
      );
      expect(error.message).not.toMatch(/nothing was (sent|signed)/u);
    }
  }

  it.each(['0.6', '0.7', '0.8'] as const)(
    'a deployed SimpleAccount on EntryPoint v%s',
    async (version) => {
      await useBundler(devnet.bundlerUrl);
      const account = await fundedAccount({
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
        ...(version === '0.6' ? {} : { entryPointVersion: version }),
      });
      // deploy it through Alto, and wait (bounded) for its receipt
      harness.answerDialogs(true);
      const { userOpHash } = await harness.rpc('sendUserOperation', {
        account: account.id,
        scope: devnet.scope,
        intents: [{ to: account.address, value: '0x0', data: '0x' }],
      });
      let receipt: { success: boolean } | null = null;
      for (let attempt = 0; attempt < 200 && !receipt; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        receipt = await jsonRpc(
          devnet.bundlerUrl,
          'eth_getUserOperationReceipt',
          [userOpHash],
        );
      }
      expect(receipt?.success).toBe(true);

      await useBundler(keeping.url);
      await sendRefuseRetryAndReplay(account);
    },
  );

  it('an EOA whose refused operation upgrades it (EIP-7702), then the upgraded EOA', async () => {
    await useBundler(keeping.url);
    const eoa = await fundedAccount({});
    await sendRefuseRetryAndReplay(eoa);
    // the replayed operation upgraded it
    expect(
      (
        await jsonRpc<string>(devnet.rpcUrl, 'eth_getCode', [
          eoa.address,
          'latest',
        ])
      ).toLowerCase(),
    ).toMatch(/^0xef0100/u);
    await sendRefuseRetryAndReplay(eoa);
  });
});
