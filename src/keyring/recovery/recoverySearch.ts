import type { Hex } from 'viem';

import type { Key } from '../derivedKeys';
import { GapScan, RECOVERY_LIMITS } from './recoveryPlan';
import { askChains, laneFactories, openReader, slot } from './recoveryReads';
import type { FoundKind, Lane, Reader } from './recoveryReads';
import type {
  EntropySource,
  RecoveryProgress,
  SearchedLane,
} from './recoveryTypes';
import type { ChainConfig, EntryPointVersion } from '../../accounts/erc4337';
import { CALLS_PER_PROBE } from '../../chain';
import type { CallBudget, RequestCount } from '../../chain';
import type { DerivationScheme } from '../../state/schema';

/**
 * The search of *Find my accounts*: lanes (entropy source × salt scheme) searched in rounds, a
 * window of indices per lane per round, every chain asked in batches (see RECOVERY_LIMITS), the
 * gap rule applied per lane (GapScan). Every attempt, retries included, is paid from one CallBudget
 * (calls and deadline) before it is sent, so the bounds hold inside a round too. It derives keys and reads chains; it saves nothing.
 */

/** A used account the search found (its key stays in memory, never in a report). */
export type FoundAccount = {
  /** The entropy source searched. */
  source: EntropySource;
  /** What `snap_getEntropy` takes as `source`: undefined for the primary phrase. */
  sourceArg: string | undefined;
  /** The salt scheme. */
  scheme: DerivationScheme;
  /** The derivation index. */
  index: number;
  /** EOA or smart account. */
  kind: FoundKind;
  /** The derived key (the EOA's, or the smart account's owner). */
  key: Key;
  /** The used address: the EOA's, or the smart account's counterfactual one. */
  address: Hex;
  /** For a smart account: the chains that saw it used, in configuration order. */
  usedOn: string[];
  /** For a smart account: its EntryPoint version (the SimpleAccount release whose address was used). */
  entryPointVersion?: EntryPointVersion;
};

/** What the search returns. */
export type SearchOutcome = {
  /** Used accounts, by source, then scheme, then index, then kind (EOA first). */
  found: FoundAccount[];
  /** One entry per lane. */
  searched: SearchedLane[];
  /** The chains that failed to answer. */
  unreachable: string[];
  /** Those of them that answered at least one round before they stopped. */
  interrupted: string[];
};

/** What the search works with. */
export type SearchInput = {
  /** The entropy sources to search, primary first. */
  sources: EntropySource[];
  /** The configured chains (at least one). */
  chains: ChainConfig[];
  /** Derives a key (snap_getEntropy); source undefined: the primary phrase. */
  deriveKey: (
    index: number,
    scheme: DerivationScheme,
    source?: string,
  ) => Promise<Key>;
  /** Where round trips and calls are added up. */
  count: RequestCount;
  /** Called after each round, per lane searched in it. */
  onProgress?: (progress: RecoveryProgress) => Promise<void> | void;
  /** The bounds (default RECOVERY_LIMITS). */
  limits?: typeof RECOVERY_LIMITS;
};

/**
 * Search every lane for used accounts.
 *
 * Lanes: for each source, `eoa` (EOAs) and `erc4337-owner` (smart accounts); for the primary
 * source also `legacy` (state version 1 salts; either kind). Each round takes the next window of
 * every lane still going, derives its keys, and asks each chain in batches of at most
 * `maxCallsPerBatch` calls (all chains and batches in parallel): for an EOA its nonce and balance,
 * for a smart account (its counterfactual address with that chain's factory of each EntryPoint
 * version, v0.6, v0.7 and v0.8 (`contractsOf`: the chain's own or the canonical one), computed
 * locally; none for a factory not deployed there; the `legacy` salts: v0.6 only) its code and
 * balance. An index is used when any chain sees
 * any of its addresses used. A chain that fails is left out from then on (`unreachable`); when
 * all have failed the lanes end with `chainError`. No round starts past `maxMilliseconds` or when
 * it would pass `maxCalls`; every attempt (retries included) is paid from the search's CallBudget
 * before it is sent and cut at its deadline, and a round a bound cuts is dropped (its lanes end
 * with that bound).
 *
 * @param input - Sources, chains, key derivation, counters, clock, progress.
 * @returns The found accounts, what each lane searched, the chains that failed.
 */
