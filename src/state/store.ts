import { rpcErrors } from '@metamask/rpc-errors';
import { isObject } from '@metamask/utils';
import type { Json } from '@metamask/utils';

import { assertKeyringState, STATE_VERSION } from './schema';
import { readState, writeState } from '../platform';
import type { AccountRecord, KeyringState } from './schema';

export { STATE_VERSION };
export type { AccountRecord, KeyringState };

/**
 * A fresh, empty state.
 *
 * @returns The state of a newly installed snap: no accounts, sync approval, no chains or IPFS.
 */
export function defaultState(): KeyringState {
  return {
    version: STATE_VERSION,
    accounts: {},
    nextDerivationIndex: { legacy: 0, eoa: 0, 'erc4337-owner': 0 },
    nextIndexBySource: {},
    pendingRequests: {},
    approvalMode: 'sync',
    chains: {},
    ipfs: null,
    sentUserOperations: [],
  };
}

/**
 * Bring a stored state to the current schema.
 *
 * @param stored - What snap_manageState returned (null on first run).
 * @returns The state at STATE_VERSION, checked against its schema (src/state/schema.ts).
 * @throws JsonRpcError -32603 when the stored version is not one this code understands, and
 * naming the first invalid field (never its value) when the state does not match the schema.
 */
export function migrate(stored: Record<string, Json> | null): KeyringState {
  if (stored === null || Object.keys(stored).length === 0) {
    return defaultState();
  }
  const current = fromVersion2(
    stored.version === 1 ? fromVersion1(stored) : stored,
  );
  const { version } = current;
  if (version === STATE_VERSION) {
    return assertKeyringState({
      ...defaultState(),
      ...(current as unknown as KeyringState),
    });
  }
  const named =
    typeof version === 'number' && Number.isSafeInteger(version)
      ? `schema version ${version}`
      : 'no valid schema version';
  throw rpcErrors.internal({
    message: `Stored state has ${named}, this snap reads ${STATE_VERSION}`,
  });
}

/**
 * Schema version 1 to 2: every derived account is marked with the salt scheme it was derived with
 * (`legacy`, one sequence for all account types), so it keeps its key; the single next index
 * becomes the legacy scheme's, and the per-type schemes new accounts use start at 0. Anything
 * malformed is passed on as it is, for the schema check to name.
 *
 * @param stored - A state of schema version 1.
 * @returns The same state at schema version 2.
 */
function fromVersion1(stored: Record<string, Json>): Record<string, Json> {
  const { accounts } = stored;
  const migrated = isObject(accounts)
    ? Object.fromEntries(
        Object.entries(accounts).map(([id, record]) => [
          id,
          isObject(record) && record.derivationIndex !== undefined
            ? {
                ...(record as Record<string, Json>),
                derivationScheme: 'legacy',
              }
            : record,
        ]),
      )
    : accounts;
  return {
    ...stored,
    version: 2,
    ...(accounts === undefined ? {} : { accounts: migrated }),
    nextDerivationIndex: {
      legacy: stored.nextDerivationIndex ?? 0,
      eoa: 0,
      'erc4337-owner': 0,
    },
  };
}

/**
 * Schema version 2 to 3: every account so far comes from the primary Secret Recovery Phrase (or
 * was imported), which version 3 records by leaving `entropySource` out; no other source has an
 * index yet. Nothing else changes. A state of another version is returned as it is.
 *
 * @param stored - A state of any schema version.
 * @returns The same state at schema version 3 when it was at 2; else unchanged.
 */
function fromVersion2(stored: Record<string, Json>): Record<string, Json> {
  return stored.version === 2
    ? { ...stored, version: 3, nextIndexBySource: {} }
    : stored;
}

/**
 * Forget where the Activity reads of one chain stand (each account's next block, and the chain's
 * last accepted head), in a state draft: its RPC URL changed, and what the old node said is no
 * bound for the new one. The lists keep their entries; the next read starts from each account's
 * first use again (entries found twice are merged by hash).
 *
 * @param state - The state draft.
 * @param scope - The chain, CAIP-2.
 */
export function forgetChainReads(state: KeyringState, scope: string): void {
  delete state.activityHeads?.[scope];
  for (const byScope of Object.values(state.activity ?? {})) {
    delete byScope[scope]?.next;
  }
}

/**
 * Read the state from snap_manageState (encrypted).
 *
 * @returns The migrated state.
 */
export async function loadState(): Promise<KeyringState> {
  return migrate(await readState());
}

/**
 * Write the whole state to snap_manageState (encrypted).
 *
 * @param state - The state to persist.
 */
export async function saveState(state: KeyringState): Promise<void> {
  await writeState(state);
}

/**
 * A deep copy of the state (it is plain JSON; structuredClone is absent in the snap).
 *
 * @param state - The state.
 * @returns An independent copy.
 */
export function cloneState(state: KeyringState): KeyringState {
  return JSON.parse(JSON.stringify(state)) as KeyringState;
}

/**
 * Runs async tasks one at a time, in call order: one writer at a time.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * Run `task` after every task queued before it has settled.
   *
   * @param task - The work to do.
   * @returns What `task` returns.
   */
  async run<Result>(task: () => Promise<Result>): Promise<Result> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/** Persists a whole state (snap_manageState in the snap, a fake in Node tests). */
export type StateSaver = (state: KeyringState) => Promise<void>;

/**
 * The one writer of the snap's state: the current state in memory, a queue that runs changes one
 * at a time, and `commit`, which saves a changed copy before anything is announced.
 */
export class StateStore {
  #state: KeyringState;

  readonly #save: StateSaver;

  readonly #queue = new SerialQueue();

  /**
   * @param state - The loaded state.
   * @param save - Persists a whole state.
   */
  constructor(state: KeyringState, save: StateSaver) {
    this.#state = state;
    this.#save = save;
  }

  /** @returns The current state; read it, never change it (changes go through `draft` and `commit`). */
  get current(): Readonly<KeyringState> {
    return this.#state;
  }

  /** @returns A deep copy of the current state to change and then commit. */
  draft(): KeyringState {
    return cloneState(this.#state);
  }

  /**
   * Run `task` alone, after every change queued before it (state changes only; network reads
   * belong before it).
   *
   * @param task - The change.
   * @returns What `task` returns.
   */
  async run<Result>(task: () => Promise<Result>): Promise<Result> {
    return this.#queue.run(task);
  }

  /**
   * Save `draft`, make it current, then run `announce` (a keyring event). When the announcement is
   * refused and `undoOnRefusal` is set, the previous state is saved back and made current again;
   * if that save fails too, memory keeps what storage holds (the draft) and the refusal is thrown.
   *
   * @param draft - The changed copy.
   * @param announce - Tells the wallet about the change.
   * @param undoOnRefusal - Whether a refused announcement undoes the change.
   * @throws Whatever saving or announcing threw.
   */
  async commit(
    draft: KeyringState,
    announce?: () => Promise<void>,
    undoOnRefusal = true,
  ): Promise<void> {
    const previous = this.#state;
    await this.#save(draft);
    this.#state = draft;
    if (!announce) {
      return;
    }
    try {
      await announce();
    } catch (error) {
      if (undoOnRefusal) {
        try {
          await this.#save(previous);
          this.#state = previous;
        } catch {
          // the save back failed: memory keeps what storage holds (the draft)
        }
      }
      throw error;
    }
  }
}
