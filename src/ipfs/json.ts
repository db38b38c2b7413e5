import { InvalidContentError } from './errors';

/**
 * JSON from untrusted text (RFC 8259), with the nesting bounded before
 * `JSON.parse` runs: a value nested thousands deep parses, then overflows the
 * stack of whatever walks it (validation, `structuredClone`, `JSON.stringify`).
 */

/** Deepest nesting of arrays/objects accepted in a reply or a document. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` nests arrays/objects deeper than `max` (strings and escapes are skipped).
 *
 * @param text - JSON text (not necessarily valid).
 * @param max - The bound.
 * @returns True when some bracket opens at depth `max + 1`.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) {
        i += 1; // skip the escaped character
      } else if (char === 0x22) {
        inString = false;
      }
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > max) {
        return true;
      }
    } else if (char === 0x5d || char === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Parse one JSON value from untrusted text.
 *
 * @param text - The text.
 * @param what - What it is, for the message (e.g. `IPFS version reply`); the text itself is never echoed.
 * @returns The value.
 * @throws InvalidContentError when it is not JSON or nests deeper than {@link MAX_JSON_DEPTH}.
 */
export function parseJsonText(text: string, what: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new InvalidContentError(
      `${what} nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The SyntaxError quotes the text: not kept as the cause (it may echo credentials).
    throw new InvalidContentError(`${what} is not valid JSON`);
  }
}
