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
  /** Cut from a refused interval by the heavy-block rule (see `piecesNeeded`): refused again, it is cut finest. */
  sized?: boolean;
  /** Logs per block estimated from a provider's suggested range next to it, before anything was fetched. */
  estimate?: number;
};

/** One eth_getLogs call to make. */
export type Piece = {
  /** The sub-filter to query. */
  lane: number;
  /** First block, inclusive. */
  from: bigint;
  /** Last block, inclusive. */
  to: bigint;
  /** Cut from a refused interval by the heavy-block rule. */
  sized?: boolean;
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
  /** The most logs seen in one block of a lane, or undefined when none was seen. */
  heaviest?(lane: number): number | undefined;
  /**
   * Spend the round's spare calls on every refused interval (true), or only on those about which
   * nothing narrower is known (false: a refused interval sized from the density and the heaviest
   * block seen gets just those pieces).
   */
  spread?: boolean;
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
 * @param sized - Mark the pieces as cut by the heavy-block rule (default false).
 * @returns The pieces, in block order.
 */
export function splitEven(
  interval: Pick<Interval, 'lane' | 'from' | 'to'>,
  count: number,
  sized = false,
): Piece[] {
  const size = (width(interval) + BigInt(count) - 1n) / BigInt(count);
  const pieces: Piece[] = [];
  for (let { from } = interval; from <= interval.to; from += size) {
    const to = from + size - 1n < interval.to ? from + size - 1n : interval.to;
    pieces.push(
      sized
        ? { lane: interval.lane, from, to, sized }
        : { lane: interval.lane, from, to },
    );
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
 * @param cap - The provider's result cap (logs per call), to estimate the density around a hint.
 * @returns The intervals replacing it, in block order.
 */
export function afterRefusal(
  interval: Interval & Pick<Piece, 'sized'>,
  hint: RangeHint | undefined,
  cap = 10_000,
): Interval[] {
  const { lane, from, to } = interval;
  if (
    !hint ||
    hint.from < from ||
    hint.to > to ||
    hint.to - hint.from >= to - from
  ) {
    return [
      interval.sized
        ? { lane, from, to, over: true, sized: true }
        : { lane, from, to, over: true },
    ];
  }
  // The suggested range holds up to `cap` logs: about cap / width per block around it.
  const estimate = cap / Number(width(hint));
  const parts: Interval[] = [];
  if (hint.from > from) {
    parts.push({ lane, from, to: hint.from - 1n, estimate });
  }
  parts.push({ lane, from: hint.from, to: hint.to, fits: true });
  if (hint.to < to) {
    parts.push({ lane, from: hint.to + 1n, to, estimate });
  }
  return parts;
}

/** How many calls an interval gets this round, and how. */
type Need = {
  /** Calls it needs. */
  count: number;
  /** Its pieces are cut by the heavy-block rule. */
  sized: boolean;
  /** It may take the round's spare calls (a range the provider refused). */
  spread: boolean;
};

/**
 * The calls an interval needs at least (the cost model: one call for
 * anything not known to be too large; a fan-out only for a range the
 * provider refused, sized from what was learnt):
 * - suggested by the provider: 1;
 * - never refused: enough to hold the logs expected at `target` per call
 *   (density seen in the lane, or estimated from a suggested range next to
 *   it), 1 when nothing is known;
 * - refused: enough for `max(cap + 1, density × width)` at `target` per call
 *   (2 when nothing was seen in the lane yet); when the heaviest block seen
 *   holds a tenth of the cap or more (logs come in clusters), at least as
 *   many pieces as such blocks exceed the cap (a refused range holding 3
 *   blocks of 4,000 is cut in 3). A refused range also takes the round's
 *   spare calls (`planRound`), so that it is cut as finely as the round's
 *   call budget allows.
 *
 * @param interval - The interval.
 * @param context - Density, heaviest block, target and cap.
 * @returns The calls (never above the interval's width) and how to cut.
 */
function piecesNeeded(interval: Interval, context: PlanContext): Need {
  const blocks = width(interval);
  /**
   * A number of pieces, at most one per block.
   *
   * @param count - Pieces wanted.
   * @returns `count`, or the interval's width when smaller.
   */
  const clamp = (count: number): number =>
    blocks < BigInt(count) ? Number(blocks) : count;
  const density = context.density(interval.lane) ?? interval.estimate;
  if (interval.fits) {
    return { count: 1, sized: false, spread: false };
  }
  if (!interval.over) {
    const expected = density === undefined ? 0 : density * Number(blocks);
    return {
      count: clamp(Math.max(1, Math.ceil(expected / context.target))),
      sized: false,
      spread: false,
    };
  }
  const heaviest = context.heaviest?.(interval.lane);
  if (density === undefined || interval.sized) {
    return { count: clamp(2), sized: false, spread: true };
  }
  const expected = Math.max(context.cap + 1, density * Number(blocks));
  let count = Math.max(2, Math.ceil(expected / context.target));
  const clustered = heaviest !== undefined && heaviest * 10 >= context.cap;
  if (clustered) {
    count = Math.max(count, Math.ceil((context.cap + 1) / heaviest));
  }
  return {
    count: clamp(count),
    sized: clustered,
    spread: context.spread ?? false,
  };
}

/**
 * Plan one round trip: take the pending intervals in block order and give
 * each the calls it needs (`piecesNeeded`) while slots last (an interval that
 * needs more than the slots left is cut into the slots left; intervals after
 * it stay pending); then give the slots left, one at a time, to the refused
 * interval whose pieces are widest, so that every call of the round narrows
 * what is still unknown (a range refused as a whole is cut into the round's
 * calls; two refused ranges end up cut to pieces of about the same width). A
 * range never refused is never fanned out on speculation: a query whose
 * answer fits in one reply costs one call.
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
  } & Omit<Need, 'count'>;
  const chosen: Choice[] = [];
  const rest: Interval[] = [];
  let slots = Math.max(1, context.slots);
  for (const interval of pending) {
    if (slots === 0) {
      rest.push(interval);
      continue;
    }
    const need = piecesNeeded(interval, context);
    if (need.count <= slots) {
      chosen.push({ interval, ...need });
      slots -= need.count;
      continue;
    }
    // More calls needed than are left this round: the whole interval in the calls left (a
    // refusal narrows it further), so no part of it waits for a later round untried.
    chosen.push({ interval, count: slots, sized: need.sized, spread: false });
    slots = 0;
  }
  // Spare calls go, one at a time, to the refused interval whose pieces are widest: every call
  // of the budget narrows what is still unknown, and the refused ranges end up cut to about the
  // same width.
  for (; slots > 0; slots -= 1) {
    let widest: Choice | undefined;
    let widestSize = 0n;
    for (const choice of chosen) {
      const count = BigInt(choice.count);
      const size = (width(choice.interval) + count - 1n) / count;
      if (
        choice.spread &&
        count < width(choice.interval) &&
        size > widestSize
      ) {
        widest = choice;
        widestSize = size;
      }
    }
    if (!widest) {
      break;
    }
    widest.count += 1;
  }
  return {
    pieces: chosen.flatMap((choice) =>
      splitEven(choice.interval, choice.count, choice.sized),
    ),
    rest,
  };
}
