/**
 * Text that goes back to a caller in an error: short, naming fields and expectations, never the
 * value a caller sent (a private key typed into the wrong field must not come back in the reply).
 */

/** Longest error message the snap returns (characters). */
export const MAX_MESSAGE_LENGTH = 300;

/** How deep {@link defang} copies a value (JSON levels); deeper parts are replaced. */
const DEFANG_DEPTH = 64;

/**
 * A field name as it may appear in a message: an identifier of at most 20 characters with fewer
 * than 3 digits (`apiUrl`, `private_key`, `maxPriorityFeePerGas`), an array index, or a chain scope
 * (`eip155:1`). Anything else is `<key>`: an unknown key may be a secret typed in the wrong place,
 * and API keys are long, random-looking strings.
 *
 * @param segment - One path segment (object key or array index).
 * @returns The segment, or `<key>`.
 */
export function fieldName(segment: unknown): string {
  const text =
    typeof segment === 'string' || typeof segment === 'number'
      ? String(segment)
      : '';
  const identifier =
    /^[A-Za-z_$][A-Za-z0-9_$]{0,19}$/u.test(text) &&
    (text.match(/[0-9]/gu) ?? []).length < 3;
  return identifier ||
    /^[0-9]{1,6}$/u.test(text) ||
    /^eip155:[0-9]{1,18}$/u.test(text)
    ? text
    : '<key>';
}

/**
 * @param path - Object keys and array indexes from the root.
 * @returns The dotted path with each segment passed through {@link fieldName}.
 */
export function fieldPath(path: readonly unknown[]): string {
  return path.map(fieldName).join('.');
}

/**
 * @param message - A message built by the snap.
 * @returns It, cut to {@link MAX_MESSAGE_LENGTH} characters.
 */
export function bounded(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH
    ? message
    : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/**
 * Text from a server (a node's, bundler's or paymaster's message, a decoded revert reason) as it
 * may go back to a caller: control, format and bidirectional-override characters become spaces,
 * runs of white space one space, and the result is cut to `max` characters (code points, an
 * ellipsis marking the cut).
 *
 * @param text - Untrusted text.
 * @param max - Largest length kept, in characters (default {@link MAX_MESSAGE_LENGTH}).
 * @returns The printable text, at most `max` characters.
 */
export function printable(text: string, max = MAX_MESSAGE_LENGTH): string {
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A caller-supplied name (a method) shown only when it is one the snap knows.
 *
 * @param name - The name as received.
 * @param known - The names that may be echoed.
 * @returns `'<name>'` in quotes, or `this method`.
 */
export function knownName(name: unknown, known: Iterable<string>): string {
  return typeof name === 'string' && [...known].includes(name)
    ? `'${name}'`
    : 'this method';
}

/**
 * What a superstruct failure message expected, without the value it received (superstruct
 * appends `, but received: <value>` or ` but received "<value>"`).
 *
 * @param message - A superstruct failure message.
 * @returns The expectation alone, e.g. `Expected a string`.
 */
export function expectation(message: string): string {
  if (message.startsWith('Expected a value of type `never`')) {
    return 'unknown field';
  }
  return bounded(message.replace(/,?\s*but received\b[\s\S]*$/u, ''));
}

/**
 * A superstruct StructError message (`At path: a.b -- Expected …, but received: …`) rewritten
 * without the value and with safe field names: what keyring-snap-sdk passes on as a plain Error.
 *
 * @param message - The message.
 * @returns `at <path>: <expectation>` (or the expectation alone), at most MAX_MESSAGE_LENGTH characters.
 */
export function structMessage(message: string): string {
  const match = /^At path: ([\s\S]*?) -- ([\s\S]*)$/u.exec(message);
  if (!match) {
    return expectation(message);
  }
  return bounded(
    `at ${fieldPath(match[1].split('.'))}: ${expectation(match[2])}`,
  );
}

/**
 * A copy of a JSON value that superstruct can describe in a failure message: superstruct prints a
 * received value with a template string, which throws a TypeError for an object whose `toString`
 * and `valueOf` keys hold data (`{ "toString": "x" }`). Each copied object gets a hidden
 * `Symbol.toPrimitive`, so validation sees the same keys and values and never throws.
 *
 * @param value - Untrusted JSON.
 * @param depth - Levels left to copy.
 * @returns The copy (parts deeper than 64 levels become `null`).
 */
export function defang(value: unknown, depth = DEFANG_DEPTH): unknown {
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  if (depth === 0) {
    return null;
  }
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? value.map((item: unknown) => defang(item, depth - 1))
    : Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          defang(item, depth - 1),
        ]),
      );
  Object.defineProperty(copy, Symbol.toPrimitive, {
    value: () => '[value]',
    enumerable: false,
  });
  return copy;
}

