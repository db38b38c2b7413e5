import { readBlockNumber } from './blocks';
import { InvalidParamsError, TransportError } from './errors';
import { fetchWhole, sendRound, singleBlockError } from './logCalls';
import type { Outcome, Query, Run } from './logCalls';
import { MAX_LOG_PARAMS, splitByParams } from './logFilters';
import { LogPages } from './logPages';
import { afterRefusal, planRound } from './logPlan';
import type { Interval } from './logPlan';
import { logMatcher } from './logReplies';
import type { Transport } from './transport';
import type { LogFilter, RpcLog } from './types';
import { checkLogFilter } from './validation';
import type { CheckedFilter } from './validation';

/** Tuning of getLogs; the defaults follow the provider limits documented by Infura. */
export type GetLogsOptions = {
  /** Parameter cap per call (default 5,000 addresses and topic values). */
  maxParams?: number;
  /** Result cap per call (default 10,000 logs); sets how many logs a call aims at. */
  resultCap?: number;
  /** Fraction of the result cap a call aims at when the density is known (default 0.6). */
  fill?: number;
  /** eth_getLogs calls per JSON-RPC batch, i.e. per HTTP request (default and at most 10). */
  maxBatch?: number;
};

/** The provider's cap on eth_getLogs calls in one JSON-RPC batch. */
export const MAX_LOG_CALLS_PER_BATCH = 10;

/** What the first round trip settled: the numeric range, and the lanes the whole-range call already answered. */
type Start = {
  /** First block of the range, resolved to a number. */
  from: bigint;
  /** Last block of the range, resolved to a number. */
  to: bigint;
  /** Per lane, the logs the whole-range call already returned. */
  answered: Map<number, RpcLog[]>;
  /** The intervals still to fetch. */
  pending: Interval[];
};

/**
 * The first round trip when a bound is a tag: read each tag's block number
 * (eth_getBlockByNumber, each distinct tag once; `pending` reads `latest`, as
 * the pending end stays a tag on the wire) and, in the same batch, try the
 * whole range as given, one call per lane, which answers small queries at once.
 *
 * @param run - The query.
 * @param checked - The validated filter.
 * @param maxBatch - Calls per batch.
 * @param cap - The provider's result cap.
 * @returns The range and what the whole-range calls gave.
 */
async function start(
  run: Run,
  checked: CheckedFilter,
  maxBatch: number,
  cap: number,
): Promise<Start> {
  const reads = [
    ...new Set(
      [checked.fromBlock, checked.toBlock].filter(
        (b) => !b.startsWith('0x') && b !== 'earliest',
      ),
    ),
  ].map((tag) => (tag === 'pending' ? 'latest' : tag));
  const tags = [...new Set(reads)]; // `pending` is planned as `latest` (see numberOf)
  const probe = run.lanes.length <= maxBatch;
  const queries: Query[] = probe
    ? run.lanes.map((_, lane) => ({
        lane,
        from: 0n,
        to: 0n,
        wire: { fromBlock: checked.fromBlock, toBlock: checked.toBlock },
      }))
    : [];
  const calls = tags.map((tag) => ({
    method: 'eth_getBlockByNumber',
    params: [tag, false],
  }));
  let round: Awaited<ReturnType<typeof sendRound>>;
  try {
    round = await sendRound(run, queries, maxBatch, calls);
  } catch (error) {
    // The whole range made the batch time out or exceed the byte cap: read the tags alone, then split.
    if (
      !(error instanceof TransportError) ||
      (error.kind !== 'timeout' && error.kind !== 'tooLarge') ||
      !probe
    ) {
      throw error;
    }
    round = {
      outcomes: queries.map((): Outcome => ({ kind: 'narrow', error })),
      extras: await run.transport.batchSettled(calls),
      tooLarge: false,
    };
  }
  const numbers = new Map<string, bigint>([['earliest', 0n]]);
  round.extras.forEach((reply, i) =>
    numbers.set(tags[i], readBlockNumber(reply, tags[i], run.transport.origin)),
  );
  /**
   * The number of a block bound. The pending end is planned as the latest
   * block: the call that covers it says `pending` instead.
   *
   * @param block - A hex block number or a tag read in this round trip.
   * @returns The block number.
   */
  const numberOf = (block: string): bigint =>
    block.startsWith('0x')
      ? BigInt(block)
      : (numbers.get(block === 'pending' ? 'latest' : block) as bigint);
  const from = numberOf(checked.fromBlock);
  const to = numberOf(checked.toBlock);
  const answered = new Map<number, RpcLog[]>();
  const pending: Interval[] = [];
  if (from <= to) {
    run.lanes.forEach((_, lane) => {
      const outcome = round.outcomes[lane];
      if (outcome?.kind === 'ok') {
        answered.set(lane, outcome.logs);
      } else if (outcome?.kind === 'narrow') {
        pending.push(...afterRefusal({ lane, from, to }, outcome.hint, cap));
      } else {
        pending.push({ lane, from, to });
      }
    });
  }
  return { from, to, answered, pending };
}

