/**
 * Sponsored sends of SimpleAccounts on EntryPoint v0.7 and v0.8 through the built snap, on real
 * parts: anvil (Prague) with the canonical v0.7 / v0.8 contracts, a VerifyingPaymaster for each, the
 * devnet's ERC-7677 paymaster service (v0.7 form) and Alto. Outcomes are checked independently: the
 * account's balance on anvil (it ends at 0: it paid no gas), the target's, Alto's receipt and the
 * EntryPoint's UserOperationEvent naming the paymaster, the userOpHash against the EntryPoint's own
 * `getUserOpHash` of the operation Alto holds, the owner's signature recovered with viem. A hostile
 * service (raised gas, the v0.6 shape, another paymaster) is refused before any dialog.
 */
import {
  createPublicClient,
  getAddress,
  hashMessage,
  http,
  parseAbi,
  parseEventLogs,
  recoverAddress,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import {
  entryPoint07Abi,
  entryPoint08Abi,
  toPackedUserOperation,
} from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';

import { COMPANION, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import type { ModernPaymasterResult } from '../../devnet/paymaster-service';

jest.setTimeout(240_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const USER_OPERATION_EVENT = parseAbi([
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
]);

/**
 * Every string a snaps-sdk JSX tree shows: text children, row labels, addresses.
 *
 * @param node - The tree.
 * @returns The strings, in tree order.
 */
function shownStrings(node: unknown): string[] {
  if (typeof node === 'string') {
    return [node];
  }
  if (Array.isArray(node)) {
    return node.flatMap(shownStrings);
  }
  if (typeof node !== 'object' || node === null) {
    return [];
  }
  const props =
    ((node as Record<string, unknown>).props as
      Record<string, unknown> | undefined) ?? {};
  return [props.label, props.address, props.children].flatMap(shownStrings);
}

/**
 * The string shown right after a label (its value).
 *
 * @param shown - The dialog's strings.
 * @param label - The row's label.
 * @returns The value, if the label is there.
 */
function valueAfter(shown: string[], label: string): string | undefined {
  const index = shown.indexOf(label);
  return index === -1 ? undefined : shown[index + 1];
}

describe('sponsored sends of v0.7 and v0.8 SimpleAccounts through the built snap (ERC-7677, Alto)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', devnet.chainConfig);
  });

  afterEach(() => {
    if (devnet) {
      devnet.paymaster.options.tamperModern = undefined;
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * Create a smart account of a version on the devnet.
   *
   * @param version - The EntryPoint version.
   * @returns Its id and address.
   */
  async function createAccount(
    version: '0.7' | '0.8',
  ): Promise<{ id: string; address: Address }> {
    const account = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      entryPointVersion: version,
    });
    return { id: account.id, address: getAddress(account.address) };
  }

  it.each(['0.7', '0.8'] as const)(
    'v%s: the paymaster pays: the send deploys the account and pays 0x30 wei to a target; the account ends at 0 wei, the receipt and event name the paymaster, the hash is the EntryPoint’s',
    async (version) => {
      const { entryPoint } = devnet.entryPoints?.[version] ?? {};
      const paymaster = devnet.modernPaymasters?.[version] as Address;
      const account = await createAccount(version);
      // exactly the value it sends: any gas taken from the account would leave it short
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        account.address,
        '0x30',
      ]);
      const before = await client.getBalance({ address: DEAD });
      devnet.paymaster.resetStats();

      const request = harness.snap.request({
        origin: COMPANION,
        method: 'sendUserOperation',
        params: {
          account: account.id,
          scope: devnet.scope,
          intents: [
            { to: DEAD, value: '0x10', data: '0x' },
            { to: DEAD, value: '0x20', data: '0x' },
          ],
        },
      });
      const ui: any = await request.getInterface();
      const shown = shownStrings(ui.content);
      try {
        expect(valueAfter(shown, 'EntryPoint')).toBe(`v${version}`);
        expect(valueAfter(shown, 'Gas')).toBe(
          'Paid by the paymaster below (sponsored)',
        );
        expect(valueAfter(shown, 'Paymaster')).toBe(getAddress(paymaster));
        expect(shown).not.toContain('this account');
        expect(valueAfter(shown, 'Deploys the account')).toMatch(/^Yes/u);
      } catch (error) {
        await ui.cancel(); // no dialog left open for the next test
        throw error;
      }
      await ui.ok();
      const { response } = (await request) as any;
      expect(response.result).toEqual({
        userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
        entryPoint,
        sender: account.address,
      });
      const { userOpHash } = response.result as { userOpHash: Hex };
      expect(devnet.paymaster.stats.byMethod).toStrictEqual({
        pm_getPaymasterStubData: 1,
        pm_getPaymasterData: 1,
      });

      let receipt: any = null;
      for (let attempt = 0; attempt < 200 && !receipt; attempt += 1) {
        receipt = await jsonRpc(
          devnet.bundlerUrl,
          'eth_getUserOperationReceipt',
          [userOpHash],
        );
        if (!receipt) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(receipt?.success).toBe(true);
      expect(getAddress(receipt.paymaster)).toBe(paymaster);
      const [event] = parseEventLogs({
        abi: USER_OPERATION_EVENT,
        logs: receipt.receipt.logs,
      });
      expect(event?.args).toStrictEqual(
        expect.objectContaining({
          userOpHash,
          sender: account.address,
          paymaster,
          success: true,
        }),
      );
      expect(await client.getBalance({ address: DEAD })).toBe(before + 0x30n);
      expect(await client.getBalance({ address: account.address })).toBe(0n);
      expect(
        (await client.getCode({ address: account.address }))?.length,
      ).toBeGreaterThan(2);

      // the operation Alto holds: its paymaster is the one shown, its hash the EntryPoint's, signed by the owner
      const { userOperation } = await jsonRpc<{ userOperation: any }>(
        devnet.bundlerUrl,
        'eth_getUserOperationByHash',
        [userOpHash],
      );
      const op = toViem(userOperation);
      expect(getAddress(op.paymaster as Address)).toBe(paymaster);
      const onChain = await client.readContract({
        address: entryPoint as Address,
        abi: version === '0.7' ? entryPoint07Abi : entryPoint08Abi,
        functionName: 'getUserOpHash',
        args: [toPackedUserOperation(op)],
      });
      expect(onChain).toBe(userOpHash);
      const owner = await client.readContract({
        address: account.address,
        abi: parseAbi(['function owner() view returns (address)']),
        functionName: 'owner',
      });
      expect(
        await recoverAddress({
          hash: version === '0.7' ? hashMessage({ raw: onChain }) : onChain,
          signature: op.signature,
        }),
      ).toBe(getAddress(owner));

      const { response: read } = (await harness.snap.request({
        origin: COMPANION,
        method: 'getUserOperationReceipt',
        params: { scope: devnet.scope, userOpHash },
      })) as any;
      expect(read.result).toEqual(
        expect.objectContaining({
          userOpHash,
          sender: account.address,
          success: true,
        }),
      );
    },
  );

  it.each([
    [
      '0.7',
      'a final reply that raises the paymaster’s verification gas to 30,000,001',
      'pm_getPaymasterData',
      (result: ModernPaymasterResult): unknown => ({
        ...result,
        paymasterVerificationGasLimit: '0x1c9c381',
      }),
      'Invalid paymaster service reply (pm_getPaymasterData) at paymasterVerificationGasLimit: expected a gas amount (hex quantity) up to 30000000',
    ],
    [
      '0.8',
      'a final reply that raises the paymaster’s verification gas beyond the margin',
      'pm_getPaymasterData',
      (result: ModernPaymasterResult): unknown => ({
        ...result,
        paymasterVerificationGasLimit: '0x30d40',
      }),
      "Invalid paymaster service reply (pm_getPaymasterData) at paymasterVerificationGasLimit: above the operation's own value + 10% + 10000 gas",
    ],
    [
      '0.8',
      'a stub in the v0.6 shape (paymasterAndData)',
      'pm_getPaymasterStubData',
      (result: ModernPaymasterResult): unknown => ({
        paymasterAndData: `${result.paymaster}${result.paymasterData.slice(2)}`,
      }),
      'Invalid paymaster service reply (pm_getPaymasterStubData) at paymaster: names no paymaster',
    ],
    [
      '0.7',
      'a final reply naming another paymaster',
      'pm_getPaymasterData',
      (result: ModernPaymasterResult): unknown => ({
        ...result,
        paymaster: DEAD,
      }),
      'Invalid paymaster service reply (pm_getPaymasterData) at paymaster: names another paymaster than its stub data',
    ],
  ] as const)(
    'v%s: refuses %s (-32602), before any dialog; nothing is sent',
    async (version, _name, method, tamper, message) => {
      const account = await createAccount(version);
      devnet.paymaster.options.tamperModern = (called, result): unknown =>
        called === method ? tamper(result) : result;
      const request = harness.snap.request({
        origin: COMPANION,
        method: 'sendUserOperation',
        params: {
          account: account.id,
          scope: devnet.scope,
          intents: [{ to: DEAD, value: '0x0', data: '0x' }],
        },
      });
      // a dialog must not appear: should one, decline it so the test fails at once rather than hang
      const dialog: any = await Promise.race([
        request.then(() => undefined),
        request.getInterface().then(
          (ui) => ui,
          () => undefined,
        ),
      ]);
      await dialog?.cancel();
      expect(dialog).toBeUndefined();
      const { response } = (await request) as any;
      expect(response.error).toEqual(
        expect.objectContaining({
          code: -32602,
          message: expect.stringContaining(message),
        }),
      );
      expect(
        await client.getCode({ address: account.address }),
      ).toBeUndefined();
    },
  );

  it('an EOA upgraded with EIP-7702 by its first sendUserOperation is sponsored too: it holds 0x30 wei, pays exactly that to a target, and runs Simple7702Account after', async () => {
    const paymaster = devnet.modernPaymasters?.['0.8'] as Address;
    const delegate = devnet.entryPoints?.['0.8'].simple7702Account as Address;
    const eoa = await harness.createAccount({});
    const address = getAddress(eoa.address);
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [address, '0x30']);
    const before = await client.getBalance({ address: DEAD });
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: eoa.id,
        scope: devnet.scope,
        intents: [
          { to: DEAD, value: '0x10', data: '0x' },
          { to: DEAD, value: '0x20', data: '0x' },
        ],
      },
    });
    const ui: any = await request.getInterface();
    const shown = shownStrings(ui.content);
    try {
      expect(valueAfter(shown, 'Gas')).toBe(
        'Paid by the paymaster below (sponsored)',
      );
      expect(valueAfter(shown, 'Paymaster')).toBe(getAddress(paymaster));
      expect(shown.join(' ')).not.toMatch(/pay nothing/u);
      // the heading names what leaves the account, not only the upgrade
      expect(shown[0]).toMatch(
        /^Upgrade .+ and send 0\.000000000000000048 ETH \(2 calls\) on Local chain \(31337\)$/u,
      );
      // an EOA: no smart-account deployment line
      expect(shown).not.toContain('Deploys the account');
    } catch (error) {
      await ui.cancel();
      throw error;
    }
    await ui.ok();
    const { response } = (await request) as any;
    expect(response.result.sender).toBe(address);
    const { userOpHash } = response.result as { userOpHash: Hex };
    let receipt: any = null;
    for (let attempt = 0; attempt < 200 && !receipt; attempt += 1) {
      receipt = await jsonRpc(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      if (!receipt) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(receipt?.success).toBe(true);
    expect(getAddress(receipt.paymaster)).toBe(paymaster);
    expect(await client.getBalance({ address: DEAD })).toBe(before + 0x30n);
    expect(await client.getBalance({ address })).toBe(0n);
    expect((await client.getCode({ address }))?.toLowerCase()).toBe(
      `0xef0100${delegate.slice(2).toLowerCase()}`,
    );
  });
});

