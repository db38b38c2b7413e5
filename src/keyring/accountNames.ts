import type { AccountRecord, KeyringState } from '../state/schema';
import { invalidParams } from '../utils/errors';
import { hasHiddenCharacters, ownEntry } from '../utils/safeText';

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
 * trimmed, is longer than 64 characters or holds a control, format or bidirectional character
 * (`data.problem: 'invisible'`);
 * the message never echoes the name.
 */
export function checkName(name: unknown, what = 'name'): string {
  /**
   * @param why - What is wrong.
   * @param problem - `invisible` for a character that shows nothing or turns the text.
   * @returns The error to throw.
   */
  const refuse = (why: string, problem?: 'invisible'): Error =>
    invalidParams(`Invalid ${what}: ${why}`, {
      reason: 'invalidName',
      ...(problem ? { problem } : {}),
    });
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
      'invisible',
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
 * Letters of other scripts that Unicode Technical Standard #39 (Security Mechanisms, section 4,
 * "Confusable Detection"; its data file confusables.txt) maps to a Latin letter: the Cyrillic and
 * Greek look-alikes of Latin capitals and small letters, and the characters that pose as `l` (`1`,
 * `I`, `|`) and `O` (`0`). A short table rather than the whole data file: the full table costs
 * about 28 kB gzip in the bundle (docs/decisions.md, "Look-alike names").
 */
const LOOKALIKES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    // Cyrillic capitals, Greek capitals, then the Latin and digit look-alikes of l and O
    ['АВЕЅІЈКМНОРСТХУӀ', 'ABESlJKMHOPCTXYl'],
    ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'ABEZHlKMNOPTYX'],
    ['1I|0', 'lllO'],
    // Cyrillic small letters, Greek small letters
    ['аеіјоѕрсухһԁԛԝӏ', 'aeijospcyxhdqwl'],
    ['αγιονρ', 'ayiovp'],
  ].flatMap(([from, to]) =>
    [...from].map((letter, index) => [letter, [...to][index]]),
  ),
);

/**
 * A name's confusable skeletons (after UTS #39's `skeleton`, with the table above): NFKC, every
 * look-alike replaced by the letter it looks like, lower case; taken of the name as written, in
 * capitals and in small letters, since names are compared in any case. `Sаvings` (Cyrillic а),
 * `SAVΙNGS` (Greek Ι) and `Savings` share one.
 *
 * @param name - A name.
 * @returns Its three skeletons: as written, upper case, lower case.
 */
function skeletons(name: string): string[] {
  const normal = name.normalize('NFKC');
  return [normal, normal.toUpperCase(), normal.toLowerCase()].map((form) =>
    [...form]
      .map((letter) => ownEntry(LOOKALIKES, letter) ?? letter)
      .join('')
      .toLowerCase(),
  );
}

/**
 * Refuse a name another account has, or one that looks like it: the same name in any case or
 * Unicode width, or the same confusable skeleton (see skeleton: `Sаvings` with a Cyrillic а next
 * to `Savings`; see skeletons).
 *
 * @param accounts - The accounts by id.
 * @param name - The checked name.
 * @param what - What the message calls it (`Invalid <what>`).
 * @param except - The account being renamed, if any.
 * @throws JsonRpcError -32602 (`data.reason: 'nameTaken'`, or `'nameLookalike'` for a look-alike;
 * the other account's address).
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
  const lookalike = accountLookingLike(accounts, name, except);
  if (lookalike) {
    throw invalidParams(
      `Invalid ${what}: it looks like the name of account ${lookalike.account.address} (the same letters from other scripts)`,
      { reason: 'nameLookalike', address: lookalike.account.address },
    );
  }
}

/**
 * The account, other than `except`, whose name has a confusable skeleton of `name` (the same
 * form: as written, upper or lower case).
 *
 * @param accounts - The accounts by id.
 * @param name - A name.
 * @param except - An account id to leave out.
 * @returns That account's record, or undefined.
 */
function accountLookingLike(
  accounts: Readonly<Record<string, AccountRecord>>,
  name: string,
  except?: string,
): AccountRecord | undefined {
  const keys = skeletons(name);
  return Object.entries(accounts).find(([id, record]) => {
    if (id === except || !record.name) {
      return false;
    }
    const other = skeletons(record.name);
    return keys.some((key, index) => key === other[index]);
  })?.[1];
}

/** Where an account's suggested name comes from: its kind, and for a derived key its index and phrase. */
export type NameOrigin = {
  /** Whether the account is a smart account. */
  smart: boolean;
  /** The derivation index of its key; undefined for an imported key. */
  index?: number;
  /**
   * The name of the Secret Recovery Phrase its key comes from when that is not the primary one
   * (see phraseLabel); undefined for the primary phrase and for an imported key.
   */
  phrase?: string;
};

/**
 * The prefix of the suggested names of a kind: `Keyring Account` and `Smart Account` for keys the
 * snap derives, `Imported Keyring Account` and `Imported Smart Account` for imported keys (whose
 * numbers are counted apart, so an import never takes the number a derived index stands for).
 *
 * @param smart - Whether the account is a smart account.
 * @param imported - Whether its key was imported.
 * @returns The prefix.
 */
function prefixOf(smart: boolean, imported: boolean): string {
  const kind = smart ? 'Smart Account' : 'Keyring Account';
  return imported ? `Imported ${kind}` : kind;
}

