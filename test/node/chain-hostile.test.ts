/**
 * A JSON-RPC endpoint that lies: the numbers eth_prepareUserOperation takes from it (eth_getCode,
 * the EntryPoint nonce, gas estimates, the block gas limit) are checked, so a lie makes prepare
 * fail with a TransportError and never yields 0 or 2^256 - 1 gas. Against anvil with the v0.6
 * contracts, behind the limits proxy replacing one method's result.
 */
import { privateKeyToAddress } from 'viem/accounts';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import type { SmartAccountChain } from '../../src/accounts/erc4337/prepare';
import {
  computeAccountAddress,
  prepareUserOperation,
} from '../../src/accounts/erc4337/prepare';
import { createRpcClient, TransportError } from '../../src/chain';

jest.setTimeout(120_000);

const OWNER = privateKeyToAddress(
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
);
const intents = [
  {
    to: '0x000000000000000000000000000000000000beef' as const,
    value: 0n,
    data: '0x' as const,
  },
];
const MAX = `0x${'f'.repeat(64)}`;

describe('prepareUserOperation against an endpoint that lies', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let chain: SmartAccountChain;
  let gasLimit: bigint;

  beforeAll(async () => {
    anvil = await startAnvil();
    const contracts = await deployErc4337(anvil.url);
    proxy = await startLimitsProxy({ upstream: anvil.url });
    const client = createRpcClient({ url: proxy.url, retries: 0 });
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
    const latest = await client.getBlockByNumber('latest');
    if (!latest) {
      throw new Error('the node has no latest block');
    }
    gasLimit = BigInt(latest.gasLimit);
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.clearFaults();
    proxy.resetStats();
  });

  it('an honest endpoint: one round trip, gas within [21,000, 10x the block gas limit]', async () => {
    const prepared = await prepareUserOperation(chain, intents);
    expect(proxy.stats.httpRequests).toBe(1);
    if (!prepared.gasLimits) {
      throw new Error('prepareUserOperation returned no gas limits');
    }
    const callGas = BigInt(prepared.gasLimits.callGasLimit);
    expect(callGas).toBeGreaterThanOrEqual(21_000n);
    expect(callGas).toBeLessThanOrEqual(gasLimit * 10n);
  });

  it.each([
    [
      'eth_estimateGas',
      '0x0',
      /eth_estimateGas: the provider returned a value outside/u,
    ],
    [
      'eth_estimateGas',
      '0x1',
      /eth_estimateGas: the provider returned a value outside/u,
    ],
    [
      'eth_estimateGas',
      MAX,
      /eth_estimateGas: the provider returned a value outside/u,
    ],
    [
      'eth_estimateGas',
      'lots',
      /eth_estimateGas: the provider returned something that is not a hex quantity/u,
    ],
    [
      'eth_getCode',
      'not code',
      /eth_getCode: the provider returned something that is not hex bytes/u,
    ],
    [
      'eth_call',
      MAX,
      /EntryPoint.getNonce: the provider returned a value above/u,
    ],
    [
      'eth_call',
      '0x',
      /EntryPoint.getNonce: the provider returned 0 bytes instead of 32/u,
    ],
    [
      'eth_getBlockByNumber',
      { number: '0x1', gasLimit: '0x0' },
      /gasLimit: the provider returned a value outside/u,
    ],
    [
      'eth_getBlockByNumber',
      { number: '0x1', gasLimit: MAX },
      /gasLimit: the provider returned a value outside/u,
    ],
  ])('%s answering %j makes prepare fail', async (method, result, message) => {
    proxy.inject({ type: 'result', method, result });
    const error = await prepareUserOperation(chain, intents).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).kind).toBe('malformed');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`(${proxy.baseUrl})`);
  });

  it('an estimate above 10x the block gas limit makes prepare fail', async () => {
    proxy.inject({
      type: 'result',
      method: 'eth_estimateGas',
      result: `0x${(gasLimit * 10n + 1n).toString(16)}`,
    });
    await expect(prepareUserOperation(chain, intents)).rejects.toThrow(
      /eth_estimateGas: the provider returned a value outside \[21000, /u,
    );
  });
});