/**
 * The eth_getLogs calls of the next round trip: one batch (`batch` calls: 10 per 10 lanes), or,
 * in the last round trip the allowance leaves, two batches sent together, every call of them
 * narrowing the refused ranges. The allowance is `ceil(N / cap) + 2` round trips for a query of
 * N logs; N is not known, but it is at least the logs returned so far plus `cap + 1` per range
 * refused (the pending refused ranges are disjoint). Before that round trip, a refused range
 * whose density is known gets only the pieces it needs (calls are billed one by one).
 *
 * @param state - What is known.
 * @param state.round - The number of the round trip about to be made (the first is 1).
 * @param state.pending - The intervals still to fetch.
 * @param state.fetched - Logs returned so far.
 * @param state.cap - The provider's result cap (logs per call).
 * @param state.batch - eth_getLogs calls per batch round (10 per 10 lanes).
 * @returns The calls the round may make, and whether refused ranges take every spare call.
 */
function roundSlots(state: {
  /** The number of the round trip about to be made (the first is 1). */
  round: number;
  /** The intervals still to fetch. */
  pending: readonly Interval[];
  /** Logs returned so far. */
  fetched: number;
  /** The provider's result cap. */
  cap: number;
  /** eth_getLogs calls per batch round. */
  batch: number;
}): {
  /** Calls this round may make. */
  slots: number;
  /** Whether every refused range takes the round's spare calls (`PlanContext.spread`). */
  spread: boolean;
} {
  const refused = state.pending.filter((interval) => interval.over).length;
  const atLeast = state.fetched + refused * (state.cap + 1);
  const allowance = Math.ceil(atLeast / state.cap) + 2;
  const last = state.round >= allowance;
  return { slots: last ? 2 * state.batch : state.batch, spread: last };
}

/**
 * Pages of eth_getLogs results (Ethereum JSON-RPC API, eth_getLogs), each
 * ordered by (blockNumber, logIndex) and de-duplicated; pages come in ascending
 * block order and together hold every matching log exactly once.
 *
 * How, in as few round trips as the layout allows and no more calls than it
 * needs (providers bill and rate-limit each call of a batch):
 * - the filter is validated; one above the 5,000-parameter cap is split into
 *   sub-filters ("lanes") matching disjoint logs;
 * - block tags are read once (one batch); `latest`, `safe`, `finalized` are
 *   pinned to those numbers for every later call, `pending` is always sent as
 *   `pending`. The same batch tries the whole range as given; a numeric range
 *   is tried whole too: a query that fits in one reply costs one call;
 * - each later round trip is one JSON-RPC batch of up to 10 eth_getLogs calls
 *   (each capped on its own by the provider) over sub-ranges planned by
 *   `planRound`: only a range the provider refused is fanned out, sized from
 *   what the refusals and the logs seen taught (see `piecesNeeded`); in the
 *   last round trip the allowance of ceil(N / 10,000) + 2 leaves, two batches
 *   sent together, all their calls spent on the refused ranges, widest pieces
 *   first (`roundSlots`); a range the provider suggests
 *   (`data: { from, to }` or "this block range should work: [0x…, 0x…]") is
 *   asked for as is;
 * - only "more than N results", "query timeout exceeded", a suggested range, or
 *   a client-side timeout narrow a range; rate limiting (any other -32005, HTTP
 *   429) is retried by the transport as the same call, never split, and
 *   surfaces as RateLimitedError once its bounds are reached.
 *
 * @param transport - The transport.
 * @param filter - `{ address?, fromBlock?, toBlock?, topics?, blockHash? }` (blocks default to latest).
 * @param options - Caps and tuning.
 * @yields Arrays of logs, in block order (empty ones are skipped).
 * @throws InvalidParamsError before sending for an invalid filter, or fromBlock > toBlock;
 * LimitExceededError when one block alone exceeds the provider's limit (naming the block) or a blockHash
 * query does; RateLimitedError (a LimitExceededError, reason `rate`) when rate limiting outlasts the
 * transport's retries; RemovedLogsError when the provider reports removed
 * logs or two hashes for one block; ChainRpcError for other node errors; TransportError for transport
 * faults and malformed replies.
 */
