/**
 * The chain adapter's eth_getLogs against anvil behind the limits proxy (10,000 results, 5,000
 * parameters and 10 eth_getLogs per batch): exact results in anvil's order on a seed of dense and
 * sparse blocks, splitting on result caps, query timeouts, parameter caps and client-side
 * timeouts, range hints, rate limits (-32005 and HTTP 429 with Retry-After), block tags, removed
 * and malformed logs, and refusals before sending; what it costs (calls and round trips); and, on
 * the three layouts of `npm run bench` (uniform, uneven, sparse), each seeded once on its own
 * anvil, round trips within ceil(N/10,000) + 2 with the provider giving no range hint, one in
 * `data`, or one in the message.
 */
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { waitFor } from '../../devnet/ports';
import { countingFetch } from '../../devnet/round-trips';
import {
  EMITTERS,
  LAYOUTS,
  referenceLogs,
  rpc,
  SEED_ANVIL_ARGS,
  seedLayout,
  seedLogs,
  TOPICS,
} from '../../devnet/seed-logs';
import type { SeedResult } from '../../devnet/seed-logs';
import type { RpcLog } from '../../src/chain';
import {
  createRpcClient,
  InvalidParamsError,
  LimitExceededError,
  RateLimitedError,
  RemovedLogsError,
  TransportError,
} from '../../src/chain';
import { splitEven } from '../../src/chain/logPlan';

jest.setTimeout(120_000);

/**
 * A bigint as a JSON-RPC hex quantity.
 *
 * @param value - The number to encode.
 * @returns `0x` followed by the lowercase hex digits.
 */
const toQuantity = (value: bigint): `0x${string}` => `0x${value.toString(16)}`;
/**
 * The identity of a log: block number, log index and transaction hash.
 *
 * @param log - The log.
 * @returns `blockNumber/logIndex/transactionHash`.
 */
const key = (log: RpcLog): string =>
  `${log.blockNumber}/${log.logIndex}/${log.transactionHash}`;

/**
 * Assert two log lists are identical, element by element, in order. Cheap on
 * 30,000 logs (jest's own diff of such arrays can take minutes when they differ).
 *
 * @param actual - Logs from the adapter.
 * @param expected - Reference logs from anvil.
 */
function expectSameLogs(actual: RpcLog[], expected: RpcLog[]): void {
  expect(actual).toHaveLength(expected.length);
  const first = actual.findIndex(
    (log, i) => JSON.stringify(log) !== JSON.stringify(expected[i]),
  );
  expect({
    first,
    actual: actual[first],
    expected: expected[first],
  }).toStrictEqual({
    first: -1,
    actual: undefined,
    expected: undefined,
  });
}

/**
 * The block range of every eth_getLogs call a proxy received, in order.
 *
 * @param from - The proxy.
 * @returns `fromBlock..toBlock` of each call.
 */
const rangesOf = (from: LimitsProxy): string[] =>
  from.stats.getLogsFilters.map(
    (sentFilter) =>
      `${String(sentFilter.fromBlock)}..${String(sentFilter.toBlock)}`,
  );

