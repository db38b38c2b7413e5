import { createRpcClient, InvalidParamsError, LimitExceededError, type RpcLog } from '../../src/chain';
import { startAnvil, type Anvil } from '../fixtures/anvil';
import { startLimitsProxy, type LimitsProxy } from '../fixtures/limits-proxy';
import { EMITTERS, referenceLogs, rpc, seedLogs, TOPICS, type SeedResult } from '../fixtures/seed-logs';

jest.setTimeout(120_000);

const hex = (n: bigint): `0x${string}` => `0x${n.toString(16)}`;
const key = (log: RpcLog): string => `${log.blockNumber}/${log.logIndex}/${log.transactionHash}`;

/**
 * Assert two log lists are identical, element by element, in order. Cheap on
 * 30,000 logs (jest's own diff of such arrays can take minutes when they differ).
 *
 * @param actual - Logs from the adapter.
 * @param expected - Reference logs from anvil.
 */
function expectSameLogs(actual: RpcLog[], expected: RpcLog[]): void {
  expect(actual.length).toBe(expected.length);
  const first = actual.findIndex((log, i) => JSON.stringify(log) !== JSON.stringify(expected[i]));
  expect({ first, actual: actual[first], expected: expected[first] }).toEqual({ first: -1, actual: undefined, expected: undefined });
}

