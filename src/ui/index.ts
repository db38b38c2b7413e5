import { JsonRpcError } from '@metamask/rpc-errors';
import { UserInputEventType } from '@metamask/snaps-sdk';
import type { Json, UserInputEvent } from '@metamask/snaps-sdk';
import { parseEther } from 'viem';

import type { Domain } from '../domain';
import {
  getInterfaceState,
  showAlert,
  showConfirmation,
  updateInterface,
} from '../platform';
import { deleteAccountDialog, exportedKeyDialog } from './dialogs/account';
import { CHAIN_FIELDS, IPFS_FIELDS, renderHome, UI } from './home';
import type { HomeModel } from './home';

/** Form state as the platform keeps it: `{ [form]: { [field]: value } }` and top-level inputs. */
type InterfaceState = Record<string, Json>;

/** The outcome of one action: a notice, errors by form or field, and the inputs to show. */
type Outcome = Pick<HomeModel, 'notice' | 'errors' | 'lastSent'> & {
  /** Input values to show instead of the current ones (an empty string clears an input). */
  values?: Record<string, string>;
};

/**
 * Build the home page's model from the domain, with the outcome of the last action.
 *
 * @param domain - The domain.
 * @param domain.keyring - The keyring: accounts and pending requests.
 * @param domain.settings - The settings: chain configs, IPFS config and approval mode.
 * @param outcome - Notice, errors and input values to show.
 * @returns The model to render.
 */
export async function homeModel(
  { keyring, settings }: Domain,
  outcome: Outcome = { errors: {} },
): Promise<HomeModel> {
  const ipfs = settings.ipfsConfig();
  return {
    accounts: keyring.describeAccounts(),
    chains: settings.chainConfigs(),
    ipfs: ipfs
      ? {
          apiUrl: ipfs.apiUrl,
          hasCredentials:
            ipfs.apiKey !== undefined || ipfs.apiKeySecret !== undefined,
        }
      : null,
    approvalMode: settings.approvalMode(),
    requests: await keyring.listRequests(),
    notice: outcome.notice,
    errors: outcome.errors,
    ...(outcome.lastSent ? { lastSent: outcome.lastSent } : {}),
    values: outcome.values ?? {},
  };
}

/**
 * The home page's `onHomePage` content.
 *
 * @param domain - The keyring and settings.
 * @returns `{ content }`.
 */
export async function homePage(
  domain: Domain,
): Promise<{ content: ReturnType<typeof renderHome> }> {
  return { content: renderHome(await homeModel(domain)) };
}

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
  const acted = await act(domain, event);
  if (acted === undefined) {
    return;
  }
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
      ? { notice: { ...acted.notice, text: clean(acted.notice.text) } }
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
    renderHome(await homeModel(domain, { ...outcome, values })),
  );
}

/**
 * Run the action an event asks for: the approval-mode dropdown, a form submit (create, import,
 * chain, IPFS, send) or a button click (delete, export, approve, reject, refresh a user
 * operation's status, edit a chain).
 *
 * @param domain - The keyring and settings.
 * @param event - The user's event.
 * @returns The action's outcome, or undefined when the event needs no re-render (a submit
 * button's click, an unknown name).
 */