describe('chain adapter: eth_getLogs through the limits proxy', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let seed: SeedResult;
  let reference: RpcLog[];

  beforeAll(async () => {
    anvil = await startAnvil({ args: [...SEED_ANVIL_ARGS] });
    seed = await seedLogs(anvil.url);
    reference = await referenceLogs(anvil.url, seed.fromBlock, seed.toBlock);
    proxy = await startLimitsProxy({ upstream: anvil.url });
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.clearFaults();
    proxy.resetStats();
    Object.assign(proxy.options, {
      maxResults: 10_000,
      maxParams: 5_000,
      costPerBlockMs: 0,
      costPerResultMs: 0,
      hint: 'none',
      removedBlock: '',
    });
  });

  /** No batch the proxy received held more than the provider's 10 eth_getLogs calls. */
  function expectBatchesWithinLogsLimit(): void {
    expect(proxy.stats.maxLogsPerRequest).toBeLessThanOrEqual(10);
  }

  afterEach(() => {
    expectBatchesWithinLogsLimit();
  });

  /**
   * The block range of every eth_getLogs call the proxy received, in order.
   *
   * @returns `fromBlock..toBlock` of each call.
   */
  const ranges = (): string[] =>
    proxy.stats.getLogsFilters.map(
      (sentFilter) =>
        `${String(sentFilter.fromBlock)}..${String(sentFilter.toBlock)}`,
    );

  it('seeds at least 30,000 logs with dense and sparse blocks', () => {
    expect(seed.totalLogs).toBeGreaterThanOrEqual(30_000);
    expect(reference).toHaveLength(seed.totalLogs);
  });

  it('the whole range through the proxy equals anvil directly, same order, within ceil(N/10,000) + 2 round trips', async () => {
    const wire = countingFetch();
    const client = createRpcClient({ url: proxy.url, fetch: wire.fetch });
    const logs = await client.getLogs({
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.toBlock),
    });
    expect(logs).toHaveLength(reference.length);
    expectSameLogs(logs, reference);
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(
      Math.ceil(reference.length / 10_000),
    );
    expect(wire.stats.roundTrips).toBeLessThanOrEqual(
      Math.ceil(reference.length / 10_000) + 2,
    );
    expect(new Set(logs.map(key)).size).toBe(logs.length);
  });

  it('the proxy refuses eth_getLogs calls past the 10th of a batch with -32600', async () => {
    const client = createRpcClient({ url: proxy.url });
    const calls = Array.from({ length: 11 }, () => ({
      method: 'eth_getLogs',
      params: [
        {
          fromBlock: toQuantity(seed.fromBlock),
          toBlock: toQuantity(seed.fromBlock),
        },
      ],
    }));
    const settled = await client.batchSettled(calls);
    expect(settled.slice(0, 10).every((item) => item.ok)).toBe(true);
    expect(settled[10]).toMatchObject({ ok: false, error: { code: -32600 } });
    proxy.resetStats();
  });

  it.each(['data', 'message'] as const)(
    'asks for the range the provider suggests (hint in %s) as is',
    async (hint) => {
      proxy.options.maxResults = 9000; // the densest block holds 9,000 logs
      const filter = {
        fromBlock: toQuantity(seed.fromBlock),
        toBlock: toQuantity(seed.toBlock),
      };
      const plain = countingFetch();
      expectSameLogs(
        await createRpcClient({ url: proxy.url, fetch: plain.fetch }).getLogs(
          filter,
        ),
        reference,
      );
      expect(proxy.stats.hints).toHaveLength(0);
      proxy.resetStats();
      proxy.options.hint = hint;
      const hinted = countingFetch();
      expectSameLogs(
        await createRpcClient({ url: proxy.url, fetch: hinted.fetch }).getLogs(
          filter,
        ),
        reference,
      );
      expect(proxy.stats.hints.length).toBeGreaterThan(0);
      for (const [from, to] of proxy.stats.hints) {
        expect(ranges()).toContain(`${from}..${to}`);
      }
      expect(hinted.stats.roundTrips).toBeLessThanOrEqual(
        plain.stats.roundTrips,
      );
      expect(hinted.stats.roundTrips).toBeLessThanOrEqual(
        Math.ceil(reference.length / 9000) + 2,
      );
    },
  );

  it('the proxy advertises no keep-alive timeout (idle connections are closed by the client, so no stale-connection reset adds a retry)', async () => {
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }),
    });
    await response.text();
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('keep-alive')).toBeNull();
  });

  it('a rate-limit -32005 is retried as is (the same call, never narrowed); past the retries it is RateLimitedError naming the origin only', async () => {
    const filter = {
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.toBlock),
    };
    proxy.inject({ type: 'rateLimit', method: 'eth_getLogs', times: 2 });
    // the injected -32005 asks for 200 ms (backoff_seconds): a fake clock skips the pauses
    const logs = await createRpcClient({
      url: proxy.url,
      retryDelayMs: 5,
      sleep: async () => undefined,
    }).getLogs(filter);
    expectSameLogs(logs, reference);
    const sent = ranges();
    const whole = `${filter.fromBlock}..${filter.toBlock}`;
    // the whole range three times (twice rate-limited, then refused as too large), then the fan-out
    expect(sent.slice(0, 3)).toStrictEqual([whole, whole, whole]);
    expect(sent.slice(3)).not.toContain(whole);

    proxy.resetStats();
    proxy.inject({ type: 'rateLimit', method: 'eth_getLogs', times: 50 });
    const error = (await createRpcClient({
      url: proxy.url,
      retries: 2,
      retryDelayMs: 5,
      sleep: async () => undefined,
    })
      .getLogs(filter)
      .catch((thrown: unknown) => thrown)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.reason).toBe('rate');
    expect(error.attempts).toBe(3);
    expect(error.message).toContain(proxy.baseUrl);
    expect(error.message).not.toContain(proxy.apiKey);
    expect(proxy.stats.httpRequests).toBe(3);
    expect(new Set(ranges())).toStrictEqual(new Set([whole]));
  });

  it('a client-side timeout of a getLogs batch narrows its ranges instead of re-sending them', async () => {
    const last = seed.fromBlock + 199n; // about 3,000 logs: a batch answers well within the timeout
    const first = splitEven(
      { lane: 0, from: seed.fromBlock, to: last },
      10,
    ).map((part) => `${toQuantity(part.from)}..${toQuantity(part.to)}`);
    // the proxy's 1,500 ms pause starts after the client's 1,000 ms timer does: the client gives up first
    proxy.inject({ type: 'delay', ms: 1500, method: 'eth_getLogs' });
    const logs = await createRpcClient({
      url: proxy.url,
      timeoutMs: 1000,
    }).getLogs({
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(last),
    });
    expectSameLogs(
      logs,
      reference.filter(
        (log) => log.blockNumber !== null && BigInt(log.blockNumber) <= last,
      ),
    );
    const whole = `${toQuantity(seed.fromBlock)}..${toQuantity(last)}`;
    // the proxy counts a call when it arrives and records its range when it serves it (the
    // delayed one last): wait (bounded) until every call that arrived is recorded
    await waitFor(
      async () =>
        ranges().length ===
        proxy.stats.logCallsPerRequest.reduce((sum, calls) => sum + calls, 0),
      10_000,
      20,
    );
    const sent = ranges();
    // the whole range once (timed out; the proxy records it last, when it serves it), then
    // narrowed into the 10 pieces, each sent once
    expect(sent).toHaveLength(11);
    expect(sent.filter((entry) => entry === whole)).toHaveLength(1);
    for (const range of first) {
      expect(sent.filter((entry) => entry === range)).toHaveLength(1);
    }
  });

  it('sends pending as pending (never a number); reads safe and finalized once and pins them', async () => {
    proxy.options.maxResults = 9000;
    const latest = BigInt(await rpc(anvil.url, 'eth_blockNumber'));
    const client = createRpcClient({ url: proxy.url });
    const toPending = await client.getLogs({
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: 'pending',
    });
    expectSameLogs(
      toPending,
      await rpc(anvil.url, 'eth_getLogs', [
        { fromBlock: toQuantity(seed.fromBlock), toBlock: 'pending' },
      ]),
    );
    const sent = proxy.stats.getLogsFilters;
    expect(sent.length).toBeGreaterThan(2);
    expect(
      sent.filter((sentFilter) => sentFilter.toBlock === 'pending').length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      sent.some((sentFilter) => sentFilter.toBlock === toQuantity(latest + 1n)),
    ).toBe(false);

    proxy.options.maxResults = 2000; // below the logs after anvil's safe and finalized blocks
    for (const tag of ['safe', 'finalized'] as const) {
      proxy.resetStats();
      const pinned = BigInt(
        (await rpc(anvil.url, 'eth_getBlockByNumber', [tag, false])).number,
      );
      const logs = await client.getLogs({
        fromBlock: tag,
        toBlock: toQuantity(seed.toBlock),
      });
      expectSameLogs(
        logs,
        await referenceLogs(
          anvil.url,
          pinned,
          seed.toBlock,
          {},
          seed.toBlock + 1n,
        ),
      );
      expect(proxy.stats.methods.eth_getBlockByNumber).toBe(1);
      // only the first call (in the batch that read the tag) names it; every later one has its number
      expect(
        proxy.stats.getLogsFilters.filter(
          (sentFilter) => sentFilter.fromBlock === tag,
        ),
      ).toHaveLength(1);
      expect(proxy.stats.getLogsFilters.length).toBeGreaterThan(1);
    }
    proxy.resetStats();
    expectSameLogs(
      await client.getLogs({ fromBlock: 'pending', toBlock: 'pending' }),
      await rpc(anvil.url, 'eth_getLogs', [
        { fromBlock: 'pending', toBlock: 'pending' },
      ]),
    );
    expect(ranges()).toStrictEqual(['pending..pending']);
  });

  it('reads a null among topic alternatives as any value, as geth does', async () => {
    const client = createRpcClient({ url: proxy.url });
    const range = {
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.fromBlock + 199n),
    };
    const logs = await client.getLogs({
      ...range,
      topics: [[TOPICS[0], null] as never],
    });
    expectSameLogs(
      logs,
      reference.filter(
        (log) =>
          log.blockNumber !== null &&
          BigInt(log.blockNumber) <= seed.fromBlock + 199n,
      ),
    );
    expect(new Set(logs.map((log) => log.topics[0])).size).toBe(2);
  });

  it('refuses blockHash and blockhash with different values before sending; the same value is fine', async () => {
    const client = createRpcClient({ url: proxy.url });
    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [
      toQuantity(seed.fromBlock),
      false,
    ]);
    const error = await client
      .getLogs({ blockHash: block.hash, blockhash: `0x${'1'.repeat(64)}` })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as Error).message).toMatch(/blockHash and blockhash/u);
    expect(proxy.stats.httpRequests).toBe(0);
    const logs = await client.getLogs({
      blockHash: block.hash,
      blockhash: block.hash,
    });
    expectSameLogs(
      logs,
      reference.filter((log) => log.blockHash === block.hash),
    );
  });

  it('reports removed logs as RemovedLogsError naming the block, never mixed with valid ones', async () => {
    proxy.options.removedBlock = toQuantity(seed.denseBlocks[0]);
    const client = createRpcClient({ url: proxy.url });
    const error = (await client
      .getLogs({
        fromBlock: toQuantity(seed.fromBlock),
        toBlock: toQuantity(seed.toBlock),
      })
      .catch((thrown: unknown) => thrown)) as RemovedLogsError;
    expect(error).toBeInstanceOf(RemovedLogsError);
    expect(error.blocks).toStrictEqual([seed.denseBlocks[0]]);
    const pages: RpcLog[][] = [];
    const paged = await (async (): Promise<void> => {
      for await (const page of client.getLogsPages({
        fromBlock: toQuantity(seed.fromBlock),
        toBlock: toQuantity(seed.toBlock),
      })) {
        pages.push(page);
      }
    })().catch((thrown: unknown) => thrown);
    expect(paged).toBeInstanceOf(RemovedLogsError);
    expect(pages.flat().some((log) => log.removed)).toBe(false);
  });

  it('refuses logs that are malformed, outside the range asked for, or not matching the filter', async () => {
    const client = createRpcClient({ url: proxy.url });
    const range = {
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.fromBlock + 5n),
    };
    const late = reference[reference.length - 1];
    for (const [result, fault] of [
      [{ not: 'an array' }, /not an array/u],
      [
        [{ ...late, blockNumber: toQuantity(seed.fromBlock), topics: 'x' }],
        /malformed topics/u,
      ],
      [[late], /outside the block range/u],
      [
        [
          {
            ...late,
            blockNumber: toQuantity(seed.fromBlock),
            address: EMITTERS[1],
          },
        ],
        /address not in the filter/u,
      ],
    ] as const) {
      proxy.inject({ type: 'result', method: 'eth_getLogs', result });
      const error = await client
        .getLogs({ ...range, address: EMITTERS[0] })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as Error).message).toMatch(fault);
      proxy.clearFaults();
    }
  });

  it('pages come in ascending order and concatenate to the reference', async () => {
    const client = createRpcClient({ url: proxy.url });
    const pages: RpcLog[][] = [];
    for await (const page of client.getLogsPages({
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.toBlock),
    })) {
      expect(page.length).toBeLessThanOrEqual(10_000);
      pages.push(page);
    }
    expect(pages.length).toBeGreaterThan(1);
    expectSameLogs(pages.flat(), reference);
  });

  it('a query-timeout -32005 (cost model) also makes the adapter split, same result', async () => {
    proxy.options.costPerBlockMs = 100; // more than 100 blocks "takes" over 10 s
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({
      address: EMITTERS[1],
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.toBlock),
    });
    expectSameLogs(
      logs,
      reference.filter((log) => log.address === EMITTERS[1]),
    );
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(
      Math.ceil(Number(seed.toBlock - seed.fromBlock + 1n) / 100),
    );
  });

  it('resolves block tags once, in one round trip, before splitting', async () => {
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({
      fromBlock: 'earliest',
      toBlock: 'latest',
      topics: [TOPICS[1]],
    });
    expectSameLogs(
      logs,
      reference.filter((log) => log.topics[0] === TOPICS[1]),
    );
    expect(proxy.stats.methods.eth_getBlockByNumber).toBe(1);
    expect(proxy.stats.methods.eth_blockNumber ?? 0).toBe(0);
  });

  it('splits a filter above 5,000 parameters (addresses) and merges in order, in one round trip', async () => {
    const filler = Array.from(
      { length: 5200 },
      (_, i) => `0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}` as const,
    );
    const wire = countingFetch();
    const client = createRpcClient({ url: proxy.url, fetch: wire.fetch });
    const logs = await client.getLogs({
      address: [...filler, EMITTERS[0], EMITTERS[1]],
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.fromBlock + 199n),
    });
    expectSameLogs(
      logs,
      reference.filter(
        (log) =>
          log.blockNumber !== null &&
          BigInt(log.blockNumber) <= seed.fromBlock + 199n,
      ),
    );
    expect(wire.stats.roundTrips).toBe(1);
    expect(
      proxy.stats.getLogsFilters.every(
        (sentFilter) => (sentFilter.address as string[]).length <= 5000,
      ),
    ).toBe(true);
  });

  it('splits topic alternatives above the cap (3 addresses + alternatives count together)', async () => {
    const alternatives = Array.from(
      { length: 5000 },
      (_, i) => `0x${i.toString(16).padStart(64, '0')}` as const,
    );
    const client = createRpcClient({ url: proxy.url });
    const range = {
      fromBlock: toQuantity(seed.denseBlocks[0]),
      toBlock: toQuantity(seed.denseBlocks[0] + 400n),
    };
    const logs = await client.getLogs({
      ...range,
      address: [...EMITTERS, `0x${'0'.repeat(39)}9`],
      topics: [null, alternatives],
    });
    const expected = (
      await referenceLogs(
        anvil.url,
        seed.denseBlocks[0],
        seed.denseBlocks[0] + 400n,
      )
    ).filter((log) => BigInt(log.topics[1]) < 5000n);
    expect(expected.length).toBeGreaterThan(10_000);
    expectSameLogs(logs, expected);
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(4);
  });

  it('a single block above the cap gives LimitExceededError naming the block', async () => {
    proxy.options.maxResults = 1000;
    const client = createRpcClient({ url: proxy.url });
    const dense = seed.denseBlocks[0];
    const error = await client
      .getLogs({
        fromBlock: toQuantity(dense - 3n),
        toBlock: toQuantity(dense + 3n),
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LimitExceededError);
    const limit = error as LimitExceededError;
    expect(limit.code).toBe(-32005);
    expect(limit.block).toBe(dense);
    expect(limit.reason).toBe('results');
    expect(limit.message).toContain(`block ${dense}`);
    expect(limit.message).toMatch(/narrow the topics|single contract address/u);

    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [
      toQuantity(dense),
      false,
    ]);
    const byHash = await client
      .getLogs({ blockHash: block.hash })
      .catch((thrown: unknown) => thrown);
    expect(byHash).toBeInstanceOf(LimitExceededError);
    expect((byHash as Error).message).toContain(block.hash);
  });

  it('a timeout on a single block gives LimitExceededError with reason timeout', async () => {
    proxy.options.costPerResultMs = 2; // 6,000 logs "take" 12 s
    const client = createRpcClient({ url: proxy.url });
    const error = await client
      .getLogs({
        fromBlock: toQuantity(seed.denseBlocks[0]),
        toBlock: toQuantity(seed.denseBlocks[0]),
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).reason).toBe('timeout');
    expect((error as LimitExceededError).block).toBe(seed.denseBlocks[0]);
  });

  it('blockHash gives that block only', async () => {
    const client = createRpcClient({ url: proxy.url });
    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [
      toQuantity(seed.denseBlocks[1]),
      false,
    ]);
    const logs = await client.getLogs({
      blockhash: block.hash,
      address: EMITTERS[0],
    });
    expectSameLogs(
      logs,
      reference.filter(
        (log) => log.blockHash === block.hash && log.address === EMITTERS[0],
      ),
    );
    expect(logs.length).toBeGreaterThan(0);
  });

  it.each([
    [
      'blockHash with fromBlock',
      { blockHash: `0x${'1'.repeat(64)}`, fromBlock: '0x1' },
      /blockHash excludes/u,
    ],
    [
      'five topic positions',
      { topics: [null, null, null, null, null] },
      /at most 4 topic positions/u,
    ],
    ['a short topic', { topics: [`0x${'a'.repeat(62)}`] }, /32-byte/u],
    ['a bad address', { address: '0x1234' }, /20-byte/u],
    [
      'a bad tag',
      { fromBlock: 'newest' },
      /latest, earliest, pending, safe, finalized/u,
    ],
    [
      'fromBlock after toBlock',
      { fromBlock: '0x10', toBlock: '0x5' },
      /after toBlock/u,
    ],
  ])('refuses %s before sending', async (_name, filter, message) => {
    const client = createRpcClient({ url: proxy.url });
    const error = await client
      .getLogs(filter as never)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).code).toBe(-32602);
    expect((error as Error).message).toMatch(message);
    expect(proxy.stats.methods.eth_getLogs ?? 0).toBe(0);
  });

  it('the proxy itself enforces the 5,000-parameter cap', async () => {
    const client = createRpcClient({ url: proxy.url });
    const addresses = Array.from(
      { length: 5001 },
      (_, i) => `0x${i.toString(16).padStart(40, '0')}`,
    );
    await expect(
      client.request('eth_getLogs', [
        { address: addresses, fromBlock: '0x1', toBlock: '0x1' },
      ]),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('5000'),
    });
  });
});

