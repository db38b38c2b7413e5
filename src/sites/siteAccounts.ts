import type { KeyringAccount } from '@metamask/keyring-api';
import type { JsonRpcError } from '@metamask/rpc-errors';

import type { KeyringPlatform } from '../keyring/types';
import { MAX_SITE_ACCOUNTS, MAX_SITES } from '../state/schema';
import type { StateStore } from '../state/store';
import { unauthorized } from '../utils/errors';

/**
 * The addresses each site was given, as wallets answer `eth_accounts`: what a site may learn of
 * this snap's accounts (EIP-5792 `wallet_getCapabilities` and the errors of `wallet_sendCalls`;
 * ERC-7715 permissions may use the same). A site is given an address
 *
 * - when the person approves a send it asked for from that account (the send dialog names the site
 *   and the account: {@link SiteAccounts.approved}), or
 * - once per site, when it asks what an address can do and the person lets it know
 *   ({@link SiteAccounts.askOnce}): one dialog a site, whatever the address, shown whether the address
 *   is one of the snap's or not, so the dialog itself tells the site nothing.
 *
 * For any other address, "not one of the snap's accounts" and "one of them, not usable here" get the
 * same answer ({@link notGiven}), so a site cannot test which addresses are the snap's nor read the
 * chain settings without a dialog (EIP-5792, Privacy Considerations). The companion site, which
 * manages the accounts, sees them all (`trusted`).
 *
 * Kept in state (`siteAccounts`): at most {@link MAX_SITES} sites (the one given an address least
 * recently is dropped first) and {@link MAX_SITE_ACCOUNTS} addresses a site (the oldest first). Which
 * sites were asked once is kept in memory: after a restart a site may ask once again.
 */
export class SiteAccounts {
  readonly #store: StateStore;

  readonly #confirm: KeyringPlatform['confirm'];

  readonly #listAccounts: () => Promise<KeyringAccount[]>;

  /** The sites asked once this session (whatever the answer). */
  readonly #asked = new Set<string>();

  /**
   * @param parts - What the record works with.
   * @param parts.store - The state store (`siteAccounts`).
   * @param parts.confirm - The plain confirmation dialog (the one-time question).
   * @param parts.listAccounts - The snap's accounts.
   */
  constructor(parts: {
    store: StateStore;
    confirm: KeyringPlatform['confirm'];
    listAccounts: () => Promise<KeyringAccount[]>;
  }) {
    this.#store = parts.store;
    this.#confirm = parts.confirm;
    this.#listAccounts = parts.listAccounts;
  }

  /**
   * Whether `origin` was given `address`.
   *
   * @param origin - The site.
   * @param address - 20-byte hex, any letter case.
   * @returns True when it was.
   */
  isGiven(origin: string, address: string): boolean {
    return (this.#store.current.siteAccounts?.[origin] ?? []).includes(
      address.toLowerCase(),
    );
  }

  /**
   * The snap's account with this address, for `origin`: any account for a trusted site, else only
   * one the site was given.
   *
   * @param origin - The site.
   * @param address - 20-byte hex, any letter case.
   * @param trusted - Whether the site sees every account (the companion).
   * @returns The account, or undefined (not the snap's, or not given).
   */
  async account(
    origin: string,
    address: string,
    trusted: boolean,
  ): Promise<KeyringAccount | undefined> {
    if (!trusted && !this.isGiven(origin, address)) {
      return undefined;
    }
    return this.anyAccount(address);
  }

  /**
   * The snap's account with this address, whoever asks: for the send path, which must reach the
   * send dialog for an account the site was not given yet (the dialog is where the person gives
   * it).
   *
   * @param address - 20-byte hex, any letter case.
   * @returns The account, or undefined.
   */
  async anyAccount(address: string): Promise<KeyringAccount | undefined> {
    return (await this.#listAccounts()).find(
      (candidate) => candidate.address.toLowerCase() === address.toLowerCase(),
    );
  }

  /**
   * Ask the person, once per site, whether the site may know what `address` can do; give it when
   * the person agrees and it is one of the snap's accounts. The same dialog for any address.
   *
   * @param origin - The site.
   * @param address - 20-byte hex, as the site wrote it.
   * @returns Whether the site was given the address now.
   */
  async askOnce(origin: string, address: string): Promise<boolean> {
    if (this.#asked.has(origin)) {
      return false;
    }
    this.#asked.add(origin);
    const agreed = await this.#confirm(
      'Let this site see an account?',
      `${origin} asks whether ${address} is one of your accounts in this snap and, if it is, on which of your chains it can send and whether its gas can be sponsored there. Allow it only if you want this site to know this account. A site asks this once; it never sends without your confirmation.`,
    );
    if (!agreed || !(await this.anyAccount(address))) {
      return false;
    }
    await this.give(origin, address);
    return true;
  }

  /**
   * Note that the person approved a send `origin` asked for from `address` (the send dialog named
   * both): the site is given the address. Best effort: a failed write is not the send's failure.
   *
   * @param origin - Who asked, as the dialog named it (only a web origin is recorded).
   * @param address - The sending account.
   */
  async approved(origin: string, address: string): Promise<void> {
    if (/^https?:\/\//u.test(origin)) {
      await this.give(origin, address).catch(() => undefined);
    }
  }

  /**
   * Give `origin` the address (kept last: the site and the address are the most recent ones).
   *
   * @param origin - The site.
   * @param address - 20-byte hex, any letter case.
   */
  async give(origin: string, address: string): Promise<void> {
    const lower = address.toLowerCase();
    await this.#store.run(async () => {
      const state = this.#store.draft();
      const sites = { ...state.siteAccounts };
      const given = (sites[origin] ?? []).filter((kept) => kept !== lower);
      delete sites[origin];
      sites[origin] = [...given, lower].slice(-MAX_SITE_ACCOUNTS);
      const origins = Object.keys(sites);
      const over = Math.max(0, origins.length - MAX_SITES);
      for (const dropped of origins.slice(0, over)) {
        delete sites[dropped];
      }
      state.siteAccounts = sites;
      await this.#store.commit(state);
    });
  }
}

/**
 * The one answer for an address a site was not given, whether it is one of the snap's accounts or
 * not, usable on the chain asked or not: 4100 (EIP-1193 unauthorized; EIP-5792 lists it for "the
 * specified address is not connected or not in the wallet").
 *
 * @returns The error to throw.
 */
export function notGiven(): JsonRpcError<never> {
  return unauthorized(
    'That address is not an account this site may use: a site may use an account after you approve a send from it, or let the site see it',
  );
}
