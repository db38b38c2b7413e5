import type { Hex } from 'viem';

import type { Key } from '../derivedKeys';
import {
  GapScan,
  packBatches,
  RECOVERY_LIMITS,
  SEARCHED_VERSIONS,
  searchedVersions,
} from './recoveryPlan';
import type { Factory, UsedAddress } from './recoveryPlan';
import type {
  EntropySource,
  RecoveryProgress,
  SearchedLane,
} from './recoveryTypes';
import {
  contractsOf,
  ownerAccountAddress,
  readAccountImplementations,
} from '../../accounts/erc4337';
import type { ChainConfig, EntryPointVersion } from '../../accounts/erc4337';
import {
  activityCalls,
  CALLS_PER_PROBE,
  countingFetch,
  createRpcClient,
  readActivity,
} from '../../chain';
import type { ActivityProbe, RequestCount, RpcClient } from '../../chain';
import type { DerivationScheme } from '../../state/schema';

/**
 * The search of *Find my accounts*: lanes (entropy source × salt scheme) searched in rounds, a
 * window of indices per lane per round, every chain asked in batches (see RECOVERY_LIMITS), the
 * gap rule applied per lane (GapScan). It derives keys and reads chains; it saves nothing.
 */

/** The two kinds of account a derived key can back. */
export type FoundKind = 'eoa' | 'smart';

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
  /** The clock, in milliseconds. */
  now: () => number;
  /** Called after each round, per lane searched in it. */
  onProgress?: (progress: RecoveryProgress) => Promise<void> | void;
  /** The bounds (default RECOVERY_LIMITS). */
  limits?: typeof RECOVERY_LIMITS;
};

/** One lane: a source and scheme, the kinds its keys may back, and its gap scan. */
type Lane = {
  /** The entropy source. */
  source: EntropySource;
  /** What `snap_getEntropy` takes as `source` (undefined: the primary phrase). */
  sourceArg: string | undefined;
  /** The salt scheme. */
  scheme: DerivationScheme;
  /** The kinds of account its keys may back. */
  kinds: FoundKind[];
  /** Its gap scan. */
  scan: GapScan;
};

/** A chain being asked: its config, its client and its factories deployed there (v0.6 first). */
type Reader = {
  /** The chain config. */
  config: ChainConfig;
  /** Its RPC client (requests counted). */
  client: RpcClient;
  /** Its SimpleAccountFactories deployed there, v0.6 first. */
  factories: Factory[];
  /** Whether it failed to answer (left out from then on). */
  failed: boolean;
};

/** One address of one index of one lane, and its probe. */
type Item = {
  /** The lane. */
  lane: Lane;
  /** The derivation index. */
  index: number;
  /** EOA or smart account. */
  kind: FoundKind;
  /** What to read. */
  probe: ActivityProbe;
  /** A smart account's EntryPoint version. */
  version?: EntryPointVersion;
};

/**
 * The factories a lane's smart accounts are searched with on one chain.
 *
 * @param reader - The chain.
 * @param lane - The lane.
 * @returns The deployed factories of the lane's versions.
 */
function laneFactories(reader: Reader, lane: Lane): Factory[] {
  const versions = searchedVersions(lane.scheme);
  return reader.factories.filter((factory) =>
    versions.includes(factory.version),
  );
}

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
 * it would pass `maxCalls`.
 *
 * @param input - Sources, chains, key derivation, counters, clock, progress.
 * @returns The found accounts, what each lane searched, the chains that failed.
 */
export async function searchAccounts(
  input: SearchInput,
): Promise<SearchOutcome> {
  const limits = input.limits ?? RECOVERY_LIMITS;
  const started = input.now();
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
    input.chains.map(async (config): Promise<Reader> => {
      const client = createRpcClient({
        url: config.rpcUrl,
        fetch: countingFetch(input.count),
      });
      const wanted = SEARCHED_VERSIONS.map((version) => ({
        version,
        accountFactory: contractsOf(config, version).accountFactory as Hex,
      }));
      try {
        // every version's factory in one batched round trip
        const implementations = await readAccountImplementations(
          client,
          wanted.map(({ accountFactory }) => accountFactory),
        );
        const factories = wanted.flatMap((factory, at) => {
          const implementation = implementations[at];
          return implementation ? [{ ...factory, implementation }] : [];
        });
        return { config, client, factories, failed: false };
      } catch {
        return { config, client, factories: [], failed: true };
      }
    }),
  );
  const found: FoundAccount[] = [];
  for (;;) {
    const active = lanes.filter((lane) => lane.scan.end === undefined);
    if (active.length === 0) {
      break;
    }
    const live = readers.filter((reader) => !reader.failed);
    const stop = stopReason(input, limits, started, live, active);
    if (stop) {
      active.forEach((lane) => lane.scan.stop(stop));
      break;
    }
    const windows = active.map((lane) => ({
      lane,
      indices: lane.scan.window(limits.window),
    }));
    const keys = await deriveWindows(input, windows);
    const used = await askChains(live, windows, keys, limits);
    if (live.every((reader) => reader.failed)) {
      active.forEach((lane) => lane.scan.stop('chainError'));
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
  };
}

