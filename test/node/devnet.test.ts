/**
 * The ERC-4337 devnet, proven with independent reference clients (permissionless for the account,
 * viem for ERC-7677 and the user-operation hash), and a worked example of the flow the snap implements:
 *
 *   prepare  (callData, initCode, nonce, gas)      ← eth_prepareUserOperation
 *   patch    (paymasterAndData from ERC-7677)       ← eth_patchUserOperation
 *   sign     (owner signs getUserOpHash, EIP-191)   ← eth_signUserOperation
 *   send     (eth_sendUserOperation to Alto), then read receipt and events.
 */
import { readFileSync } from 'node:fs';
import { toSimpleSmartAccount } from 'permissionless/accounts';
import type { ToSimpleSmartAccountReturnType } from 'permissionless/accounts';
import {
  concat,
  createPublicClient,
  decodeFunctionData,
  http,
  isAddressEqual,
  parseAbi,
  size,
  slice,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint06Abi,
  formatUserOperationRequest,
  getUserOperationHash,
} from 'viem/account-abstraction';
import type {
  BundlerClient,
  PaymasterClient,
  UserOperation,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain, ERC4337_ABI } from '../../devnet/erc4337';
import { PAYMASTER_ERRORS } from '../../devnet/paymaster-service';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  recordTopics,
  RECORDERS,
} from '../../devnet/targets';

jest.setTimeout(90_000);

/** The permissionless SimpleAccount (EntryPoint v0.6) the tests drive. */
type SimpleAccount = ToSimpleSmartAccountReturnType<'0.6'>;
/** A complete EntryPoint v0.6 user operation (viem's `UserOperation<'0.6'>` with every field present). */
type UserOperationV06 = Required<Omit<UserOperation<'0.6'>, 'authorization'>>;
/** One call of a user operation, without value. */
type Call = {
  /** The contract called. */
  to: Address;
  /** The call data. */
  data: Hex;
};

/** A JSON-RPC reply of the paymaster service. */
type PaymasterReply = {
  /** The request id, echoed. */
  id: number;
  /** The error, when the service refused the request. */
  error?: {
    /** The JSON-RPC error code. */
    code: number;
    /** The error message. */
    message: string;
  };
};

const SIMPLE_ACCOUNT_ABI = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
]);

