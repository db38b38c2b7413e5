import { IpfsApiError, InvalidContentError } from './errors';

/**
 * Newline-delimited JSON (spec part (b): "for requests returning many objects,
 * Newline Delimited JSON (NDJSON), one object at a time"), parsed as a stream:
 * lines may be split across chunks, and multi-byte UTF-8 characters too.
 *
 * An error object `{ Message, Code?, Type: "error" }` among the items (the API
 * puts it last when a stream fails after its 200) becomes an `IpfsApiError`
 * (status 200, `streamed` true): a failed stream is never a short success.
 */

/**
 * Whether an item is the API's error object.
 *
 * @param item - A parsed item.
 * @returns True for `{ Message: string, Type: "error" }`.
 */
export function isErrorObject(item: unknown): item is { Message: string; Code?: number; Type: 'error' } {
  return (
    typeof item === 'object' &&
    item !== null &&
    (item as { Type?: unknown }).Type === 'error' &&
    typeof (item as { Message?: unknown }).Message === 'string'
  );
}

/**
 * Parse NDJSON from byte chunks.
 *
 * @param chunks - The reply body, chunk by chunk.
 * @param command - The API command (for error messages).
 * @yields Each JSON value, in order.
 * @throws IpfsApiError for an error object; InvalidContentError for a line that is not JSON.
 */
export async function* parseNdjson(chunks: AsyncIterable<Uint8Array>, command: string): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  const parse = (line: string): unknown => {
    let item: unknown;
    try {
      item = JSON.parse(line);
    } catch (error) {
      throw new InvalidContentError(`IPFS ${command} reply is not valid NDJSON: ${line.slice(0, 80)}`, undefined, {
        cause: error,
      });
    }
    if (isErrorObject(item)) {
      throw new IpfsApiError(200, command, item.Message, true);
    }
    return item;
  };
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) {
        yield parse(line);
      }
      newline = buffer.indexOf('\n');
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) {
    yield parse(buffer.trim());
  }
}
