import type { Hex } from 'viem';

/**
 * The ERC-4337 nonce key of every operation this snap sends (sendUserOperation, the home page's
 * Send, an EOA's EIP-7702 send): key 0, the one `eth_prepareUserOperation` reads too. One key means
 * one sequence per account (`nonce = key << 64 | sequence`, EntryPoint v0.6 / v0.7 / v0.8), and two
 * operations with the same sequence cannot both run: a retry of a send the bundler refused is
 * signed with the same nonce, so whichever of them lands first spends it and the other fails.
 */
export const SEND_NONCE_KEY = 0n;

/**
 * How long the snap trusts its own record of an accepted, not yet landed operation (ms). Past it,
 * the next send goes back to the EntryPoint's nonce: if that operation is still pending, the new one
 * replaces it or the bundler refuses it; both cannot run.
 */
export const SUBMITTED_NONCE_TTL_MS = 10 * 60_000;

/**
 * How many times, at most, a send reads whether the operation the bundler last accepted for its
 * account has landed before it drafts (see {@link SendNonces.run}): with {@link landingPause}
 * between the reads, about a minute in all.
 */
export const LANDING_READS = 36;

/**
 * The pause after the `attempt`-th read of {@link LANDING_READS}: 250 ms, growing by half each
 * time, at most 2 s.
 *
 * @param attempt - The read's index, from 0.
 * @returns Milliseconds.
 */
export function landingPause(attempt: number): number {
  return Math.min(2_000, Math.round(250 * 1.5 ** attempt));
}

/** One account's sending slot: an EntryPoint on a chain, the sender. */
export type SendSlot = {
  /** The chain's id. */
  chainId: bigint;
  /** The EntryPoint. */
  entryPoint: Hex;
  /** The account (sender). */
  sender: Hex;
};

/**
 * The sends of each account, one after the other, and the nonce each must at least use; and the
 * EOA account nonces the snap signed EIP-7702 authorizations with. In memory only, one per snap
 * instance, shared by its concurrent requests (sendUserOperation and the home page):
 *
 * - {@link SendNonces.run} queues a send behind the one of the same account in progress (from its
 *   draft to the bundler's answer, the dialog included); other accounts are not held. When the
 *   bundler accepted the previous one, the next is drafted only once that one has landed (the
 *   EntryPoint's nonce moved past it), read again and again for about a minute at most: a bundler
 *   that took an operation for a bundle no longer counts it as pending, and the chain does not
 *   count it until the bundle is mined, so an operation with the following nonce sent in between
 *   is refused (AA25); on a busy bundler or chain that window is long.
 * - {@link SendNonces.accepted} records, when the bundler accepts an operation, that the next one
 *   must use the following sequence even before this one lands (the EntryPoint's `getNonce` moves
 *   only then): what a send uses when the landing was not seen within the wait. A refused, failed
 *   or unanswered submission records nothing: the next send of the account reads the same nonce
 *   and replaces it.
 *
 * Safety does not depend on this memory: after a restart, or past {@link SUBMITTED_NONCE_TTL_MS},
 * the nonce is the EntryPoint's again, so a new operation at most collides with a pending one (the
 * bundler refuses or replaces it); it never gets a fresh nonce beside an unlanded one.
 */
export class SendNonces {
  readonly #tails = new Map<string, Promise<void>>();

  readonly #next = new Map<string, { nonce: bigint; until: number }>();

  readonly #accountNonces = new Map<string, bigint>();

  readonly #now: () => number;

  readonly #sleep: (ms: number) => Promise<void>;

  /**
   * @param now - The clock, in milliseconds (tests inject one).
   * @param sleep - Waits `ms` milliseconds (tests inject one).
   */
  constructor(
    now: () => number = Date.now,
    sleep: (ms: number) => Promise<void> = async (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.#now = now;
    this.#sleep = sleep;
  }

  /**
   * Run `send` once every earlier send of the same slot has finished (resolved or failed) and,
   * when the bundler accepted the last of them, once that operation has landed: `landed` (the
   * EntryPoint's nonce of the sender) is read until it reaches the recorded next nonce, at most
   * {@link LANDING_READS} times (a read that fails counts as not landed).
   *
   * @param slot - The account's chain, EntryPoint and sender.
   * @param send - The send; it gets the least nonce it may use: `0n` when none is recorded or the
   * recorded operation has landed (the EntryPoint's own nonce applies), else the recorded next one.
   * @param landed - Reads the EntryPoint's nonce of the sender under the send key; without it
   * nothing is awaited.
   * @returns What `send` returns.
   * @throws What `send` throws (the queue goes on).
   */
  async run<Result>(
    slot: SendSlot,
    send: (floor: bigint) => Promise<Result>,
    landed?: () => Promise<bigint>,
  ): Promise<Result> {
    const key = slotKey(slot);
    const before = this.#tails.get(key) ?? Promise.resolve();
    const { promise: finished, resolve: done } = deferred();
    const mine = before.then(async () => finished);
    this.#tails.set(key, mine);
    await before;
    try {
      return await send(await this.#settled(key, landed));
    } finally {
      done();
      if (this.#tails.get(key) === mine) {
        this.#tails.delete(key);
      }
    }
  }

  /**
   * Record that the bundler accepted the operation of `slot` with `nonce`: later sends use at
   * least `nonce + 1` for {@link SUBMITTED_NONCE_TTL_MS}.
   *
   * @param slot - The account's chain, EntryPoint and sender.
   * @param nonce - The accepted operation's full nonce (`key << 64 | sequence`).
   */
  accepted(slot: SendSlot, nonce: bigint): void {
    const key = slotKey(slot);
    if (nonce + 1n > this.#floor(key)) {
      this.#next.set(key, {
        nonce: nonce + 1n,
        until: this.#now() + SUBMITTED_NONCE_TTL_MS,
      });
    }
  }

