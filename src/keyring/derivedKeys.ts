import type { AccountRecord, DerivationScheme } from '../state/schema';
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
  ) => Promise<Key>;

  /** Derivation indexes taken by creations still running (not yet saved), as `<scheme>:<index>`. */
  readonly #reserved = new Set<string>();

  /**
   * @param store - The snap's state store (accounts, next derivation index per scheme).
   * @param deriveKey - Derives the key of an index in a scheme (snap_getEntropy, see derivationSalt).
   */
  constructor(
    store: StateStore,
    deriveKey: (index: number, scheme: DerivationScheme) => Promise<Key>,
  ) {
    this.#store = store;
    this.#deriveKey = deriveKey;
  }

  /**
   * Take the first derivation index of `scheme` from its saved next index that no running creation
   * holds and whose key backs no account (an imported key may), and derive its key.
   *
   * @param scheme - The salt scheme (`eoa` or `erc4337-owner`).
   * @returns The key and its derivation index, which stays reserved until the caller releases it.
   * @throws JsonRpcError -32602 if the next DERIVATION_SKIP_LIMIT keys are all imported already.
   */
  async reserve(
    scheme: DerivationScheme,
  ): Promise<{ key: Key; derivationIndex: number }> {
    let candidate = this.#store.current.nextDerivationIndex[scheme];
    for (
      let tries = 0;
      tries < DERIVATION_SKIP_LIMIT;
      tries += 1, candidate += 1
    ) {
      while (this.#reserved.has(`${scheme}:${candidate}`)) {
        candidate += 1;
      }
      const key = await this.#deriveReserved(candidate, scheme);
      if (!this.#backed(key) && !this.#holds(key.address)) {
        return { key, derivationIndex: candidate };
      }
      this.#reserved.delete(`${scheme}:${candidate}`);
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
   */
  release(scheme: DerivationScheme, index: number): void {
    this.#reserved.delete(`${scheme}:${index}`);
  }

  /**
   * One key, one account: refuse a key that backs an account already (as an EOA or as a smart
   * account's owner, either way round), and an address an account holds already.
   *
   * @param key - The new account's key.
   * @param address - The new account's address, once known.
   * @throws JsonRpcError -32602 naming the existing account's address (never the key).
   */
  assertUnique(key: Key, address?: string): void {
    const backed = this.#backed(key);
    if (backed) {
      throw invalidParams(
        `Invalid createAccount options: this key already backs account ${backed.account.address}; one key backs one account`,
        { reason: 'keyInUse', address: backed.account.address },
      );
    }
    if (address !== undefined && this.#holds(address)) {
      throw invalidParams(
        'Invalid createAccount options: an account with this address exists already',
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
   * @returns The derived key.
   */
  async #deriveReserved(index: number, scheme: DerivationScheme): Promise<Key> {
    this.#reserved.add(`${scheme}:${index}`);
    return this.#deriveKey(index, scheme).catch((error: unknown) => {
      this.#reserved.delete(`${scheme}:${index}`);
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
