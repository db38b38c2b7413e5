/**
 * A user operation asked for as typed data, through the built snap, on real parts: anvil (Prague)
 * with the canonical EntryPoint v0.8 and Simple7702Account, and the Alto bundler. An EOA of the
 * snap is upgraded (EIP-7702) by its own send; a v0.8 userOpHash is the EIP-712 digest of the
 * operation (domain `ERC4337`, version `1`, the chain, the EntryPoint; primary type
 * `PackedUserOperation`), so `eth_signTypedData_v4` (or `_v3`) of that struct with the EOA as
 * sender would be a signature the EntryPoint accepts for any call from the account. Checked
 * independently: the digest against the EntryPoint's own getUserOpHash, signatures recovered with
 * viem, the ETH moved by handleOps.
 */
import {
  createPublicClient,
  encodeFunctionData,
  getAddress,
  hashTypedData,
  http,
  parseAbi,
  parseEther,
  recoverTypedDataAddress,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import {
  entryPoint08Abi,
  getUserOperationTypedData,
  toPackedUserOperation,
} from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';

import { COMPANION, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const THIEF: Address = '0x000000000000000000000000000000000000bEEF';
const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const EXECUTE = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
]);

describe('typed data of a user operation (EntryPoint v0.8, an upgraded EOA of the snap)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let eoa: { id: string; address: Address };
  let entryPoint: Address;

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    entryPoint = (devnet.entryPoints as EntryPointsDeployment)['0.8']
      .entryPoint;
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsoredV06Only, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    eoa = await harness.createAccount({});
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      eoa.address,
      `0x${parseEther('2').toString(16)}`,
    ]);
    // the snap's own send upgrades the EOA to Simple7702Account
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: eoa.id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x1', data: '0x' }],
      },
    });
    await ((await request.getInterface()) as any).ok();
    const { response } = (await request) as any;
    await receiptOf(response.result.userOpHash);
    if (
      !(await client.getCode({ address: eoa.address }))?.startsWith('0xef0100')
    ) {
      throw new Error('setup: the EOA was not upgraded');
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * Alto's receipt of an operation, polled (bounded: 200 × 100 ms).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  async function receiptOf(userOpHash: Hex): Promise<any> {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const receipt = await jsonRpc<any>(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      if (receipt) {
        return receipt;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no receipt for ${userOpHash}`);
  }

  /**
   * An operation from the upgraded EOA that sends `value` to THIEF, at the EntryPoint's next nonce.
   *
   * @param value - Wei to take.
   * @returns The operation (no signature yet).
   */
  async function drainOperation(value: bigint): Promise<UserOperation<'0.8'>> {
    const nonce = await client.readContract({
      address: entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [eoa.address, 0n],
    });
    return {
      sender: eoa.address,
      nonce,
      callData: encodeFunctionData({
        abi: EXECUTE,
        functionName: 'execute',
        args: [THIEF, value, '0x'],
      }),
      callGasLimit: 100_000n,
      verificationGasLimit: 200_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: 3_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      signature: '0x',
    };
  }

  /**
   * The operation as a dapp sends it to eth_signTypedData_v4: JSON, the domain type declared.
   *
   * @param op - The operation.
   * @returns `{ types, primaryType, domain, message }` with integers as decimal strings.
   */
  function typedDataOf(op: UserOperation<'0.8'>): any {
    const typed = getUserOperationTypedData({
      chainId: devnet.chainId,
      entryPointAddress: entryPoint,
      userOperation: op,
    });
    return JSON.parse(
      JSON.stringify(
        {
          ...typed,
          types: {
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'version', type: 'string' },
              { name: 'chainId', type: 'uint256' },
              { name: 'verifyingContract', type: 'address' },
            ],
            ...typed.types,
          },
        },
        (_key, value: unknown) =>
          typeof value === 'bigint' ? value.toString() : value,
      ),
    );
  }

  it('today: the snap signs it, the signature recovers to the EOA, and handleOps runs the call from the account', async () => {
    const op = await drainOperation(parseEther('0.5'));
    const typedData = typedDataOf(op);
    const packed = toPackedUserOperation(op);
    const onChainHash = await client.readContract({
      address: entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getUserOpHash',
      args: [packed],
    });
    // the typed data's digest is the EntryPoint's userOpHash
    expect(hashTypedData(typedData)).toBe(onChainHash);

    const response = await harness.submit(
      eoa,
      'eth_signTypedData_v4',
      [eoa.address, typedData],
      devnet.scope,
    );
    const signature = response.result as Hex;
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(
      eoa.address,
    );

    const before = await client.getBalance({ address: THIEF });
    const [beneficiary] = await jsonRpc<Address[]>(
      devnet.rpcUrl,
      'eth_accounts',
      [],
    );
    const { receipt } = await sendAndMine(devnet.rpcUrl, {
      from: beneficiary,
      to: entryPoint,
      gas: '0x2dc6c0',
      data: encodeFunctionData({
        abi: entryPoint08Abi,
        functionName: 'handleOps',
        args: [[{ ...packed, signature }], getAddress(beneficiary)],
      }),
    });
    expect(receipt.status).toBe('0x1');
    expect(await client.getBalance({ address: THIEF })).toBe(
      before + parseEther('0.5'),
    );
  });
});
