import { encodeAbiParameters } from 'viem';

import {
  countParams,
  createRpcClient,
  decodeRevertData,
  classifyLimit,
  InvalidParamsError,
  ChainRpcError,
  maskUrl,
  originOf,
  parseRangeHint,
  readGasEstimate,
  readQuantity,
  readUintWord,
  redact,
  RemovedLogsError,
  sortUniqueLogs,
  TransportError,
  splitByParams,
} from '.';
import type { RpcLog } from '.';
import { afterRefusal, planRound } from './logPlan';
import { checkLogFilter } from './validation';

/**
 * A test address.
 *
 * @param i - A number below 2^160.
 * @returns `i` as a 20-byte hex address.
 */
const addr = (i: number): `0x${string}` =>
  `0x${i.toString(16).padStart(40, '0')}`;

/**
 * A test log topic.
 *
 * @param i - A non-negative number.
 * @returns `i` as a 32-byte hex word.
 */
const topic = (i: number): `0x${string}` =>
  `0x${i.toString(16).padStart(64, '0')}`;

describe('chain adapter: pure helpers', () => {
  it('counts parameters as Infura does: 3 addresses + 2 alternatives = 5', () => {
    const filter = checkLogFilter({
      address: [addr(1), addr(2), addr(3)],
      topics: [null, [topic(1), topic(2)]],
    });
    expect(countParams(filter)).toBe(5);
  });

  it('splits the largest list so each part fits, covering every value once', () => {
    const filter = checkLogFilter({
      address: [addr(1), addr(2), addr(3)],
      topics: [[topic(9)], Array.from({ length: 12 }, (_, i) => topic(i))],
    });
    const parts = splitByParams(filter, 6);
    expect(parts.every((part) => countParams(part) <= 6)).toBe(true);
    expect(parts.flatMap((part) => part.topics[1])).toStrictEqual(
      filter.topics[1],
    );
    expect(parts.every((part) => part.addresses?.length === 3)).toBe(true);
    const wide = checkLogFilter({
      address: Array.from({ length: 9 }, (_, i) => addr(i + 1)),
      topics: [Array.from({ length: 9 }, (_, i) => topic(i))],
    });
    const wideParts = splitByParams(wide, 5);
    expect(wideParts.every((part) => countParams(part) <= 5)).toBe(true);
    const combos = new Set(
      wideParts.flatMap((part) =>
        (part.addresses ?? []).flatMap((address) =>
          (part.topics[0] ?? []).map((word) => `${address}${word}`),
        ),
      ),
    );
    expect(combos.size).toBe(81);
  });

  it('orders logs by (blockNumber, logIndex) and drops duplicates', () => {
    /**
     * A mined log.
     *
     * @param block - Its block number.
     * @param index - Its log index in the block.
     * @param tx - Its transaction hash.
     * @returns The log, with a block hash derived from the block number.
     */
    const log = (block: number, index: number, tx = '0x01'): RpcLog =>
      ({
        blockNumber: `0x${block.toString(16)}`,
        logIndex: `0x${index.toString(16)}`,
        blockHash: `0xb${block}`,
        transactionHash: tx,
      }) as RpcLog;
    const sorted = sortUniqueLogs([
      log(0x10, 2),
      log(2, 0x10),
      log(0x10, 1),
      log(2, 0x10),
      log(2, 3),
    ]);
    expect(
      sorted.map((entry) => `${entry.blockNumber}:${entry.logIndex}`),
    ).toStrictEqual(['0x2:0x3', '0x2:0x10', '0x10:0x1', '0x10:0x2']);
  });

  it('never merges pending logs (null block hash and index) and refuses two hashes for one block', () => {
    /**
     * A pending log: block number, block hash, log index and transaction hash are null.
     *
     * @param data - Its data, to tell pending logs apart.
     * @returns The log.
     */
    const pending = (data: string): RpcLog =>
      ({
        blockNumber: null,
        logIndex: null,
        blockHash: null,
        transactionHash: null,
        data,
      }) as unknown as RpcLog;
    const mined = {
      blockNumber: '0x1',
      logIndex: '0x0',
      blockHash: `0x${'1'.repeat(64)}`,
      transactionHash: null,
      data: '0x',
    } as unknown as RpcLog;
    expect(
      sortUniqueLogs([
        pending('0x01'),
        mined,
        pending('0x02'),
        { ...mined },
      ]).map((entry) => entry.data),
    ).toStrictEqual(['0x', '0x01', '0x02']);
    const other = {
      ...mined,
      logIndex: '0x1',
      blockHash: `0x${'2'.repeat(64)}`,
    } as RpcLog;
    expect(() => sortUniqueLogs([mined, other])).toThrow(RemovedLogsError);
  });

  it('reads a null among topic alternatives as "any" (as geth does), and refuses blockHash and blockhash that differ', () => {
    expect(
      checkLogFilter({ topics: [[topic(1), null] as never, [topic(2)]] })
        .topics,
    ).toStrictEqual([null, [topic(2)]]);
    const hash = `0x${'ab'.repeat(32)}` as const;
    expect(() =>
      checkLogFilter({ blockHash: hash, blockhash: `0x${'cd'.repeat(32)}` }),
    ).toThrow(InvalidParamsError);
    expect(
      checkLogFilter({
        blockHash: hash,
        blockhash: hash.toUpperCase().replace('0X', '0x') as `0x${string}`,
      }).blockHash,
    ).toBe(hash);
  });

  it('classifies -32005 and reads the range a provider suggests', () => {
    expect(classifyLimit('query returned more than 10000 results')).toBe(
      'results',
    );
    expect(classifyLimit('query timeout exceeded')).toBe('timeout');
    expect(classifyLimit('project ID request rate exceeded')).toBe('rate');
    expect(
      classifyLimit('daily request count exceeded, request rate limited'),
    ).toBe('rate');
    expect(
      parseRangeHint('query returned more than 10000 results', {
        from: '0x10',
        to: '0x1f',
        limit: 10000,
      }),
    ).toStrictEqual({ from: 16n, to: 31n });
    expect(
      parseRangeHint(
        'Log response size exceeded. ... this block range should work: [0x1d4e1e7, 0x1d4e2a5]',
        undefined,
      ),
    ).toStrictEqual({ from: 0x1d4e1e7n, to: 0x1d4e2a5n });
    expect(
      parseRangeHint('Try with this block range [0x5, 0x2].', undefined),
    ).toBeUndefined();
    expect(parseRangeHint('no hint', { from: 'x', to: '0x1' })).toBeUndefined();
  });

  it('plans a first query as one call, cuts refused ranges, asks for a suggested range as is', () => {
    const context = {
      slots: 10,
      target: 6000,
      cap: 10_000,
      density: (): undefined => undefined,
    };
    expect(
      planRound([{ lane: 0, from: 0n, to: 999n }], context).pieces,
    ).toHaveLength(1);
    expect(
      planRound([{ lane: 0, from: 0n, to: 999n, over: true }], context).pieces,
    ).toHaveLength(10);
    expect(
      planRound([{ lane: 0, from: 0n, to: 3n, over: true }], context).pieces,
    ).toHaveLength(4);
    const refused = afterRefusal(
      { lane: 0, from: 100n, to: 199n },
      { from: 100n, to: 120n },
    );
    expect(refused).toStrictEqual([
      { lane: 0, from: 100n, to: 120n, fits: true },
      { lane: 0, from: 121n, to: 199n, estimate: 10_000 / 21 },
    ]);
    expect(
      afterRefusal({ lane: 0, from: 100n, to: 199n }, { from: 100n, to: 199n }),
    ).toStrictEqual([{ lane: 0, from: 100n, to: 199n, over: true }]);
    expect(
      afterRefusal({ lane: 0, from: 100n, to: 199n }, { from: 150n, to: 250n }),
    ).toStrictEqual([{ lane: 0, from: 100n, to: 199n, over: true }]);
    const known = { ...context, density: (): number => 1 };
    const { pieces } = planRound(refused, known);
    expect(pieces[0]).toStrictEqual({ lane: 0, from: 100n, to: 120n });
    expect(pieces).toHaveLength(2);
    // never more pieces than slots; what does not fit stays pending
    const many = planRound(
      Array.from({ length: 8 }, (_, i) => ({
        lane: 0,
        from: BigInt(i * 100),
        to: BigInt(i * 100 + 99),
        over: true,
      })),
      known,
    );
    expect(many.pieces).toHaveLength(10);
    expect(many.rest).toHaveLength(3);
  });

  it('validates numbers from the provider: hex quantities within bounds, gas within [21,000, cap]', () => {
    expect(readQuantity('0x1a', 'x')).toBe(26n);
    for (const bad of ['0x', '0x01', '12', 12, null, `0x${'f'.repeat(65)}`]) {
      expect(() => readQuantity(bad, 'x')).toThrow(TransportError);
    }
    expect(readGasEstimate('0x5208', 'eth_estimateGas', 300_000_000n)).toBe(
      21_000n,
    );
    expect(() =>
      readGasEstimate('0x0', 'eth_estimateGas', 300_000_000n),
    ).toThrow(/outside/u);
    expect(() =>
      readGasEstimate(`0x${'f'.repeat(64)}`, 'eth_estimateGas', 300_000_000n),
    ).toThrow(/outside/u);
    expect(readUintWord(`0x${'0'.repeat(63)}7`, 'nonce', 2n ** 64n - 1n)).toBe(
      7n,
    );
    expect(() =>
      readUintWord(`0x${'f'.repeat(64)}`, 'nonce', 2n ** 64n - 1n),
    ).toThrow(TransportError);
    expect(() => readUintWord('0x07', 'nonce', 2n ** 64n - 1n)).toThrow(
      /1 bytes instead of 32/u,
    );
  });

  it('decodes revert payloads', () => {
    expect(decodeRevertData('0x').kind).toBe('empty');
    expect(
      decodeRevertData(
        `0x4e487b71${encodeAbiParameters([{ type: 'uint256' }], [0x32n]).slice(2)}`,
      ).reason,
    ).toBe('Panic(0x32): array index out of bounds');
    expect(decodeRevertData('0x08c379a0ff').kind).toBe('custom');
    expect(decodeRevertData('0x12345678').reason).toBe(
      'custom error 0x12345678',
    );
  });

  it('masks the whole path, query and credentials of a keyed URL, whatever the provider shape', () => {
    const key = 'abcdef0123456789';
    for (const url of [
      `https://sepolia.example.io/v3/${key}`,
      `https://sepolia.example.io/v2/${key}`,
      `https://sepolia.example.io/${key}/`,
      `https://sepolia.example.io/eth/${key}`,
      `https://sepolia.example.io/v1/rpc/${key}`,
      `https://sepolia.example.io/?apikey=${key}`,
      `https://user:${key}@sepolia.example.io`,
    ]) {
      expect(maskUrl(url)).toBe('https://sepolia.example.io/***');
      expect(originOf(url)).toBe('https://sepolia.example.io');
      expect(redact(`failed to reach ${url} (key ${key})`, url)).toBe(
        'failed to reach https://sepolia.example.io (key ***)',
      );
    }
    expect(maskUrl('https://sepolia.example.io')).toBe(
      'https://sepolia.example.io/',
    );
    expect(maskUrl('http://127.0.0.1:8545/')).toBe('http://127.0.0.1:8545/');
    expect(maskUrl('not a url abcdef0123456789')).toBe('***');
    expect(originOf('not a url abcdef0123456789')).toBe('(invalid URL)');
  });

  it('surfaces a JSON-RPC error sent with HTTP 400 as ChainRpcError', async () => {
    const client = createRpcClient({
      url: 'https://x.io/v3/k',
      fetch: async (_url, init) => {
        const { id } = JSON.parse(init.body) as { id: number };
        return {
          ok: false,
          status: 400,
          text: async (): Promise<string> =>
            JSON.stringify({
              jsonrpc: '2.0',
              id,
              error: { code: -32600, message: 'bad request' },
            }),
        };
      },
    });
    const error = (await client
      .chainId()
      .catch((caught: unknown) => caught)) as ChainRpcError;
    expect(error).toBeInstanceOf(ChainRpcError);
    expect(error.code).toBe(-32600);
  });
});
