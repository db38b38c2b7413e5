import type { KeyringAccount, KeyringRequest } from '@metamask/keyring-api';
import type { Json } from '@metamask/utils';

/** Version of the persisted schema; bump it and add a step to `migrate` on every change. */
export const STATE_VERSION = 1;

/** Chain settings held per CAIP-2 scope (`setChainConfig`). Addresses are 20-byte hex. */
export type ChainConfig = {
  scope: string;
  rpcUrl: string;
  entryPoint: string;
  accountFactory: string;
  bundlerUrl?: string;
  paymasterUrl?: string;
};

/** IPFS HTTP API settings (`setIpfsConfig`); the credentials stay in encrypted state. */
export type IpfsConfig = { apiUrl: string; apiKey?: string; apiKeySecret?: string };

/**
 * ERC-4337 data of a smart account: the owner EOA, and the factory, salt and
 * EntryPoint its counterfactual address was computed with (kept for life).
 */
export type SmartAccountData = {
  owner: string;
  accountFactory: string;
  entryPoint: string;
  /** SimpleAccountFactory `createAccount(owner, salt)` salt, a decimal string. */
  salt: string;
  /** The factory's SimpleAccount implementation per chain scope (for gas estimation). */
  implementations: Record<string, string>;
  /** Per-chain overrides from the account's IPFS metadata (entryPoint excluded). */
  chains?: Record<string, { bundlerUrl?: string; paymasterUrl?: string }>;
};

/** One account: its public KeyringAccount and its key (never leaves this state). */
export type AccountRecord = {
  account: KeyringAccount;
  /** 32-byte secp256k1 private key, 0x-prefixed hex. */
  privateKey: string;
  /** Index used with snap_getEntropy when the key was derived, else absent (imported). */
  derivationIndex?: number;
  smartAccount?: SmartAccountData;
};

/** The snap's persisted state (snap_manageState, encrypted). */
export type KeyringState = {
  version: typeof STATE_VERSION;
  accounts: Record<string, AccountRecord>;
  /** Next snap_getEntropy index for a derived key; never reused after a delete. */
  nextDerivationIndex: number;
  pendingRequests: Record<string, KeyringRequest>;
  /** `sync`: sign when MetaMask submits; `async`: park the request for the companion dapp. */
  approvalMode: 'sync' | 'async';
  chains: Record<string, ChainConfig>;
  ipfs: IpfsConfig | null;
};

/** A fresh, empty state. */
export function defaultState(): KeyringState {
  return {
    version: STATE_VERSION,
    accounts: {},
    nextDerivationIndex: 0,
    pendingRequests: {},
    approvalMode: 'sync',
    chains: {},
    ipfs: null,
  };
}

/**
 * Bring a stored state to the current schema.
 *
 * @param stored - What snap_manageState returned (null on first run).
 * @returns The state at STATE_VERSION.
 * @throws Error when the stored version is newer than this code understands.
 */
export function migrate(stored: Record<string, Json> | null): KeyringState {
  if (stored === null || Object.keys(stored).length === 0) {
    return defaultState();
  }
  const version = stored.version;
  if (version === STATE_VERSION) {
    return { ...defaultState(), ...(stored as unknown as KeyringState) };
  }
  throw new Error(`Stored state has schema version ${String(version)}, this snap reads ${STATE_VERSION}`);
}

/**
 * Read the state from snap_manageState (encrypted).
 *
 * @returns The migrated state.
 */
export async function loadState(): Promise<KeyringState> {
  const stored = await snap.request({ method: 'snap_manageState', params: { operation: 'get' } });
  return migrate(stored as Record<string, Json> | null);
}

/**
 * Write the whole state to snap_manageState (encrypted).
 *
 * @param state - The state to persist.
 */
export async function saveState(state: KeyringState): Promise<void> {
  await snap.request({
    method: 'snap_manageState',
    params: { operation: 'update', newState: state as unknown as Record<string, Json> },
  });
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
  async run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
