import { startAnvil } from '../../devnet/anvil';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import { countingFetch } from '../../devnet/round-trips';
import {
  LAYOUTS,
  referenceLogs,
  seedLayout,
  seedLogs,
} from '../../devnet/seed-logs';
import type { SeedResult } from '../../devnet/seed-logs';
import { createRpcClient } from '../../src/chain';
import type { RpcLog } from '../../src/chain';

/**
 * A hex quantity.
 *
 * @param value - A non-negative integer.
 * @returns `0x` and its hex digits.
 */
const toQuantity = (value: bigint): `0x${string}` => `0x${value.toString(16)}`;
const LATENCY_MS = 50;

/**
 * Whether two log lists are identical, in order.
 *
 * @param actual - From the adapter.
 * @param expected - From anvil directly.
 * @returns True when equal.
 */
const same = (actual: RpcLog[], expected: RpcLog[]): boolean =>
  actual.length === expected.length &&
  actual.every((log, i) => JSON.stringify(log) === JSON.stringify(expected[i]));

/**
 * Benchmark of the chain adapter behind the provider-limits proxy (not a timed
 * test). For each log layout (the project's seeded one, and uniform, uneven,
 * sparse from LAYOUTS), on its own anvil (anvil mines slower as its chain
 * grows), with the proxy enforcing 10,000 results and 10 eth_getLogs calls per
 * batch and adding 50 ms per round trip, getLogs over the whole range (hex
 * bounds) with the provider giving no range hint, a hint in `data`, and a hint
 * in the message; then `earliest`..`latest` without hints (`tags`).
 * Prints HTTP requests, sequential round trips (vs the bound ceil(N/10,000) + 2),
 * eth_getLogs calls, -32005 refusals, whether the result equals anvil's direct
 * answer, and wall time. Then a batch of 4 reads (must be 1 round trip).
 * Everything it starts is stopped by PID before it returns.
 */
export async function benchChain(): Promise<void> {
  console.log(
    `## chain: eth_getLogs over four layouts (limits proxy: 10,000 results and 10 eth_getLogs per batch, +${LATENCY_MS} ms per round trip)`,
  );
  console.log(
    'layout   blocks  logs    hint     requests  round trips (bound)  getLogs calls  -32005  exact  wall ms',
  );
  for (const name of ['seeded', 'uniform', 'uneven', 'sparse'] as const) {
    const anvil = await startAnvil();
    const proxy = await startLimitsProxy({
      upstream: anvil.url,
      latencyMs: LATENCY_MS,
    });
    try {
      const seed: SeedResult =
        name === 'seeded'
          ? await seedLogs(anvil.url)
          : await seedLayout(anvil.url, LAYOUTS[name]);
      const expected = await referenceLogs(
        anvil.url,
        seed.fromBlock,
        seed.toBlock,
        {},
        seed.toBlock - seed.fromBlock + 1n,
      );
      for (const [hint, tags] of [
        ['none', false],
        ['data', false],
        ['message', false],
        ['none', true],
      ] as const) {
        proxy.options.hint = hint;
        const wire = countingFetch();
        const client = createRpcClient({ url: proxy.url, fetch: wire.fetch });
        proxy.resetStats();
        const started = Date.now();
        // with tags: earliest..latest, the tag read and a whole-range try share the first batch
        const logs = await client.getLogs(
          tags
            ? { fromBlock: 'earliest', toBlock: 'latest' }
            : {
                fromBlock: toQuantity(seed.fromBlock),
                toBlock: toQuantity(seed.toBlock),
              },
        );
        const wallMs = Date.now() - started;
        const bound = Math.ceil(seed.totalLogs / 10_000) + 2;
        console.log(
          [
            name.padEnd(8),
            String(seed.toBlock - seed.fromBlock + 1n).padStart(6),
            String(seed.totalLogs).padStart(6),
            `  ${(tags ? 'tags' : hint).padEnd(8)}`,
            String(wire.stats.requests).padStart(8),
            `${String(wire.stats.roundTrips).padStart(12)} (${bound})`.padEnd(
              21,
            ),
            String(proxy.stats.methods.eth_getLogs ?? 0).padStart(13),
            String(proxy.stats.limitErrors).padStart(7),
            `  ${same(logs, expected) ? 'yes' : 'NO'}  `,
            String(wallMs).padStart(7),
          ].join(' '),
        );
      }
    } finally {
      await proxy.close();
      await anvil.stop();
    }
  }

  const anvil = await startAnvil();
  const proxy = await startLimitsProxy({
    upstream: anvil.url,
    latencyMs: LATENCY_MS,
  });
  try {
    const client = createRpcClient({ url: proxy.url });
    const batchStarted = Date.now();
    await client.batch([
      { method: 'eth_chainId' },
      { method: 'eth_blockNumber' },
      { method: 'eth_gasPrice' },
      {
        method: 'eth_getBalance',
        params: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'],
      },
    ]);
    console.log('## chain: batch of 4 reads');
    console.log(
      `HTTP round trips:         ${proxy.stats.httpRequests} (must be 1), JSON-RPC calls ${proxy.stats.rpcCalls}, ${Date.now() - batchStarted} ms`,
    );
  } finally {
    await proxy.close();
    await anvil.stop();
  }
}
