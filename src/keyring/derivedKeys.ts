import type {
  AccountRecord,
  DerivationScheme,
  KeyringState,
} from '../state/schema';
import type { StateStore } from '../state/store';
import { invalidParams } from '../utils/errors';

/** A secp256k1 key pair of an account. */
type Key = {
  /** The private key, 0x-prefixed hex (32 bytes). */
  privateKey: string;
  /** The EOA address of the key, 0x-prefixed hex (20 bytes). */
  address: string;
};
export type { Key };

/**
 * The next derivation index of `scheme` in entropy source `source`: the primary source's is
 * `nextDerivationIndex`, another source's is in `nextIndexBySource` (0 when absent).
 *
 * @param state - The state.
 * @param scheme - The salt scheme.
 * @param source - The entropy source's id; undefined for the primary one.
 * @returns The first index no account of that source and scheme has taken.
 */
export function nextIndexOf(
  state: Readonly<KeyringState>,
  scheme: DerivationScheme,
  source: string | undefined,
): number {
  if (source === undefined) {
    return state.nextDerivationIndex[scheme];
  }
  return scheme === 'legacy'
    ? 0
    : ((Object.prototype.hasOwnProperty.call(state.nextIndexBySource, source)
        ? state.nextIndexBySource[source]?.[scheme]
        : undefined) ?? 0);
}

/**
 * Move the next derivation index of `scheme` in `source` past `index` (never back), in a draft.
 *
 * @param draft - The draft state to change.
 * @param scheme - The salt scheme.
 * @param source - The entropy source's id; undefined for the primary one.
 * @param index - The index an account now holds.
 */
export function takeIndex(
  draft: KeyringState,
  scheme: DerivationScheme,
  source: string | undefined,
  index: number,
): void {
  if (source === undefined) {
    draft.nextDerivationIndex[scheme] = Math.max(
      draft.nextDerivationIndex[scheme],
      index + 1,
    );
    return;
  }
  if (scheme === 'legacy') {
    return; // the legacy scheme never had other sources
  }
  const indexes = Object.prototype.hasOwnProperty.call(
    draft.nextIndexBySource,
    source,
  )
    ? draft.nextIndexBySource[source]
    : undefined;
  draft.nextIndexBySource[source] = {
    eoa: indexes?.eoa ?? 0,
    'erc4337-owner': indexes?.['erc4337-owner'] ?? 0,
    [scheme]: Math.max(indexes?.[scheme] ?? 0, index + 1),
  };
}

/** How many derivation indexes of a scheme createAccount tries past ones whose key backs an account already (imported). */
const DERIVATION_SKIP_LIMIT = 16;

/**
 * Derivation-index reservation for createAccount: which index of a salt scheme the next derived key
 * takes while creations run concurrently (a reserved index is skipped until released), and the
 * one-key-one-account rule (a key backs one account, an address is held once).
 */
export class DerivedKeys {
  readonly #store: StateStore;

