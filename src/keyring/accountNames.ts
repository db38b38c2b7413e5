import type { AccountRecord } from '../state/schema';
import { invalidParams } from '../utils/errors';
import { hasHiddenCharacters } from '../utils/safeText';

/** Longest account name, in characters (code points); what createAccount's `options.name` allows. */
export const MAX_NAME_LENGTH = 64;

/** Control, format (bidirectional marks and overrides among them), separator and private-use characters. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/u;

/**
 * Check an account name a person or a site chose, and trim it. Names with control or format
 * characters are refused rather than cleaned: a right-to-left override (U+202E) or an invisible
 * character would let one name pose as another (Unicode UAX #9; CVE-2021-42574).
 *
 * @param name - The name as received.
 * @param what - What the message calls it (`Invalid <what>`), e.g. `createAccount options at name`.
 * @returns The name without leading and trailing white space (1 to 64 characters).
 * @throws JsonRpcError -32602 (`data.reason: 'invalidName'`) when it is not a string, is empty once
 * trimmed, is longer than 64 characters or holds a control, format or bidirectional character;
 * the message never echoes the name.
 */
export function checkName(name: unknown, what = 'name'): string {
  /**
   * @param why - What is wrong.
   * @returns The error to throw.
   */
  const refuse = (why: string): Error =>
    invalidParams(`Invalid ${what}: ${why}`, { reason: 'invalidName' });
  if (typeof name !== 'string') {
    throw refuse('expected a string');
  }
  const trimmed = name.trim();
  if (trimmed === '') {
    throw refuse('it is empty');
  }
  if ([...trimmed].length > MAX_NAME_LENGTH) {
    throw refuse(`longer than ${MAX_NAME_LENGTH} characters`);
  }
  if (UNPRINTABLE.test(trimmed) || hasHiddenCharacters(trimmed)) {
    throw refuse(
      'it holds control or bidirectional characters, which could make it look like another name',
    );
  }
  return trimmed;
}

/**
 * The form names are compared in: Unicode NFKC, lower case (so `Savings`, `SAVINGS` and
 * `Ｓａｖｉｎｇｓ` are the same name).
 *
 * @param name - A name.
 * @returns Its comparison key.
 */
function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/**
 * The account, other than `except`, that is called `name` (case-insensitively), if any.
 *
 * @param accounts - The accounts by id.
 * @param name - A name.
 * @param except - An account id to leave out (the one being renamed).
 * @returns That account's record, or undefined when the name is free.
 */
export function accountNamed(
  accounts: Readonly<Record<string, AccountRecord>>,
  name: string,
  except?: string,
): AccountRecord | undefined {
  const key = nameKey(name);
  return Object.entries(accounts).find(
    ([id, record]) => id !== except && nameKey(record.name ?? '') === key,
  )?.[1];
}

/**
 * Refuse a name another account has.
 *
 * @param accounts - The accounts by id.
 * @param name - The checked name.
 * @param what - What the message calls it (`Invalid <what>`).
 * @param except - The account being renamed, if any.
 * @throws JsonRpcError -32602 (`data.reason: 'nameTaken'`, the other account's address).
 */
export function assertNameFree(
  accounts: Readonly<Record<string, AccountRecord>>,
  name: string,
  what: string,
  except?: string,
): void {
  const other = accountNamed(accounts, name, except);
  if (other) {
    throw invalidParams(
      `Invalid ${what}: account ${other.account.address} has this name already`,
      { reason: 'nameTaken', address: other.account.address },
    );
  }
}

/**
 * The name suggested for a new account: `<prefix> <n>` with n one more than the highest number
 * any account's name of that form has (`Keyring Account` for an EOA, `Smart Account` for a smart
 * account), so a deleted account's number is not given again and no two accounts share a name.
 *
 * @param accounts - The accounts by id.
 * @param smart - Whether the new account is a smart account.
 * @param preferred - A name to use when it is valid and free (the account metadata's).
 * @returns The suggestion.
 */
export function suggestName(
  accounts: Readonly<Record<string, AccountRecord>>,
  smart: boolean,
  preferred?: string,
): string {
  if (preferred !== undefined) {
    try {
      const name = checkName(preferred);
      if (!accountNamed(accounts, name)) {
        return name;
      }
    } catch {
      // an unusable metadata name: fall back to a numbered one
    }
  }
  const prefix = smart ? 'Smart Account' : 'Keyring Account';
  const pattern = new RegExp(`^${prefix} ([0-9]{1,9})$`, 'iu');
  let next =
    Math.max(
      0,
      ...Object.values(accounts).map((record) =>
        Number(pattern.exec(record.name ?? '')?.[1] ?? 0),
      ),
    ) + 1;
  while (accountNamed(accounts, `${prefix} ${next}`)) {
    next += 1;
  }
  return `${prefix} ${next}`;
}
