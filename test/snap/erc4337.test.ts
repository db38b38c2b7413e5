/**
 * ERC-4337 smart accounts through the built snap, proven on real parts: anvil, the v0.6.0
 * EntryPoint and SimpleAccountFactory of `@account-abstraction/contracts`, a VerifyingPaymaster
 * behind an ERC-7677 service, and the Alto bundler. permissionless is the independent reference
 * for the account's address and call data; the EntryPoint itself computes the userOpHash.
 */
import {
  EthBaseUserOperationStruct,
  EthErc4337AccountStruct,
  EthUserOperationPatchStruct,
} from '@metamask/keyring-api';
import type { EthUserOperation } from '@metamask/keyring-api';
import { is } from '@metamask/superstruct';
import { toSimpleSmartAccount } from 'permissionless/accounts';
import {
  createPublicClient,
  decodeFunctionData,
  encodeErrorResult,
  encodeEventTopics,
  http,
  numberToHex,
  parseAbi,
  recoverMessageAddress,
  slice,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { COMPANION, installKeyringSnap, rejection } from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import {
  devnetChain,
  ERC4337_ABI,
  toViemUserOperation,
} from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import {
  installRecorder,
  installReverter,
  readRecord,
  recordCalldata,
  RECORDERS,
  REVERTER,
} from '../../devnet/targets';
import { ERC1967_PROXY_RUNTIME_CODE } from '../../src/accounts/erc4337/constants';

const BASE_USER_OPERATION_FIELDS = [
  'bundlerUrl',
  'callData',
  'dummyPaymasterAndData',
  'dummySignature',
  'gasLimits',
  'initCode',
  'nonce',
];

/** One call of a user operation, as eth_prepareUserOperation takes it. */
type Intent = {
  /** The contract called. */
  to: Address;
  /** The wei sent, hex. */
  value: Hex;
  /** The call data. */
  data: Hex;
};

/** What building a user operation went through. */
type BuiltUserOperation = {
  /** The eth_prepareUserOperation result. */
  prepared: any;
  /** The eth_patchUserOperation result. */
  patch: any;
  /** The signed operation, as sent to the bundler. */
  userOp: EthUserOperation;
};

describe('ERC-4337 smart accounts through the built snap (EntryPoint v0.6, Alto, ERC-7677 paymaster)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let account: any;
  let ownerKey: Hex;

  /**
   * prepare → fill fees → patch → sign, as MetaMask's bridge drives it.
   *
   * @param intents - The calls of the operation.
   * @returns The prepare and patch results, and the signed operation.
   */
  async function buildUserOperation(
    intents: Intent[],
  ): Promise<BuiltUserOperation> {
    const prepared = (
      await harness.submit(
        account,
        'eth_prepareUserOperation',
        intents,
        devnet.scope,
      )
    ).result;
    const block = await client.getBlock();
    const tip = 1_000_000_000n;
    const userOp = {
      sender: account.address,
      nonce: prepared.nonce,
      initCode: prepared.initCode,
      callData: prepared.callData,
      ...prepared.gasLimits,
      maxFeePerGas: numberToHex((block.baseFeePerGas ?? 0n) * 2n + tip),
      maxPriorityFeePerGas: numberToHex(tip),
      paymasterAndData: prepared.dummyPaymasterAndData,
      signature: prepared.dummySignature,
    };
    const patch = (
      await harness.submit(
        account,
        'eth_patchUserOperation',
        [userOp],
        devnet.scope,
      )
    ).result;
    Object.assign(userOp, patch);
    userOp.signature = (
      await harness.submit(
        account,
        'eth_signUserOperation',
        [userOp],
        devnet.scope,
      )
    ).result;
    return { prepared, patch, userOp };
  }

  /**
   * Send an operation to the bundler and wait for its receipt (10 s at most).
   *
   * @param userOp - The signed operation.
   * @returns The user operation hash.
   */
  async function sendAndWait(userOp: Record<string, string>): Promise<Hex> {
    const hash = await jsonRpc<Hex>(
      devnet.bundlerUrl,
      'eth_sendUserOperation',
      [userOp, devnet.contracts.entryPoint],
    );
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (
        await jsonRpc(devnet.bundlerUrl, 'eth_getUserOperationReceipt', [hash])
      ) {
        return hash;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no receipt for ${hash} after 10 s`);
  }

  beforeAll(async () => {
    devnet = await startDevnet();
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    await installRecorder(devnet.rpcUrl, RECORDERS[1]);
    await installReverter(devnet.rpcUrl);
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', devnet.chainConfig);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('creates a SimpleAccount at the factory’s counterfactual address, the same one permissionless computes', async () => {
    account = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    expect(account.type).toBe('eip155:erc4337');
    expect(account.scopes).toEqual([devnet.scope]);
    expect(account.methods).toEqual([
      'eth_prepareUserOperation',
      'eth_patchUserOperation',
      'eth_signUserOperation',
    ]);
    expect(harness.events.at(-1)?.params.account).toEqual(account);
    expect(is(account, EthErc4337AccountStruct)).toBe(true);

    const exported = harness.snap.onKeyringRequest({
      origin: COMPANION,
      method: 'keyring_exportAccount',
      params: { id: account.id },
    });
    await ((await exported.getInterface()) as any).ok();
    ownerKey = ((await exported).response as any).result.privateKey;
    const owner = privateKeyToAccount(ownerKey);

    const fromFactory = await client.readContract({
      address: devnet.contracts.accountFactory,
      abi: ERC4337_ABI.factory,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    });
    expect(account.address).toBe(fromFactory);
    const reference = await toSimpleSmartAccount({
      client,
      owner,
      entryPoint: { address: devnet.contracts.entryPoint, version: '0.6' },
      factoryAddress: devnet.contracts.accountFactory,
      index: 0n,
    });
    expect(account.address).toBe(reference.address);
    expect(await client.getCode({ address: account.address })).toBeUndefined();
  });

  it('prepares, patches and signs a two-intent operation that Alto bundles: both intents take effect, AccountDeployed once', async () => {
    const intents: Intent[] = [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 111) },
      { to: RECORDERS[1], value: '0x0', data: recordCalldata(2, 222) },
    ];
    const { prepared, patch, userOp } = await buildUserOperation(intents);

    expect(Object.keys(prepared).sort()).toEqual(BASE_USER_OPERATION_FIELDS);
    // the bridge checks replies strictly against keyring-api's structs: no extra field
    expect(is(prepared, EthBaseUserOperationStruct)).toBe(true);
    expect(is(patch, EthUserOperationPatchStruct)).toBe(true);
    expect(Object.keys(prepared.gasLimits).sort()).toEqual([
      'callGasLimit',
      'preVerificationGas',
      'verificationGasLimit',
    ]);
    expect(prepared.nonce).toBe('0x0');
    expect((slice(prepared.initCode, 0, 20) as Hex).toLowerCase()).toBe(
      devnet.contracts.accountFactory.toLowerCase(),
    );
    expect(prepared.bundlerUrl).toBe(devnet.bundlerUrl);
    const reference = await toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(ownerKey),
      entryPoint: { address: devnet.contracts.entryPoint, version: '0.6' },
      factoryAddress: devnet.contracts.accountFactory,
      index: 0n,
    });
    expect(prepared.callData).toBe(
      await reference.encodeCalls(
        intents.map(({ to, data }) => ({ to, data, value: 0n })),
      ),
    );
    expect(Object.keys(patch)).toEqual(['paymasterAndData']);
    expect((slice(patch.paymasterAndData, 0, 20) as Hex).toLowerCase()).toBe(
      devnet.contracts.verifyingPaymaster.toLowerCase(),
    );

    const onChainHash = await client.readContract({
      address: devnet.contracts.entryPoint,
      abi: parseAbi([
        'function getUserOpHash((address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature) userOp) view returns (bytes32)',
      ]),
      functionName: 'getUserOpHash',
      args: [toViemUserOperation(userOp)],
    });
    expect(
      await recoverMessageAddress({
        message: { raw: onChainHash },
        signature: userOp.signature as Hex,
      }),
    ).toBe(privateKeyToAccount(ownerKey).address);
    const specForm = (
      await harness.submit(
        account,
        'eth_signUserOperation',
        [userOp, devnet.contracts.entryPoint],
        devnet.scope,
      )
    ).result;
    expect(specForm).toBe(userOp.signature);

    const userOpHash = await sendAndWait(userOp);
    expect(userOpHash).toBe(onChainHash);
    const receipt = await harness.rpc('getUserOperationReceipt', {
      scope: devnet.scope,
      userOpHash,
    });
    expect(receipt).toEqual(
      expect.objectContaining({
        userOpHash,
        sender: account.address,
        nonce: '0x0',
        success: true,
      }),
    );
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 1)).toBe(111n);
    // the code the snap's estimation override uses is exactly what the factory deployed
    expect(await client.getCode({ address: account.address })).toBe(
      ERC1967_PROXY_RUNTIME_CODE,
    );
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 2)).toBe(222n);
    const transaction = await client.getTransaction({
      hash: receipt.transactionHash,
    });
    expect(numberToHex(transaction.blockNumber)).toBe(receipt.blockNumber);
  });

  it('a second operation from the deployed account has initCode 0x and nonce 1; AccountDeployed fired only once', async () => {
    const { prepared, userOp } = await buildUserOperation([
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(3, 333) },
    ]);
    expect(prepared.initCode).toBe('0x');
    expect(prepared.nonce).toBe('0x1');
    expect(
      decodeFunctionData({
        abi: parseAbi([
          'function execute(address dest, uint256 value, bytes func)',
        ]),
        data: prepared.callData,
      }).functionName,
    ).toBe('execute');
    const userOpHash = await sendAndWait(userOp);
    expect(
      (
        await harness.rpc('getUserOperationReceipt', {
          scope: devnet.scope,
          userOpHash,
        })
      ).success,
    ).toBe(true);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 3)).toBe(333n);
    const deployed = await client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: devnet.contracts.entryPoint,
          fromBlock: '0x0',
          toBlock: 'latest',
          topics: encodeEventTopics({
            abi: ERC4337_ABI.entryPoint,
            eventName: 'AccountDeployed',
            args: { sender: account.address },
          }),
        },
      ],
    });
    expect(deployed).toHaveLength(1);
  });

  it('refuses bad operations with errors naming the field, and decodes a reverting intent', async () => {
    const zero = '0x0000000000000000000000000000000000000000';
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_prepareUserOperation',
            [{ to: null, value: '0x0', data: '0x60' }],
            devnet.scope,
          ),
        )
      ).message,
    ).toMatch(/to: null.*SimpleAccount v0.6 execute cannot deploy/u);
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_prepareUserOperation',
            [
              { to: RECORDERS[0], value: '0x0', data: '0x' },
              { to: RECORDERS[1], value: '0x1', data: '0x' },
            ],
            devnet.scope,
          ),
        )
      ).message,
    ).toMatch(
      /at 1\.value: SimpleAccount v0.6 executeBatch cannot send value/u,
    );
    const reverting = await rejection(
      harness.submit(
        account,
        'eth_prepareUserOperation',
        [
          {
            to: REVERTER,
            value: '0x0',
            data: encodeErrorResult({
              abi: parseAbi(['error Error(string)']),
              errorName: 'Error',
              args: ['not today'],
            }),
          },
        ],
        devnet.scope,
      ),
    );
    expect(reverting.code).toBe(3);
    expect(reverting.message).toMatch(/not today/u);
    const { userOp } = await buildUserOperation([
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(4, 4) },
    ]);
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_signUserOperation',
            [{ ...userOp, sender: zero }],
            devnet.scope,
          ),
        )
      ).message,
    ).toMatch(/sender: not this account/u);
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_signUserOperation',
            [userOp, zero],
            devnet.scope,
          ),
        )
      ).message,
    ).toMatch(/params\[1\]: not this account's EntryPoint/u);
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_signUserOperation',
            [userOp],
            'eip155:1',
          ),
        )
      ).message,
    ).toMatch(/^Invalid scope: not one of this account's chains/u);
    expect(
      (
        await rejection(
          harness.submit(
            account,
            'eth_signUserOperation',
            [{ ...userOp, nonce: 'one' }],
            devnet.scope,
          ),
        )
      ).message,
    ).toMatch(/params\[0\] at nonce/u);
    expect(
      (
        await rejection(
          harness.createAccount({
            type: 'eip155:erc4337',
            scopes: ['eip155:5'],
          }),
        )
      ).message,
    ).toMatch(/No chain config for eip155:5/u);
    expect(
      await harness.rpc('getUserOperationReceipt', {
        scope: devnet.scope,
        userOpHash: `0x${'ab'.repeat(32)}`,
      }),
    ).toBeNull();
  });

  it('masks the API key of a configured RPC URL and refuses a URL serving another chain', async () => {
    const proxy = await startLimitsProxy({
      upstream: devnet.rpcUrl,
      apiKey: 'sEcReT-kEy-4242',
    });
    try {
      const stored = await harness.rpcApproved('setChainConfig', {
        ...devnet.chainConfig,
        rpcUrl: proxy.url,
      });
      const configs = await harness.rpc('getChainConfigs');
      expect(stored.rpcUrl).toBe(`${proxy.baseUrl}/***`);
      expect(configs).toEqual([stored]);
      expect(JSON.stringify([stored, configs])).not.toContain('sEcReT');
      // the snap still reaches the chain through the keyed URL
      const prepared = (
        await harness.submit(
          account,
          'eth_prepareUserOperation',
          [{ to: RECORDERS[0], value: '0x0', data: recordCalldata(5, 5) }],
          devnet.scope,
        )
      ).result;
      expect(prepared.nonce).toBe('0x2');
      expect(proxy.stats.httpRequests).toBeGreaterThan(0);
    } finally {
      await harness.rpcApproved('setChainConfig', devnet.chainConfig);
      await proxy.close();
    }
    const wrongChain = await rejection(
      harness.rpcApproved('setChainConfig', {
        scope: 'eip155:1',
        rpcUrl: devnet.rpcUrl,
      }),
    );
    expect(wrongChain.message).toMatch(/serves chain 31337, not eip155:1/u);
  });
});
