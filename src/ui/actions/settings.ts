import type { Json } from '@metamask/snaps-sdk';

import type { Domain } from '../../domain';
import { CHAIN_FIELDS, IPFS_FIELDS, UI } from '../homeModel';
import { attempt, fieldMap, onSuccess, text } from '../outcome';
import type { FormValues, Outcome } from '../outcome';

/**
 * A form's non-empty text values, by the field names the settings methods take.
 *
 * @param prefix - The form's input prefix (`chain`, `ipfs`).
 * @param fields - The form's field list, the field name first in each entry.
 * @param value - The form's values by input name (`<prefix>-<field>`).
 * @returns `{ field: value }` for each field with a non-empty value.
 */
function formParams(
  prefix: string,
  fields: readonly (readonly [string, ...string[]])[],
  value: FormValues,
): Record<string, string> {
  return Object.fromEntries(
    fields
      .map(([field]) => [field, text(value[`${prefix}-${field}`])])
      .filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Save a chain config from the chain form (the same domain call as `setChainConfig`).
 *
 * @param domain - The keyring and settings.
 * @param domain.settings - The settings.
 * @param value - The form's values (`chain-<field>`).
 * @returns The outcome: the saved scope and cleared inputs, or the error next to its field.
 */
export async function saveChain(
  { settings }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const outcome = await attempt(
    UI.chainForm,
    async () =>
      `Saved ${(await settings.setChainConfig(formParams('chain', CHAIN_FIELDS, value))).scope}`,
    fieldMap('chain', CHAIN_FIELDS),
  );
  return onSuccess(
    outcome,
    Object.fromEntries(CHAIN_FIELDS.map(([field]) => [`chain-${field}`, ''])),
  );
}

/**
 * Fill the chain form with a stored chain config (URLs masked as stored ones are shown).
 *
 * @param domain - The keyring and settings.
 * @param domain.settings - The settings.
 * @param scope - The chain's CAIP-2 id.
 * @returns The outcome: the form's values.
 */
export function editChain({ settings }: Domain, scope: string): Outcome {
  const chain = settings.chainConfigs().find((entry) => entry.scope === scope);
  return {
    errors: {},
    values: Object.fromEntries(
      CHAIN_FIELDS.map(([field]) => [`chain-${field}`, chain?.[field] ?? '']),
    ),
  };
}

/**
 * Save the IPFS settings from the IPFS form (the same domain call as `setIpfsConfig`).
 *
 * @param domain - The keyring and settings.
 * @param domain.settings - The settings.
 * @param value - The form's values (`ipfs-<field>`).
 * @returns The outcome: the API URL set and a cleared URL input, or the error next to its field.
 */
export async function saveIpfs(
  { settings }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const outcome = await attempt(
    UI.ipfsForm,
    async () =>
      `IPFS API set to ${(await settings.setIpfsConfig(formParams('ipfs', IPFS_FIELDS, value))).apiUrl}`,
    fieldMap('ipfs', IPFS_FIELDS),
  );
  return onSuccess(outcome, { 'ipfs-apiUrl': '' });
}

/**
 * Set the approval mode from its dropdown.
 *
 * @param domain - The keyring and settings.
 * @param domain.settings - The settings.
 * @param mode - The dropdown's value (`sync` or `async`).
 * @returns The outcome: the mode set, or the error next to the dropdown.
 */
export async function saveApprovalMode(
  { settings }: Domain,
  mode: Json,
): Promise<Outcome> {
  return attempt(UI.approvalMode, async () => {
    const result = await settings.setApprovalMode({ mode });
    return `Approval mode: ${result.mode}`;
  });
}
