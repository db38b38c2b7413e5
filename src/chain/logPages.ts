import type { Piece } from './logPlan';
import { sortUniqueLogs } from './logReplies';
import type { RpcLog } from './types';

/**
 * Numeric order of block numbers.
 *
 * @param a - A block number.
 * @param b - Another block number.
 * @returns -1, 0 or 1, as `Array.prototype.sort` expects.
 */
const byBlock = (a: bigint, b: bigint): number => {
  if (a === b) {
    return 0;
  }
  return a < b ? -1 : 1;
};

/**
 * The logs fetched so far for one eth_getLogs query, released in block order:
 * pieces complete in any order and lane, and logs are given out only up to the
 * last block every lane has complete from the start of the range (so no later
 * page can hold an earlier log). Also tracks the density seen per lane.
 */
export class LogPages {
  readonly #from: bigint;

  readonly #to: bigint;

  /** Per lane: the ranges completed. */
  readonly #done: {
    /** First block of the range. */
    from: bigint;
    /** Last block of the range. */
    to: bigint;
  }[][];

  /** Per lane: blocks and logs fetched, for the density. */
  readonly #seen: {
    /** Blocks fetched. */
    blocks: number;
    /** Logs fetched. */
    logs: number;
  }[];

  /** Per lane: the most logs seen in one block. */
  readonly #heaviest: number[];

  /** Ends of completed ranges: where pages are cut. */
  readonly #ends = new Set<bigint>();

  #held: RpcLog[] = [];

  /**
   * @param lanes - The number of sub-filters.
   * @param from - The first block of the query.
   * @param to - The last block of the query (the latest one for a `pending` end).
   */
  constructor(lanes: number, from: bigint, to: bigint) {
    this.#from = from;
    this.#to = to;
    this.#done = Array.from({ length: lanes }, () => []);
    this.#seen = Array.from({ length: lanes }, () => ({ blocks: 0, logs: 0 }));
    this.#heaviest = Array.from({ length: lanes }, () => 0);
  }

  /**
   * Record the logs of a completed piece.
   *
   * @param piece - The lane and block range fetched.
   * @param logs - Its logs (already checked).
   */
  complete(piece: Piece, logs: RpcLog[]): void {
    this.#done[piece.lane].push({ from: piece.from, to: piece.to });
    this.#seen[piece.lane].blocks += Number(piece.to - piece.from + 1n);
    this.#seen[piece.lane].logs += logs.length;
    this.#ends.add(piece.to);
    const perBlock = new Map<string, number>();
    for (const log of logs) {
      this.#held.push(log);
      const block = String(log.blockNumber);
      perBlock.set(block, (perBlock.get(block) ?? 0) + 1);
    }
    for (const count of perBlock.values()) {
      this.#heaviest[piece.lane] = Math.max(this.#heaviest[piece.lane], count);
    }
  }

  /**
   * The most logs seen in one block of a lane (pending logs count as one block).
   *
   * @param lane - The lane.
   * @returns The count, or undefined before any log was seen there.
   */
  heaviest(lane: number): number | undefined {
    return this.#heaviest[lane] === 0 ? undefined : this.#heaviest[lane];
  }

  /**
   * Logs per block seen in a lane.
   *
   * @param lane - The lane.
   * @returns The density, or undefined before anything was fetched there.
   */
  density(lane: number): number | undefined {
    const { blocks, logs } = this.#seen[lane];
    return blocks === 0 ? undefined : logs / blocks;
  }

  /**
   * The last block every lane has complete from the start of the range.
   *
   * @returns The block number (`from - 1` when none).
   */
  #frontier(): bigint {
    let lowest = this.#to;
    for (const ranges of this.#done) {
      ranges.sort((a, b) => byBlock(a.from, b.from));
      let reach = this.#from - 1n;
      for (const range of ranges) {
        if (range.from > reach + 1n) {
          break;
        }
        reach = range.to > reach ? range.to : reach;
      }
      lowest = reach < lowest ? reach : lowest;
    }
    return lowest;
  }

  /**
   * Give out the logs up to the frontier, sorted and de-duplicated, cut into
   * pages at the ends of completed ranges. Once the whole range is complete,
   * everything left: pending logs (no block number) and, with a `pending`
   * end, logs of blocks mined meanwhile, last.
   *
   * @yields Non-empty pages in block order.
   */
  *release(): Generator<RpcLog[]> {
    const limit = this.#frontier();
    const last = limit >= this.#to;
    const ready: RpcLog[] = [];
    const kept: RpcLog[] = [];
    for (const log of this.#held) {
      (last || (log.blockNumber && BigInt(log.blockNumber) <= limit)
        ? ready
        : kept
      ).push(log);
    }
    this.#held = kept;
    const cuts = [...this.#ends].filter((end) => end <= limit).sort(byBlock);
    let page: RpcLog[] = [];
    let cut = 0;
    for (const log of sortUniqueLogs(ready)) {
      const block = log.blockNumber ? BigInt(log.blockNumber) : this.#to + 1n;
      while (cut < cuts.length && block > cuts[cut]) {
        cut += 1;
        if (page.length > 0) {
          yield page;
          page = [];
        }
      }
      page.push(log);
    }
    if (page.length > 0) {
      yield page;
    }
  }
}
