import type { Hex } from 'viem';

import type { LaneEnd } from './recoveryTypes';
import type { EntryPointVersion } from '../../accounts/erc4337';
import type { DerivationScheme } from '../../state/schema';

/**
 * The planning side of *Find my accounts*, pure: the bounds, the gap rule of one search lane (one
 * entropy source and salt scheme), and how probes are packed into JSON-RPC batches.
 */

/**
 * The bounds of one *Find my accounts* search (README, "Find my accounts"):
 * - `gapLimit`: a lane ends after this many unused indices in a row (BIP-44's gap limit, 20);
 * - `window`: indices searched per lane per round (one batch per chain covers a window of an EOA
 *   lane and a smart-account lane: 20 indices × 2 kinds × 2 reads = 80 calls);
 * - `maxIndex`: at most this many indices per lane (0 to 199);
 * - `maxCalls`: at most this many JSON-RPC calls in the whole search, all chains together;
 * - `maxMilliseconds`: no new round starts after this long (MetaMask ends a snap request after
 *   about 60 s);
 * - `maxCallsPerBatch`: at most this many calls in one JSON-RPC batch (a round is split above it);
 * - `callTimeoutMs`: one HTTP attempt waits at most this long for its reply (a chain that does not
 *   answer in time is retried, then counted as not answering).
 *
 * `maxCalls` and `maxMilliseconds` hold inside a round too: every HTTP attempt, retries included,
 * is paid from one budget before it is sent and cut at the deadline (the transport's CallBudget).
 */
export const RECOVERY_LIMITS = {
  gapLimit: 20,
  window: 20,
  maxIndex: 200,
  maxCalls: 4000,
  maxMilliseconds: 45_000,
  maxCallsPerBatch: 100,
  callTimeoutMs: 10_000,
} as const;

/**
 * One lane of the search: indices 0, 1, 2, … of one entropy source and salt scheme, fed in order.
 * An index is *found* when it is used and fewer than `gapLimit` unused indices precede it in a
 * row since the last found one (or since index 0); the lane ends at the `gapLimit`-th unused index
 * in a row, and results past that point are ignored, even if used.
 */
export class GapScan {
  readonly #gapLimit: number;

  readonly #maxIndex: number;

  /** The next index to record. */
  #next = 0;

  /** The last index found used, -1 before any. */
  #lastUsed = -1;

  #end: LaneEnd | undefined;

  /**
   * @param gapLimit - Unused indices in a row that end the lane (≥ 1).
   * @param maxIndex - Indices the lane may search at most (≥ 1).
   */
  constructor(gapLimit: number, maxIndex: number) {
    this.#gapLimit = gapLimit;
    this.#maxIndex = maxIndex;
  }

  /** @returns Why the lane ended, or undefined while it goes on. */
  get end(): LaneEnd | undefined {
    return this.#end;
  }

  /** @returns How many indices were recorded (searched): 0 to `searched - 1`. */
  get searched(): number {
    return this.#next;
  }

  /**
   * The next indices to search.
   *
   * @param size - The window size.
   * @returns Up to `size` consecutive indices from the next one (fewer at `maxIndex`), none once ended.
   */
  window(size: number): number[] {
    if (this.#end !== undefined) {
      return [];
    }
    const last = Math.min(this.#next + size, this.#maxIndex);
    return Array.from(
      { length: last - this.#next },
      (_, at) => this.#next + at,
    );
  }

  /**
   * Record whether the next index was used.
   *
   * @param index - The index (must be the next one).
   * @param used - Whether any chain saw it used.
   * @returns True when the index counts as found.
   * @throws RangeError when `index` is not the next index.
   */
  record(index: number, used: boolean): boolean {
    if (this.#end !== undefined) {
      return false;
    }
    if (index !== this.#next) {
      throw new RangeError(`expected index ${this.#next}, got ${index}`);
    }
    this.#next = index + 1;
    if (used) {
      this.#lastUsed = index;
    } else if (index - this.#lastUsed >= this.#gapLimit) {
      this.#end = 'gap';
      return false;
    }
    if (this.#next >= this.#maxIndex) {
      this.#end = 'indexLimit';
    }
    return used;
  }

  /**
   * End the lane early (a bound of the whole search, or no chain answers).
   *
   * @param end - Why.
   */
  stop(end: LaneEnd): void {
    this.#end ??= end;
  }
}

/**
 * Split items into consecutive groups of at most `maxCalls` calls, an item never split.
 *
 * @param items - The items, in order.
 * @param callsOf - How many calls an item takes (at most `maxCalls`).
 * @param maxCalls - The calls a group may hold.
 * @returns The groups, in order; none for no items.
 */
export function packBatches<Item>(
  items: readonly Item[],
  callsOf: (item: Item) => number,
  maxCalls: number,
): Item[][] {
  const groups: Item[][] = [];
  let current: Item[] = [];
  let calls = 0;
  for (const item of items) {
    const size = callsOf(item);
    if (current.length > 0 && calls + size > maxCalls) {
      groups.push(current);
      current = [];
      calls = 0;
    }
    current.push(item);
    calls += size;
  }
  if (current.length > 0) {
    groups.push(current);
  }
  return groups;
}

/** The EntryPoint versions whose SimpleAccount *Find my accounts* searches, v0.6 first. */
export const SEARCHED_VERSIONS: readonly EntryPointVersion[] = [
  '0.6',
  '0.7',
  '0.8',
];

/**
 * The EntryPoint versions a lane's smart accounts may run on: every version for the
 * `erc4337-owner` salts; v0.6 only for the `legacy` salts (state version 1, which had no other).
 *
 * @param scheme - The lane's salt scheme.
 * @returns The versions.
 */
export function searchedVersions(
  scheme: DerivationScheme,
): readonly EntryPointVersion[] {
  return scheme === 'legacy' ? ['0.6'] : SEARCHED_VERSIONS;
}

/** A SimpleAccountFactory deployed on a chain, with its implementation. */
export type Factory = {
  /** The EntryPoint version it serves. */
  version: EntryPointVersion;
  /** Its address. */
  accountFactory: Hex;
  /** Its `accountImplementation()` (pinned for a known factory). */
  implementation: Hex;
};

/** An address seen used: the chains that saw it, and a smart account's EntryPoint version. */
export type UsedAddress = {
  /** The address. */
  address: Hex;
  /** The chains that saw it used, in configuration order. */
  scopes: string[];
  /** A smart account's EntryPoint version. */
  version?: EntryPointVersion;
};
