import { encodeAbiParameters, encodeErrorResult, parseAbi } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import {
  DEV_ACCOUNT,
  emitData,
  EMITTER_CODE,
  REVERTER_CODE,
  rpc,
  TOPICS,
} from '../../devnet/seed-logs';
import {
  createRpcClient,
  ExecutionRevertedError,
  InvalidParamsError,
  ChainRpcError,
  TransportError,
} from '../../src/chain';

jest.setTimeout(60_000);

const REVERTER = '0x000000000000000000000000000000000000dead';
const PLAIN = '0x000000000000000000000000000000000000beef';
/**
 * Revert data of `Error(string)`.
 *
 * @param text - The reason.
 * @returns The ABI-encoded error.
 */
const errorString = (text: string): `0x${string}` =>
  encodeErrorResult({
    abi: parseAbi(['error Error(string)']),
    errorName: 'Error',
    args: [text],
  });
/**
 * Revert data of `Panic(uint256)`.
 *
 * @param code - The panic code.
 * @returns The ABI-encoded error.
 */
const panic = (code: bigint): `0x${string}` =>
  `0x4e487b71${encodeAbiParameters([{ type: 'uint256' }], [code]).slice(2)}`;

describe('chain adapter: estimateGas, call, getTransactionByHash, reads', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;

  beforeAll(async () => {
    anvil = await startAnvil();
    proxy = await startLimitsProxy({ upstream: anvil.url });
    await rpc(anvil.url, 'anvil_setCode', [REVERTER, REVERTER_CODE]);
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.resetStats();
    proxy.clearFaults();
    proxy.options.rewriteChainId = false;
  });

  /**
   * A client of the proxy that retries after 5 ms.
   *
   * @returns The client.
   */
  const client = (): ReturnType<typeof createRpcClient> =>
    createRpcClient({ url: proxy.url, retryDelayMs: 5 });

  it('estimates a plain transfer at 21,000 gas', async () => {
    expect(
      await client().estimateGas({ from: DEV_ACCOUNT, to: PLAIN, value: 1n }),
    ).toBe(21_000n);
    expect(
      await client().estimateGas(
        { from: DEV_ACCOUNT, to: PLAIN, value: '0x1' },
        'finalized',
      ),
    ).toBe(21_000n);
  });

  it('decodes Error(string) reverts into ExecutionRevertedError', async () => {
    const data = errorString('boom: not allowed');
    const error = (await client()
      .estimateGas({ from: DEV_ACCOUNT, to: REVERTER, data })
      .catch((thrown: unknown) => thrown)) as ExecutionRevertedError;
    expect(error).toBeInstanceOf(ExecutionRevertedError);
    expect(error).toBeInstanceOf(ChainRpcError);
    expect(error.code).toBe(3);
    expect(error.reason).toBe('boom: not allowed');
    expect(error.data).toBe(data);
    expect(error.decoded.kind).toBe('Error');
    expect(error.message).toBe('execution reverted: boom: not allowed');
  });

  it('decodes Panic(uint256) with its meaning', async () => {
    const data = panic(0x11n);
    const error = (await client()
      .call({ to: REVERTER, data })
      .catch((thrown: unknown) => thrown)) as ExecutionRevertedError;
    expect(error).toBeInstanceOf(ExecutionRevertedError);
    expect(error.reason).toBe('Panic(0x11): arithmetic underflow or overflow');
    expect(error.decoded.panicCode).toBe(0x11n);
    expect(error.data).toBe(data);
  });

  it('shows a custom error by its selector and keeps the raw data', async () => {
    const data = `0xdeadbeef${'00'.repeat(31)}2a` as const;
    const error = (await client()
      .estimateGas({ to: REVERTER, data })
      .catch((thrown: unknown) => thrown)) as ExecutionRevertedError;
    expect(error).toBeInstanceOf(ExecutionRevertedError);
    expect(error.reason).toBe('custom error 0xdeadbeef');
    expect(error.decoded.selector).toBe('0xdeadbeef');
    expect(error.data).toBe(data);
  });

  it('sends a state override as the third param: overridden code changes the outcome and the estimate', async () => {
    const data = emitData(50, TOPICS[0]) as `0x${string}`;
    await expect(
      client().estimateGas({ from: DEV_ACCOUNT, to: REVERTER, data }),
    ).rejects.toBeInstanceOf(ExecutionRevertedError);
    const asStop = await client().estimateGas(
      { from: DEV_ACCOUNT, to: REVERTER, data },
      undefined,
      {
        [REVERTER]: { code: '0x00' },
      },
    );
    const asEmitter = await client().estimateGas(
      { from: DEV_ACCOUNT, to: REVERTER, data },
      'latest',
      {
        [REVERTER]: { code: EMITTER_CODE },
      },
    );
    expect(asStop).toBeGreaterThan(21_000n);
    expect(asEmitter).toBeGreaterThan(asStop + 50n * 1000n);
    expect(
      await client().call({ to: REVERTER, data }, 'latest', {
        [REVERTER]: { code: '0x00' },
      }),
    ).toBe('0x');
    // the chain itself is untouched
    expect(await client().getCode(REVERTER)).toBe(REVERTER_CODE);
  });

  it('refuses the safe tag before sending, pointing to finalized; the proxy refuses it too', async () => {
    const error = (await client()
      .estimateGas({ to: PLAIN }, 'safe')
      .catch((thrown: unknown) => thrown)) as InvalidParamsError;
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/finalized/u);
    expect(proxy.stats.httpRequests).toBe(0);
    await expect(
      client().request('eth_estimateGas', [{ to: PLAIN }, 'safe']),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('finalized'),
    });
  });

  it('refuses gas above 10x the block gas limit, for eth_estimateGas and eth_call, in one round trip', async () => {
    const block = await client().getBlockByNumber('latest');
    if (!block) {
      throw new Error('the node has no latest block');
    }
    const tooMuch = BigInt(block.gasLimit) * 10n + 1n;
    proxy.resetStats();
    const error = (await client()
      .estimateGas({ to: PLAIN, gas: tooMuch })
      .catch((thrown: unknown) => thrown)) as InvalidParamsError;
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.message).toMatch(/10x the block gas limit/u);
    expect(proxy.stats.httpRequests).toBe(1);
    const callError = (await client()
      .call({ to: PLAIN, gas: tooMuch })
      .catch((thrown: unknown) => thrown)) as InvalidParamsError;
    expect(callError).toBeInstanceOf(InvalidParamsError);
    expect(callError.message).toMatch(
      /eth_call: gas .* 10x the block gas limit/u,
    );
    expect(proxy.stats.httpRequests).toBe(2);
    expect(
      await client().estimateGas({ to: PLAIN, gas: BigInt(block.gasLimit) }),
    ).toBe(21_000n);
    expect(
      await client().call({ to: PLAIN, gas: BigInt(block.gasLimit) }),
    ).toBe('0x');
    expect(proxy.stats.httpRequests).toBe(4);
    // the provider (the proxy) refuses the same gas on its own
    await expect(
      client().request('eth_call', [
        { to: PLAIN, gas: `0x${tooMuch.toString(16)}` },
        'latest',
      ]),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('checks the gas against the block the call names', async () => {
    const old = BigInt(await rpc(anvil.url, 'eth_blockNumber'));
    const oldBlock = await client().getBlockByNumber(old);
    if (!oldBlock) {
      throw new Error(`the node has no block ${old}`);
    }
    const oldLimit = BigInt(oldBlock.gasLimit);
    await rpc(anvil.url, 'anvil_setBlockGasLimit', [
      `0x${(oldLimit / 4n).toString(16)}`,
    ]);
    await rpc(anvil.url, 'evm_mine');
    try {
      const latest = await client().getBlockByNumber('latest');
      if (!latest) {
        throw new Error('the node has no latest block');
      }
      const newLimit = BigInt(latest.gasLimit);
      expect(newLimit).toBe(oldLimit / 4n);
      const gas = newLimit * 10n + 1n; // above the latest block's cap, below the old block's
      expect(await client().call({ to: PLAIN, gas }, old)).toBe('0x');
      expect(await client().estimateGas({ to: PLAIN, gas }, old)).toBe(21_000n);
      await expect(client().call({ to: PLAIN, gas })).rejects.toBeInstanceOf(
        InvalidParamsError,
      );
      await expect(
        client().estimateGas({ to: PLAIN, gas }, 'latest'),
      ).rejects.toBeInstanceOf(InvalidParamsError);
    } finally {
      await rpc(anvil.url, 'anvil_setBlockGasLimit', [
        `0x${oldLimit.toString(16)}`,
      ]);
      await rpc(anvil.url, 'evm_mine');
    }
  });

  it('never returns a gas estimate the provider lied about: 0, below 21,000, 2^256 - 1, above 10x the block gas limit, not hex', async () => {
    const block = await client().getBlockByNumber('latest');
    if (!block) {
      throw new Error('the node has no latest block');
    }
    for (const lie of [
      '0x0',
      '0x5207',
      `0x${'f'.repeat(64)}`,
      `0x${(BigInt(block.gasLimit) * 10n + 1n).toString(16)}`,
      '0x05208',
      21000,
      null,
    ]) {
      proxy.inject({ type: 'result', method: 'eth_estimateGas', result: lie });
      const error = (await client()
        .estimateGas({ from: DEV_ACCOUNT, to: PLAIN, value: 1n })
        .catch((thrown: unknown) => thrown)) as TransportError;
      expect(error).toBeInstanceOf(TransportError);
      expect(error.kind).toBe('malformed');
      expect(error.message).toMatch(
        /^eth_estimateGas: the provider returned /u,
      );
    }
    proxy.inject({ type: 'result', method: 'eth_call', result: '0x123' });
    await expect(client().call({ to: PLAIN })).rejects.toThrow(
      /eth_call: the provider returned something that is not hex bytes/u,
    );
    expect(
      await client().estimateGas({ from: DEV_ACCOUNT, to: PLAIN, value: 1n }),
    ).toBe(21_000n);
  });

  it('refuses a malformed call object before sending', async () => {
    await expect(client().estimateGas({ to: '0x12' })).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
    await expect(
      client().estimateGas({ to: PLAIN, value: '0x0012' }),
    ).rejects.toThrow(/hex quantity/u);
    await expect(
      client().estimateGas({ to: PLAIN, data: '0x123' }),
    ).rejects.toThrow(/hex bytes/u);
    expect(proxy.stats.httpRequests).toBe(0);
  });

  it('getTransactionByHash: hex quantities, chainID normalised to chainId, null when unknown', async () => {
    const { hash } = await sendAndMine(anvil.url, {
      from: DEV_ACCOUNT,
      to: PLAIN,
      value: '0x3e8',
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x1',
    });
    proxy.options.rewriteChainId = true;
    const raw = (await client().request('eth_getTransactionByHash', [
      hash,
    ])) as Record<string, unknown>;
    expect(raw.chainID).toBe('0x7a69');
    expect(raw.chainId).toBeUndefined();
    const tx = await client().getTransactionByHash(hash);
    expect(tx).not.toBeNull();
    expect(tx?.chainId).toBe('0x7a69');
    expect(tx).not.toHaveProperty('chainID');
    expect(tx?.hash).toBe(hash);
    expect(tx?.value).toBe('0x3e8');
    expect(tx?.type).toBe('0x2');
    expect(tx?.blockNumber).toMatch(/^0x[0-9a-f]+$/u);
    expect(tx?.gas).toMatch(/^0x[0-9a-f]+$/u);
    expect(
      await client().getTransactionByHash(`0x${'ab'.repeat(32)}`),
    ).toBeNull();
    await expect(
      client().getTransactionByHash('0x1234'),
    ).rejects.toBeInstanceOf(InvalidParamsError);
  });

  it('getTransactionByHash keeps null block fields for a pending transaction', async () => {
    await rpc(anvil.url, 'evm_setAutomine', [false]);
    try {
      const hash = await rpc(anvil.url, 'eth_sendTransaction', [
        { from: DEV_ACCOUNT, to: PLAIN, value: '0x1' },
      ]);
      const tx = await client().getTransactionByHash(hash);
      expect(tx?.blockHash).toBeNull();
      expect(tx?.blockNumber).toBeNull();
      expect(tx?.transactionIndex).toBeNull();
    } finally {
      await rpc(anvil.url, 'evm_setAutomine', [true]);
      await rpc(anvil.url, 'evm_mine');
    }
  });

  it('reads chain id, code, blocks, fees, balance and nonce', async () => {
    const rpcClient = client();
    expect(await rpcClient.chainId()).toBe(31337);
    expect(await rpcClient.getCode(PLAIN)).toBe('0x');
    const block = await rpcClient.getBlockByNumber('latest', true);
    expect(block?.number).toMatch(/^0x/u);
    expect(await rpcClient.getBlockByNumber('0xffffff')).toBeNull();
    expect(await rpcClient.gasPrice()).toBeGreaterThan(0n);
    expect(await rpcClient.maxPriorityFeePerGas()).toBeGreaterThanOrEqual(0n);
    const history = await rpcClient.feeHistory(2, 'latest', [50]);
    expect(history.baseFeePerGas).toHaveLength(3);
    expect(await rpcClient.getBalance(DEV_ACCOUNT)).toBeGreaterThan(0n);
    expect(await rpcClient.getTransactionCount(DEV_ACCOUNT)).toBeGreaterThan(
      0n,
    );
    expect(await rpcClient.blockNumber()).toBeGreaterThan(0n);
  });
});