export async function* getLogsPages(
  transport: Transport,
  filter: LogFilter,
  options: GetLogsOptions = {},
): AsyncGenerator<RpcLog[], void, undefined> {
  const checked = checkLogFilter(filter);
  const lanes = splitByParams(checked, options.maxParams ?? MAX_LOG_PARAMS);
  const cap = options.resultCap ?? 10_000;
  const target = Math.max(1, Math.floor(cap * (options.fill ?? 0.6)));
  let maxBatch = Math.max(
    1,
    Math.min(
      options.maxBatch ?? MAX_LOG_CALLS_PER_BATCH,
      MAX_LOG_CALLS_PER_BATCH,
    ),
  );
  const run: Run = {
    transport,
    lanes,
    matchers: lanes.map(logMatcher),
    openEnd: checked.toBlock === 'pending',
    top: 0n,
  };

  if (checked.blockHash || checked.fromBlock === 'pending') {
    const wire = checked.blockHash
      ? { blockHash: checked.blockHash }
      : { fromBlock: checked.fromBlock, toBlock: checked.toBlock };
    const logs = await fetchWhole(run, wire, maxBatch);
    if (logs.length > 0) {
      yield logs;
    }
    return;
  }

  const tagged = ![checked.fromBlock, checked.toBlock].every(
    (b) => b.startsWith('0x') || b === 'earliest',
  );
  let from: bigint;
  let to: bigint;
  let first: Start | undefined;
  if (tagged) {
    first = await start(run, checked, maxBatch, cap);
    ({ from, to } = first);
  } else {
    from = checked.fromBlock === 'earliest' ? 0n : BigInt(checked.fromBlock);
    to = checked.toBlock === 'earliest' ? 0n : BigInt(checked.toBlock);
  }
  if (from > to && run.openEnd) {
    // Only blocks after the latest: the pending block alone, asked for as given.
    const logs = await fetchWhole(
      run,
      { fromBlock: checked.fromBlock, toBlock: 'pending' },
      maxBatch,
    );
    if (logs.length > 0) {
      yield logs;
    }
    return;
  }
  if (from > to) {
    throw new InvalidParamsError(
      `eth_getLogs: fromBlock ${from} is after toBlock ${to}`,
    );
  }
  const planned: Run = { ...run, top: to };

  const pages = new LogPages(lanes.length, from, to);
  let pending: Interval[] = lanes.map((_, lane) => ({ lane, from, to }));
  let fetched = 0; // logs returned so far
  let rounds = first ? 1 : 0; // round trips made so far
  if (first) {
    first.answered.forEach((logs, lane) => {
      fetched += logs.length;
      pages.complete({ lane, from, to }, logs);
    });
    pending = first.pending;
    yield* pages.release();
  }
  let timeoutRounds = 0;
  /**
   * Block order of intervals: by first block, then by lane.
   *
   * @param a - An interval.
   * @param b - Another interval.
   * @returns Negative, zero or positive, as `Array.prototype.sort` expects.
   */
  const order = (a: Interval, b: Interval): number => {
    if (a.from !== b.from) {
      return a.from < b.from ? -1 : 1;
    }
    return a.lane - b.lane;
  };
  while (pending.length > 0) {
    rounds += 1;
    const { slots, spread } = roundSlots({
      round: rounds,
      pending,
      fetched,
      cap,
      batch: maxBatch * Math.ceil(lanes.length / MAX_LOG_CALLS_PER_BATCH),
    });
    const plan = planRound(pending.sort(order), {
      slots,
      spread,
      target,
      cap,
      /** @inheritdoc */
      density: (lane) => pages.density(lane),
      /** @inheritdoc */
      heaviest: (lane) => pages.heaviest(lane),
    });
    const round = await sendRound(planned, plan.pieces, maxBatch);
    if (round.tooLarge) {
      maxBatch = Math.max(1, Math.floor(maxBatch / 2));
    }
    pending = plan.rest;
    let progressed = false;
    for (const [i, piece] of plan.pieces.entries()) {
      const outcome = round.outcomes[i];
      if (outcome.kind === 'ok') {
        progressed = true;
        fetched += outcome.logs.length;
        pages.complete(piece, outcome.logs);
      } else if (outcome.kind === 'again') {
        // Part of a batch above the byte cap: asked again in smaller batches.
        pending.push(piece);
      } else if (piece.from === piece.to) {
        throw singleBlockError(planned, piece.from, outcome.error);
      } else {
        pending.push(...afterRefusal(piece, outcome.hint, cap));
      }
    }
    // A client-side timeout with nothing returned at all, round after round, is the network, not the range.
    timeoutRounds = round.timedOut && !progressed ? timeoutRounds + 1 : 0;
    if (round.timedOut && timeoutRounds > transport.retry.retries) {
      throw round.timedOut;
    }
    yield* pages.release();
  }
}

/**
 * eth_getLogs over a range of any size (Ethereum JSON-RPC API, eth_getLogs):
 * every matching log exactly once, ordered by (blockNumber, logIndex). See
 * `getLogsPages` for how the query is split and which errors are thrown.
 *
 * @param transport - The transport.
 * @param filter - The filter; blocks default to latest.
 * @param options - Caps and tuning.
 * @returns The logs (quantities as hex strings).
 */
export async function getLogs(
  transport: Transport,
  filter: LogFilter,
  options: GetLogsOptions = {},
): Promise<RpcLog[]> {
  const all: RpcLog[] = [];
  for await (const page of getLogsPages(transport, filter, options)) {
    for (const log of page) {
      all.push(log);
    }
  }
  return all;
}
