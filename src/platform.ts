import type { KeyringEvent, KeyringEventPayload } from '@metamask/keyring-api';
import { emitSnapKeyringEvent } from '@metamask/keyring-snap-sdk';
import type { ComponentOrElement, Json } from '@metamask/snaps-sdk';

/**
 * The snap platform: the only module that calls `snap.request` (Snaps JSON-RPC API:
 * https://docs.metamask.io/snaps/reference/snaps-api/). Everything above it (state store, key
 * derivation, keyring events, dialogs, the home page) goes through these functions, so a Node test
 * can run the domain with its own platform, and a change of the Snaps API touches one file.
 * It imports nothing of the snap: what it shows or stores is built by the caller.
 */

/**
 * Read the snap's encrypted state (`snap_manageState`, operation `get`).
 *
 * @returns The stored JSON object, or null before the first save.
 */
export async function readState(): Promise<Record<string, Json> | null> {
  return snap.request({
    method: 'snap_manageState',
    params: { operation: 'get' },
  });
}

/**
 * Replace the snap's encrypted state (`snap_manageState`, operation `update`).
 *
 * @param newState - The whole state, plain JSON.
 */
export async function writeState(
  newState: Record<string, Json>,
): Promise<void> {
  await snap.request({
    method: 'snap_manageState',
    params: { operation: 'update', newState },
  });
}

/**
 * The snap's deterministic entropy for `salt` (`snap_getEntropy`, version 1): 32 bytes derived
 * from one of the user's Secret Recovery Phrases and the snap id.
 *
 * @param salt - The salt (any string; the same salt gives the same entropy).
 * @param source - The entropy source's id (`snap_listEntropySources`); undefined for the primary
 * Secret Recovery Phrase (the parameter is then left out, as MetaMask versions without sources expect).
 * @returns 32 bytes, 0x-prefixed hex.
 */
export async function getEntropy(
  salt: string,
  source?: string,
): Promise<string> {
  return snap.request({
    method: 'snap_getEntropy',
    params: { version: 1, salt, ...(source === undefined ? {} : { source }) },
  });
}

/**
 * The Secret Recovery Phrases MetaMask holds (`snap_listEntropySources`; needs only the
 * `snap_getEntropy` permission): `{ id, name, type: "mnemonic", primary }` each, as MetaMask
 * answers (the caller checks the shape).
 *
 * @returns MetaMask's answer.
 */
export async function listEntropySources(): Promise<unknown> {
  return snap.request({ method: 'snap_listEntropySources' });
}

/**
 * Send a keyring-api event to MetaMask (`snap_manageAccounts`, through keyring-snap-sdk).
 *
 * @param event - The keyring-api event name.
 * @param data - Its payload.
 * @throws Error when MetaMask refuses the event (for instance the user cancels).
 */
export async function emitEvent<EventType extends KeyringEvent>(
  event: EventType,
  data: KeyringEventPayload<EventType>,
): Promise<void> {
  await emitSnapKeyringEvent(snap, event, data);
}

/**
 * Show a confirmation dialog (`snap_dialog`, type `confirmation`).
 *
 * @param content - The dialog's content (a snaps-sdk JSX element from src/ui/dialogs/).
 * @returns True when the user confirmed.
 */
export async function showConfirmation(
  content: ComponentOrElement,
): Promise<boolean> {
  const answer = await snap.request({
    method: 'snap_dialog',
    params: { type: 'confirmation', content },
  });
  return answer === true;
}

/**
 * Show an alert dialog (`snap_dialog`, type `alert`) and wait until the user closes it.
 *
 * @param content - The dialog's content (a snaps-sdk JSX element from src/ui/dialogs/).
 */
export async function showAlert(content: ComponentOrElement): Promise<void> {
  await snap.request({
    method: 'snap_dialog',
    params: { type: 'alert', content },
  });
}

/**
 * The form state of an interface (`snap_getInterfaceState`).
 *
 * @param id - The interface id.
 * @returns `{ [form]: { [field]: value } }` and top-level inputs.
 */
export async function getInterfaceState(
  id: string,
): Promise<Record<string, Json>> {
  return await snap.request({
    method: 'snap_getInterfaceState',
    params: { id },
  });
}

/**
 * Replace an interface's content (`snap_updateInterface`).
 *
 * @param id - The interface id.
 * @param ui - The new content (a snaps-sdk JSX element).
 */
export async function updateInterface(
  id: string,
  ui: ComponentOrElement,
): Promise<void> {
  await snap.request({
    method: 'snap_updateInterface',
    params: { id, ui },
  });
}
