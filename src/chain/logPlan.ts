import type { RangeHint } from './errors';

/**
 * Planning of eth_getLogs queries: which block ranges to ask for in the next
 * round trip (one JSON-RPC batch of up to `slots` calls, each call capped on
 * its own by the provider). Pure functions, no I/O.
 */

/** A block interval of one sub-filter (`lane`) still to fetch; bounds inclusive. */
export type Interval = {
  /** The sub-filter this interval belongs to. */
  lane: number;
  /** First block, inclusive. */
  from: bigint;
  /** Last block, inclusive. */
  to: bigint;
  /** The provider refused exactly this interval as too large (results or duration). */
  over?: boolean;
  /** The provider suggested this interval: expected to fit in one call. */
  fits?: boolean;
};

/** One eth_getLogs call to make. */
export type Piece = {
  /** The sub-filter to query. */
  lane: number;
  /** First block, inclusive. */
  from: bigint;
  /** Last block, inclusive. */
  to: bigint;
};

/** What the planner knows besides the intervals. */
export type PlanContext = {
  /** Calls available this round. */
  slots: number;
  /** Logs one call should hold, aiming below the provider's cap (e.g. 60% of 10,000). */
  target: number;
  /** The provider's result cap (e.g. 10,000). */
  cap: number;
  /** Logs per block seen so far in a lane, or undefined when nothing was fetched there yet. */
  density(lane: number): number | undefined;
};

/**
 * Blocks in an interval.
 *
 * @param interval - The interval, bounds inclusive.
 * @returns The number of blocks.
 */
const width = (interval: Pick<Interval, 'from' | 'to'>): bigint =>
  interval.to - interval.from + 1n;

/**
 * Cut an interval into `count` pieces of equal width (the last may be shorter).
 *
 * @param interval - The interval.
 * @param count - Pieces wanted (at least 1; at most its width).
 * @returns The pieces, in block order.
 */
export function splitEven(interval: Interval, count: number): Piece[] {
  const size = (width(interval) + BigInt(count) - 1n) / BigInt(count);
  const pieces: Piece[] = [];
  for (let { from } = interval; from <= interval.to; from += size) {
    const to = from + size - 1n < interval.to ? from + size - 1n : interval.to;
    pieces.push({ lane: interval.lane, from, to });
  }
  return pieces;
}

/**
 * The intervals left after the provider refused `interval` and suggested
 * `hint`: the hinted part (marked `fits`) and what lies on either side of it.
 * A hint outside the interval, or not narrower than it, is ignored (the whole
 * interval is then just marked `over`), so a lying provider cannot stall the
 * query.
 *
 * @param interval - The refused interval.
 * @param hint - The provider's suggested range, if any.
 * @returns The intervals replacing it, in block order.
 */
export function afterRefusal(
  interval: Interval,
  hint: RangeHint | undefined,
): Interval[] {
  const { lane, from, to } = interval;
  if (
    !hint ||
    hint.from < from ||
    hint.to > to ||
    hint.to - hint.from >= to - from
  ) {
    return [{ lane, from, to, over: true }];
  }
  const parts: Interval[] = [];
  if (hint.from > from) {
    parts.push({ lane, from, to: hint.from - 1n });
  }
  parts.push({ lane, from: hint.from, to: hint.to, fits: true });
  if (hint.to < to) {
    parts.push({ lane, from: hint.to + 1n, to });
  }
  return parts;
}

/**
 * Calls an interval needs: 1 when the provider suggested it; for a refused
 * one at least 2, more when the lane's density says so; otherwise enough to
 * hold the expected logs at `target` per call (1 when nothing is known).
 *
 * @param interval - The interval.
 * @param context - Density, target and cap.
 * @returns The number of pieces (never above the interval's width).
 */
function piecesNeeded(interval: Interval, context: PlanContext): number {
  const blocks = width(interval);
  const density = context.density(interval.lane);
  let expected = density === undefined ? undefined : density * Number(blocks);
  let needed = 1;
  if (interval.fits) {
    needed = 1;
  } else if (interval.over) {
    expected = Math.max(context.cap + 1, expected ?? 0);
    needed = Math.max(2, Math.ceil(expected / context.target));
  } else if (expected !== undefined) {
    needed = Math.max(1, Math.ceil(expected / context.target));
  }
  return blocks < BigInt(needed) ? Number(blocks) : needed;
}

/**
 * Plan one round trip: take the pending intervals in block order and give
 * each the calls it needs while slots last (an interval that needs more than
 * the slots left gets its first pieces, the rest stays pending); then spread
 * any slots left over the intervals whose content is unknown (refused, or
 * never seen), so that a refused range is cut finer and a first query over a
 * range is already split across the whole batch.
 *
 * @param pending - Intervals still to fetch, sorted by `from` then lane.
 * @param context - Slots, target, cap and density.
 * @returns `pieces` to send now, and `rest`, the intervals left for later (sorted).
 */
export function planRound(
  pending: readonly Interval[],
  context: PlanContext,
): {
  /** The calls to send now. */
  pieces: Piece[];
  /** Intervals left for later, sorted. */
  rest: Interval[];
} {
  /** An interval given calls this round. */
  type Choice = {
    /** The interval. */
    interval: Interval;
    /** Calls it gets. */
    count: number;
    /** Whether its content is unknown (refused, or never seen). */
    unknown: boolean;
  };
  const chosen: Choice[] = [];
  const rest: Interval[] = [];
  let slots = Math.max(1, context.slots);
  for (const interval of pending) {
    if (slots === 0) {
      rest.push(interval);
      continue;
    }
    const needed = piecesNeeded(interval, context);
    const unknown =
      !interval.fits &&
      (interval.over === true || context.density(interval.lane) === undefined);
    if (needed <= slots) {
      chosen.push({ interval, count: needed, unknown });
      slots -= needed;
      continue;
    }
    // Only the first `slots` of the `needed` pieces fit in this round.
    const size = (width(interval) + BigInt(needed) - 1n) / BigInt(needed);
    const end = interval.from + size * BigInt(slots) - 1n;
    chosen.push({
      interval: { lane: interval.lane, from: interval.from, to: end },
      count: slots,
      unknown: false,
    });
    rest.push({ lane: interval.lane, from: end + 1n, to: interval.to });
    slots = 0;
  }
  let spread = true;
  while (slots > 0 && spread) {
    spread = false;
    for (const choice of chosen) {
      if (
        slots > 0 &&
        choice.unknown &&
        BigInt(choice.count) < width(choice.interval)
      ) {
        choice.count += 1;
        slots -= 1;
        spread = true;
      }
    }
  }
  return {
    pieces: chosen.flatMap((choice) =>
      splitEven(choice.interval, choice.count),
    ),
    rest,
  };
}
