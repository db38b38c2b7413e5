import type { Domain } from '../../domain';
import type { KeyringSnap } from '../../keyring/keyring';
import { showAlert, showConfirmation } from '../../platform';
import { displayText } from '../../utils/safeText';
import { accountLabel } from '../accountLabel';
import { deleteAccountDialog, exportedKeyDialog } from '../dialogs/account';
import { SMART_VERSIONS, UI } from '../homeModel';
import {
  attempt,
  CANCELLED_TEXT,
  cancelled,
  onSuccess,
  text,
} from '../outcome';
import type { FormValues, Outcome } from '../outcome';

/**
 * How errors name an existing account: its name by its address.
 *
 * @param keyring - The keyring.
 * @returns The lookup attempt() takes (undefined for an unknown address).
 */
function accountNames(
  keyring: KeyringSnap,
): (address: string) => string | undefined {
  return (address) =>
    keyring
      .describeAccounts()
      .find(
        ({ account }) =>
          account.address.toLowerCase() === address.toLowerCase(),
      )?.name;
}

/**
 * The recovery phrase a creation form chose (its `…-source` dropdown, shown only when MetaMask
 * holds more than one), as createAccount's `entropySource` option.
 *
 * @param value - The form's values.
 * @param input - The dropdown's name.
 * @returns `{ entropySource }`, or nothing (the primary phrase) when the form had no choice.
 */
function chosenSource(
  value: FormValues,
  input: string,
): { entropySource?: string } {
  const source = text(value[input]);
  return source ? { entropySource: source } : {};
}

/**
 * Create an EOA from the next derived key of the chosen recovery phrase (the `create-eoa` form,
 * with `create-eoa-source` when MetaMask holds more than one phrase; default the primary one).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param value - The form's values.
 * @returns The outcome: the new address, or the error next to the form.
 */
export async function createEoa(
  { keyring }: Domain,
  value: FormValues = {},
): Promise<Outcome> {
  const outcome = await attempt(
    UI.createEoa,
    async () =>
      `Created ${named(keyring, await keyring.createAccount(chosenSource(value, UI.createEoaSource)))}`,
  );
  // the phrase dropdown returns to the primary phrase after a creation
  return onSuccess(outcome, { [UI.createEoaSource]: '' });
}

/**
 * A new account as a notice names it: its name (or short address) and its address.
 *
 * @param keyring - The keyring (its accounts' names).
 * @param account - The account created.
 * @param account.id - Its id.
 * @param account.address - Its address.
 * @returns `Savings (0x…)`.
 */
function named(
  keyring: Domain['keyring'],
  { id, address }: { id: string; address: string },
): string {
  const name = keyring
    .describeAccounts()
    .find((summary) => summary.account.id === id)?.name;
  return `${accountLabel(name, address)} (${address})`;
}

/**
 * Create a smart account on the ticked chains, with an optional metadata CID (the
 * `create-smart` form: `smart-scope:<scope>` checkboxes, `smart-entryPointVersion` (`0.6`, `0.7`
 * or `0.8`; the page preselects v0.8, the newest, and so does a form sent without it),
 * `smart-metadataCid`, and `smart-source`, the recovery phrase of its owner key, when MetaMask
 * holds more than one).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param value - The form's values.
 * @returns The outcome: the new address and a cleared CID input, or the error next to its field.
 */
export async function createSmartAccount(
  { keyring }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const scopes = Object.keys(value)
    .filter(
      (name) => name.startsWith(`${UI.smartScope}:`) && value[name] === true,
    )
    .map((name) => name.slice(UI.smartScope.length + 1));
  const cid = text(value[UI.smartMetadataCid]);
  const version = text(value[UI.smartVersion]) ?? SMART_VERSIONS[0][0];
  const outcome = await attempt(
    UI.createSmart,
    async () => {
      const options = {
        type: 'eip155:erc4337',
        entryPointVersion: version,
        ...chosenSource(value, UI.smartSource),
        ...(scopes.length > 0 ? { scopes } : {}),
        ...(cid ? { metadataCid: cid } : {}),
      };
      return `Created smart account ${named(keyring, await keyring.createAccount(options))} on EntryPoint v${version}`;
    },
    { metadataCid: UI.smartMetadataCid, entryPointVersion: UI.smartVersion },
    accountNames(keyring),
  );
  const kept = { [UI.smartVersion]: version }; // the choice stays shown, after a failure too
  const shown = onSuccess(outcome, {
    [UI.smartMetadataCid]: '',
    [UI.smartSource]: '',
    ...kept,
  });
  return { ...shown, values: { ...shown.values, ...kept } };
}

