/**
 * A small in-memory cache of verified content, keyed by CID (content-addressed,
 * so an entry can never go stale). Bounded by total bytes; the oldest entries
 * go first. Values are copied in and out, so callers cannot alter an entry.
 */
export class ByteCache {
  readonly #entries = new Map<string, Uint8Array>();

  readonly #maxBytes: number;

  #bytes = 0;

  /**
   * @param maxBytes - Total size of the entries kept, in bytes (0 disables the cache).
   */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /**
   * @param key - The entry's key (a kind and a CID).
   * @returns A copy of the bytes, or undefined.
   */
  get(key: string): Uint8Array | undefined {
    const value = this.#entries.get(key);
    return value ? value.slice() : undefined;
  }

  /**
   * @param key - The entry's key.
   * @param value - Verified bytes (copied).
   */
  set(key: string, value: Uint8Array): void {
    if (
      this.#maxBytes === 0 ||
      value.length > this.#maxBytes ||
      this.#entries.has(key)
    ) {
      return;
    }
    this.#entries.set(key, value.slice());
    this.#bytes += value.length;
    for (const [oldest, bytes] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) {
        break;
      }
      this.#entries.delete(oldest);
      this.#bytes -= bytes.length;
    }
  }
}