  readonly #deriveKey: (
    index: number,
    scheme: DerivationScheme,
    source?: string,
  ) => Promise<Key>;

  /** Derivation indexes taken by creations still running (not yet saved), as `<source>:<scheme>:<index>`. */
  readonly #reserved = new Set<string>();

  /**
   * @param store - The snap's state store (accounts, next derivation index per scheme).
   * @param deriveKey - Derives the key of an index in a scheme and entropy source (snap_getEntropy,
   * see derivationSalt; source undefined: the primary one).
   */
  constructor(
    store: StateStore,
    deriveKey: (
      index: number,
      scheme: DerivationScheme,
      source?: string,
    ) => Promise<Key>,
  ) {
    this.#store = store;
    this.#deriveKey = deriveKey;
  }

  /**
   * Take the first derivation index of `scheme` from its saved next index that no running creation
   * holds and whose key backs no account (an imported key may), and derive its key.
   *
   * @param scheme - The salt scheme (`eoa` or `erc4337-owner`).
   * @param source - The entropy source's id; undefined for the primary one.
   * @returns The key and its derivation index, which stays reserved until the caller releases it.
   * @throws JsonRpcError -32602 if the next DERIVATION_SKIP_LIMIT keys are all imported already.
   */
  async reserve(
    scheme: DerivationScheme,
    source?: string,
  ): Promise<{ key: Key; derivationIndex: number }> {
    let candidate = nextIndexOf(this.#store.current, scheme, source);
    for (
      let tries = 0;
      tries < DERIVATION_SKIP_LIMIT;
      tries += 1, candidate += 1
    ) {
      while (this.#reserved.has(slot(scheme, candidate, source))) {
        candidate += 1;
      }
      const key = await this.#deriveReserved(candidate, scheme, source);
      if (!this.#backed(key) && !this.#holds(key.address)) {
        return { key, derivationIndex: candidate };
      }
      this.#reserved.delete(slot(scheme, candidate, source));
    }
    throw invalidParams(
      `The next ${DERIVATION_SKIP_LIMIT} derived keys are all imported already`,
    );
  }

  /**
   * Release derivation index `index` of `scheme` (its creation ended, saved or not).
   *
   * @param scheme - The salt scheme.
   * @param index - The derivation index.
   * @param source - The entropy source's id; undefined for the primary one.
   */
  release(scheme: DerivationScheme, index: number, source?: string): void {
    this.#reserved.delete(slot(scheme, index, source));
  }

  /**
   * The account `key` backs already (an EOA whose key it is, or the smart account it owns), or
   * the account that holds `address`.
   *
   * @param key - A key pair.
   * @param address - An account address, if known.
   * @returns That account's record, or undefined when neither is held.
   */
  holder(key: Key, address?: string): AccountRecord | undefined {
    return (
      this.#backed(key) ??
      (address === undefined
        ? undefined
        : Object.values(this.#store.current.accounts).find(
            (entry) =>
              entry.account.address.toLowerCase() === address.toLowerCase(),
          ))
    );
  }

  /**
   * One key, one account: refuse a key that backs an account already (as an EOA or as a smart
   * account's owner, either way round), and an address an account holds already.
   *
   * @param key - The new account's key.
   * @param address - The new account's address, once known.
   * @param request - What the caller sent, as the error names it (`createAccount options`,
   * `restoreAccount params`).
   * @throws JsonRpcError -32602 naming the existing account's address (never the key).
   */
  assertUnique(
    key: Key,
    address?: string,
    request = 'createAccount options',
  ): void {
    const backed = this.#backed(key);
    if (backed) {
      throw invalidParams(
        `Invalid ${request}: this key already backs account ${backed.account.address}; one key backs one account`,
        { reason: 'keyInUse', address: backed.account.address },
      );
    }
    if (address !== undefined && this.#holds(address)) {
      throw invalidParams(
        `Invalid ${request}: an account with this address exists already`,
        { reason: 'addressInUse', address },
      );
    }
  }

  /**
   * Reserve derivation index `index` of `scheme` and derive its key; the reservation is released
   * if the derivation fails.
   *
   * @param index - The derivation index.
   * @param scheme - Its salt scheme (see derivationSalt).
   * @param source - The entropy source's id; undefined for the primary one.
   * @returns The derived key.
   */
  async #deriveReserved(
    index: number,
    scheme: DerivationScheme,
    source?: string,
  ): Promise<Key> {
    this.#reserved.add(slot(scheme, index, source));
    return this.#deriveKey(index, scheme, source).catch((error: unknown) => {
      this.#reserved.delete(slot(scheme, index, source));
      throw error;
    });
  }

  /**
   * Whether an account holds `address` (case-insensitive).
   *
   * @param address - A 0x-prefixed hex address.
   * @returns True if an account of the keyring has this address.
   */
  #holds(address: string): boolean {
    return Object.values(this.#store.current.accounts).some(
      (entry) => entry.account.address.toLowerCase() === address.toLowerCase(),
    );
  }

  /**
   * The account `key` backs already: the EOA whose key it is, or the smart account it owns.
   *
   * @param key - A key pair (the private key is lower-case hex, as stored).
   * @returns That account's record, or undefined.
   */
  #backed(key: Key): AccountRecord | undefined {
    return Object.values(this.#store.current.accounts).find(
      (entry) => entry.privateKey === key.privateKey.toLowerCase(),
    );
  }
}

/**
 * The reservation key of a derivation index.
 *
 * @param scheme - The salt scheme.
 * @param index - The derivation index.
 * @param source - The entropy source's id; undefined for the primary one.
 * @returns `<source>:<scheme>:<index>` (an empty source for the primary one).
 */
function slot(
  scheme: DerivationScheme,
  index: number,
  source: string | undefined,
): string {
  return `${source ?? ''}:${scheme}:${index}`;
}