/**
 * The number of a suggested name of a kind (`Imported Keyring Account 7` is 7 for an imported
 * EOA), to keep in state so that no later suggestion repeats it.
 *
 * @param name - An account's name.
 * @param smart - Whether the account is a smart account.
 * @param imported - Whether its key was imported (the prefix counted).
 * @returns The number, or undefined when the name is not of the suggested form.
 */
export function suggestedNumber(
  name: string,
  smart: boolean,
  imported = true,
): number | undefined {
  const match = new RegExp(
    `^${prefixOf(smart, imported)} ([0-9]{1,10})$`,
    'iu',
  ).exec(name);
  return match ? Number(match[1]) : undefined;
}

/**
 * The deterministic name of a derived key's account: `Keyring Account <index + 1>` or `Smart
 * Account <index + 1>`, followed by ` (<phrase>)` for a phrase other than the primary one (cut to
 * fit MAX_NAME_LENGTH). The same key gets the same name at creation and after *Find my accounts*
 * or a restore on a new install.
 *
 * @param origin - The account's kind, index and phrase (`index` defined).
 * @param index - Its derivation index.
 * @returns The name (not yet checked against the other accounts').
 */
function indexName(origin: NameOrigin, index: number): string {
  const base = `${prefixOf(origin.smart, false)} ${index + 1}`;
  if (origin.phrase === undefined || origin.phrase.trim() === '') {
    return base;
  }
  const room = MAX_NAME_LENGTH - [...base].length - 3;
  return `${base} (${[...origin.phrase.trim()].slice(0, room).join('')})`;
}

/**
 * Whether no account has `name` or a look-alike of it.
 *
 * @param accounts - The accounts by id.
 * @param name - A checked name.
 * @returns True when the name is free.
 */
function isFree(
  accounts: Readonly<Record<string, AccountRecord>>,
  name: string,
): boolean {
  return !accountNamed(accounts, name) && !accountLookingLike(accounts, name);
}

/**
 * The name suggested for a new account, the first of these that is valid and that no account has
 * or mimics:
 * 1. `preferred` (the account metadata's name);
 * 2. for a derived key, its deterministic name (see indexName: `Keyring Account 3` for the EOA of
 *    index 2), so an account found again by *Find my accounts* gets the name it was created with
 *    and no other account's;
 * 3. `<prefix> <n>` with n above every number of that form on an account, above the index's own,
 *    and for an imported key above `used` (the highest number suggested before, kept in state), so
 *    an imported key's number is never given twice, even after its account was renamed or
 *    deleted (MetaMask keeps the label it showed at creation).
 *
 * @param accounts - The accounts by id.
 * @param origin - The new account's kind, and for a derived key its index and phrase.
 * @param preferred - A name to use when it is valid and free (the account metadata's).
 * @param used - The highest number suggested before for imported keys of this kind (0 when none).
 * @returns The suggestion.
 */
export function suggestName(
  accounts: Readonly<Record<string, AccountRecord>>,
  origin: NameOrigin,
  preferred?: string,
  used = 0,
): string {
  const { smart, index } = origin;
  const candidates = [
    preferred,
    index === undefined ? undefined : indexName(origin, index),
  ];
  for (const candidate of candidates) {
    try {
      const name = checkName(candidate);
      if (isFree(accounts, name)) {
        return name;
      }
    } catch {
      // none, or unusable (a metadata name with control characters): the next one
    }
  }
  const imported = index === undefined;
  const prefix = prefixOf(smart, imported);
  let next =
    Math.max(
      imported ? used : index + 1,
      ...Object.values(accounts).map(
        (record) => suggestedNumber(record.name ?? '', smart, imported) ?? 0,
      ),
    ) + 1;
  while (!isFree(accounts, `${prefix} ${next}`)) {
    next += 1;
  }
  return `${prefix} ${next}`;
}

/**
 * Keep the highest number of an imported key's suggested name (KeyringState.nameCounters), so
 * that suggestName never gives that number again, even after a rename or a delete (MetaMask keeps
 * the label it showed at creation). Derived keys' names need no counter: their number is their
 * index's, and an index is never used twice.
 *
 * @param draft - The state draft to update (its `nameCounters`).
 * @param smart - Whether the account named is a smart account.
 * @param name - The name given (counted only when it has the imported form of its kind).
 */
export function countName(
  draft: Pick<KeyringState, 'nameCounters'>,
  smart: boolean,
  name: string,
): void {
  const counters = draft.nameCounters ?? { eoa: 0, smart: 0 };
  const kind = smart ? 'smart' : 'eoa';
  draft.nameCounters = {
    ...counters,
    [kind]: Math.max(counters[kind], suggestedNumber(name, smart) ?? 0),
  };
}

/**
 * Rename account `id` in a state draft, with the rules of every rename (the home page's and
 * `keyring_updateAccount`'s `options.name`): checkName, then assertNameFree against the other
 * accounts, then countName.
 *
 * @param draft - The state draft (its accounts and name counters); `id` must be one of its accounts.
 * @param id - The account id.
 * @param name - The new name as received.
 * @param what - What the messages call it (`Invalid <what>: ...`).
 * @returns The name as saved (trimmed).
 * @throws JsonRpcError -32602 (`invalidName`, `nameTaken`, `nameLookalike`), never echoing the name.
 */
export function renameIn(
  draft: Pick<KeyringState, 'accounts' | 'nameCounters'>,
  id: string,
  name: unknown,
  what: string,
): string {
  const checked = checkName(name, what);
  assertNameFree(draft.accounts, checked, what, id);
  const record = draft.accounts[id];
  draft.accounts[id] = { ...record, name: checked };
  countName(draft, record.smartAccount !== undefined, checked);
  return checked;
}
