import { numberToHex } from 'viem';
import type { Hex } from 'viem';

import { checkedLatest, HEAD_LAG, nextHead } from './activityHeads';
import {
  firstUseBlock,
  historyEntryPoints,
  readOperationEvents,
  readUndoReceipts,
} from '../accounts/erc4337/history';
import { readTransfers } from '../accounts/transfers';
import { createRpcClient } from '../chain';
import type { RpcClient } from '../chain';
import type { Settings } from '../settings';
import type {
  AccountRecord,
  ActivityEntry,
  ActivityLog,
  KeyringState,
} from '../state/schema';
import type { StateStore } from '../state/store';

/** Entries kept per account and chain (the newest; pending ones first). */
export const ACTIVITY_KEPT = 50;

/**
 * Blocks read per account and chain each time the page is opened: an account whose history is
 * longer (or a provider that does not serve old state, so the first use cannot be found) is read
 * on, from where the last read stopped, at the next opening.
 */
export const ACTIVITY_BLOCKS_PER_READ = 5_000_000n;

/** Undo transactions whose receipts are read per account and chain each time (the newest pending). */
const RECEIPTS_PER_READ = 8;

/** Each request of a read waits at most this long for its reply (one retry), ms. */
const READ_TIMEOUT_MS = 8_000;

/**
 * The page waits at most this long for the reads, ms: a chain that is slow to answer does not hold
 * the page; its read goes on and is saved when it ends (shown at the next rendering).
 */
export const ACTIVITY_WAIT_MS = 12_000;

/** One chain's part of an account's Activity list, as the page shows it. */
export type ChainActivity = {
  /** The chain, CAIP-2. */
  scope: string;
  /** Newest first (pending first), at most {@link ACTIVITY_KEPT}. */
  entries: ActivityEntry[];
  /** The last block read (hex), absent before the first read. */
  readTo?: string;
  /** Blocks after `readTo` are still to read (the read was bounded). */
  behind: boolean;
  /** The last read failed (the chain did not answer): the entries are those read before. */
  failed: boolean;
  /**
   * Whether the last read listed ETH sent and received (false: the provider does not serve the
   * past balances that finds them; user operations are listed still).
   */
  transfers: boolean;
};

/** What a read of one account on one chain found, applied to the stored log in one write. */
type ReadResult = {
  /** Account id. */
  id: string;
  /** Chain. */
  scope: string;
  /** The operations found, oldest first. */
  found: ActivityEntry[];
  /** Undo transactions now mined, by hash. */
  mined: Map<string, ActivityEntry>;
  /** The next block to read. */
  next: bigint;
  /** The chain's latest block number the read accepted. */
  latest: bigint;
};

/**
 * Put an entry the snap just sent (a user operation, an upgrade, an undo) at the top of its
 * account's Activity list as pending, in a state draft being committed.
 *
 * @param state - The state draft.
 * @param sender - The account's address.
 * @param scope - The chain.
 * @param entry - The kind and hash (userOpHash or transaction hash), and what it sends
 * (sentDetails).
 * @param entry.kind - `operation`, `upgrade` or `undo`.
 * @param entry.hash - 32-byte hex.
 */
export function notePendingActivity(
  state: KeyringState,
  sender: string,
  scope: string,
  entry: Pick<ActivityEntry, 'kind' | 'hash'> &
    Partial<Pick<ActivityEntry, 'to' | 'value' | 'calls' | 'call'>>,
): void {
  const record = Object.values(state.accounts).find(
    (candidate) =>
      candidate.account.address.toLowerCase() === sender.toLowerCase(),
  );
  if (!record) {
    return;
  }
  const byScope = (state.activity ??= {})[record.account.id] ?? {};
  const log = byScope[scope] ?? { entries: [] };
  const hash = entry.hash.toLowerCase();
  byScope[scope] = {
    ...log,
    entries: [
      { ...entry, hash, status: 'pending' as const },
      ...log.entries.filter((kept) => kept.hash !== hash),
    ].slice(0, ACTIVITY_KEPT),
  };
  state.activity[record.account.id] = byScope;
}

/**
 * Merge what a read found into a stored log: pending entries seen mined take the mined outcome
 * (keeping their kind, and what they send), new entries are added, newest first, and the list is cut to
 * {@link ACTIVITY_KEPT}.
 *
 * @param log - The stored log.
 * @param read - What the read found.
 * @returns The new log.
 */
