/**
 * Receipt lookup (src/accounts/erc4337/receipt.ts) against anvil with the real v0.6 EntryPoint:
 * an operation prepared and signed by the snap's code is handed to EntryPoint.handleOps directly
 * (no bundler), then looked up through a counting proxy that records every eth_getLogs range.
 */
import { encodeFunctionData, numberToHex, parseAbi, parseEther } from 'viem';
import type { Hex } from 'viem';
import {
  generatePrivateKey,
  privateKeyToAccount,
  privateKeyToAddress,
} from 'viem/accounts';

import { ANVIL_KEYS, startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { freePort } from '../../devnet/ports';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';
import type { SmartAccountChain } from '../../src/accounts/erc4337/prepare';
import {
  computeAccountAddress,
  prepareUserOperation,
} from '../../src/accounts/erc4337/prepare';
import { lookupUserOperationReceipt } from '../../src/accounts/erc4337/receipt';
import {
  signUserOperation,
  userOpHash,
} from '../../src/accounts/erc4337/userop';
import { createRpcClient } from '../../src/chain';

const HANDLE_OPS = parseAbi([
  'function handleOps((address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature)[] ops, address beneficiary)',
]);

describe('lookupUserOperationReceipt on anvil with EntryPoint v0.6', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let contracts: Erc4337Deployment;
  let hash: Hex;
  let sentAt: bigint;
  let minedIn: bigint;
  let deadBundler: string;

  /**
   * The first block of each eth_getLogs call the proxy received, in order.
   *
   * @returns The fromBlock values.
   */
  const logRanges = (): bigint[] =>
    proxy.stats.calls
      .filter((call) => call.method === 'eth_getLogs')
      .map(({ params }) =>
        BigInt((params[0] as Record<string, Hex>).fromBlock),
      );

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    await installRecorder(anvil.url, RECORDERS[0]);
    proxy = await startLimitsProxy({ upstream: anvil.url, recordCalls: true });
    deadBundler = `http://127.0.0.1:${await freePort()}`; // nothing listens: every bundler call fails

    const ownerKey = generatePrivateKey();
    const client = createRpcClient({ url: anvil.url });
    const { address, implementation } = await computeAccountAddress(
      client,
      contracts.accountFactory,
      privateKeyToAddress(ownerKey),
    );
    const chain: SmartAccountChain = {
      client,
      chainId: 31337n,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
      implementation,
      owner: privateKeyToAddress(ownerKey),
      sender: address,
      bundlerUrl: deadBundler,
    };
    await jsonRpc(anvil.url, 'anvil_setBalance', [
      address,
      numberToHex(parseEther('1')),
    ]);
    const prepared = await prepareUserOperation(chain, [
      { to: RECORDERS[0], value: 0n, data: recordCalldata(9, 99) },
    ]);
    const block = await client.getBlockByNumber('latest');
    const unsigned = {
      sender: address,
      nonce: prepared.nonce,
      initCode: prepared.initCode,
      callData: prepared.callData,
      ...(prepared.gasLimits as Record<
        'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas',
        string
      >),
      maxFeePerGas: numberToHex(
        BigInt(block?.baseFeePerGas ?? '0x0') * 2n + 10n ** 9n,
      ),
      maxPriorityFeePerGas: numberToHex(10n ** 9n),
      paymasterAndData: '0x',
      signature: prepared.dummySignature,
    };
    const op = {
      ...unsigned,
      signature: await signUserOperation(
        ownerKey,
        unsigned,
        contracts.entryPoint,
        31337n,
      ),
    };
    hash = userOpHash(op, contracts.entryPoint, 31337n);
    sentAt = await client.blockNumber();
    const beneficiary = privateKeyToAccount(ANVIL_KEYS[0]).address;
    const quantities = [
      'nonce',
      'callGasLimit',
      'verificationGasLimit',
      'preVerificationGas',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
    ] as const;
    const args = {
      ...op,
      ...Object.fromEntries(
        quantities.map((field) => [field, BigInt(op[field])]),
      ),
    };
    const { receipt } = await sendAndMine(anvil.url, {
      from: beneficiary,
      to: contracts.entryPoint,
      gas: '0x2dc6c0',
      data: encodeFunctionData({
        abi: HANDLE_OPS,
        functionName: 'handleOps',
        args: [[args as never], beneficiary],
      }),
    });
    if (receipt.status !== '0x1') {
      throw new Error('setup: handleOps reverted');
    }
    minedIn = BigInt(receipt.blockNumber);
    const recorded = await readRecord(anvil.url, RECORDERS[0], 9);
    if (recorded !== 99n) {
      throw new Error(`setup: the recorder holds ${recorded}, not 99`);
    }
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  it('an operation the snap did not send: found in the recent window, the logs searched from latest - window + 1 only', async () => {
    proxy.resetStats();
    const receipt = await lookupUserOperationReceipt(
      {
        rpcUrl: proxy.url,
        entryPoints: [contracts.entryPoint],
        bundlerUrls: [deadBundler],
      },
      hash,
      5n,
    );
    expect(receipt).toStrictEqual(
      expect.objectContaining({
        userOpHash: hash,
        success: true,
        nonce: '0x0',
        blockNumber: numberToHex(minedIn),
      }),
    );
    const latest = BigInt(await jsonRpc<Hex>(anvil.url, 'eth_blockNumber', []));
    expect(lowest(logRanges())).toBe(latest - 4n); // the adapter may split the window; nothing before it is queried
  });

  it('once the operation is older than the window it is unknown (null): nothing before the window is queried', async () => {
    await jsonRpc(anvil.url, 'anvil_mine', ['0xa']);
    const latest = BigInt(await jsonRpc<Hex>(anvil.url, 'eth_blockNumber', []));
    proxy.resetStats();
    expect(
      await lookupUserOperationReceipt(
        {
          rpcUrl: proxy.url,
          entryPoints: [contracts.entryPoint],
          bundlerUrls: [deadBundler],
        },
        hash,
        5n,
      ),
    ).toBeNull();
    expect(lowest(logRanges())).toBe(latest - 4n); // the adapter may split the window; nothing before it is queried
    expect(latest - 4n).toBeGreaterThan(minedIn);
  });

  it('an operation the snap sent is found from the block remembered at send time, whatever the window, when its bundler cannot answer', async () => {
    proxy.resetStats();
    const sent = {
      bundlerUrl: deadBundler,
      fromBlock: numberToHex(sentAt),
      entryPoint: contracts.entryPoint,
    };
    const receipt = await lookupUserOperationReceipt(
      {
        rpcUrl: proxy.url,
        entryPoints: [contracts.entryPoint],
        bundlerUrls: [],
        sent,
      },
      hash,
      5n,
    );
    expect(receipt).toStrictEqual(
      expect.objectContaining({
        userOpHash: hash,
        success: true,
        blockNumber: numberToHex(minedIn),
      }),
    );
    expect(logRanges().every((from) => from >= sentAt)).toBe(true);
    expect(logRanges()[0]).toBe(sentAt);
  });
});

/**
 * The lowest of the fromBlock values queried.
 *
 * @param values - The fromBlock values.
 * @returns The lowest, or undefined when there is none.
 */
function lowest(values: bigint[]): bigint | undefined {
  return values.length === 0
    ? undefined
    : values.reduce((low, value) => (value < low ? value : low));
}
