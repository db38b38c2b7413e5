import { JsonRpcError } from '@metamask/rpc-errors';
import { UserInputEventType } from '@metamask/snaps-sdk';
import type { Json, UserInputEvent } from '@metamask/snaps-sdk';

import type { Domain } from '../domain';
import { getInterfaceState, updateInterface } from '../platform';
import {
  confirmDeleteAccount,
  createEoa,
  createSmartAccount,
  importKey,
  renameAccount,
  showExportedKey,
} from './actions/accounts';
import { revokeGrant } from './actions/grants';
import { findMyAccounts, restoreByIndex } from './actions/recovery';
import {
  approveParked,
  refreshRequests,
  rejectParked,
} from './actions/requests';
import { followSent, refreshActivity, sendFromForm } from './actions/send';
import {
  editChain,
  removeChain,
  saveApprovalMode,
  saveChain,
  saveIpfs,
} from './actions/settings';
import { undoUpgrade, upgradeAccount, upgradeScope } from './actions/upgrade';
import { renderHome } from './components/HomePage';
import { buildHomeModel, UI } from './homeModel';
import type { Outcome } from './homeModel';
import type { FormValues } from './outcome';

/** Form state as the platform keeps it: `{ [form]: { [field]: value } }` and top-level inputs. */
type InterfaceState = Record<string, Json>;

/**
 * The last action of each page (by interface id) while it is being shown: a page following a sent
 * operation stops when another action of the same page came, so that action's notice stays.
 */
const latestEvent = new Map<string, UserInputEvent>();

/**
 * Handle one event of the home page (`onUserInput`): run the action through the same domain calls
 * the RPC front doors use, then re-render the page with its outcome next to what caused it. A
 * `type="submit"` button fires a button click and a form submit: only the submit acts.
 *
 * @param domain - The keyring and settings.
 * @param id - The interface id.
 * @param event - The user's event.
 */
export async function homeInput(
  domain: Domain,
  id: string,
  event: UserInputEvent,
): Promise<void> {
  const state: InterfaceState = await getInterfaceState(id);
  /**
   * Re-render the page as it is now (a long action's progress), keeping what was typed.
   *
   * @returns When the interface is updated.
   */
  const repaint = async (): Promise<void> =>
    updateInterface(
      id,
      renderHome(
        await buildHomeModel(
          domain,
          { errors: {}, values: typedValues(state) },
          false,
        ),
      ),
    );
  const acted = await act(domain, event, repaint, state);
  if (acted === undefined) {
    return;
  }
  latestEvent.set(id, event);
  /**
   * Mask configured URLs and keys in a message, as the RPC front doors do: a server's message may
   * quote them.
   *
   * @param message - A notice or error text.
   * @returns The text with the credentials masked.
   */
  const clean = (message: string): string =>
    domain.scrub(new JsonRpcError(-32603, message)).message;
  const outcome: Outcome = {
    ...acted,
    ...(acted.notice
      ? {
          notice: {
            ...acted.notice,
            text: clean(acted.notice.text),
            at: now(),
          },
        }
      : {}),
    errors: Object.fromEntries(
      Object.entries(acted.errors).map(([name, message]) => [
        name,
        clean(message),
      ]),
    ),
  };
  const values = { ...typedValues(state), ...outcome.values };
  await updateInterface(
    id,
    renderHome(await buildHomeModel(domain, { ...outcome, values })),
  );
  if (outcome.lastSent) {
    await followSent(domain, outcome.lastSent, {
      active: () => latestEvent.get(id) === event,
      show: async (notice) =>
        updateInterface(
          id,
          renderHome(
            await buildHomeModel(domain, {
              errors: {},
              values: typedValues(await getInterfaceState(id)),
              notice: { ...notice, text: clean(notice.text), at: now() },
            }),
          ),
        ),
    }).catch(() => undefined); // the page was closed meanwhile: nothing to show
  }
  if (latestEvent.get(id) === event) {
    latestEvent.delete(id);
  }
}

/**
 * The time a notice came, as its banner title says it.
 *
 * @returns `HH:MM:SS UTC`.
 */
function now(): string {
  return `${new Date().toISOString().slice(11, 19)} UTC`;
}