  /**
   * Note that the snap signs with an EOA's account nonce (`eth_getTransactionCount`) on a chain: an
   * EIP-7702 authorization or transaction.
   *
   * @param chainId - The chain's id.
   * @param account - The EOA.
   * @param nonce - The account nonce signed with.
   */
  signedAccountNonce(chainId: bigint, account: Hex, nonce: bigint): void {
    const key = `${chainId}:${account}`.toLowerCase();
    if (nonce > (this.#accountNonces.get(key) ?? -1n)) {
      this.#accountNonces.set(key, nonce);
    }
  }

  /**
   * The highest account nonce the snap signed with for an EOA on a chain (account nonces never go
   * down: a lower reading is an RPC's mistake or lie).
   *
   * @param chainId - The chain's id.
   * @param account - The EOA.
   * @returns The nonce, or undefined when the snap signed none this session.
   */
  lastAccountNonce(chainId: bigint, account: Hex): bigint | undefined {
    return this.#accountNonces.get(`${chainId}:${account}`.toLowerCase());
  }

  /**
   * The least nonce a send of the slot may use once the operation recorded as accepted has landed,
   * or the wait is over.
   *
   * @param key - The slot's key.
   * @param landed - Reads the EntryPoint's nonce of the sender, if the caller can.
   * @returns 0 when nothing is recorded or the recorded operation landed; else the recorded next
   * nonce.
   */
  async #settled(
    key: string,
    landed: (() => Promise<bigint>) | undefined,
  ): Promise<bigint> {
    const floor = this.#floor(key);
    if (floor === 0n || landed === undefined) {
      return floor;
    }
    for (let attempt = 0; attempt < LANDING_READS; attempt += 1) {
      const nonce = await landed().catch(() => undefined);
      if (nonce !== undefined && nonce >= floor) {
        this.#next.delete(key);
        return 0n;
      }
      await this.#sleep(landingPause(attempt));
    }
    return this.#floor(key);
  }

  /**
   * The least nonce a send of the slot may use now.
   *
   * @param key - The slot's key.
   * @returns The recorded next nonce, or 0 when none is recorded or it has lapsed.
   */
  #floor(key: string): bigint {
    const entry = this.#next.get(key);
    return entry && entry.until > this.#now() ? entry.nonce : 0n;
  }
}

/** One SendNonces per snap instance, keyed by its state store. */
const PER_STORE = new WeakMap<object, SendNonces>();

/**
 * The SendNonces of a snap instance: every part of it that sends (sendUserOperation, the home
 * page's upgrade) shares one, so their sends of an account queue behind each other.
 *
 * @param store - The instance's state store (any object that identifies the instance).
 * @returns Its SendNonces, created on first use.
 */
export function sendNoncesOf(store: object): SendNonces {
  let nonces = PER_STORE.get(store);
  if (!nonces) {
    nonces = new SendNonces();
    PER_STORE.set(store, nonces);
  }
  return nonces;
}

/**
 * A promise and the function that resolves it.
 *
 * @returns `{ promise, resolve }`.
 */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  const handle = { resolve: (): void => undefined };
  const promise = new Promise<void>((resolve) => {
    handle.resolve = resolve;
  });
  return { promise, resolve: handle.resolve };
}

/**
 * The map key of a slot.
 *
 * @param slot - The slot.
 * @returns `<chain id>:<EntryPoint>:<sender>`, lower case.
 */
function slotKey(slot: SendSlot): string {
  return `${slot.chainId}:${slot.entryPoint}:${slot.sender}`.toLowerCase();
}