/**
 * An id as it may appear in a message: quoted when it is a UUID (keyring-api account and request
 * ids), else `with this id` (an unvalidated string may be anything, a key included).
 *
 * @param id - The id as received.
 * @returns `'<uuid>'` or `with this id`.
 */
export function quoteId(id: unknown): string {
  return typeof id === 'string' &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(id)
    ? `'${id}'`
    : 'with this id';
}

/**
 * `record[key]` only when it is the record's own entry: `__proto__`, `constructor` and
 * `toString` are not entries of a plain record.
 *
 * @param record - A plain JSON record.
 * @param key - Untrusted key.
 * @returns The entry, or undefined.
 */
export function ownEntry<Value>(
  record: Readonly<Record<string, Value>>,
  key: string,
): Value | undefined {
  return Object.prototype.hasOwnProperty.call(record, key)
    ? record[key]
    : undefined;
}

/**
 * The first failure of a superstruct StructError without `failures()`, which runs the rest of the
 * validation lazily and can throw the same TypeError (see {@link defang}) on a later field.
 *
 * @param error - A StructError: its own fields are the first failure's; its message is
 * `At path: <path> -- <message>` (or `<message>` at the root).
 * @param error.path - The failing path.
 * @param error.type - The failing struct's type.
 * @param error.value - The failing value.
 * @param error.message - The error message.
 * @returns `{ path, type, value, message }` with the failure's own message.
 */
export function firstFailure(error: {
  path: readonly unknown[];
  type: string;
  value: unknown;
  message: string;
}): {
  path: readonly unknown[];
  type: string;
  value: unknown;
  message: string;
} {
  const prefix =
    error.path.length > 0 ? `At path: ${error.path.join('.')} -- ` : '';
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return { path: error.path, type: error.type, value: error.value, message };
}

/**
 * Characters that change how the text around them is shown without being seen: C0 controls
 * except the line feed, DEL, C1 controls (U+0080–U+009F), the Unicode bidirectional marks,
 * embeddings, overrides and isolates (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069, see
 * Unicode UAX #9 and CVE-2021-42574 "Trojan Source"), and the invisible separators U+200B, U+2028,
 * U+2029, U+2060 and U+FEFF.
 */
const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- the point: find control characters in text from outside
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/gu;

/**
 * Text from outside the snap (a message, an account or metadata name, a typed-data string, a
 * site's origin) made safe to show: each character of {@link HIDDEN_CHARACTERS} becomes U+FFFD
 * (`�`), so a right-to-left override cannot reverse what a person reads and a hidden character
 * leaves a visible mark. Line feeds are kept; nothing else changes.
 *
 * @param text - The untrusted text.
 * @returns The text with those characters replaced.
 */
export function displayText(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, '\ufffd');
}

/**
 * Whether text contains a character {@link displayText} replaces.
 *
 * @param text - The text.
 * @returns True when it has one.
 */
export function hasHiddenCharacters(text: string): boolean {
  return new RegExp(HIDDEN_CHARACTERS.source, 'u').test(text);
}