describe('ERC-4337 devnet: anvil + EntryPoint v0.6 + Alto + ERC-7677 paymaster', () => {
  let devnet: Devnet;
  let publicClient: PublicClient;
  let bundler: BundlerClient;
  let paymaster: PaymasterClient;
  let account: SimpleAccount;
  const owner = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    devnet = await startDevnet();
    const chain = devnetChain(devnet.chainId, devnet.rpcUrl);
    publicClient = createPublicClient({
      chain,
      transport: http(devnet.rpcUrl),
      pollingInterval: 100,
    });
    bundler = createBundlerClient({
      chain,
      client: publicClient,
      transport: http(devnet.bundlerUrl),
      pollingInterval: 100,
    });
    paymaster = createPaymasterClient({ transport: http(devnet.paymasterUrl) });
    account = await toSimpleSmartAccount({
      client: publicClient,
      owner,
      entryPoint: { address: devnet.contracts.entryPoint, version: '0.6' },
      factoryAddress: devnet.contracts.accountFactory,
      index: 0n,
    });
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    await installRecorder(devnet.rpcUrl, RECORDERS[1]);
    console.log(`devnet started in ${devnet.timings.total} ms`, devnet.timings);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  beforeEach(() => devnet.paymaster.resetStats());

  /**
   * Build, sponsor and sign one user operation for `calls` — the snap's prepare → patch → sign,
   * done here by the reference libraries.
   *
   * @param calls - The calls the operation executes, in order.
   * @returns The signed, sponsored operation.
   */
  async function sponsoredUserOperation(
    calls: Call[],
  ): Promise<UserOperationV06> {
    const { entryPoint } = devnet.contracts;
    // prepare: call data, initCode iff the account has no code, sequential nonce (key 0), fees.
    const deployed =
      (await publicClient.getCode({ address: account.address })) !== undefined;
    const { factory, factoryData } = await account.getFactoryArgs();
    const fees = await publicClient.estimateFeesPerGas();
    let op: UserOperationV06 = {
      sender: account.address,
      nonce: await account.getNonce({ key: 0n }),
      initCode:
        deployed || !factory || !factoryData
          ? '0x'
          : concat([factory, factoryData]),
      callData: await account.encodeCalls(
        calls.map((call) => ({ ...call, value: 0n })),
      ),
      callGasLimit: 0n,
      verificationGasLimit: 0n,
      preVerificationGas: 0n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      paymasterAndData: '0x',
      signature: await account.getStubSignature(),
    };
    // patch, step 1: stub paymaster data of the final length, so the gas estimate is right.
    const stub = await paymaster.getPaymasterStubData({
      ...op,
      entryPointAddress: entryPoint,
      chainId: devnet.chainId,
    });
    op = { ...op, paymasterAndData: stub.paymasterAndData as Hex };
    const gas = await bundler.request({
      method: 'eth_estimateUserOperationGas',
      params: [formatUserOperationRequest(op), entryPoint],
    });
    op = {
      ...op,
      callGasLimit: BigInt(gas.callGasLimit),
      verificationGasLimit: BigInt(gas.verificationGasLimit),
      preVerificationGas: BigInt(gas.preVerificationGas),
    };
    // patch, step 2: the paymaster signs the final gas values.
    const sponsored = await paymaster.getPaymasterData({
      ...op,
      entryPointAddress: entryPoint,
      chainId: devnet.chainId,
    });
    op = { ...op, paymasterAndData: sponsored.paymasterAndData as Hex };
    // sign: the owner signs EntryPoint.getUserOpHash(op) (EIP-191), as SimpleAccount v0.6 validates.
    return {
      ...op,
      signature: await account.signUserOperation({
        ...op,
        chainId: devnet.chainId,
      }),
    };
  }

  /**
   * Send a user operation to the bundler.
   *
   * @param op - The signed operation.
   * @returns The user operation hash.
   */
  async function send(op: UserOperationV06): Promise<Hex> {
    return bundler.request({
      method: 'eth_sendUserOperation',
      params: [formatUserOperationRequest(op), devnet.contracts.entryPoint],
    });
  }

  /**
   * The EntryPoint's events of one kind for the test account, from block 0.
   *
   * @param name - The event name.
   * @param userOpHash - Only the events of this user operation, when given.
   * @returns The decoded events, in chain order.
   */
  async function events(
    name: 'UserOperationEvent' | 'AccountDeployed',
    userOpHash?: Hex,
  ): Promise<
    {
      /** The decoded event arguments. */
      args: Record<string, unknown>;
    }[]
  > {
    return publicClient.getContractEvents({
      address: devnet.contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      eventName: name,
      args: { userOpHash, sender: account.address },
      fromBlock: 0n,
    });
  }

  it('serves everything on 127.0.0.1 only (Alto included: its listening socket is loopback)', () => {
    for (const url of [devnet.rpcUrl, devnet.bundlerUrl, devnet.paymasterUrl]) {
      expect(new URL(url).hostname).toBe('127.0.0.1');
    }
    // /proc/net/tcp{,6}: "sl local_address rem_address st ..." with hex address:port; st 0A = LISTEN.
    const portHex = devnet.alto.port
      .toString(16)
      .toUpperCase()
      .padStart(4, '0');
    const listening = ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/u))
      .filter(
        (fields) => fields[1]?.endsWith(`:${portHex}`) && fields[3] === '0A',
      )
      .map((fields) => fields[1].split(':')[0]);
    expect(listening).toStrictEqual(['0100007F']);
  });

  it('deployed the contracts: factory wired to the EntryPoint, paymaster funded and signed for by the fixture key', async () => {
    const { contracts } = devnet;
    const implementation = await publicClient.readContract({
      address: contracts.accountFactory,
      abi: ERC4337_ABI.factory,
      functionName: 'accountImplementation',
    });
    expect(implementation).toBe(contracts.simpleAccountImplementation);
    const signer = await publicClient.readContract({
      address: contracts.verifyingPaymaster,
      abi: ERC4337_ABI.paymaster,
      functionName: 'verifyingSigner',
    });
    expect(signer).toBe(privateKeyToAccount(contracts.paymasterSigner).address);
    const info = await publicClient.readContract({
      address: contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      functionName: 'getDepositInfo',
      args: [contracts.verifyingPaymaster],
    });
    expect(info.deposit).toBeGreaterThan(10n ** 18n);
    expect(info.staked).toBe(true);
  });

  it('computes the counterfactual address exactly as SimpleAccountFactory.getAddress (permissionless agrees)', async () => {
    const expected = await publicClient.readContract({
      address: devnet.contracts.accountFactory,
      abi: ERC4337_ABI.factory,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    });
    expect(account.address).toBe(expected);
    expect(
      await publicClient.getCode({ address: account.address }),
    ).toBeUndefined();
  });

  it('refuses foreign entry points, chain ids and methods with JSON-RPC errors', async () => {
    const op = { sender: account.address, nonce: '0x0', callData: '0x' };
    /**
     * Send one JSON-RPC request to the paymaster service.
     *
     * @param method - The method.
     * @param params - The params.
     * @returns The parsed reply.
     */
    const ask = async (
      method: string,
      params: unknown[],
    ): Promise<PaymasterReply> => {
      const response = await fetch(devnet.paymasterUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
      });
      return (await response.json()) as PaymasterReply;
    };
    const chainHex = `0x${devnet.chainId.toString(16)}`;
    const otherEntryPoint = await ask('pm_getPaymasterStubData', [
      op,
      '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      chainHex,
      {},
    ]);
    expect(otherEntryPoint.error).toMatchObject({
      code: PAYMASTER_ERRORS.invalidParams,
      message: expect.stringContaining('entry point'),
    });
    const otherChain = await ask('pm_getPaymasterData', [
      op,
      devnet.contracts.entryPoint,
      '0x1',
      {},
    ]);
    expect(otherChain.error).toMatchObject({
      code: PAYMASTER_ERRORS.invalidParams,
      message: expect.stringContaining('chain id'),
    });
    const missingGas = await ask('pm_getPaymasterData', [
      op,
      devnet.contracts.entryPoint,
      chainHex,
      {},
    ]);
    expect(missingGas.error).toMatchObject({
      code: PAYMASTER_ERRORS.invalidParams,
      message: 'userOp.callGasLimit is required',
    });
    const unknown = await ask('pm_sponsorUserOperation', [
      op,
      devnet.contracts.entryPoint,
    ]);
    expect(unknown).toMatchObject({
      id: 7,
      error: { code: PAYMASTER_ERRORS.methodNotFound },
    });
    expect(devnet.paymaster.stats).toMatchObject({ requests: 4, errors: 4 });
  });

  it('bundles a sponsored, deploying user operation with two intents (executeBatch)', async () => {
    const { entryPoint, verifyingPaymaster } = devnet.contracts;
    const depositBefore = await publicClient.readContract({
      address: entryPoint,
      abi: ERC4337_ABI.entryPoint,
      functionName: 'balanceOf',
      args: [verifyingPaymaster],
    });
    const calls: Call[] = [
      { to: RECORDERS[0], data: recordCalldata(1, 0xa1) },
      { to: RECORDERS[1], data: recordCalldata(2, 0xb2) },
    ];

    const op = await sponsoredUserOperation(calls);
    expect(op.nonce).toBe(0n);
    expect(slice(op.initCode, 0, 20).toLowerCase()).toBe(
      devnet.contracts.accountFactory.toLowerCase(),
    );
    expect(
      decodeFunctionData({ abi: SIMPLE_ACCOUNT_ABI, data: op.callData }),
    ).toStrictEqual({
      functionName: 'executeBatch',
      args: [calls.map((call) => call.to), calls.map((call) => call.data)],
    });
    expect(size(op.paymasterAndData)).toBe(20 + 64 + 65);
    expect(slice(op.paymasterAndData, 0, 20).toLowerCase()).toBe(
      verifyingPaymaster.toLowerCase(),
    );
    expect(devnet.paymaster.stats.byMethod).toStrictEqual({
      pm_getPaymasterStubData: 1,
      pm_getPaymasterData: 1,
    });

    // The hash three ways: the EntryPoint itself, viem, and what Alto returns.
    const onChainHash = await publicClient.readContract({
      address: entryPoint,
      abi: entryPoint06Abi,
      functionName: 'getUserOpHash',
      args: [op],
    });
    expect(
      getUserOperationHash({
        userOperation: op,
        entryPointAddress: entryPoint,
        entryPointVersion: '0.6',
        chainId: devnet.chainId,
      }),
    ).toBe(onChainHash);
    const sentAt = Date.now();
    const userOpHash = await send(op);
    expect(userOpHash).toBe(onChainHash);

    const receipt = await bundler.waitForUserOperationReceipt({
      hash: userOpHash,
      timeout: 30_000,
      pollingInterval: 100,
    });
    console.log(
      `first user operation: sent → receipt in ${Date.now() - sentAt} ms`,
    );
    expect(receipt.success).toBe(true);
    expect(receipt.paymaster?.toLowerCase()).toBe(
      verifyingPaymaster.toLowerCase(),
    );
    const raw = await bundler.request({
      method: 'eth_getUserOperationReceipt',
      params: [userOpHash],
    });
    expect(raw).toMatchObject({ userOpHash, success: true });

    // On chain: UserOperationEvent success, AccountDeployed once, both intents' effects, made by the account.
    const [event] = await events('UserOperationEvent', userOpHash);
    expect(event.args).toMatchObject({
      sender: account.address,
      paymaster: verifyingPaymaster,
      nonce: 0n,
      success: true,
    });
    const deployedEvents = await events('AccountDeployed');
    expect(deployedEvents).toHaveLength(1);
    expect(deployedEvents[0].args).toMatchObject({
      userOpHash,
      factory: devnet.contracts.accountFactory,
      paymaster: verifyingPaymaster,
    });
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 1)).toBe(0xa1n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 2)).toBe(0xb2n);
    const logs = await publicClient.getLogs({
      blockHash: receipt.receipt.blockHash,
    });
    const recorded = logs.filter((log) =>
      RECORDERS.some((recorder) => isAddressEqual(log.address, recorder)),
    );
    expect(recorded.map((log) => log.topics)).toStrictEqual([
      recordTopics(1, account.address),
      recordTopics(2, account.address),
    ]);

    // Sponsored: the account holds no ETH; the paymaster's deposit paid exactly actualGasCost.
    expect(await publicClient.getBalance({ address: account.address })).toBe(
      0n,
    );
    const depositAfter = await publicClient.readContract({
      address: entryPoint,
      abi: ERC4337_ABI.entryPoint,
      functionName: 'balanceOf',
      args: [verifyingPaymaster],
    });
    expect(depositBefore - depositAfter).toBe(receipt.actualGasCost);
  });

  it('bundles a second operation from the deployed account with initCode 0x and nonce 1', async () => {
    const op = await sponsoredUserOperation([
      { to: RECORDERS[0], data: recordCalldata(1, 0xc3) },
    ]);
    expect(op.initCode).toBe('0x');
    expect(op.nonce).toBe(1n);
    expect(
      decodeFunctionData({ abi: SIMPLE_ACCOUNT_ABI, data: op.callData })
        .functionName,
    ).toBe('execute');

    const userOpHash = await send(op);
    const receipt = await bundler.waitForUserOperationReceipt({
      hash: userOpHash,
      timeout: 30_000,
      pollingInterval: 100,
    });
    expect(receipt.success).toBe(true);
    expect(receipt.nonce).toBe(1n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 1)).toBe(0xc3n);
    expect(await events('AccountDeployed')).toHaveLength(1);
    expect(await events('UserOperationEvent')).toHaveLength(2);
    const nonce = await publicClient.readContract({
      address: devnet.contracts.entryPoint,
      abi: entryPoint06Abi,
      functionName: 'getNonce',
      args: [account.address, 0n],
    });
    expect(nonce).toBe(2n);
  });

  it('rejects an operation changed after the paymaster signed it (the paymaster signature is really checked)', async () => {
    const op = await sponsoredUserOperation([
      { to: RECORDERS[1], data: recordCalldata(9, 0xdd) },
    ]);
    const tampered = { ...op, callGasLimit: op.callGasLimit + 1n };
    const resigned = {
      ...tampered,
      signature: await account.signUserOperation({
        ...tampered,
        chainId: devnet.chainId,
      }),
    };
    await expect(send(resigned)).rejects.toThrow(/AA34|paymaster signature/iu);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 9)).toBe(0n);
  });
});
