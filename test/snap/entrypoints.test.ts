/**
 * Smart accounts on EntryPoint v0.7 and v0.8 through the built snap, on real parts: anvil (Prague)
 * with the canonical v0.7 / v0.8 EntryPoint and SimpleAccountFactory, and the Alto bundler serving
 * them. Outcomes are checked independently: the address against the factory's `getAddress`, the
 * userOpHash against the EntryPoint's own `getUserOpHash` of the operation Alto holds, the owner's
 * signature recovered with viem, balances on anvil and Alto's receipt.
 */
import {
  createPublicClient,
  getAddress,
  hashMessage,
  http,
  parseAbi,
  parseEther,
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
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const FACTORY = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
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

describe('smart accounts on EntryPoint v0.7 and v0.8 through the built snap (Alto)', () => {
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
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('keeps v0.6 the default: an account created without entryPointVersion lists the three user-operation methods', async () => {
    const account = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    expect(account.methods).toHaveLength(3);
  });

  it.each(['0.7', '0.8'] as const)(
    'a v%s account: address from the factory, listed without the v0.6 methods, sends a self-paid batch that deploys it; the hash is the EntryPoint’s',
    async (version) => {
      const { entryPoint, accountFactory } = (
        devnet.entryPoints as EntryPointsDeployment
      )[version];
      const account = await harness.createAccount({
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
        entryPointVersion: version,
      });
      expect(account.methods).toStrictEqual([]);

      // fund the counterfactual address
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        account.address,
        `0x${parseEther('1').toString(16)}`,
      ]);
      const before = await client.getBalance({ address: DEAD });
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
      expect(shown[shown.indexOf('EntryPoint') + 1]).toBe(`v${version}`);
      expect(shown[shown.indexOf('Deploys the account') + 1]).toMatch(/^Yes/u);
      await ui.ok();
      const { response } = (await request) as any;
      expect(response.result).toEqual({
        userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
        entryPoint,
        sender: account.address,
      });
      const { userOpHash } = response.result as { userOpHash: Hex };

      // Alto's receipt, then the balances
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
      expect(await client.getBalance({ address: DEAD })).toBe(before + 0x30n);

      // the address is the factory's, and the account is deployed there
      const ownerAddress = await ownerOf(account.address, accountFactory);
      expect(ownerAddress).toBeDefined();
      expect(
        (await client.getCode({ address: account.address }))?.length,
      ).toBeGreaterThan(2);

      // the snap's userOpHash is the EntryPoint's getUserOpHash of the operation Alto holds
      const { userOperation } = await jsonRpc<{ userOperation: any }>(
        devnet.bundlerUrl,
        'eth_getUserOperationByHash',
        [userOpHash],
      );
      const op = toViem(userOperation);
      const onChain = await client.readContract({
        address: entryPoint,
        abi: version === '0.7' ? entryPoint07Abi : entryPoint08Abi,
        functionName: 'getUserOpHash',
        args: [toPackedUserOperation(op)],
      });
      expect(onChain).toBe(userOpHash);
      // v0.7 signs with the personal_sign prefix, v0.8 the raw EIP-712 digest; either recovers to the owner
      const signer = await recoverAddress({
        hash: version === '0.7' ? hashMessage({ raw: onChain }) : onChain,
        signature: op.signature,
      });
      expect(getAddress(signer)).toBe(ownerAddress);

      // the snap reads the receipt too
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

  /**
   * The owner (an EOA of the snap) whose factory address equals `address`: SimpleAccount's
   * `owner()`, checked against the factory's `getAddress(owner, 0)`.
   *
   * @param address - The smart account.
   * @param factory - Its SimpleAccountFactory.
   * @returns The owner.
   */
  async function ownerOf(address: Address, factory: Address): Promise<Address> {
    const owner = await client.readContract({
      address,
      abi: parseAbi(['function owner() view returns (address)']),
      functionName: 'owner',
    });
    const fromFactory = await client.readContract({
      address: factory,
      abi: FACTORY,
      functionName: 'getAddress',
      args: [owner, 0n],
    });
    expect(fromFactory).toBe(address);
    return getAddress(owner);
  }
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
