import * as fc from 'fast-check';

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
import { fakeProvider } from '../../test/fixtures/fake-provider';
import { logLayoutArbitrary } from '../../test/fixtures/log-layouts';

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

/** One getLogs measurement: a layout, how the range was given, what it cost. */
export type LogsRow = {
  /** The layout (seeded, uniform, uneven, sparse, adjacent). */
  layout: string;
  /** Blocks in the range. */
  blocks: number;
  /** Logs in the range (N). */
  logs: number;
  /** The provider's range hint (`none`, `data`, `message`), or `tags` for earliest..latest without one. */
  hint: string;
  /** HTTP requests sent. */
  requests: number;
  /** Sequential round trips. */
  roundTrips: number;
  /** eth_getLogs calls the provider received (each member of a batch counts). */
  calls: number;
  /** The ideal: ceil(N / 10,000), the fewest calls (and round trips) that can hold N logs. */
  ideal: number;
  /** -32005 refusals. */
  refusals: number;
  /** Whether the result equals anvil's direct answer. */
  exact: boolean;
  /** Wall time, ms. */
  wallMs: number;
};

/**
 * Benchmark of the chain adapter behind the provider-limits proxy (not a timed
 * test). For each log layout (the project's seeded one, and uniform, uneven,
 * sparse, adjacent from LAYOUTS), on its own anvil (anvil mines slower as its chain
 * grows), with the proxy enforcing 10,000 results and 10 eth_getLogs calls per
 * batch and adding 50 ms per round trip, getLogs over the whole range (hex
 * bounds) with the provider giving no range hint, a hint in `data`, and a hint
 * in the message; then `earliest`..`latest` without hints (`tags`).
 * Prints HTTP requests, sequential round trips and eth_getLogs calls (the provider
 * bills and rate-limits each call) beside the ideal ceil(N/10,000) and the goals
 * (round trips <= ideal + 2, calls <= 2 x round trips + 10), -32005 refusals,
 * whether the result equals anvil's direct answer, and wall time. Then a batch of
 * 4 reads (must be 1 round trip).
 * Everything it starts is stopped by PID before it returns.
 *
 * @returns The rows printed.
 */
export async function benchChain(): Promise<LogsRow[]> {
  console.log(
    `## chain: eth_getLogs over five layouts (limits proxy: 10,000 results and 10 eth_getLogs per batch, +${LATENCY_MS} ms per round trip)`,
  );
  console.log(
    'layout    blocks  logs    hint     requests  round trips  calls  ideal  goals (rt<=ideal+2, calls<=2rt+10)  -32005  exact  wall ms',
  );
  const rows: LogsRow[] = [];
  for (const name of [
    'seeded',
    'uniform',
    'uneven',
    'sparse',
    'adjacent',
  ] as const) {
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
        const row: LogsRow = {
          layout: name,
          blocks: Number(seed.toBlock - seed.fromBlock + 1n),
          logs: seed.totalLogs,
          hint: tags ? 'tags' : hint,
          requests: wire.stats.requests,
          roundTrips: wire.stats.roundTrips,
          calls: proxy.stats.methods.eth_getLogs ?? 0,
          ideal: Math.ceil(seed.totalLogs / 10_000),
          refusals: proxy.stats.limitErrors,
          exact: same(logs, expected),
          wallMs: Date.now() - started,
        };
        rows.push(row);
        const goals = `${row.roundTrips <= row.ideal + 2 ? 'rt ok' : 'RT OVER'}, ${
          row.calls <= 2 * row.roundTrips + 10 ? 'calls ok' : 'CALLS OVER'
        }`;
        console.log(
          [
            name.padEnd(9),
            String(row.blocks).padStart(6),
            String(row.logs).padStart(6),
            `  ${row.hint.padEnd(8)}`,
            String(row.requests).padStart(8),
            String(row.roundTrips).padStart(12),
            String(row.calls).padStart(6),
            String(row.ideal).padStart(6),
            `  ${goals.padEnd(34)}`,
            String(row.refusals).padStart(6),
            `  ${row.exact ? 'yes' : 'NO'}  `,
            String(row.wallMs).padStart(7),
          ].join(' '),
        );
      }
    } finally {
      await proxy.close();
      await anvil.stop();
    }
  }

  rows.push(...(await benchGeneratedLayouts()));

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
  return rows;
}