/**
 * Run the action an event asks for, by the element's name (its prefix before the first `:` for
 * names that end in an account id, request id or scope): the approval-mode dropdown, a form
 * submit (create, import, rename, chain, IPFS, send, restore by index) or a button click (delete,
 * export, approve, reject, refresh the requests or an Activity list, edit or remove a chain, find
 * my accounts). A
 * `type="submit"` button fires a click and a form submit: only the submit acts.
 *
 * @param domain - The keyring and settings.
 * @param event - The user's event.
 * @param repaint - Re-renders the page while a long action runs (Find my accounts' progress).
 * @param state - The interface state (inputs outside forms: an EOA's upgrade chain).
 * @returns The action's outcome, or undefined when the event needs no re-render (a submit
 * button's click, an input's change, an unknown name).
 */
async function act(
  domain: Domain,
  event: UserInputEvent,
  repaint: () => Promise<void>,
  state: InterfaceState = {},
): Promise<Outcome | undefined> {
  const [name = '', ...rest] = (event.name ?? '').split(':');
  const target = rest.join(':');
  const submitted =
    event.type === UserInputEventType.FormSubmitEvent
      ? (event.value as FormValues)
      : undefined;
  const clicked = event.type === UserInputEventType.ButtonClickEvent;
  switch (name) {
    case UI.approvalMode:
      return event.type === UserInputEventType.InputChangeEvent
        ? saveApprovalMode(domain, event.value)
        : undefined;
    case UI.createEoa:
      return submitted ? createEoa(domain, submitted) : undefined;
    case UI.createSmart:
      return submitted ? createSmartAccount(domain, submitted) : undefined;
    case UI.importKey:
      return submitted ? importKey(domain, submitted) : undefined;
    case UI.chainForm:
      return submitted ? saveChain(domain, submitted) : undefined;
    case UI.ipfsForm:
      return submitted ? saveIpfs(domain, submitted) : undefined;
    case UI.send:
      return submitted ? sendFromForm(domain, target, submitted) : undefined;
    case UI.accountDelete:
      return clicked ? confirmDeleteAccount(domain, target) : undefined;
    case UI.accountExport:
      return clicked ? showExportedKey(domain, target) : undefined;
    case UI.accountUpgrade:
    case UI.accountUndoUpgrade: {
      const scope = upgradeScope(
        domain,
        state[`${UI.accountUpgradeChain}:${target}`],
      );
      const run = name === UI.accountUpgrade ? upgradeAccount : undoUpgrade;
      return clicked ? run(domain, target, scope) : undefined;
    }
    case UI.accountRename:
      return submitted ? renameAccount(domain, target, submitted) : undefined;
    case UI.requestApprove:
      return clicked ? approveParked(domain, target) : undefined;
    case UI.requestReject:
      return clicked ? rejectParked(domain, target) : undefined;
    case UI.requestsRefresh:
      return clicked ? refreshRequests() : undefined;
    case UI.activityRefresh:
      return clicked ? refreshActivity(domain, target) : undefined;
    case UI.chainEdit:
      return clicked ? editChain(domain, target) : undefined;
    case UI.chainRemove:
      return clicked ? removeChain(domain, target) : undefined;
    case UI.accountsRestore:
      return clicked ? findMyAccounts(domain, repaint) : undefined;
    case UI.restoreForm:
      return submitted ? restoreByIndex(domain, submitted) : undefined;
    case UI.grantRevoke:
      return clicked ? revokeGrant(domain, target) : undefined;
    default:
      return undefined;
  }
}

/**
 * The text inputs' current values, secrets left out (they always render empty).
 *
 * @param state - The interface state from `snap_getInterfaceState`.
 * @returns The string values by input name, from every form and the top level.
 */
function typedValues(state: InterfaceState): Record<string, string> {
  const values: Record<string, string> = {};
  const secret = new Set<string>([
    UI.importPrivateKey,
    'ipfs-apiKey',
    'ipfs-apiKeySecret',
  ]);
  for (const form of Object.values(state)) {
    if (typeof form === 'object' && form !== null && !Array.isArray(form)) {
      for (const [name, value] of Object.entries(form)) {
        if (typeof value === 'string' && !secret.has(name)) {
          values[name] = value;
        }
      }
    }
  }
  return values;
}
