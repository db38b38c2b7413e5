import type { Domain } from '../../domain';
import type { RecoverableType } from '../../keyring/recovery/recoveryTypes';
import { displayText } from '../../utils/safeText';
import { SMART_VERSIONS, UI } from '../homeModel';
import { attempt, onSuccess, text } from '../outcome';
import type { FormValues, Outcome } from '../outcome';
import {
  clearRecoveryStatus,
  recoveryStatus,
  setRecoveryStatus,
} from '../recoveryStatus';
import { progressText, reportSummary } from '../recoveryText';

/** The largest index the restore form accepts (the domain bounds it too). */
const MAX_RESTORE_INDEX = 2 ** 31 - 1;

/**
 * Find my accounts (the `accounts-restore` button): search every recovery phrase MetaMask holds
 * for used accounts (KeyringSnap.findAccounts) and add them back. While it runs, `repaint` is
 * called after each window of indices the search reports, so the page shows "Searching your accounts (EOA): 40 checked";
 * repaints never overlap and never outlive the search (the last one ends before this returns, so
 * the page's final render is the result), and a repaint that fails (the person left the page, its
 * interface is gone) stops the repaints, not the search. Where the search stands is kept beside the
 * domain (recoveryStatus), so a page opened meanwhile, or afterwards, says it. A second press while
 * a search runs starts nothing.
 *
 * @param domain - The keyring and settings.
 * @param repaint - Re-renders the page from the domain and the current status; may throw.
 * @returns The outcome: the search's summary (or, without a chain, what to add first), or the
 * error in page language.
 */
export async function findMyAccounts(
  domain: Domain,
  repaint: () => Promise<void>,
): Promise<Outcome> {
  const { keyring } = domain;
  const current = recoveryStatus(keyring);
  if (current?.state === 'running') {
    return {
      notice: {
        severity: 'info',
        text: `Find my accounts is already searching: ${progressText(current.progress, [])}. Its result shows here when it ends.`,
      },
      errors: {},
    };
  }
  setRecoveryStatus(keyring, { state: 'running' });
  const painter = serialRepaint(repaint);
  await painter.request();
  let summary = '';
  const outcome = await attempt(UI.accountsRestore, async () => {
    try {
      const report = await keyring.findAccounts({
        onProgress: async (progress) => {
          setRecoveryStatus(keyring, { state: 'running', progress });
          await painter.request();
        },
      });
      await painter.drained();
      setRecoveryStatus(keyring, { state: 'done', report });
      summary = reportSummary(report);
      return summary;
    } catch (error) {
      await painter.drained();
      clearRecoveryStatus(keyring);
      throw error;
    }
  });
  const status = recoveryStatus(keyring);
  // Without a chain nothing was searched: say what to add first as what is not done.
  return status?.state === 'done' && status.report.noChain
    ? {
        notice: { severity: 'danger', text: summary },
        errors: { [UI.accountsRestore]: summary },
      }
    : outcome;
}

/**
 * Restore one account by its index (the `restore-form` form: `restore-index`, `restore-type`,
 * `restore-entryPointVersion` for a smart account (v0.8 when absent, as the page preselects), and
 * `restore-source` when MetaMask holds more than one recovery phrase): KeyringSnap.restoreAccount,
 * with or without a chain (a smart account needs one, and the page says so). A smart account's
 * notice says its version, and that another version gives another address.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param value - The form's values.
 * @returns The outcome: the account restored (its name, address and index) and a cleared index, or
 * the error under the index input or the form.
 */
export async function restoreByIndex(
  { keyring }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const typed = text(value[UI.restoreIndex]) ?? '';
  const index = /^\d{1,10}$/u.test(typed) ? Number(typed) : Number.NaN;
  if (!Number.isSafeInteger(index) || index > MAX_RESTORE_INDEX) {
    const message =
      "Enter the account's index: a whole number, 0 or more (the number on its card)";
    return {
      notice: { severity: 'danger', text: message },
      errors: { [UI.restoreIndex]: message },
    };
  }
  const type: RecoverableType =
    value[UI.restoreType] === 'eip155:erc4337'
      ? 'eip155:erc4337'
      : 'eip155:eoa';
  const source = text(value[UI.restoreSource]);
  const version =
    type === 'eip155:erc4337'
      ? (text(value[UI.restoreVersion]) ?? SMART_VERSIONS[0][0])
      : undefined;
  const outcome = await attempt(
    UI.restoreForm,
    async () => {
      const account = await keyring.restoreAccount({
        type,
        index,
        ...(source ? { entropySource: source } : {}),
        ...(version ? { entryPointVersion: version } : {}),
      });
      const name =
        keyring
          .describeAccounts()
          .find((entry) => entry.account.id === account.id)?.name ?? '';
      const restored = `Restored ${name ? `${displayText(name)} (${account.address})` : account.address} from index ${index}`;
      return version
        ? `${restored}, a smart account on EntryPoint v${version}. Each EntryPoint version gives the same index another address: if this is not the address you expected, delete it and restore the index with another version.`
        : restored;
    },
    { index: UI.restoreIndex },
  );
  return onSuccess(outcome, {
    [UI.restoreIndex]: '',
    ...(version ? { [UI.restoreVersion]: version } : {}),
  });
}

/**
 * Run repaints one at a time: a request while one runs is folded into one more run after it (the
 * latest status is read then), and a failed repaint stops all further ones.
 *
 * @param repaint - Re-renders the page.
 * @returns `request()` asks for a repaint (resolves without waiting for it); `drained()` resolves
 * when no repaint runs or waits.
 */
function serialRepaint(repaint: () => Promise<void>): {
  request: () => Promise<void>;
  drained: () => Promise<void>;
} {
  let running: Promise<void> | undefined;
  let again = false;
  let broken = false;
  /** Repaint until no request waits, or one fails. */
  const loop = async (): Promise<void> => {
    again = true;
    while (again && !broken) {
      again = false;
      try {
        await repaint();
      } catch {
        // eslint-disable-next-line require-atomic-updates -- only this loop writes `broken`, and one loop runs at a time
        broken = true;
      }
    }
    running = undefined;
  };
  return {
    request: async (): Promise<void> => {
      if (broken) {
        return;
      }
      if (running) {
        again = true;
        return;
      }
      running = loop();
    },
    // A request made while the loop runs is served by that same loop.
    drained: async (): Promise<void> => running,
  };
}
