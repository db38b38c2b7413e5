import type { EntropySource } from './recoveryTypes';
import { invalidParams } from '../../utils/errors';

/**
 * The id that stands for the primary Secret Recovery Phrase when MetaMask cannot list its
 * entropy sources (`snap_listEntropySources` unknown): keys then come from `snap_getEntropy`
 * without a `source`, which is the primary phrase.
 */
export const PRIMARY_SOURCE_ID = 'primary';

/** At most this many entropy sources are used from MetaMask's list (the rest are ignored). */
const MAX_SOURCES = 16;

/** An entropy source's name is cut to this many characters. */
const MAX_SOURCE_NAME = 64;

/** An id MetaMask may give: 1 to 128 printable ASCII characters (the state schema's rule). */
const SOURCE_ID = /^[\x21-\x7e]{1,128}$/u;

/**
 * The Secret Recovery Phrases MetaMask holds (SIP-30 `snap_listEntropySources`), read each time
 * (a phrase may be added or removed in MetaMask at any time), checked as untrusted input.
 */
export class EntropySources {
  readonly #list: (() => Promise<unknown>) | undefined;

  /**
   * @param list - MetaMask's `snap_listEntropySources` (undefined where the platform has none).
   */
  constructor(list: (() => Promise<unknown>) | undefined) {
    this.#list = list;
  }

  /**
   * The sources, checked: entries that are not `{ id, name, primary }` with a valid id are left
   * out, at most MAX_SOURCES, names cut to MAX_SOURCE_NAME characters; exactly one is primary
   * (the first listed when MetaMask marks none or several) and it comes first. When MetaMask cannot
   * list them, or lists none, one entry stands for the primary phrase (id PRIMARY_SOURCE_ID).
   *
   * @returns The sources, primary first.
   */
  async list(): Promise<EntropySource[]> {
    let answer: unknown;
    try {
      answer = this.#list ? await this.#list() : undefined;
    } catch {
      answer = undefined; // an older MetaMask: the primary phrase only
    }
    const seen = new Set<string>();
    const sources: EntropySource[] = [];
    for (const entry of Array.isArray(answer) ? answer : []) {
      if (sources.length >= MAX_SOURCES) {
        break;
      }
      const { id, name, primary } = (entry ?? {}) as Record<string, unknown>;
      if (typeof id === 'string' && SOURCE_ID.test(id) && !seen.has(id)) {
        seen.add(id);
        sources.push({
          id,
          name: typeof name === 'string' ? name.slice(0, MAX_SOURCE_NAME) : '',
          primary: primary === true,
        });
      }
    }
    if (sources.length === 0) {
      return [
        {
          id: PRIMARY_SOURCE_ID,
          name: 'Secret Recovery Phrase',
          primary: true,
        },
      ];
    }
    const primaryAt = Math.max(
      sources.findIndex((source) => source.primary),
      0,
    );
    return [
      { ...sources[primaryAt], primary: true },
      ...sources
        .filter((_, at) => at !== primaryAt)
        .map((source) => ({ ...source, primary: false })),
    ];
  }

  /**
   * What `snap_getEntropy` takes as `source` for the entropy source a caller named.
   *
   * @param id - The id a caller gave (from `list`), or undefined for the primary phrase.
   * @param what - Where the id was given, for the error (`createAccount options at entropySource`).
   * @returns Undefined for the primary phrase (it is stored and derived without a source), else the id.
   * @throws JsonRpcError -32602 naming `what` when MetaMask does not list this source (never echoing it).
   */
  async resolve(
    id: string | undefined,
    what: string,
  ): Promise<string | undefined> {
    if (id === undefined) {
      return undefined;
    }
    const source = (await this.list()).find((entry) => entry.id === id);
    if (!source) {
      throw invalidParams(
        `Invalid ${what}: MetaMask holds no Secret Recovery Phrase with this id (see listEntropySources)`,
        { reason: 'unknownEntropySource' },
      );
    }
    return source.primary ? undefined : source.id;
  }
}

/**
 * How a site's dialog names the recovery phrases: MetaMask's names, or `recovery phrase <n>`
 * (`the primary recovery phrase` for an unnamed primary one).
 *
 * @param sources - The phrases, primary first.
 * @returns Their names, in order.
 */
export function phraseNames(sources: EntropySource[]): string[] {
  return sources.map(
    (source, at) =>
      source.name.trim() ||
      (source.primary
        ? 'the primary recovery phrase'
        : `recovery phrase ${at + 1}`),
  );
}

/**
 * The name of a phrase other than the primary one, as an account's suggested name carries it
 * (`Keyring Account 1 (Alternative Secret Recovery Phrase)`; see phraseNames).
 *
 * @param sources - The phrases, primary first (EntropySources.list).
 * @param id - The phrase's id as stored (undefined for the primary phrase).
 * @returns Its name, or undefined for the primary phrase (or one MetaMask no longer lists).
 */
export function phraseLabel(
  sources: EntropySource[],
  id: string | undefined,
): string | undefined {
  const at = sources.findIndex((source) => source.id === id);
  return id === undefined || at <= 0 ? undefined : phraseNames(sources)[at];
}
