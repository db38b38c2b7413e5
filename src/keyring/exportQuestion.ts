import type { AccountRecord } from '../state/store';
import { displayText } from '../utils/safeText';

/**
 * What the home page asks before showing a key: the account named as its button names it (its
 * name and full address, or the address alone); for a smart account, that the key is its owner's
 * (the account has no key of its own: its owner's signature controls it), with the owner's address.
 *
 * @param record - The account's stored record.
 * @returns The confirmation's text.
 */
export function exportQuestion(record: AccountRecord): string {
  const name = record.name ? displayText(record.name) : '';
  const account = name
    ? `${name} (${record.account.address})`
    : record.account.address;
  const owner = record.smartAccount?.owner;
  return owner === undefined
    ? `Show the private key of ${account} in the next dialog? Anyone who sees it controls this account.`
    : `Show the key of the owner of the smart account ${account} in the next dialog? The owner is ${owner}: the smart account has no key of its own, and anyone who sees the owner's key controls the owner and this smart account.`;
}
