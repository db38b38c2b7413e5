import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { bundlerFees, chainFees, feeQuantity, MAX_FEE_PER_GAS } from './fees';
import { ChainRpcError } from '../../chain';

/**
 * A one-method JSON-RPC server on 127.0.0.1 answering `reply` to every call.
 *
 * @param reply - The reply's `result` or `error` member for a method, as an object spread into the response.
 * @returns The server's URL and a function closing it.
 */
async function serve(
  reply: (method: string) => unknown,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { id, method } = JSON.parse(
        Buffer.concat(chunks).toString('utf8'),
      ) as { id: number; method: string };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id, ...(reply(method) as object) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () =>
      new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('fees', () => {
  it('chain fees: maxFeePerGas = 2 × the pending base fee (the last of eth_feeHistory) + the priority fee', () => {
    const fees = chainFees(
      { ok: true, result: '0x3b9aca00' },
      {
        ok: true,
        result: {
          oldestBlock: '0x1',
          baseFeePerGas: ['0x64', '0x7'],
          gasUsedRatio: [0.5],
        },
      },
    );
    expect(fees).toStrictEqual({
      maxFeePerGas: 2n * 7n + 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      source: 'chain',
    });
  });

  it('chain fees: a failed read throws its error; a malformed or absurd reply is refused', () => {
    const failure = new ChainRpcError(
      -32601,
      'the method eth_maxPriorityFeePerGas does not exist',
    );
    expect(() =>
      chainFees(
        { ok: false, error: failure },
        { ok: true, result: { baseFeePerGas: ['0x1'] } },
      ),
    ).toThrow(failure);
    expect(() =>
      chainFees(
        { ok: true, result: '0x1' },
        { ok: true, result: { baseFeePerGas: [] } },
      ),
    ).toThrow(/no usable fee/u);
    expect(() =>
      chainFees(
        { ok: true, result: `0x${(MAX_FEE_PER_GAS + 1n).toString(16)}` },
        { ok: true, result: { baseFeePerGas: ['0x1'] } },
      ),
    ).toThrow(/no usable fee/u);
  });

  it('feeQuantity accepts hex quantities up to the bound only', () => {
    expect(feeQuantity('0x0')).toBe(0n);
    expect(feeQuantity(`0x${MAX_FEE_PER_GAS.toString(16)}`)).toBe(
      MAX_FEE_PER_GAS,
    );
    for (const bad of [
      `0x${(MAX_FEE_PER_GAS + 1n).toString(16)}`,
      '0x',
      '12',
      12,
      null,
      `0x${'f'.repeat(65)}`,
    ]) {
      expect(feeQuantity(bad)).toBeUndefined();
    }
  });

  it('bundler fees: the standard tier of pimlico_getUserOperationGasPrice; undefined when the bundler lacks the method or answers nonsense', async () => {
    const tiers = {
      slow: { maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1' },
      standard: { maxFeePerGas: '0x20', maxPriorityFeePerGas: '0x10' },
      fast: { maxFeePerGas: '0x30', maxPriorityFeePerGas: '0x10' },
    };
    const replies: unknown[] = [
      { result: tiers },
      { error: { code: -32601, message: 'Method not found' } },
      {
        result: {
          standard: { maxFeePerGas: '0x10', maxPriorityFeePerGas: '0x20' },
        },
      }, // priority above max
      { result: 'cheap' },
    ];
    const server = await serve(() => replies.shift());
    try {
      expect(await bundlerFees(server.url)).toStrictEqual({
        maxFeePerGas: 0x20n,
        maxPriorityFeePerGas: 0x10n,
        source: 'bundler',
      });
      expect(await bundlerFees(server.url)).toBeUndefined();
      expect(await bundlerFees(server.url)).toBeUndefined();
      expect(await bundlerFees(server.url)).toBeUndefined();
    } finally {
      await server.close();
    }
    expect(await bundlerFees(server.url)).toBeUndefined(); // closed: unreachable
  });
});