function mergedLog(log: ActivityLog, read: ReadResult): ActivityLog {
  const fresh = new Map(read.found.map((entry) => [entry.hash, entry]));
  const kept = log.entries.map((entry) => {
    const seen = fresh.get(entry.hash) ?? read.mined.get(entry.hash);
    fresh.delete(entry.hash);
    return seen && entry.status === 'pending'
      ? { ...entry, ...seen, kind: entry.kind }
      : entry;
  });
  /**
   * Where an entry sorts: its block, pending ones above every block.
   *
   * @param entry - The entry.
   * @returns The sort key.
   */
  const rank = (entry: ActivityEntry): bigint =>
    entry.block === undefined ? 2n ** 64n : BigInt(entry.block);
  const entries = [...[...fresh.values()].reverse(), ...kept].sort((a, b) => {
    const [left, right] = [rank(a), rank(b)];
    if (left === right) {
      return 0;
    }
    return left > right ? -1 : 1;
  });
  return {
    next: numberToHex(read.next),
    entries: entries.slice(0, ACTIVITY_KEPT),
  };
}

/**
 * Each account's Activity list on the home page, read from the chain with the adapter: its user
 * operations (eth_getLogs of `UserOperationEvent` of EntryPoint v0.6, v0.7 and v0.8, the account
 * as sender), for an EOA its EIP-7702 undo transactions (their receipts), and the ETH it sent by
 * transaction and received (readTransfers: the blocks where its balance or nonce changed, and
 * their transactions), newest first with what moved, to or from whom, outcome, fee and block;
 * what the snap sent and has not seen mined is pending, with what it sends. The
 * history is read from the account's first use (found by {@link firstUseBlock}) and kept in state
 * (`activity`), so a later read asks only for blocks after the last one read, at most
 * {@link ACTIVITY_BLOCKS_PER_READ} per account and chain each time.
 */
export class AccountActivity {
  readonly #store: StateStore;

  readonly #settings: Settings;

  /** Account and chain pairs (`<id> <scope>`) whose last read failed. */
  readonly #failed = new Set<string>();

  /** Account and chain pairs (`<id> <scope>`) with blocks still to read after the last read. */
  readonly #behind = new Set<string>();

  /** The clock, Unix seconds (the block-number bounds grow with time: activityHeads.ts). */
  readonly #now: () => number;

  /**
   * Account and chain pairs (`<id> <scope>`) whose ETH transfers could not be read the last time
   * (the provider does not serve past balances).
   */
  readonly #noTransfers = new Set<string>();

