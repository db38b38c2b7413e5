import type { Deadline } from './deadline';
import { IpfsApiError, InvalidContentError, scrub } from './errors';
import { send } from './http';
import type { HttpSettings, Query } from './http';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonText } from './json';

/**
 * JSON replies of the Kubo RPC API (https://docs.ipfs.tech/reference/kubo/rpc/):
 * a command returning one value sends one JSON document (some servers
 * pretty-print it over several lines); a command returning many sends
 * newline-delimited JSON (NDJSON), one value per line, parsed here as a stream
 * (lines and multi-byte UTF-8 characters may be split across chunks).
 *
 * An error object `{ Message, Code?, Type: "error" }` among the items (the API
 * puts it last when a stream fails after its 200) becomes an `IpfsApiError`
 * (status 200, `streamed` true) whose message is scrubbed of the credentials:
 * a failed stream is never a short success.
 */

/**
 * Whether an item is the API's error object.
 *
 * @param item - A parsed item.
 * @returns True for `{ Message: string, Type: "error" }`.
 */
export function isErrorObject(item: unknown): item is {
  /** The error message. */
  Message: string; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** Kubo's error code. */
  Code?: number; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
  /** Always `error`. */
  Type: 'error'; // eslint-disable-line @typescript-eslint/naming-convention -- Kubo RPC JSON field name
} {
  return (
    typeof item === 'object' &&
    item !== null &&
    (item as Record<string, unknown>).Type === 'error' &&
    typeof (item as Record<string, unknown>).Message === 'string'
  );
}

/**
 * Throw the API error an item carries, if any.
 *
 * @param item - A parsed item.
 * @param command - The API command.
 * @param secrets - Strings removed from the message.
 * @returns The item when it is not an error object.
 * @throws IpfsApiError (status 200, streamed) for an error object.
 */
function checkItem(item: unknown, command: string, secrets: string[]): unknown {
  if (isErrorObject(item)) {
    throw new IpfsApiError(200, command, scrub(item.Message, secrets), true);
  }
  return item;
}

/**
 * Parse NDJSON from byte chunks.
 *
 * @param chunks - The reply body, chunk by chunk (its size is capped by the reader).
 * @param command - The API command (for error messages).
 * @param secrets - Strings removed from any server message (API key, secret, header).
 * @yields Each JSON value, in order.
 * @throws IpfsApiError for an error object; InvalidContentError for a line that is not JSON
 * or nests deeper than 64 levels (the line is not echoed).
 */
export async function* parseNdjson(
  chunks: AsyncIterable<Uint8Array>,
  command: string,
  secrets: string[] = [],
): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let lineNumber = 0;
  /**
   * Parse one NDJSON line and throw the API error it carries, if any.
   *
   * @param line - The line, without its newline.
   * @returns The parsed item.
   */
  const parse = (line: string): unknown =>
    checkItem(
      parseJsonText(line, `IPFS ${command} reply line ${lineNumber}`),
      command,
      secrets,
    );
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      lineNumber += 1;
      if (line) {
        yield parse(line);
      }
      newline = buffer.indexOf('\n');
    }
  }
  buffer += decoder.decode();
  lineNumber += 1;
  if (buffer.trim()) {
    yield parse(buffer.trim());
  }
}

/**
 * Parse the reply of a command that returns one JSON value: the whole body as
 * one document (compact or pretty-printed), else NDJSON holding exactly one value.
 *
 * @param text - The whole body (size already capped).
 * @param command - The API command.
 * @param secrets - Strings removed from any server message.
 * @returns The value.
 * @throws IpfsApiError for an error object; InvalidContentError when the body is not one JSON value.
 */
export function parseJsonReply(
  text: string,
  command: string,
  secrets: string[] = [],
): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new InvalidContentError(
      `IPFS ${command} reply nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  }
  let items: unknown[];
  try {
    items = [JSON.parse(text) as unknown];
  } catch {
    items = text
      .split('\n')
      .map((line, index) =>
        line.trim()
          ? parseJsonText(line, `IPFS ${command} reply line ${index + 1}`)
          : undefined,
      )
      .filter((item) => item !== undefined);
  }
  for (const item of items) {
    checkItem(item, command, secrets);
  }
  if (items.length !== 1) {
    throw new InvalidContentError(
      `IPFS ${command} replied with ${items.length} JSON values, expected one`,
    );
  }
  return items[0];
}

/**
 * Send a command whose reply is one JSON value and parse it.
 *
 * @param settings - Client settings.
 * @param command - The API command.
 * @param query - Arguments and flags.
 * @param maxBytes - Cap on the reply body, in bytes.
 * @param deadline - Deadline of the read.
 * @returns The value (unverified).
 * @throws IpfsApiError, InvalidContentError, ResponseTooLargeError, IpfsTimeoutError, IpfsTransportError.
 */
export async function requestJson(
  settings: HttpSettings,
  command: string,
  query: Query | undefined,
  maxBytes: number,
  deadline?: Deadline,
): Promise<unknown> {
  const reply = await send(settings, command, query, deadline);
  const text = new TextDecoder('utf-8').decode(await reply.bytes(maxBytes));
  return parseJsonReply(text, command, settings.secrets);
}
