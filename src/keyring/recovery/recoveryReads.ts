import type { Hex } from 'viem';

import type { Key } from '../derivedKeys';
import {
  packBatches,
  RECOVERY_LIMITS,
  SEARCHED_VERSIONS,
  searchedVersions,
} from './recoveryPlan';
import type { Factory, GapScan, UsedAddress } from './recoveryPlan';
import type { EntropySource } from './recoveryTypes';
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
  TransportError,
} from '../../chain';
import type {
  ActivityProbe,
  CallBudget,
  RequestCount,
  RpcClient,
} from '../../chain';
import type { DerivationScheme } from '../../state/schema';

/**
 * The chain side of *Find my accounts*' search (recoverySearch.ts): a reader per chain, the
 * probes of each index, and one round's batched reads, paid from the search's CallBudget.
 */

/** The two kinds of account a derived key can back. */
export type FoundKind = 'eoa' | 'smart';

/** One lane: a source and scheme, the kinds its keys may back, and its gap scan. */
export type Lane = {
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
export type Reader = {
  /** The chain config. */
  config: ChainConfig;
  /** Its RPC client (requests counted). */
  client: RpcClient;
  /** Its SimpleAccountFactories deployed there, v0.6 first. */
  factories: Factory[];
  /** Whether it failed to answer (left out from then on). */
  failed: boolean;
  /** Whether it answered a round. */
  answered?: boolean;
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
export function laneFactories(reader: Reader, lane: Lane): Factory[] {
  const versions = searchedVersions(lane.scheme);
  return reader.factories.filter((factory) =>
    versions.includes(factory.version),
  );
}

/**
 * Start asking one chain: its client (requests counted, every attempt paid from the search's
 * budget, `callTimeoutMs` per attempt) and the factories of each searched EntryPoint version
 * deployed there, read in one batched round trip; a chain that does not answer is `failed`.
 *
 * @param config - The chain config.
 * @param count - Where round trips and calls are added up.
 * @param limits - The bounds.
 * @param budget - What the search may still spend.
 * @returns The reader.
 */
export async function openReader(
  config: ChainConfig,
  count: RequestCount,
  limits: typeof RECOVERY_LIMITS,
  budget: CallBudget,
): Promise<Reader> {
  const client = createRpcClient({
    url: config.rpcUrl,
    fetch: countingFetch(count),
    timeoutMs: limits.callTimeoutMs,
    budget,
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
}

/**
 * Ask every live chain about every address of the windows, in batches, all in parallel. A chain
 * whose batch fails is marked failed (its other answers of this round are dropped), unless the
 * search's budget stopped it (no call or time left): then the round is cut (`limit`).
 *
 * @param live - The chains still answering.
 * @param windows - Each lane and its indices.
 * @param keys - The keys by slot.
 * @param limits - The bounds (window, batch size).
 * @param budget - What the search may still spend.
 * @returns `used`: for each `<slot>:<kind>:<address>` seen used, the address, the chains that saw
 * it used and (a smart account) its EntryPoint version; `limit`: the bound that cut the round.
 */
export async function askChains(
  live: Reader[],
  windows: { lane: Lane; indices: number[] }[],
  keys: Map<string, Key>,
  limits: typeof RECOVERY_LIMITS,
  budget: CallBudget,
): Promise<{
  used: Map<string, UsedAddress>;
  limit?: 'timeLimit' | 'callLimit';
}> {
  const used = new Map<string, UsedAddress>();
  let limit: 'timeLimit' | 'callLimit' | undefined;
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
        reader.answered = true;
        return { reader, items, flags: flags.flat() };
      } catch (error) {
        if (Date.now() >= budget.deadline) {
          limit = 'timeLimit';
        } else if (error instanceof TransportError && error.kind === 'budget') {
          limit ??= 'callLimit';
        } else {
          reader.failed = true;
        }
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
  return { used, ...(limit ? { limit } : {}) };
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
 * The id of one index of one lane.
 *
 * @param lane - The lane.
 * @param index - The index.
 * @returns `<source id>:<scheme>:<index>`.
 */
export function slot(lane: Lane, index: number): string {
  return `${lane.source.id}:${lane.scheme}:${index}`;
}