async function act(
  domain: Domain,
  event: UserInputEvent,
): Promise<Outcome | undefined> {
  const { keyring, settings } = domain;
  if (
    event.type === UserInputEventType.InputChangeEvent &&
    event.name === UI.approvalMode
  ) {
    return attempt(UI.approvalMode, async () => {
      const { mode } = await settings.setApprovalMode({
        mode: event.value as Json,
      });
      return `Approval mode: ${mode}`;
    });
  }
  if (event.type === UserInputEventType.FormSubmitEvent) {
    const value = event.value as Record<string, string | boolean | null>;
    switch (event.name) {
      case UI.createEoa:
        return attempt(
          UI.createEoa,
          async () => `Created ${(await keyring.createAccount({})).address}`,
        );
      case UI.createSmart: {
        const scopes = Object.keys(value)
          .filter(
            (name) =>
              name.startsWith(`${UI.smartScope}:`) && value[name] === true,
          )
          .map((name) => name.slice(UI.smartScope.length + 1));
        const cid = text(value[UI.smartMetadataCid]);
        const outcome = await attempt(
          UI.createSmart,
          async () => {
            const options = {
              type: 'eip155:erc4337',
              ...(scopes.length > 0 ? { scopes } : {}),
              ...(cid ? { metadataCid: cid } : {}),
            };
            return `Created smart account ${(await keyring.createAccount(options)).address}`;
          },
          { metadataCid: UI.smartMetadataCid },
        );
        return outcome.notice?.severity === 'success'
          ? { ...outcome, values: { [UI.smartMetadataCid]: '' } }
          : outcome;
      }
      case UI.importKey: {
        const type = text(value[UI.importType]) ?? 'eip155:eoa';
        return attempt(
          UI.importKey,
          async () =>
            `Imported ${(await keyring.createAccount({ type, privateKey: text(value[UI.importPrivateKey]) ?? '' })).address}`,
          {
            privateKey: UI.importPrivateKey,
            'private key': UI.importPrivateKey,
          },
        );
      }
      case UI.chainForm: {
        const params = Object.fromEntries(
          CHAIN_FIELDS.map(([field]) => [
            field,
            text(value[`chain-${field}`]),
          ]).filter(([, entry]) => entry !== undefined),
        );
        const outcome = await attempt(
          UI.chainForm,
          async () => `Saved ${(await settings.setChainConfig(params)).scope}`,
          fieldMap('chain', CHAIN_FIELDS),
        );
        return outcome.notice?.severity === 'success'
          ? {
              ...outcome,
              values: Object.fromEntries(
                CHAIN_FIELDS.map(([field]) => [`chain-${field}`, '']),
              ),
            }
          : outcome;
      }
      case UI.ipfsForm: {
        const params = Object.fromEntries(
          IPFS_FIELDS.map(([field]) => [
            field,
            text(value[`ipfs-${field}`]),
          ]).filter(([, entry]) => entry !== undefined),
        );
        const outcome = await attempt(
          UI.ipfsForm,
          async () =>
            `IPFS API set to ${(await settings.setIpfsConfig(params)).apiUrl}`,
          fieldMap('ipfs', IPFS_FIELDS),
        );
        return outcome.notice?.severity === 'success'
          ? { ...outcome, values: { 'ipfs-apiUrl': '' } }
          : outcome;
      }
      default:
        return event.name?.startsWith(`${UI.send}:`)
          ? sendFromForm(domain, event.name.slice(UI.send.length + 1), value)
          : undefined;
    }
  }
  if (event.type !== UserInputEventType.ButtonClickEvent || !event.name) {
    return undefined;
  }
  const [action, ...rest] = event.name.split(':');
  const target = rest.join(':');
  switch (action) {
    case UI.accountDelete:
      return attempt(UI.accountDelete, async () => {
        const account = await keyring.getAccount(target);
        if (!(await showConfirmation(deleteAccountDialog(account.address)))) {
          return 'Nothing deleted';
        }
        await keyring.deleteAccount(target);
        return `Deleted ${account.address}`;
      });
    case UI.accountExport:
      return attempt(UI.accountExport, async () => {
        const { privateKey } = await keyring.exportAccount(target);
        await showAlert(exportedKeyDialog(privateKey as string));
        return 'Private key shown';
      });
    case UI.requestApprove:
      return attempt(UI.requestApprove, async () => {
        await keyring.approveRequest(target);
        return 'Request approved and signed';
      });
    case UI.requestReject:
      return attempt(UI.requestReject, async () => {
        await keyring.rejectRequest(target);
        return 'Request rejected';
      });
    case UI.sendStatus: {
      const [namespace, reference, userOpHash] = rest;
      const scope = `${namespace}:${reference}`;
      const outcome = await attempt(UI.sendStatus, async () =>
        receiptText(await keyring.userOperationReceipt({ scope, userOpHash })),
      );
      return {
        ...outcome,
        lastSent: {
          scope,
          userOpHash,
          status: outcome.notice?.text,
        },
      };
    }
    case UI.chainEdit: {
      const chain = settings
        .chainConfigs()
        .find((entry) => entry.scope === target);
      return {
        errors: {},
        values: Object.fromEntries(
          CHAIN_FIELDS.map(([field]) => [
            `chain-${field}`,
            chain?.[field] ?? '',
          ]),
        ),
      };
    }
    default:
      return undefined;
  }
}

/**
 * Send one intent from a smart account's Send form (the same domain call as the sendUserOperation
 * RPC method, so the same confirmation dialog): value in ETH, data optional.
 *
 * @param domain - The keyring and settings.
 * @param id - The account's id (the form's name is `send:<id>`).
 * @param value - The form's values by input name (`<field>:<id>`).
 * @returns The outcome: on success the sent operation (`lastSent`) and cleared inputs; else the
 * error next to the field it names, or next to the form.
 */