/**
 * A v0.7-form RPC operation (hex quantities) as viem's operation (bigints).
 *
 * @param rpc - The operation as Alto returns it.
 * @returns viem's operation.
 */
function toViem(
  rpc: Record<string, Hex | null | undefined>,
): UserOperation<'0.7'> {
  /**
   * A hex quantity as a bigint.
   *
   * @param value - The quantity, if any.
   * @returns The bigint, or undefined.
   */
  const big = (value: Hex | null | undefined): bigint | undefined =>
    value === null || value === undefined ? undefined : BigInt(value);
  return {
    sender: rpc.sender as Address,
    nonce: BigInt(rpc.nonce as Hex),
    callData: rpc.callData as Hex,
    callGasLimit: BigInt(rpc.callGasLimit as Hex),
    verificationGasLimit: BigInt(rpc.verificationGasLimit as Hex),
    preVerificationGas: BigInt(rpc.preVerificationGas as Hex),
    maxFeePerGas: BigInt(rpc.maxFeePerGas as Hex),
    maxPriorityFeePerGas: BigInt(rpc.maxPriorityFeePerGas as Hex),
    signature: rpc.signature as Hex,
    ...(rpc.factory
      ? { factory: rpc.factory, factoryData: rpc.factoryData as Hex }
      : {}),
    ...(rpc.paymaster
      ? {
          paymaster: rpc.paymaster,
          paymasterData: rpc.paymasterData as Hex,
          paymasterVerificationGasLimit: big(rpc.paymasterVerificationGasLimit),
          paymasterPostOpGasLimit: big(rpc.paymasterPostOpGasLimit),
        }
      : {}),
  };
}
