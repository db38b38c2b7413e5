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
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import {
  entryPoint08Abi,
  getUserOperationTypedData,
  toPackedUserOperation,
} from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';
import { privateKeyToAccount } from 'viem/accounts';

import {
  COMPANION,
  expectError,
  installKeyringSnap,
  rejection,
} from './harness';
import type { KeyringHarness } from './harness';
import { openHomePage, pageJson } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc, sendAndMine } from '../../devnet/json-rpc';

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
   * Alto's receipt of an operation, polled (devnet/json-rpc.ts: bounded, 200 × 100 ms).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  async function receiptOf(userOpHash: Hex): Promise<any> {
    return bundlerReceipt(devnet.bundlerUrl, userOpHash);
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

  /**
   * Hand a signed operation to the EntryPoint directly (handleOps from an anvil account, mined).
   *
   * @param op - The operation.
   * @param signature - Its signature.
   * @returns The transaction's status (`0x1` when it ran).
   */
  async function handleOps(
    op: UserOperation<'0.8'>,
    signature: Hex,
  ): Promise<string> {
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
        args: [
          [{ ...toPackedUserOperation(op), signature }],
          getAddress(beneficiary),
        ],
      }),
    });
    return receipt.status;
  }

  it('the hazard is real: the digest is the EntryPoint’s userOpHash, and a signature of it by the EOA’s key (viem, exported key) makes handleOps run the call from the account', async () => {
    const op = await drainOperation(parseEther('0.25'));
    const typedData = typedDataOf(op);
    expect(hashTypedData(typedData)).toBe(
      await client.readContract({
        address: entryPoint,
        abi: entryPoint08Abi,
        functionName: 'getUserOpHash',
        args: [toPackedUserOperation(op)],
      }),
    );
    const exported = harness.snap.onKeyringRequest({
      origin: COMPANION,
      method: 'keyring_exportAccount',
      params: { id: eoa.id },
    });
    await ((await exported.getInterface()) as any).ok();
    const key = ((await exported).response as any).result.privateKey as Hex;
    const signature = await privateKeyToAccount(key).signTypedData(typedData);
    const before = await client.getBalance({ address: THIEF });
    expect(await handleOps(op, signature)).toBe('0x1');
    expect(await client.getBalance({ address: THIEF })).toBe(
      before + parseEther('0.25'),
    );
  });

  it.each(['eth_signTypedData_v4', 'eth_signTypedData_v3'])(
    'keyring_submitRequest from metamask (%s): refused with -32602 naming the account, nothing signed or parked',
    async (method) => {
      const typedData = typedDataOf(await drainOperation(parseEther('0.5')));
      const error = await rejection(
        harness.submit(eoa, method, [eoa.address, typedData], devnet.scope),
      );
      expect({ code: error.code, message: error.message }).toStrictEqual({
        code: -32602,
        message: expect.stringMatching(
          new RegExp(
            `^Invalid typed data: it is a user operation \\(ERC-4337\\) for account ${eoa.address} of this snap\\.`,
            'u',
          ),
        ),
      });
      expect(await harness.keyring('keyring_listRequests')).toStrictEqual([]);
    },
  );

  it('typed data addressed to the upgraded EOA’s own code (domain.verifyingContract = the EOA) is refused, nothing parked', async () => {
    await expectError(
      harness.submit(
        eoa,
        'eth_signTypedData_v4',
        [
          eoa.address,
          {
            types: {
              EIP712Domain: [
                { name: 'name', type: 'string' },
                { name: 'chainId', type: 'uint256' },
                { name: 'verifyingContract', type: 'address' },
              ],
              Execute: [
                { name: 'target', type: 'address' },
                { name: 'value', type: 'uint256' },
              ],
            },
            primaryType: 'Execute',
            domain: {
              name: 'Account',
              chainId: devnet.chainId,
              verifyingContract: eoa.address,
            },
            message: { target: THIEF, value: '1' },
          },
        ],
        devnet.scope,
      ),
      -32602,
      new RegExp(
        `^Invalid typed data at domain\\.verifyingContract: it is account ${eoa.address} of this snap\\.`,
        'u',
      ),
    );
    expect(await harness.keyring('keyring_listRequests')).toStrictEqual([]);
  });

  it('the same in async approval mode: refused when submitted, nothing parked; a user operation of another sender is parked and its page names it as one', async () => {
    await harness.rpcApproved('setApprovalMode', { mode: 'async' });
    try {
      const typedData = typedDataOf(await drainOperation(parseEther('0.5')));
      await expectError(
        harness.submit(
          eoa,
          'eth_signTypedData_v4',
          [eoa.address, typedData],
          devnet.scope,
        ),
        -32602,
        /it is a user operation \(ERC-4337\)/u,
      );
      expect(await harness.keyring('keyring_listRequests')).toStrictEqual([]);
      const foreign = {
        ...typedData,
        message: { ...typedData.message, sender: DEAD },
      };
      const parked = await harness.submit(
        eoa,
        'eth_signTypedData_v4',
        [eoa.address, foreign],
        devnet.scope,
      );
      expect(parked.pending).toBe(true);
      const [request] = await harness.keyring('keyring_listRequests');
      const page = pageJson(await openHomePage(harness));
      expect(page).toContain('a user operation');
      expect(page).toContain(DEAD);
      await harness.keyringApproved('keyring_rejectRequest', {
        id: request.id,
      });
    } finally {
      await harness.rpcApproved('setApprovalMode', { mode: 'sync' });
    }
  });
});
