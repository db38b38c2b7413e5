/**
 * getLogs round trips on the three layouts of `npm run bench` (uniform, uneven, sparse), each on
 * its own anvil behind the limits proxy (10,000 results and 10 eth_getLogs per batch): exact
 * results, in at most ceil(N/10,000) + 2 sequential HTTP requests, with the provider giving no
 * range hint, one in `data`, or one in the message.
 */
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { countingFetch } from '../../devnet/round-trips';
import { LAYOUTS, referenceLogs, seedLayout } from '../../devnet/seed-logs';
import type { SeedResult } from '../../devnet/seed-logs';
import type { RpcLog } from '../../src/chain';
import { createRpcClient } from '../../src/chain';

jest.setTimeout(300_000);

/**
 * A bigint as a JSON-RPC hex quantity.
 *
 * @param value - The number to encode.
 * @returns `0x` followed by the lowercase hex digits.
 */
const toQuantity = (value: bigint): `0x${string}` => `0x${value.toString(16)}`;

describe.each(['uniform', 'uneven', 'sparse'] as const)(
  'getLogs round trips, %s layout',
  (name) => {
    let anvil: Anvil;
    let proxy: LimitsProxy;
    let seed: SeedResult;
    let expected: RpcLog[];

    beforeAll(async () => {
      anvil = await startAnvil();
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

    it.each(['none', 'data', 'message'] as const)(
      'hint %s: exact, within ceil(N/10,000) + 2 round trips, at most 10 eth_getLogs per batch',
      async (hint) => {
        expect(expected).toHaveLength(seed.totalLogs);
        proxy.options.hint = hint;
        proxy.resetStats();
        const wire = countingFetch();
        const logs = await createRpcClient({
          url: proxy.url,
          fetch: wire.fetch,
        }).getLogs({
          fromBlock: toQuantity(seed.fromBlock),
          toBlock: toQuantity(seed.toBlock),
        });
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