describe('chain adapter: eth_getLogs through the limits proxy', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let seed: SeedResult;
  let reference: RpcLog[];

  beforeAll(async () => {
    anvil = await startAnvil();
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
    Object.assign(proxy.options, { maxResults: 10_000, maxParams: 5_000, costPerBlockMs: 0, costPerResultMs: 0 });
  });

  it('seeds at least 30,000 logs with dense and sparse blocks', () => {
    expect(seed.totalLogs).toBeGreaterThanOrEqual(30_000);
    expect(reference).toHaveLength(seed.totalLogs);
  });

  it('the whole range through the proxy equals anvil directly, same order', async () => {
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({ fromBlock: hex(seed.fromBlock), toBlock: hex(seed.toBlock) });
    expect(logs).toHaveLength(reference.length);
    expectSameLogs(logs, reference);
    // the first whole-range attempt must have been refused, so splitting happened
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(Math.ceil(reference.length / 10_000));
    expect(new Set(logs.map(key)).size).toBe(logs.length);
  });

  it('pages come in ascending order and concatenate to the reference', async () => {
    const client = createRpcClient({ url: proxy.url });
    const pages: RpcLog[][] = [];
    for await (const page of client.getLogsPages({ fromBlock: hex(seed.fromBlock), toBlock: hex(seed.toBlock) })) {
      expect(page.length).toBeLessThanOrEqual(10_000);
      pages.push(page);
    }
    expect(pages.length).toBeGreaterThan(1);
    expectSameLogs(pages.flat(), reference);
  });

  it('a query-timeout -32005 (cost model) also makes the adapter split, same result', async () => {
    proxy.options.costPerBlockMs = 100; // more than 100 blocks "takes" over 10 s
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({ address: EMITTERS[1], fromBlock: hex(seed.fromBlock), toBlock: hex(seed.toBlock) });
    expectSameLogs(logs, reference.filter((l) => l.address === EMITTERS[1]));
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(Math.ceil(Number(seed.toBlock - seed.fromBlock + 1n) / 100));
  });

  it('resolves block tags once, in one round trip, before splitting', async () => {
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({ fromBlock: 'earliest', toBlock: 'latest', topics: [TOPICS[1]] });
    expectSameLogs(logs, reference.filter((l) => l.topics[0] === TOPICS[1]));
    expect(proxy.stats.methods.eth_getBlockByNumber).toBe(1);
    expect(proxy.stats.methods.eth_blockNumber ?? 0).toBe(0);
  });

  it('splits a filter above 5,000 parameters (addresses) and merges in order', async () => {
    const filler = Array.from({ length: 5200 }, (_, i) => `0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}` as const);
    const client = createRpcClient({ url: proxy.url });
    const logs = await client.getLogs({
      address: [...filler, EMITTERS[0], EMITTERS[1]],
      fromBlock: hex(seed.fromBlock),
      toBlock: hex(seed.fromBlock + 199n),
    });
    expectSameLogs(logs, reference.filter((l) => BigInt(l.blockNumber!) <= seed.fromBlock + 199n));
    expect(proxy.stats.methods.eth_getLogs).toBe(2);
  });

  it('splits topic alternatives above the cap (3 addresses + alternatives count together)', async () => {
    const alternatives = Array.from({ length: 5000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}` as const);
    const client = createRpcClient({ url: proxy.url });
    const range = { fromBlock: hex(seed.denseBlocks[0]), toBlock: hex(seed.denseBlocks[0] + 400n) };
    const logs = await client.getLogs({ ...range, address: [...EMITTERS, `0x${'0'.repeat(39)}9`], topics: [null, alternatives] });
    const expected = (await referenceLogs(anvil.url, seed.denseBlocks[0], seed.denseBlocks[0] + 400n)).filter(
      (l) => BigInt(l.topics[1]) < 5000n,
    );
    expect(expected.length).toBeGreaterThan(10_000);
    expectSameLogs(logs, expected);
    expect(proxy.stats.methods.eth_getLogs).toBeGreaterThanOrEqual(4);
  });

  it('a single block above the cap gives LimitExceededError naming the block', async () => {
    proxy.options.maxResults = 1000;
    const client = createRpcClient({ url: proxy.url });
    const dense = seed.denseBlocks[0];
    const error = await client.getLogs({ fromBlock: hex(dense - 3n), toBlock: hex(dense + 3n) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    const limit = error as LimitExceededError;
    expect(limit.code).toBe(-32005);
    expect(limit.block).toBe(dense);
    expect(limit.reason).toBe('results');
    expect(limit.message).toContain(`block ${dense}`);
    expect(limit.message).toMatch(/narrow the topics|single contract address/u);

    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [hex(dense), false]);
    const byHash = await client.getLogs({ blockHash: block.hash }).catch((e: unknown) => e);
    expect(byHash).toBeInstanceOf(LimitExceededError);
    expect((byHash as Error).message).toContain(block.hash);
  });

  it('a timeout on a single block gives LimitExceededError with reason timeout', async () => {
    proxy.options.costPerResultMs = 2; // 6,000 logs "take" 12 s
    const client = createRpcClient({ url: proxy.url });
    const error = await client.getLogs({ fromBlock: hex(seed.denseBlocks[0]), toBlock: hex(seed.denseBlocks[0]) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).reason).toBe('timeout');
    expect((error as LimitExceededError).block).toBe(seed.denseBlocks[0]);
  });

  it('blockHash gives that block only', async () => {
    const client = createRpcClient({ url: proxy.url });
    const block = await rpc(anvil.url, 'eth_getBlockByNumber', [hex(seed.denseBlocks[1]), false]);
    const logs = await client.getLogs({ blockhash: block.hash, address: EMITTERS[0] });
    expectSameLogs(logs, reference.filter((l) => l.blockHash === block.hash && l.address === EMITTERS[0]));
    expect(logs.length).toBeGreaterThan(0);
  });

  it.each([
    ['blockHash with fromBlock', { blockHash: `0x${'1'.repeat(64)}`, fromBlock: '0x1' }, /blockHash excludes/u],
    ['five topic positions', { topics: [null, null, null, null, null] }, /at most 4 topic positions/u],
    ['a short topic', { topics: [`0x${'a'.repeat(62)}`] }, /32-byte/u],
    ['a bad address', { address: '0x1234' }, /20-byte/u],
    ['a bad tag', { fromBlock: 'newest' }, /latest, earliest, pending, safe, finalized/u],
    ['fromBlock after toBlock', { fromBlock: '0x10', toBlock: '0x5' }, /after toBlock/u],
  ])('refuses %s before sending', async (_name, filter, message) => {
    const client = createRpcClient({ url: proxy.url });
    const error = await client.getLogs(filter as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).code).toBe(-32602);
    expect((error as Error).message).toMatch(message);
    expect(proxy.stats.methods.eth_getLogs ?? 0).toBe(0);
  });

  it('the proxy itself enforces the 5,000-parameter cap', async () => {
    const client = createRpcClient({ url: proxy.url });
    const addresses = Array.from({ length: 5001 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    await expect(client.request('eth_getLogs', [{ address: addresses, fromBlock: '0x1', toBlock: '0x1' }])).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('5000'),
    });
  });
});
