import type {
  RecoveryProgress,
  RecoveryReport,
} from '../keyring/recovery/recoveryTypes';

/**
 * Where the home page's *Find my accounts* stands, kept in the snap's memory beside its domain, so
 * a page opened while the search runs (the person left and came back) says it is still searching,
 * and a page opened after it ended shows its result. The accounts it added are in the snap's state
 * either way; this is only what the page says about the last search. It is lost when MetaMask
 * stops the snap, and then the page simply shows no last search.
 */
export type RecoveryStatus =
  | {
      /** A search is running. */
      state: 'running';
      /** Where it is (after its first window of indices), or undefined before. */
      progress?: RecoveryProgress;
    }
  | {
      /** The last search ended with this report. */
      state: 'done';
      /** What it found, added and skipped. */
      report: RecoveryReport;
    };

/** The status of each domain's search (one domain per snap instance; tests build several). */
const statuses = new WeakMap<object, RecoveryStatus>();

/**
 * The status of the last (or running) search of a domain.
 *
 * @param owner - The domain's keyring (one per snap instance).
 * @returns The status, or undefined when no search ran since the snap started.
 */
export function recoveryStatus(owner: object): RecoveryStatus | undefined {
  return statuses.get(owner);
}

/**
 * Record where a domain's search stands.
 *
 * @param owner - The domain's keyring.
 * @param status - The new status.
 */
export function setRecoveryStatus(owner: object, status: RecoveryStatus): void {
  statuses.set(owner, status);
}

/**
 * Forget a running search's status when it failed before reporting (the page then shows no last
 * search, and the failure as the action's notice).
 *
 * @param owner - The domain's keyring.
 */
export function clearRecoveryStatus(owner: object): void {
  statuses.delete(owner);
}
