import * as fc from 'fast-check';

import { createRpcClient } from './client';
import { LimitExceededError, RateLimitedError } from './errors';
import type { RpcLog } from './types';
import type { LogLayout } from '../../devnet/seed-logs';
import { LAYOUTS } from '../../devnet/seed-logs';
import type {
  FakeLog,
  FakeProviderOptions,
} from '../../test/fixtures/fake-provider';
import {
  fakeProvider,
  FAKE_ADDRESS,
  FAKE_TOPIC,
} from '../../test/fixtures/fake-provider';
import { fuzzRuns } from '../../test/fixtures/fuzz';
import {
  LAYOUT_CAP,
  logLayoutArbitrary,
} from '../../test/fixtures/log-layouts';

jest.setTimeout(300_000);

/**
 * Upper bound of the round trips a query returning `count` logs may take.
 *
 * @param count - Logs in the range.
 * @returns One round trip per 10,000 blocks, plus two.
 */
const bound = (count: number): number => Math.ceil(count / 10_000) + 2;

// Bound once: inside jest's VM context every global lookup (`Array`, `Object`) is slow, and the
// comparison below makes millions of them on a 100,000-log list.
const { isArray } = Array;
const { keys: keysOf } = Object;

/**
 * Whether two JSON values are the same, member order included: what comparing their JSON texts
 * checks, without building two texts of 100,000 logs (no `undefined` members occur here).
 * Recursion depth is the values' nesting (two levels for a log list).
 *
 * @param a - A JSON value (parsed, or built from plain objects, arrays and primitives).
 * @param b - Another.
 * @returns True when equal primitives, or arrays/objects with the same keys in the same order
 * and the same values.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    isArray(a) !== isArray(b)
  ) {
    return false;
  }
  if (isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) {
      return false;
    }
    for (let i = 0; i < a.length; i += 1) {
      // primitives compared in place: a call per member would cost more than the compare
      if (
        a[i] !== other[i] &&
        (typeof a[i] !== 'object' || !sameJson(a[i], other[i]))
      ) {
        return false;
      }
    }
    return true;
  }
  const keys = keysOf(a);
  const otherKeys = keysOf(b);
  if (keys.length !== otherKeys.length) {
    return false;
  }
  for (let i = 0; i < keys.length; i += 1) {
    const value = (a as Record<string, unknown>)[keys[i]];
    const other = (b as Record<string, unknown>)[keys[i]];
    if (
      keys[i] !== otherKeys[i] ||
      (value !== other &&
        (typeof value !== 'object' || !sameJson(value, other)))
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Whether two log lists are the same, in order, every member of every log equal and in the same
 * order (as their JSON texts would be; cheap on 100,000 logs, unlike a deep equality).
 *
 * @param actual - From the adapter.
 * @param expected - The provider's logs.
 * @returns True when identical.
 */
const same = (actual: unknown[], expected: unknown[]): boolean =>
  sameJson(actual, expected);

/**
 * Logs per block of a seeding layout (gaps become empty blocks).
 *
 * @param layout - The layout.
 * @returns Counts, block 0 first.
 */
const countsOf = (layout: LogLayout): number[] =>
  layout.flatMap(([gap, logs]) => [...Array<number>(gap).fill(0), logs]);

/** What one getLogs run gave, and what the fake provider holds. */
type RunResult = {
  /** The logs getLogs returned. */
  logs: RpcLog[];
  /** The provider's logs, in chain order: what getLogs should return. */
  expected: ReturnType<typeof fakeProvider>['logs'];
  /** The provider's counters (round trips, refusals, ranges asked for). */
  stats: ReturnType<typeof fakeProvider>['stats'];
};

/**
 * Run getLogs over the whole fake chain.
 *
 * @param options - The fake provider's layout and behaviour.
 * @param retries - The client's retries.
 * @returns The logs, the expected logs and the provider's stats.
 */