/**
 * Bounds of the cost goal (docs/performance.md, "eth_getLogs: round trips and calls"): round trips within ceil(N/10,000) + 2, and eth_getLogs calls
 * (each member of a batch is billed and rate-limited on its own) within 2 per round trip plus one
 * fan-out of 10.
 *
 * @param logs - Logs in the range.
 * @returns The round-trip bound.
 */
const roundTripBound = (logs: number): number => Math.ceil(logs / 10_000) + 2;

describe('chain adapter: eth_getLogs costs what it must (calls and round trips, rate limits)', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let seed: SeedResult;
  let reference: RpcLog[];
  const EMPTY_TOP = 0x950n;

  beforeAll(async () => {
    anvil = await startAnvil({ args: [...SEED_ANVIL_ARGS] });
    await rpc(anvil.url, 'anvil_mine', [toQuantity(EMPTY_TOP)]);
    // 250 logs in 25 blocks of 10, 90 empty blocks before each: about 2,300 blocks
    seed = await seedLayout(
      anvil.url,
      Array.from({ length: 25 }, () => [90, 10] as const),
    );
    reference = await referenceLogs(anvil.url, seed.fromBlock, seed.toBlock);
    proxy = await startLimitsProxy({ upstream: anvil.url });
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.resetStats();
    Object.assign(proxy.options, {
      rateLimitCalls: 0,
      rateLimitHttp: 0,
      retryAfterSeconds: 1,
    });
  });

  /** No batch the proxy received held more than the provider's 10 eth_getLogs calls. */
  function expectWithinBatchLimit(): void {
    expect(proxy.stats.maxLogsPerRequest).toBeLessThanOrEqual(10);
  }

  afterEach(() => {
    expectWithinBatchLimit();
  });

  it('0x10..0x900 over empty blocks: one call, one round trip', async () => {
    const wire = countingFetch();
    const logs = await createRpcClient({
      url: proxy.url,
      fetch: wire.fetch,
    }).getLogs({ fromBlock: '0x10', toBlock: '0x900' });
    expect(logs).toStrictEqual(
      await rpc(anvil.url, 'eth_getLogs', [
        { fromBlock: '0x10', toBlock: '0x900' },
      ]),
    );
    expect(proxy.stats.methods.eth_getLogs).toBe(1);
    expect(wire.stats.roundTrips).toBe(1);
  });

  it('250 logs to latest over about 2,300 blocks: one call, one round trip; exact', async () => {
    expect(reference).toHaveLength(250);
    expect(seed.toBlock - seed.fromBlock + 1n).toBeGreaterThan(2200n);
    const wire = countingFetch();
    const logs = await createRpcClient({
      url: proxy.url,
      fetch: wire.fetch,
    }).getLogs({ fromBlock: toQuantity(seed.fromBlock), toBlock: 'latest' });
    expectSameLogs(logs, reference);
    expect(proxy.stats.methods.eth_getLogs).toBe(1);
    expect(wire.stats.roundTrips).toBe(1);
  });

  it('the first three calls rate-limited (-32005): at most 4 calls, the same call each time, exact logs', async () => {
    proxy.options.rateLimitCalls = 3;
    const delays: number[] = [];
    const logs = await createRpcClient({
      url: proxy.url,
      sleep: async (ms) => {
        delays.push(ms);
      },
    }).getLogs({ fromBlock: toQuantity(seed.fromBlock), toBlock: 'latest' });
    expectSameLogs(logs, reference);
    expect(proxy.stats.rateLimitedCalls).toBe(3);
    expect(proxy.stats.methods.eth_getLogs).toBeLessThanOrEqual(4);
    expect(new Set(rangesOf(proxy))).toStrictEqual(
      new Set([`${toQuantity(seed.fromBlock)}..latest`]),
    );
    // exponential backoff: each pause at least the previous one's jitter floor (200 ms x 2^n x 0.5)
    expect(delays).toHaveLength(3);
    delays.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(100 * 2 ** i));
  });

  it('an HTTP 429 with Retry-After: the retry waits at least that long (fake clock), then the same batch succeeds', async () => {
    Object.assign(proxy.options, { rateLimitHttp: 2, retryAfterSeconds: 7 });
    const delays: number[] = [];
    const logs = await createRpcClient({
      url: proxy.url,
      retryMaxElapsedMs: 60_000,
      sleep: async (ms) => {
        delays.push(ms);
      },
    }).getLogs({
      fromBlock: toQuantity(seed.fromBlock),
      toBlock: toQuantity(seed.toBlock),
    });
    expectSameLogs(logs, reference);
    expect(proxy.stats.rateLimitedRequests).toBe(2);
    expect(proxy.stats.httpRequests).toBe(3);
    // every request carried the same single call: retried whole, never split
    expect(proxy.stats.logCallsPerRequest).toStrictEqual([1, 1, 1]);
    expect(delays).toHaveLength(2);
    for (const ms of delays) {
      expect(ms).toBeGreaterThanOrEqual(7000);
    }
  });

  it.each([
    ['HTTP 429', { rateLimitHttp: 50 }, 429],
    ['-32005', { rateLimitCalls: 50 }, undefined],
  ] as const)(
    'retries exhausted (%s): RateLimitedError naming the origin only',
    async (_name, limits, status) => {
      Object.assign(proxy.options, limits);
      const error = (await createRpcClient({
        url: proxy.url,
        retries: 2,
        sleep: async () => undefined,
      })
        .getLogs({ fromBlock: '0x10', toBlock: '0x900' })
        .catch((thrown: unknown) => thrown)) as RateLimitedError;
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.status).toBe(status);
      expect(error.attempts).toBe(3);
      expect(error.url).toBe(proxy.baseUrl);
      expect(error.message).toContain(proxy.baseUrl);
      expect(error.message).not.toContain(proxy.apiKey);
      expect(error.message).not.toContain('/v3/');
      expect(proxy.stats.httpRequests).toBe(3);
    },
  );
});