export async function searchAccounts(
  input: SearchInput,
): Promise<SearchOutcome> {
  const limits = input.limits ?? RECOVERY_LIMITS;
  // every attempt to every chain, retries included, is paid from here (RECOVERY_LIMITS)
  const budget: CallBudget = {
    calls: limits.maxCalls,
    deadline: Date.now() + limits.maxMilliseconds,
  };
  const lanes = input.sources.flatMap((source) => {
    const sourceArg = source.primary ? undefined : source.id;
    /**
     * A lane of this source.
     *
     * @param scheme - Its salt scheme.
     * @param kinds - The kinds of account its keys may back.
     * @returns The lane, not searched yet.
     */
    const lane = (scheme: DerivationScheme, kinds: FoundKind[]): Lane => ({
      source,
      sourceArg,
      scheme,
      kinds,
      scan: new GapScan(limits.gapLimit, limits.maxIndex),
    });
    return [
      lane('eoa', ['eoa']),
      lane('erc4337-owner', ['smart']),
      ...(source.primary ? [lane('legacy', ['eoa', 'smart'])] : []),
    ];
  });
  const readers = await Promise.all(
    input.chains.map(async (config) =>
      openReader(config, input.count, limits, budget),
    ),
  );
  const found: FoundAccount[] = [];
  for (;;) {
    const active = lanes.filter((lane) => lane.scan.end === undefined);
    if (active.length === 0) {
      break;
    }
    const live = readers.filter((reader) => !reader.failed);
    const stop = stopReason(budget, limits, live, active);
    if (stop) {
      active.forEach((lane) => lane.scan.stop(stop));
      break;
    }
    const windows = active.map((lane) => ({
      lane,
      indices: lane.scan.window(limits.window),
    }));
    const keys = await deriveWindows(input, windows);
    const { used, limit } = await askChains(
      live,
      windows,
      keys,
      limits,
      budget,
    );
    if (limit || live.every((reader) => reader.failed)) {
      // a round cut by a bound is not recorded: its indices count as not searched
      active.forEach((lane) => lane.scan.stop(limit ?? 'chainError'));
      break;
    }
    for (const { lane, indices } of windows) {
      for (const index of indices) {
        const key = keys.get(slot(lane, index)) as Key;
        const hits = lane.kinds.flatMap((kind) =>
          [...used.entries()]
            .filter(([id]) => id.startsWith(`${slot(lane, index)}:${kind}:`))
            .map(([, on]) => ({ kind, on })),
        );
        if (lane.scan.record(index, hits.length > 0)) {
          for (const { kind, on } of hits) {
            found.push({
              source: lane.source,
              sourceArg: lane.sourceArg,
              scheme: lane.scheme,
              index,
              kind,
              key,
              address: on.address,
              usedOn: on.scopes,
              ...(on.version ? { entryPointVersion: on.version } : {}),
            });
          }
        }
      }
      await report(input, {
        source: lane.source.id,
        scheme: lane.scheme,
        index: lane.scan.searched - 1,
        found: found.length,
      });
    }
  }
  return {
    found,
    searched: lanes.map((lane) => ({
      source: lane.source.id,
      scheme: lane.scheme,
      indices: lane.scan.searched,
      end: lane.scan.end ?? 'gap',
    })),
    unreachable: readers
      .filter((reader) => reader.failed)
      .map((reader) => reader.config.scope),
    interrupted: readers
      .filter((reader) => reader.failed && reader.answered)
      .map((reader) => reader.config.scope),
  };
}

/**
 * Why no further round may start, if one may not.
 *
 * @param budget - What the search may still spend (calls, deadline).
 * @param limits - The bounds.
 * @param live - The chains still answering.
 * @param active - The lanes still going.
 * @returns `timeLimit`, `callLimit` or `chainError`, or undefined to go on.
 */
function stopReason(
  budget: CallBudget,
  limits: typeof RECOVERY_LIMITS,
  live: Reader[],
  active: Lane[],
): 'timeLimit' | 'callLimit' | 'chainError' | undefined {
  if (live.length === 0) {
    return 'chainError';
  }
  if (Date.now() >= budget.deadline) {
    return 'timeLimit';
  }
  const planned =
    live.reduce(
      (sum, reader) =>
        sum +
        active.reduce(
          (calls, lane) =>
            calls +
            lane.kinds.reduce(
              (probes, kind) =>
                probes +
                (kind === 'eoa' ? 1 : laneFactories(reader, lane).length),
              0,
            ),
          0,
        ),
      0,
    ) *
    limits.window *
    CALLS_PER_PROBE;
  return planned > budget.calls ? 'callLimit' : undefined;
}

/**
 * Derive the keys of every lane's window (snap_getEntropy), all requests at once.
 *
 * @param input - The search input (deriveKey).
 * @param windows - Each lane and its indices.
 * @returns The keys by `slot(lane, index)`.
 */
async function deriveWindows(
  input: SearchInput,
  windows: { lane: Lane; indices: number[] }[],
): Promise<Map<string, Key>> {
  const slots = windows.flatMap(({ lane, indices }) =>
    indices.map((index) => ({ lane, index })),
  );
  const keys = await Promise.all(
    slots.map(async ({ lane, index }) =>
      input.deriveKey(index, lane.scheme, lane.sourceArg),
    ),
  );
  return new Map(
    slots.map(({ lane, index }, at) => [slot(lane, index), keys[at]]),
  );
}

/**
 * Tell the caller where the search is; what the callback throws is ignored.
 *
 * @param input - The search input (onProgress).
 * @param progress - The progress.
 */
async function report(
  input: SearchInput,
  progress: RecoveryProgress,
): Promise<void> {
  try {
    await input.onProgress?.(progress);
  } catch {
    // the page may be gone; the search goes on
  }
}
