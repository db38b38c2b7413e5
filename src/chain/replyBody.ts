import type { Reply, ResponseLike } from './transportTypes';

/**
 * Reading a reply body for the JSON-RPC transport (src/chain/transport.ts): at
 * most a cap of bytes, and recognising a JSON-RPC error reply sent with HTTP 4xx.
 */

/**
 * A 4xx body that is a JSON-RPC error reply (some nodes send -32600/-32602 with
 * HTTP 400): surfaced as the JSON-RPC error rather than a bare HTTP fault.
 *
 * @param text - The HTTP body.
 * @returns The parsed reply, or undefined when the body is not a JSON-RPC error.
 */
export function jsonRpcErrorBody(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    const items = Array.isArray(parsed) ? parsed : [parsed];
    /**
     * Whether a reply item is a JSON-RPC 2.0 error reply.
     *
     * @param item - The parsed item.
     * @returns True when it has `jsonrpc: "2.0"` and an `error` object.
     */
    const isError = (item: unknown): boolean =>
      typeof item === 'object' &&
      item !== null &&
      (item as Reply).jsonrpc === '2.0' &&
      typeof (item as Reply).error === 'object';
    return items.length > 0 && items.every(isError) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Read a reply body, at most `maxBytes` bytes: from the byte stream when the
 * response has one (stops reading past the cap), else from `text()` (checked
 * after the fact). A `Content-Length` above the cap is refused before reading.
 *
 * @param response - The fetch response.
 * @param maxBytes - The cap, in bytes.
 * @returns The body as text (UTF-8).
 * @throws RangeError when the body exceeds the cap.
 */
export async function readCapped(
  response: ResponseLike,
  maxBytes: number,
): Promise<string> {
  const declared = Number(
    response.headers?.get('content-length') ?? Number.NaN,
  );
  if (declared > maxBytes) {
    throw new RangeError(
      `reply of ${declared} bytes exceeds the cap of ${maxBytes} bytes`,
    );
  }
  if (!response.body) {
    const text = await response.text();
    if (text.length > maxBytes) {
      throw new RangeError(`reply exceeds the cap of ${maxBytes} bytes`);
    }
    return text;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return text + decoder.decode();
      }
      total += value.byteLength;
      if (total > maxBytes) {
        throw new RangeError(`reply exceeds the cap of ${maxBytes} bytes`);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Whether a parsed JSON-RPC reply (or a member of a batch reply) is a plain object (not null, not an
 * array).
 *
 * @param value - The parsed value.
 * @returns True for an object.
 */
export const isReplyObject = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
