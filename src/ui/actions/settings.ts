import type { Json } from '@metamask/snaps-sdk';

import type { Domain } from '../../domain';
import { showConfirmation } from '../../platform';
import { isKeyedUrl } from '../../settings';
import { userRejected } from '../../utils/errors';
import { chainName } from '../chainNames';
import { removeChainDialog } from '../dialogs/chain';
import { CHAIN_FIELDS, CHAIN_URL_FIELDS, IPFS_FIELDS, UI } from '../homeModel';
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
 * Save a chain config from the chain form (the same domain call as `setChainConfig`). A bare
 * decimal chain id in the scope input (`31337`) means `eip155:31337`. The form has no inputs for
 * the v0.7 / v0.8 contracts (`entryPoints`): replacing a stored config keeps its overrides. After
 * a failure, an URL input that holds a key is emptied (the others stay, to be fixed).
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
  const params: Record<string, Json> = formParams('chain', CHAIN_FIELDS, value);
  if (typeof params.scope === 'string' && /^[0-9]+$/u.test(params.scope)) {
    params.scope = `eip155:${params.scope}`;
  }
  // the form has no inputs for the v0.7 / v0.8 contracts: a replaced config keeps the stored ones
  const { entryPoints } =
    settings.chainConfigs().find((chain) => chain.scope === params.scope) ?? {};
  if (entryPoints) {
    params.entryPoints = entryPoints;
  }
  const cleared = CHAIN_URL_FIELDS.filter((field) => {
    const url = params[field];
    return typeof url === 'string' && isKeyedUrl(url);
  });
  const outcome = await attempt(
    UI.chainForm,
    async () =>
      `Saved ${chainName((await settings.setChainConfig(params)).scope)}`,
    fieldMap('chain', CHAIN_FIELDS),
    undefined,
    cleared,
  );
  if (outcome.notice?.severity === 'success') {
    return onSuccess(
      outcome,
      Object.fromEntries(CHAIN_FIELDS.map(([field]) => [`chain-${field}`, ''])),
    );
  }
  return {
    ...outcome,
    values: Object.fromEntries(cleared.map((field) => [`chain-${field}`, ''])),
  };
}

/**
 * Remove a chain config after a confirmation dialog that names the smart accounts on that chain
 * (a destructive change: the page's own action asks too).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring (its smart accounts on that chain).
 * @param domain.settings - The settings.
 * @param scope - The chain's CAIP-2 id.
 * @returns The outcome: removed, CANCELLED_TEXT when the dialog is declined, or the error.
 */
export async function removeChain(
  { keyring, settings }: Domain,
  scope: string,
): Promise<Outcome> {
  return attempt(UI.chainRemove, async () => {
    const onChain = keyring
      .describeAccounts()
      .filter(({ account }) =>
        account.scopes.includes(scope as `${string}:${string}`),
      )
      .map(({ account }) => account.address);
    if (
      !(await showConfirmation(removeChainDialog(chainName(scope), onChain)))
    ) {
      throw userRejected('The chain was not removed'); // shown as CANCELLED_TEXT
    }
    return `Removed ${chainName((await settings.removeChainConfig(scope)).scope)}`;
  });
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
 * Save the IPFS settings from the IPFS form: blank key and secret inputs keep the stored ones
 * (same API origin only), the `ipfs-clearCredentials` checkbox drops them (Settings.editIpfsConfig);
 * with the box ticked, a blank API URL keeps the stored one (removing credentials needs no URL
 * typed again). After a refused save, an API URL input holding a key is emptied, as the chain
 * form does.
 *
 * @param domain - The keyring and settings.
 * @param domain.settings - The settings.
 * @param value - The form's values (`ipfs-<field>`, `ipfs-clearCredentials`).
 * @returns The outcome: the API URL set (masked when keyed) and a cleared URL input, or the error
 * next to its field.
 */
export async function saveIpfs(
  { settings }: Domain,
  value: FormValues,
): Promise<Outcome> {
  const params = formParams('ipfs', IPFS_FIELDS, value);
  const clearCredentials = value[UI.ipfsClearCredentials] === true;
  const stored = settings.ipfsSummary();
  if (params.apiUrl === undefined && clearCredentials && stored) {
    params.apiUrl = stored.apiUrl; // as shown (masked when keyed): keeps the stored URL
  }
  const typed = text(value['ipfs-apiUrl']);
  const cleared = typed !== undefined && isKeyedUrl(typed) ? ['apiUrl'] : [];
  const outcome = await attempt(
    UI.ipfsForm,
    async () => {
      const { apiUrl } = await settings.editIpfsConfig({
        ...params,
        clearCredentials,
      });
      return clearCredentials
        ? `IPFS API set to ${apiUrl}; stored key and secret removed`
        : `IPFS API set to ${apiUrl}`;
    },
    fieldMap('ipfs', IPFS_FIELDS),
    undefined,
    cleared,
  );
  return outcome.notice?.severity === 'success'
    ? onSuccess(outcome, { 'ipfs-apiUrl': '' })
    : {
        ...outcome,
        values: Object.fromEntries(
          cleared.map((field) => [`ipfs-${field}`, '']),
        ),
      };
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