/** Generated layouts the bench samples (fixed seed: the same sample every run). */
const GENERATED_SAMPLE = { numRuns: 12, seed: 20261127 };

/**
 * getLogs over a sample of the generated layouts of the planner's property test
 * (`test/fixtures/log-layouts.ts`: leading gaps of 0 to 50,000 blocks, clusters, blocks up to
 * 10,000 logs, 0 to 60,000 logs), against the in-memory provider of
 * `test/fixtures/fake-provider.ts` (10,000 results and 10 eth_getLogs per batch, no range hint;
 * anvil would take minutes to mine 50,000 blocks per layout). Prints round trips and calls beside
 * the ideal and the goals, and how many layouts met them.
 *
 * @returns One row per layout (`layout` is `generated-<i>`, `hint` is `none`).
 */
async function benchGeneratedLayouts(): Promise<LogsRow[]> {
  console.log(
    `## chain: eth_getLogs over ${GENERATED_SAMPLE.numRuns} generated layouts (in-memory provider: 10,000 results and 10 eth_getLogs per batch, no hint; seed ${GENERATED_SAMPLE.seed})`,
  );
  console.log(
    'layout         blocks   logs  round trips  calls  ideal  goals (rt<=ideal+2, calls<=2rt+10)  exact',
  );
  const rows: LogsRow[] = [];
  for (const [i, counts] of fc
    .sample(logLayoutArbitrary(), GENERATED_SAMPLE)
    .entries()) {
    const provider = fakeProvider({ counts });
    const client = createRpcClient({
      url: 'https://fake.example/',
      fetch: provider.fetch,
    });
    const started = Date.now();
    const logs = await client.getLogs({
      fromBlock: '0x0',
      toBlock: toQuantity(BigInt(counts.length - 1)),
    });
    const row: LogsRow = {
      layout: `generated-${i}`,
      blocks: counts.length,
      logs: provider.logs.length,
      hint: 'none',
      requests: provider.stats.requests,
      roundTrips: provider.stats.roundTrips,
      calls: provider.stats.getLogsCalls,
      ideal: Math.ceil(provider.logs.length / 10_000),
      refusals: provider.stats.refusals,
      exact:
        logs.length === provider.logs.length &&
        logs.every(
          (log, j) => JSON.stringify(log) === JSON.stringify(provider.logs[j]),
        ),
      wallMs: Date.now() - started,
    };
    rows.push(row);
    const goals = `${row.roundTrips <= row.ideal + 2 ? 'rt ok' : 'RT OVER'}, ${
      row.calls <= 2 * row.roundTrips + 10 ? 'calls ok' : 'CALLS OVER'
    }`;
    console.log(
      [
        row.layout.padEnd(13),
        String(row.blocks).padStart(7),
        String(row.logs).padStart(6),
        String(row.roundTrips).padStart(12),
        String(row.calls).padStart(6),
        String(row.ideal).padStart(6),
        `  ${goals.padEnd(34)}`,
        `  ${row.exact ? 'yes' : 'NO'}`,
      ].join(' '),
    );
  }
  const roundTripsMet = rows.filter(
    (row) => row.roundTrips <= row.ideal + 2,
  ).length;
  const bothMet = rows.filter(
    (row) =>
      row.roundTrips <= row.ideal + 2 && row.calls <= 2 * row.roundTrips + 10,
  ).length;
  console.log(
    `generated: round trips within ideal + 2 in ${roundTripsMet} of ${rows.length}; both goals in ${bothMet} of ${rows.length}`,
  );
  return rows;
}
