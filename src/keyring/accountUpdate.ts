import type { KeyringAccount } from '@metamask/keyring-api';

import { renameIn } from './accountNames';
import type { AccountRecord, KeyringState } from '../state/schema';
import { invalidParams } from '../utils/errors';

/**
 * Options `keyring_updateAccount` may not change: whether the key can be exported, where it
 * comes from (keyring-api `entropy`), and the metadata the account was created from. Replacing
 * the options wholesale would let any caller of updateAccount turn export back on. The one change
 * allowed is locking: `exportable` from true (or absent) to false.
 */
export const FIXED_OPTIONS = ['exportable', 'entropy', 'metadataCid'] as const;

/**
 * Check a `keyring_updateAccount` change against the stored account: address (any letter case),
 * type and scopes are fixed, methods may only be narrowed, the FIXED_OPTIONS keep their values
 * (present or absent alike; `exportable` may only be locked), and no `privateKey` option. No value
 * the caller sent is echoed.
 *
 * @param current - The stored account.
 * @param update - The account as sent (validated against keyring-api's KeyringAccountStruct).
 * @throws JsonRpcError -32602 naming the field that may not change.
 */
export function assertAccountUpdate(
  current: KeyringAccount,
  update: KeyringAccount,
): void {
  if (current.address.toLowerCase() !== update.address.toLowerCase()) {
    throw invalidParams(
      'Invalid account at address: the address cannot be changed',
    );
  }
  if (current.type !== update.type) {
    throw invalidParams('Invalid account at type: the type cannot be changed');
  }
  if (JSON.stringify(current.scopes) !== JSON.stringify(update.scopes)) {
    throw invalidParams('Invalid account at scopes: scopes cannot be changed');
  }
  const unsupported = update.methods.filter(
    (method) => !current.methods.includes(method),
  );
  if (unsupported.length > 0) {
    throw invalidParams(
      `Invalid account at methods: ${unsupported.length} method(s) not supported by this account`,
    );
  }
  /**
   * Whether `options` has its own field `key` (not one inherited from Object.prototype).
   *
   * @param options - The account's options from the update.
   * @param key - A field name.
   * @returns True if the field is present.
   */
  const has = (options: Record<string, unknown>, key: string): boolean =>
    Object.prototype.hasOwnProperty.call(options, key);
  if (has(update.options, 'privateKey')) {
    throw invalidParams('Invalid account at options.privateKey: not allowed');
  }
  for (const key of FIXED_OPTIONS) {
    const before = has(current.options, key)
      ? JSON.stringify(current.options[key])
      : undefined;
    const after = has(update.options, key)
      ? JSON.stringify(update.options[key])
      : undefined;
    const locking =
      key === 'exportable' && before !== 'false' && after === 'false';
    if (before !== after && !locking) {
      throw invalidParams(
        `Invalid account at options.${key}: cannot be changed`,
      );
    }
  }
}

/**
 * Apply a checked `keyring_updateAccount` change to a state draft: the methods and options sent
 * (see assertAccountUpdate), and `options.name`, when sent, as the account's name, with the rules
 * of every rename (renameIn: trimmed, 1 to 64 characters, no control or bidirectional character,
 * not another account's name nor a look-alike). The name is kept as the account's name, never in
 * its stored options (publicAccount puts it back in what is given out); an update without
 * `options.name` keeps the name.
 *
 * @param draft - The state draft; `update.id` must be one of its accounts.
 * @param update - The account as sent (validated against keyring-api's KeyringAccountStruct).
 * @returns The updated record.
 * @throws JsonRpcError -32602 naming the field (`account at options.name` for a name refused,
 * `data.reason` `invalidName`, `nameTaken` or `nameLookalike`), never echoing a value sent.
 */
export function applyAccountUpdate(
  draft: Pick<KeyringState, 'accounts' | 'nameCounters'>,
  update: KeyringAccount,
): AccountRecord {
  const current = draft.accounts[update.id];
  assertAccountUpdate(current.account, update);
  const { name, ...options } = update.options;
  draft.accounts[update.id] = {
    ...current,
    account: { ...current.account, methods: update.methods, options },
  };
  if (name !== undefined) {
    renameIn(draft, update.id, name, 'account at options.name');
  }
  return draft.accounts[update.id];
}