  /**
   * @param parts - What the list is read with.
   * @param parts.store - The state store (accounts, the lists read so far).
   * @param parts.settings - The chain configs (RPC URL, EntryPoints).
   * @param parts.now - The clock, Unix seconds (default: the system's; tests inject one).
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    now?: () => number;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#now = parts.now ?? ((): number => Date.now() / 1000);
  }

  /**
   * Read the new blocks of every account (or of one) on each of its chains, in parallel, and save
   * what was found in one state write. A chain that does not answer is marked failed (its list
   * keeps what was read before); nothing throws.
   *
   * @param only - An account id to read alone (its *Refresh activity* button).
   * @param waitMs - How long to wait for the reads before returning (they go on and are saved
   * when they end); default {@link ACTIVITY_WAIT_MS}.
   */
  async refresh(only?: string, waitMs = ACTIVITY_WAIT_MS): Promise<void> {
    const records = Object.values(this.#store.current.accounts).filter(
      (record) => only === undefined || record.account.id === only,
    );
    const clients = new Map<string, RpcClient>();
    const latest = new Map<string, Promise<bigint>>();
    const jobs = records.flatMap((record) =>
      this.#scopesOf(record).map(async (scope) => {
        const key = `${record.account.id} ${scope}`;
        try {
          let client = clients.get(scope);
          if (!client) {
            client = createRpcClient({
              url: this.#settings.chainConfig(scope)?.rpcUrl as string,
              timeoutMs: READ_TIMEOUT_MS,
              retries: 1,
            });
            clients.set(scope, client);
            const reader = client;
            latest.set(
              scope,
              reader
                .blockNumber()
                .then(async (reading) =>
                  checkedLatest(
                    reader,
                    reading,
                    this.#store.current.activityHeads?.[scope],
                    this.#now(),
                  ),
                ),
            );
          }
          const result = await this.#read(
            client,
            record,
            scope,
            await (latest.get(scope) as Promise<bigint>),
          );
          this.#failed.delete(key);
          return [result];
        } catch {
          this.#failed.add(key);
          return [];
        }
      }),
    );
    const work = (async (): Promise<void> => {
      const results = (await Promise.all(jobs)).flat();
      await this.#save(results).catch(() => undefined);
    })();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      work,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      }),
    ]);
    clearTimeout(timer);
  }

  /**
   * What the page shows, by account id: per chain, the entries and whether the read is complete.
   *
   * @returns The lists of the accounts that have any chain to read.
   */
  views(): Record<string, ChainActivity[]> {
    const { accounts, activity = {} } = this.#store.current;
    return Object.fromEntries(
      Object.values(accounts).map((record) => {
        const { id } = record.account;
        return [
          id,
          this.#scopesOf(record).map((scope) => {
            const log = activity[id]?.[scope];
            const key = `${id} ${scope}`;
            return {
              scope,
              entries: log?.entries ?? [],
              ...(log?.next
                ? { readTo: numberToHex(BigInt(log.next) - 1n) }
                : {}),
              behind: this.#behind.has(key),
              failed: this.#failed.has(key),
              transfers: !this.#noTransfers.has(key),
            };
          }),
        ];
      }),
    );
  }

  /**
   * The configured chains an account's list covers: a smart account's own chains, an EOA's every
   * configured chain.
   *
   * @param record - The account.
   * @returns CAIP-2 scopes.
   */
  #scopesOf(record: AccountRecord): string[] {
    return this.#settings
      .chainConfigs()
      .map((config) => config.scope)
      .filter(
        (scope) =>
          !record.smartAccount ||
          record.account.scopes.includes(scope as `${string}:${string}`),
      );
  }

  /**
   * Read one account's new blocks on one chain: its first use when not known yet, then the
   * EntryPoint logs from the next block to read (at most {@link ACTIVITY_BLOCKS_PER_READ}
   * blocks), and the receipts of its pending undo transactions.
   *
   * @param client - The chain's RPC adapter.
   * @param record - The account.
   * @param scope - The chain.
   * @param latest - The chain's latest block number.
   * @returns What was found.
   * @throws The adapter's errors.
   */
  async #read(
    client: RpcClient,
    record: AccountRecord,
    scope: string,
    latest: bigint,
  ): Promise<ReadResult> {
    const { id, address } = record.account;
    const sender = address as Hex;
    const log = this.#store.current.activity?.[id]?.[scope];
    const from =
      log?.next === undefined || BigInt(log.next) > latest + 1n + HEAD_LAG
        ? // not read yet, or a position no chain at `latest` explains: from the first use again
          await firstUseBlock(
            client,
            sender,
            record.smartAccount ? 'contract' : 'eoa',
            latest,
          )
        : minimum(BigInt(log.next), latest + 1n); // never past latest + 1
    const last =
      latest - from + 1n > ACTIVITY_BLOCKS_PER_READ
        ? from + ACTIVITY_BLOCKS_PER_READ - 1n
        : latest;
    const key = `${id} ${scope}`;
    const config = this.#settings.chainConfig(scope);
    const [found, mined, transfers] = await Promise.all([
      from <= last && config
        ? readOperationEvents(
            client,
            historyEntryPoints(config, record.smartAccount?.entryPoint),
            sender,
            from,
            last,
            new Set(
              (log?.entries ?? [])
                .filter((entry) => entry.value !== undefined)
                .map((entry) => entry.hash),
            ),
          )
        : [],
      readUndoReceipts(
        client,
        (log?.entries ?? [])
          .filter(
            (entry) => entry.kind === 'undo' && entry.status === 'pending',
          )
          .slice(0, RECEIPTS_PER_READ)
          .map((entry) => entry.hash),
      ),
      readTransfers(
        client,
        sender,
        record.smartAccount ? 'contract' : 'eoa',
        from,
        last,
      ).then(
        (read) => {
          this.#noTransfers.delete(key);
          return read;
        },
        () => {
          // A provider without past balances: operations are listed, ETH moved is not.
          this.#noTransfers.add(key);
          return { entries: [], searchedTo: last };
        },
      ),
    ]);
    // Everything up to `upTo` was read: the operations to `last`, the transfers to where they got.
    const upTo = transfers.searchedTo < last ? transfers.searchedTo : last;
    if (upTo < latest) {
      this.#behind.add(key);
    } else {
      this.#behind.delete(key);
    }
    return {
      id,
      scope,
      found: [...found, ...transfers.entries],
      mined,
      next: from > upTo ? from : upTo + 1n,
      latest,
    };
  }

  /**
   * Apply the reads to the stored lists in one state write; lists of deleted accounts are dropped.
   *
   * @param results - What each read found.
   */
  async #save(results: ReadResult[]): Promise<void> {
    await this.#store.run(async () => {
      const state = this.#store.draft();
      const activity = Object.fromEntries(
        Object.entries(state.activity ?? {}).filter(([id]) =>
          Object.hasOwn(state.accounts, id),
        ),
      );
      for (const read of results) {
        if (!Object.hasOwn(state.accounts, read.id)) {
          continue;
        }
        const byScope = activity[read.id] ?? {};
        byScope[read.scope] = mergedLog(
          byScope[read.scope] ?? { entries: [] },
          read,
        );
        activity[read.id] = byScope;
      }
      state.activity = activity;
      const heads = { ...state.activityHeads };
      for (const read of results) {
        heads[read.scope] = nextHead(
          read.latest,
          heads[read.scope],
          this.#now(),
        );
      }
      state.activityHeads = heads;
      await this.#store.commit(state);
    });
  }
}

/**
 * The smaller of two block numbers.
 *
 * @param left - One.
 * @param right - The other.
 * @returns The smaller.
 */
function minimum(left: bigint, right: bigint): bigint {
  return left < right ? left : right;
}