/**
 * Import a private key as an EOA or a smart account's owner (the `import-key` form).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param value - The form's values (`import-privateKey`, `import-type`, and for a smart account
 * `import-entryPointVersion`, v0.8 when absent, as the page preselects).
 * @returns The outcome: the new address, or the error next to the key input or the form.
 */
export async function importKey(
  { keyring }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const type = text(value[UI.importType]) ?? 'eip155:eoa';
  const version: Record<string, string> =
    type === 'eip155:erc4337'
      ? {
          entryPointVersion:
            text(value[UI.importVersion]) ?? SMART_VERSIONS[0][0],
        }
      : {};
  return attempt(
    UI.importKey,
    async () =>
      `Imported ${(await keyring.createAccount({ type, ...version, privateKey: text(value[UI.importPrivateKey]) ?? '' })).address}`,
    {
      privateKey: UI.importPrivateKey,
      'private key': UI.importPrivateKey,
    },
    accountNames(keyring),
  );
}

/**
 * Delete an account after a confirmation dialog naming it (name and full address) and saying how
 * many of its requests wait: the keyring's deleteAccount rejects those (`notify:requestRejected`
 * each). The keyring deletes only if exactly the requests the dialog counted still wait (checked
 * in its state queue); otherwise nothing is deleted and the page says so (the dialog must say what
 * happens).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The account's id.
 * @returns The outcome: deleted; {@link CANCELLED_TEXT} when the dialog is declined; or the error
 * (an unknown account: -32001's message).
 */
export async function confirmDeleteAccount(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  let declined = false;
  const outcome = await attempt(UI.accountDelete, async () => {
    const account = await keyring.getAccount(id);
    const summary = keyring
      .describeAccounts()
      .find((entry) => entry.account.id === id);
    const name = summary?.name ?? '';
    const imported = summary === undefined || 'imported' in summary.keySource;
    const waiting = (await keyring.listRequests())
      .filter((request) => request.account === id)
      .map((request) => request.id);
    const shown = waiting.length;
    if (
      !(await showConfirmation(
        deleteAccountDialog({
          name,
          address: account.address,
          waiting: shown,
          imported,
        }),
      ))
    ) {
      declined = true;
      return CANCELLED_TEXT;
    }
    // the keyring checks, inside its state queue, that exactly these requests still wait
    await keyring.deleteAccount(id, undefined, { waiting });
    const deleted = name
      ? `${displayText(name)} (${account.address})`
      : account.address;
    return shown > 0
      ? `Deleted ${deleted}; ${shown} waiting ${shown === 1 ? 'request' : 'requests'} rejected`
      : `Deleted ${deleted}`;
  });
  return declined ? cancelled() : outcome;
}

/**
 * Show an account's private key in its own alert dialog (never in the page); for a smart account,
 * its owner's key, said to be the owner's, with the owner's address.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The account's id.
 * @returns The outcome: that the key was shown, or the error.
 */
export async function showExportedKey(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  return attempt(UI.accountExport, async () => {
    const { privateKey } = await keyring.exportAccount(id);
    const summary = keyring
      .describeAccounts()
      .find((entry) => entry.account.id === id);
    const label = summary
      ? accountLabel(summary.name, summary.account.address)
      : '';
    await showAlert(
      exportedKeyDialog(privateKey as string, {
        label,
        ...(summary?.owner ? { owner: summary.owner } : {}),
      }),
    );
    return summary?.owner
      ? `Key of the owner of ${label} shown`
      : `Private key of ${label} shown`;
  });
}

/**
 * What a rename says about MetaMask: the name is this snap's label; keyring-api accounts carry no
 * name, so MetaMask keeps the one it showed when the account was created.
 */
const RENAME_NOTE =
  'MetaMask keeps the label it showed when the account was created: rename it in MetaMask too.';

/**
 * Rename an account from its rename form (`account-rename:<id>`, input `account-name:<id>`): the
 * same keyring call for every caller, KeyringSnap.renameAccount.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The account's id.
 * @param value - The form's values.
 * @returns The outcome: the new name, or the error under the name input.
 */
export async function renameAccount(
  { keyring }: Domain,
  id: string,
  value: FormValues,
): Promise<Outcome> {
  const input = `${UI.accountName}:${id}`;
  let saved = '';
  const outcome = await attempt(
    `${UI.accountRename}:${id}`,
    async () => {
      saved = await keyring.renameAccount(id, value[input] ?? '');
      return `Renamed to ${displayText(saved)} here. ${RENAME_NOTE}`;
    },
    { name: input },
    accountNames(keyring),
  );
  return onSuccess(outcome, { [input]: displayText(saved) });
}
