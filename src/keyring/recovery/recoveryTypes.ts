import type { DerivationScheme } from '../keys';

/**
 * The types of account recovery (*Find my accounts*, restore by index, entropy sources): what
 * the domain returns to the home page and to the snap's RPC methods. Everything here is plain
 * JSON (a front door returns it as it is) and never holds a key.
 */

/** The account types recovery derives: keyring-api's `eip155:eoa` and `eip155:erc4337`. */
export type RecoverableType = 'eip155:eoa' | 'eip155:erc4337';

/**
 * A Secret Recovery Phrase MetaMask holds, as `snap_listEntropySources` names it (SIP-30).
 * `id` is what `snap_getEntropy` takes as `source`; `name` is MetaMask's label for it.
 */
export type EntropySource = {
  /** MetaMask's id of the source (opaque; differs between devices for the same phrase). */
  id: string;
  /** MetaMask's name for it (untrusted text: clean it before showing it). */
  name: string;
  /** Whether it is the primary Secret Recovery Phrase (the default of new accounts). */
  primary: boolean;
};

/** Where *Find my accounts* is, sent after each window of indices it searched. */
export type RecoveryProgress = {
  /** The entropy source being searched (its id). */
  source: string;
  /** The salt scheme being searched. */
  scheme: DerivationScheme;
  /** The highest derivation index searched so far in this source and scheme (0-based). */
  index: number;
  /** How many used accounts the whole search has found so far (added or not). */
  found: number;
};

/** Options of findAccounts. */
export type FindAccountsOptions = {
  /**
   * Called after each window of indices (the home page updates its interface with it). Awaited;
   * what it throws is ignored, the search goes on.
   */
  onProgress?: (progress: RecoveryProgress) => Promise<void> | void;
};

/** A used account that *Find my accounts* found, as it was added (or skipped). */
export type RecoveredAccount = {
  /** The account's id (a UUID): the new account's, or for `exists` the account that holds it already. */
  id: string;
  /** Its name (the snap's label), as a new account is named (`Keyring Account <n>` / `Smart Account <n>`). */
  name: string;
  /** Its address (checksummed, 20 bytes hex). */
  address: string;
  /** Its account type. */
  type: RecoverableType;
  /** Its derivation index (0-based) in `scheme`. */
  index: number;
  /** The salt scheme of its key (`legacy`: an account made before state version 2). */
  scheme: DerivationScheme;
  /** The entropy source's id it was derived from. */
  source: string;
  /** CAIP-2 chains of a smart account (every configured chain with its factory); absent for an EOA. */
  scopes?: string[];
  /** A smart account's EntryPoint version when it is `0.7` or `0.8` (absent: v0.6, or an EOA). */
  entryPointVersion?: '0.7' | '0.8';
};

/**
 * Why a found account was not added:
 * - `exists`: an account of this snap holds that address already (nothing to do);
 * - `keyInUse`: its key backs another account already (an imported key, or the same key as the
 *   owner of another account): one key, one account;
 * - `declined`: MetaMask refused the new account (the user cancelled its dialog), or she had
 *   cancelled an earlier one in the same search (the rest are not asked);
 * - `failed`: its smart account could not be resolved as creation resolves it (the chain's answer
 *   disagreed or could not be read).
 */
export type SkipReason = 'exists' | 'keyInUse' | 'declined' | 'failed';

/** A found account that was not added, and why. */
export type SkippedAccount = Omit<RecoveredAccount, 'id' | 'name'> & {
  /** Why it was not added. */
  reason: SkipReason;
  /** The id of the account of this snap that holds the address or key, for `exists` and `keyInUse`. */
  existing?: string;
};

/**
 * Why the search of one source and scheme ended:
 * - `gap`: 20 unused indices in a row (BIP-44's gap limit), the normal end;
 * - `indexLimit`, `callLimit`, `timeLimit`: a hard bound of the whole search was reached
 *   (RECOVERY_LIMITS), so accounts further on may exist;
 * - `chainError`: every chain stopped answering.
 */
export type LaneEnd =
  'gap' | 'indexLimit' | 'callLimit' | 'timeLimit' | 'chainError';

/** What was searched in one entropy source and salt scheme. */
export type SearchedLane = {
  /** The entropy source's id. */
  source: string;
  /** The salt scheme. */
  scheme: DerivationScheme;
  /** How many indices were searched (0 to `indices - 1`). */
  indices: number;
  /** Why the search stopped there. */
  end: LaneEnd;
};

/** What *Find my accounts* did: what it found and added, what it skipped, what it searched. */
export type RecoveryReport = {
  /** True when no chain is configured: nothing was searched (the page says to add a chain first). */
  noChain: boolean;
  /** The CAIP-2 chains asked. */
  chains: string[];
  /** Chains that failed to answer (their answers are missing: add them again or retry). */
  unreachable: string[];
  /**
   * Those of `unreachable` that answered part of the search before they stopped (the others
   * answered nothing: nothing was checked there).
   */
  interrupted: string[];
  /** The entropy sources searched. */
  sources: EntropySource[];
  /** One entry per source and scheme searched. */
  searched: SearchedLane[];
  /** The accounts added, in the order they were added. */
  added: RecoveredAccount[];
  /** The used accounts found but not added, with the reason. */
  skipped: SkippedAccount[];
  /**
   * JSON-RPC round trips (HTTP requests, retries included) the search sent to the chains. Adding
   * a smart account it found then costs one more per chain of that account (its address checked
   * against the factory's `getAddress`, as createAccount checks it), not counted here.
   */
  roundTrips: number;
  /** JSON-RPC calls in those round trips. */
  calls: number;
};

/** Params of restoreAccount. */
export type RestoreAccountParams = {
  /** The account type to restore. */
  type: RecoverableType;
  /** The derivation index (0-based) in its scheme. */
  index: number;
  /** The entropy source's id (`listEntropySources`); default: the primary Secret Recovery Phrase. */
  entropySource?: string;
  /**
   * The salt scheme: default `eoa` for an EOA and `erc4337-owner` for a smart account; `legacy`
   * for an account made before state version 2 (either type).
   */
  scheme?: DerivationScheme;
  /**
   * A smart account's EntryPoint version (SimpleAccount of that release): `0.6` (default, as
   * createAccount's), `0.7` or `0.8`; each gives another address for the same index.
   */
  entryPointVersion?: '0.6' | '0.7' | '0.8';
};
