/**
 * eth_prepareUserOperation's chain side (src/accounts/erc4337/prepare.ts) as a plain library against
 * anvil with the real v0.6 contracts, behind the provider-limits proxy that counts round trips.
 */
import { encodeFunctionData, numberToHex } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337, ERC4337_ABI } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import {
  installRecorder,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';
import type { SmartAccountChain } from '../../src/accounts/erc4337/prepare';
import {
  computeAccountAddress,
  prepareUserOperation,
  prepareUserOperationWith,
} from '../../src/accounts/erc4337/prepare';
import { createRpcClient } from '../../src/chain';

const OWNER = privateKeyToAddress(
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
);

describe('prepareUserOperation on anvil with EntryPoint v0.6', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let contracts: Erc4337Deployment;
  let chain: SmartAccountChain;
  const intents = [
    { to: RECORDERS[0] as Hex, value: 0n, data: recordCalldata(7, 70) },
    { to: RECORDERS[1] as Hex, value: 0n, data: recordCalldata(8, 80) },
  ];

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    await installRecorder(anvil.url, RECORDERS[0]);
    await installRecorder(anvil.url, RECORDERS[1]);
    proxy = await startLimitsProxy({ upstream: anvil.url });
    const client = createRpcClient({ url: proxy.url });
    const { address, implementation } = await computeAccountAddress(
      client,
      contracts.accountFactory,
      OWNER,
    );
    chain = {
      client,
      chainId: 31337n,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
      implementation,
      owner: OWNER,
      sender: address,
      bundlerUrl: 'http://127.0.0.1:1',
    };
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  let undeployedCallGas: bigint;

  it('reads the nonce of the key asked (2D nonce) and refuses a nonce of another key', async () => {
    const key = 2n ** 191n + 5n;
    const prepared = await prepareUserOperationWith(chain, intents, [], key);
    expect(BigInt(prepared.prepared.nonce)).toBe(key * 2n ** 64n);
    const getNonce = encodeFunctionData({
      abi: ERC4337_ABI.entryPoint,
      functionName: 'getNonce',
      args: [OWNER, 0n],
    }).slice(0, 10);
    proxy.inject({
      type: 'result',
      method: 'eth_call',
      selector: getNonce,
      result: numberToHex((key - 1n) * 2n ** 64n + 3n, { size: 32 }),
    });
    await expect(
      prepareUserOperationWith(chain, intents, [], key),
    ).rejects.toMatchObject({
      message: expect.stringMatching(
        /^EntryPoint\.getNonce: the provider returned a nonce of another key/u,
      ),
    });
  });

  it('reads the chain in one round trip for a not-yet-deployed account', async () => {
    proxy.resetStats();
    const prepared = await prepareUserOperation(chain, intents);
    expect(proxy.stats.httpRequests).toBe(1);
    expect(prepared.initCode.startsWith(contracts.accountFactory)).toBe(true);
    expect(prepared.nonce).toBe('0x0');
    undeployedCallGas = BigInt(prepared.gasLimits?.callGasLimit as string);
    expect(
      BigInt(prepared.gasLimits?.verificationGasLimit as string),
    ).toBeGreaterThan(200_000n);
  });

  it('a provider that refuses state overrides costs a second round trip and still gives a sufficient estimate', async () => {
    proxy.resetStats();
    proxy.options.refuseStateOverride = true;
    const prepared = await prepareUserOperation(chain, intents).finally(() => {
      proxy.options.refuseStateOverride = false;
    });
    expect(proxy.stats.httpRequests).toBe(2);
    expect(
      BigInt(prepared.gasLimits?.callGasLimit as string),
    ).toBeGreaterThanOrEqual(undeployedCallGas);
  });

  it('after deployment: initCode 0x, one round trip, and the same callGasLimit the override predicted (checked by a plain estimate)', async () => {
    const { receipt } = await sendAndMine(anvil.url, {
      from: contracts.deployer,
      to: contracts.accountFactory,
      data: encodeFunctionData({
        abi: [
          {
            type: 'function',
            name: 'createAccount',
            stateMutability: 'nonpayable',
            inputs: [{ type: 'address' }, { type: 'uint256' }],
            outputs: [{ type: 'address' }],
          },
        ],
        functionName: 'createAccount',
        args: [OWNER, 0n],
      }),
    });
    expect(receipt.status).toBe('0x1');
    proxy.resetStats();
    const prepared = await prepareUserOperation(chain, intents);
    expect(proxy.stats.httpRequests).toBe(1);
    expect(prepared.initCode).toBe('0x');
    const direct = await createRpcClient({ url: anvil.url }).estimateGas({
      from: contracts.entryPoint,
      to: chain.sender,
      data: prepared.callData as Hex,
    });
    expect(BigInt(prepared.gasLimits?.callGasLimit as string)).toBe(direct);
    expect(undeployedCallGas).toBe(direct);
    expect(numberToHex(direct)).toBe(prepared.gasLimits?.callGasLimit);
  });
});