async function run(
  options: FakeProviderOptions,
  retries = 3,
): Promise<RunResult> {
  const provider = fakeProvider(options);
  const client = createRpcClient({
    url: 'https://fake.example/v3/key',
    fetch: provider.fetch,
    retries,
    retryDelayMs: 1,
  });
  const logs = await client.getLogs({
    fromBlock: '0x0',
    toBlock: `0x${(options.counts.length - 1).toString(16)}`,
  });
  return { logs, expected: provider.logs, stats: provider.stats };
}

describe('getLogs against an in-memory provider (10,000 results and 10 eth_getLogs per batch)', () => {
  it.each(['uniform', 'uneven', 'sparse', 'adjacent'] as const)(
    '%s layout: exact, within ceil(N/10,000) + 2 round trips, with or without a hint',
    async (name) => {
      for (const hint of ['none', 'data', 'message'] as const) {
        const { logs, expected, stats } = await run({
          counts: countsOf(LAYOUTS[name]),
          hint,
        });
        expect(same(logs, expected)).toBe(true);
        expect(stats.roundTrips).toBeLessThanOrEqual(bound(expected.length));
        expect(stats.batchRefusals).toBe(0);
        // calls: at most 2 per round trip plus one fan-out of 10 (not a goal on the hostile layout)
        expect(
          name === 'adjacent' ||
            stats.getLogsCalls <= 2 * stats.roundTrips + 10,
        ).toBe(true);
      }
    },
  );

  it.each([
    ['empty', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['9,999 logs', [3000, 0, 6999, 0]],
  ])(
    'a range whose answer fits in one reply (%s) costs one call and one round trip',
    async (_name, counts) => {
      const { logs, expected, stats } = await run({ counts });
      expect(same(logs, expected)).toBe(true);
      expect(stats.getLogsCalls).toBe(1);
      expect(stats.roundTrips).toBe(1);
    },
  );

  it('any layout: exact results; with a range hint, within ceil(N/10,000) + 2 round trips', async () => {
    const layout = fc
      .record({
        width: fc.integer({ min: 1, max: 10_000 }),
        background: fc.integer({ min: 0, max: 3 }),
        dense: fc.array(
          fc.record({
            at: fc.double({ min: 0, max: 1, noNaN: true }),
            logs: fc.integer({ min: 1, max: 10_000 }),
            run: fc.integer({ min: 1, max: 4 }),
          }),
          { maxLength: 6 },
        ),
      })
      .map(({ width, background, dense }) => {
        const counts = Array.from({ length: width }, (_, i) =>
          background > 0 && i % (7 * background) === 0 ? background : 0,
        );
        for (const { at, logs, run: length } of dense) {
          const start = Math.min(width - 1, Math.floor(at * width));
          for (let i = start; i < Math.min(width, start + length); i += 1) {
            counts[i] = logs;
          }
        }
        return counts;
      });
    await fc.assert(
      fc.asyncProperty(
        layout,
        fc.constantFrom('none', 'data', 'message', 'lying') as fc.Arbitrary<
          FakeProviderOptions['hint']
        >,
        async (counts, hint) => {
          const { logs, expected, stats } = await run({ counts, hint });
          expect(same(logs, expected)).toBe(true);
          expect(stats.batchRefusals).toBe(0);
          // The round-trip bound holds when the provider suggests ranges.
          const hinted = hint === 'data' || hint === 'message';
          expect(stats.roundTrips).toBeLessThanOrEqual(
            hinted ? bound(expected.length) : Infinity,
          );
        },
      ),
      { numRuns: fuzzRuns(40) },
    );
  });

  it('generated layouts without a hint (leading gaps to 50,000 blocks, clusters, blocks up to the cap, 0 to 60,000 logs): exact, at most 10 eth_getLogs per batch; a block over the cap is named', async () => {
    // The goals (round trips <= ceil(N/10,000) + 2, calls <= 2 x round trips + 10) cannot both
    // hold for every placement without a hint (docs/performance.md, "Not every placement"): they
    // are not asserted here; `npm run bench` prints how often they are met.
    await fc.assert(
      fc.asyncProperty(
        logLayoutArbitrary(),
        fc.oneof(
          { weight: 7, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
        ),
        async (layout, overAt) => {
          const counts = [...layout];
          // Now and then one block over the cap: the error names it, no bound is claimed.
          const over =
            overAt === null
              ? undefined
              : Math.min(counts.length - 1, Math.floor(overAt * counts.length));
          if (over !== undefined) {
            counts[over] = LAYOUT_CAP + 1;
          }
          const result = await run({ counts }).catch(
            (caught: unknown) => caught,
          );
          const failed =
            result instanceof LimitExceededError ? result : undefined;
          expect({
            refused: failed !== undefined,
            block: failed?.block,
            named: failed?.message.includes(
              `block ${over} (0x${over?.toString(16)}) alone exceeds`,
            ),
          }).toStrictEqual(
            over === undefined
              ? { refused: false, block: undefined, named: undefined }
              : { refused: true, block: BigInt(over), named: true },
          );
          const answered = failed ? undefined : (result as RunResult);
          expect(
            answered === undefined ||
              (same(answered.logs, answered.expected) &&
                answered.stats.batchRefusals === 0),
          ).toBe(true);
        },
      ),
      // Each layout moves up to 60,000 logs through JSON: a few seconds each on a busy machine.
      { numRuns: fuzzRuns(12) },
    );
  });

  it('ignores a hint that is not narrower than the range refused, or lies outside it', async () => {
    const { logs, expected, stats } = await run({
      counts: countsOf(LAYOUTS.sparse),
      hint: 'lying',
    });
    expect(same(logs, expected)).toBe(true);
    expect(stats.refusals).toBeGreaterThan(0);
  });

  it('a block alone above the cap gives LimitExceededError naming it', async () => {
    const error = await run({ counts: [5, 0, 10_001, 3] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).block).toBe(2n);
    expect((error as Error).message).toContain('block 2 (0x2)');
  });

  it('retries a rate-limited call as is (never split, never fanned out), then surfaces RateLimitedError', async () => {
    const counts = [5, 0, 7, 0, 3];
    const retried = await run({ counts, rateLimited: 3 });
    expect(same(retried.logs, retried.expected)).toBe(true);
    // the whole range, four times: three rate-limited, then answered
    expect(retried.stats.getLogsCalls).toBe(4);
    expect(new Set(retried.stats.ranges.map(String))).toStrictEqual(
      new Set(['0x0,0x4']),
    );

    const surfaced = await run(
      { counts: [1, 2, 3], rateLimited: 1000 },
      2,
    ).catch((caught: unknown) => caught);
    expect(surfaced).toBeInstanceOf(RateLimitedError);
    expect(surfaced).toBeInstanceOf(LimitExceededError);
    expect((surfaced as RateLimitedError).reason).toBe('rate');
    expect((surfaced as RateLimitedError).attempts).toBe(3);
    expect((surfaced as Error).message).toContain('https://fake.example');
    expect((surfaced as Error).message).not.toContain('/v3/key');
  });

  it('keeps every pending log (null block fields): none merged by a null key, all after the mined ones', async () => {
    /**
     * A log of the open `pending` end (no block number, hash or index yet).
     *
     * @param i - Which log, for its data.
     * @returns The log.
     */
    const pending = (i: number): FakeLog => ({
      address: FAKE_ADDRESS,
      topics: [FAKE_TOPIC],
      data: `0x0${i}`,
      blockHash: null,
      blockNumber: null,
      transactionHash: null,
      transactionIndex: null,
      logIndex: null,
      removed: false,
    });
    const provider = fakeProvider({
      counts: [2, 0, 3],
      pendingLogs: [pending(1), pending(2), pending(3)],
    });
    const client = createRpcClient({
      url: 'https://fake.example/',
      fetch: provider.fetch,
    });
    const logs = await client.getLogs({ fromBlock: '0x0', toBlock: 'pending' });
    expect(logs.map((log) => log.data)).toStrictEqual([
      '0x',
      '0x',
      '0x',
      '0x',
      '0x',
      '0x01',
      '0x02',
      '0x03',
    ]);
    expect(
      provider.stats.ranges.every(([, to]) => to === 'pending' || to !== '0x3'),
    ).toBe(true);
  });
});