async function sendFromForm(
  domain: Domain,
  id: string,
  value: Record<string, string | boolean | null>,
): Promise<Outcome> {
  /**
   * The name of one of this account's Send form inputs.
   *
   * @param name - The input's name prefix (a `UI.send*` name).
   * @returns `<name>:<account id>`.
   */
  const field = (name: string): string => `${name}:${id}`;
  const to = text(value[field(UI.sendTo)]) ?? '';
  const amount = text(value[field(UI.sendValue)]) ?? '0';
  const data = text(value[field(UI.sendData)]) ?? '0x';
  const scope = text(value[field(UI.sendScope)]) ?? '';
  let wei: bigint;
  try {
    wei = parseEther(amount);
    if (wei < 0n) {
      throw new Error('negative');
    }
  } catch {
    const message = 'Invalid value: expected an amount of ETH such as 0.01';
    return {
      notice: { severity: 'danger', text: message },
      errors: { [field(UI.sendValue)]: message },
    };
  }
  let sent: { scope: string; userOpHash: string } | undefined;
  const outcome = await attempt(
    field(UI.send),
    async () => {
      const result = await domain.keyring.sendUserOperation({
        account: id,
        scope,
        intents: [{ to, value: `0x${wei.toString(16)}`, data }],
      });
      sent = { scope, userOpHash: result.userOpHash };
      return `Sent user operation ${result.userOpHash} from ${result.sender}`;
    },
    {
      to: field(UI.sendTo),
      value: field(UI.sendValue),
      data: field(UI.sendData),
    },
  );
  return sent
    ? {
        ...outcome,
        lastSent: sent,
        values: {
          [field(UI.sendTo)]: '',
          [field(UI.sendValue)]: '',
          [field(UI.sendData)]: '',
        },
      }
    : outcome;
}

/**
 * A user-operation receipt as one line of text.
 *
 * @param receipt - The receipt from userOperationReceipt (`success`, `blockNumber` and
 * `actualGasCost` as hex quantities), or null while the operation is pending.
 * @returns Its outcome, block (decimal) and gas cost (wei, decimal), or that it is pending.
 */
function receiptText(receipt: unknown): string {
  if (receipt === null || typeof receipt !== 'object') {
    return 'pending: not in a block yet';
  }
  const { success, blockNumber, actualGasCost } = receipt as {
    success: boolean;
    blockNumber: string;
    actualGasCost: string;
  };
  return `${success ? 'succeeded' : 'reverted'} in block ${BigInt(blockNumber).toString()}, gas cost ${BigInt(actualGasCost).toString()} wei`;
}

/**
 * Run an action and describe its outcome: a success notice, or the error next to the field its
 * message names (`... at <field>: ...`) or else next to the form.
 *
 * @param form - The form (or button) name the error falls back to.
 * @param action - The action; resolves to the success notice's text.
 * @param fields - Input names by the field names errors use (`{ rpcUrl: 'chain-rpcUrl' }`).
 * @returns The outcome; never throws.
 */
async function attempt(
  form: string,
  action: () => Promise<string>,
  fields: Record<string, string> = {},
): Promise<Outcome> {
  try {
    return {
      notice: { severity: 'success', text: await action() },
      errors: {},
    };
  } catch (error) {
    const message =
      error instanceof Error ? error.message : 'Something went wrong';
    const field = Object.keys(fields).find((name) =>
      new RegExp(`\\bat ${name}\\b|\\b${name}:`, 'iu').test(message),
    );
    return {
      notice: { severity: 'danger', text: message },
      errors: { [field ? fields[field] : form]: message },
    };
  }
}

/**
 * The input names of a form's fields, for {@link attempt}.
 *
 * @param prefix - The form's input prefix (`chain`, `ipfs`).
 * @param fields - The form's field list (CHAIN_FIELDS, IPFS_FIELDS), the field name first in each entry.
 * @returns `{ field: 'prefix-field' }` for each field.
 */
function fieldMap(
  prefix: string,
  fields: readonly (readonly [string, ...string[]])[],
): Record<string, string> {
  return Object.fromEntries(
    fields.map(([field]) => [field, `${prefix}-${field}`]),
  );
}

/**
 * An input's value as text.
 *
 * @param value - A form value (string, boolean or null).
 * @returns The trimmed string when it is a non-empty string, else undefined.
 */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : undefined;
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