describe.each(['uniform', 'uneven', 'sparse'] as const)(
  'chain adapter: eth_getLogs cost and round trips on the %s layout',
  (name) => {
    let anvil: Anvil;
    let proxy: LimitsProxy;
    let seed: SeedResult;
    /** anvil's logs of the whole seeded range, read in one request (no cap there). */
    let expected: RpcLog[];

    beforeAll(async () => {
      anvil = await startAnvil({ args: [...SEED_ANVIL_ARGS] });
      seed = await seedLayout(anvil.url, LAYOUTS[name]);
      expected = await referenceLogs(
        anvil.url,
        seed.fromBlock,
        seed.toBlock,
        {},
        seed.toBlock - seed.fromBlock + 1n,
      );
      proxy = await startLimitsProxy({ upstream: anvil.url });
    });

    afterAll(async () => {
      await proxy?.close();
      await anvil?.stop();
    });

    beforeEach(() => {
      // every test starts from the proxy's defaults: no fault, no hint, counters at zero
      proxy.clearFaults();
      proxy.resetStats();
      proxy.options.hint = 'none';
    });

    /**
     * The whole seeded range through the proxy, on a client whose HTTP requests are counted.
     *
     * @returns The logs and the counted wire.
     */
    async function wholeRange(): Promise<{
      /** The logs the adapter returned. */
      logs: RpcLog[];
      /** The counting fetch the client used. */
      wire: ReturnType<typeof countingFetch>;
    }> {
      const wire = countingFetch();
      const logs = await createRpcClient({
        url: proxy.url,
        fetch: wire.fetch,
      }).getLogs({
        fromBlock: toQuantity(seed.fromBlock),
        toBlock: toQuantity(seed.toBlock),
      });
      return { logs, wire };
    }

    it("round trips within ceil(N/10,000) + 2, calls within 2 x round trips + 10, exactly anvil's logs in order", async () => {
      const { logs, wire } = await wholeRange();
      // the reference: anvil directly, one slice of at most 2 blocks at a time (no cap there)
      expectSameLogs(
        logs,
        await referenceLogs(anvil.url, seed.fromBlock, seed.toBlock, {}, 2n),
      );
      expect(logs).toHaveLength(seed.totalLogs);
      const { roundTrips } = wire.stats;
      const calls = proxy.stats.methods.eth_getLogs;
      expect(roundTrips).toBeLessThanOrEqual(roundTripBound(seed.totalLogs));
      expect(calls).toBeLessThanOrEqual(2 * roundTrips + 10);
      expect(proxy.stats.maxLogsPerRequest).toBeLessThanOrEqual(10);
    });

    it.each(['none', 'data', 'message'] as const)(
      'hint %s: exact, within ceil(N/10,000) + 2 round trips, at most 10 eth_getLogs per batch',
      async (hint) => {
        expect(expected).toHaveLength(seed.totalLogs);
        proxy.options.hint = hint;
        proxy.resetStats();
        const { logs, wire } = await wholeRange();
        expect(logs).toHaveLength(expected.length);
        expect(JSON.stringify(logs) === JSON.stringify(expected)).toBe(true);
        expect(wire.stats.roundTrips).toBeLessThanOrEqual(
          Math.ceil(seed.totalLogs / 10_000) + 2,
        );
        expect(proxy.stats.maxLogsPerRequest).toBeLessThanOrEqual(10);
      },
    );
  },
);