/**
 * Why no further round may start, if one may not.
 *
 * @param input - The search input (clock, counters).
 * @param limits - The bounds.
 * @param started - When the search started (ms).
 * @param live - The chains still answering.
 * @param active - The lanes still going.
 * @returns `timeLimit`, `callLimit` or `chainError`, or undefined to go on.
 */
function stopReason(
  input: SearchInput,
  limits: typeof RECOVERY_LIMITS,
  started: number,
  live: Reader[],
  active: Lane[],
): 'timeLimit' | 'callLimit' | 'chainError' | undefined {
  if (live.length === 0) {
    return 'chainError';
  }
  if (input.now() - started >= limits.maxMilliseconds) {
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
  return input.count.calls + planned > limits.maxCalls
    ? 'callLimit'
    : undefined;
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
 * Ask every live chain about every address of the windows, in batches, all in parallel. A chain
 * whose batch fails is marked failed (its other answers of this round are dropped).
 *
 * @param live - The chains still answering.
 * @param windows - Each lane and its indices.
 * @param keys - The keys by slot.
 * @param limits - The bounds (window, batch size).
 * @returns For each `<slot>:<kind>:<address>` seen used: the address, the chains that saw it used
 * and (a smart account) its EntryPoint version.
 */
async function askChains(
  live: Reader[],
  windows: { lane: Lane; indices: number[] }[],
  keys: Map<string, Key>,
  limits: typeof RECOVERY_LIMITS,
): Promise<Map<string, UsedAddress>> {
  const used = new Map<string, UsedAddress>();
  const answers = await Promise.all(
    live.map(async (reader) => {
      const items = windows.flatMap(({ lane, indices }) =>
        indices.flatMap((index) =>
          probesOf(reader, lane, index, keys.get(slot(lane, index)) as Key),
        ),
      );
      const batches = packBatches(
        items,
        () => CALLS_PER_PROBE,
        limits.maxCallsPerBatch,
      );
      try {
        const flags = await Promise.all(
          batches.map(async (batch) => {
            const probes = batch.map((item) => item.probe);
            return readActivity(
              probes,
              await reader.client.batch(activityCalls(probes)),
              reader.client.origin,
            );
          }),
        );
        return { reader, items, flags: flags.flat() };
      } catch {
        reader.failed = true;
        return { reader, items, flags: [] };
      }
    }),
  );
  for (const { reader, items, flags } of answers) {
    if (reader.failed) {
      continue;
    }
    items.forEach((item, at) => {
      if (flags[at]) {
        const id = `${slot(item.lane, item.index)}:${item.kind}:${item.probe.address}`;
        const entry = used.get(id) ?? {
          address: item.probe.address,
          scopes: [],
          ...(item.version ? { version: item.version } : {}),
        };
        entry.scopes.push(reader.config.scope);
        used.set(id, entry);
      }
    });
  }
  return used;
}

/**
 * The probes of one index of one lane on one chain: the EOA, and the smart account of each
 * version whose factory the chain has (see laneFactories).
 *
 * @param reader - The chain.
 * @param lane - The lane.
 * @param index - The index.
 * @param key - Its key.
 * @returns The items to ask.
 */
function probesOf(reader: Reader, lane: Lane, index: number, key: Key): Item[] {
  return lane.kinds.flatMap((kind): Item[] => {
    if (kind === 'eoa') {
      return [
        {
          lane,
          index,
          kind,
          probe: { address: key.address as Hex, kind: 'eoa' },
        },
      ];
    }
    return laneFactories(reader, lane).map(
      ({ version, accountFactory, implementation }) => ({
        lane,
        index,
        kind,
        version,
        probe: {
          address: ownerAccountAddress(
            accountFactory,
            implementation,
            key.address as Hex,
            version,
          ),
          kind: 'contract',
        },
      }),
    );
  });
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

/**
 * The id of one index of one lane.
 *
 * @param lane - The lane.
 * @param index - The index.
 * @returns `<source id>:<scheme>:<index>`.
 */
function slot(lane: Lane, index: number): string {
  return `${lane.source.id}:${lane.scheme}:${index}`;
}
