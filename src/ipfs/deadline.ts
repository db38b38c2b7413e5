import { IpfsDeadlineError } from './errors';

/**
 * The deadline of one client read (all its requests and the work between
 * them). Built on `setTimeout` only: no `Date` (tamed inside SES compartments)
 * and no `Event`, so it runs in the snap sandbox.
 */
export class Deadline {
  /** Duration, in milliseconds. */
  readonly ms: number;

  readonly #operation: string;

  readonly #listeners = new Set<() => void>();

  readonly #timer: ReturnType<typeof setTimeout>;

  #expired = false;

  /**
   * Start the clock.
   *
   * @param operation - The client method (for the error message).
   * @param ms - Duration, in milliseconds.
   */
  constructor(operation: string, ms: number) {
    this.#operation = operation;
    this.ms = ms;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      for (const listener of [...this.#listeners]) {
        listener();
      }
      this.#listeners.clear();
    }, ms);
  }

  /** @returns True once the deadline has passed. */
  get expired(): boolean {
    return this.#expired;
  }

  /** @returns The error this deadline reports. */
  error(): IpfsDeadlineError {
    return new IpfsDeadlineError(this.#operation, this.ms);
  }

  /**
   * Throw when the deadline has passed (called between steps of a read).
   *
   * @throws IpfsDeadlineError.
   */
  check(): void {
    if (this.#expired) {
      throw this.error();
    }
  }

  /**
   * Run `listener` when the deadline passes (at once when it already has).
   *
   * @param listener - Callback.
   * @returns A function removing the listener.
   */
  onExpire(listener: () => void): () => void {
    if (this.#expired) {
      listener();
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Settle with `work`, or reject with IpfsDeadlineError when the deadline comes first.
   *
   * @param work - The read.
   * @returns What `work` resolves to.
   * @throws IpfsDeadlineError, or what `work` throws.
   */
  async race<Result>(work: Promise<Result>): Promise<Result> {
    let remove: (() => void) | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      remove = this.onExpire(() => reject(this.error()));
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      remove?.();
    }
  }

  /** Stop the clock (idempotent). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#listeners.clear();
  }
}
