import type { Deadline } from './deadline';
import {
  IpfsApiError,
  IpfsError,
  IpfsTimeoutError,
  IpfsTransportError,
  ResponseTooLargeError,
  scrub,
} from './errors';
import { isRedirect, isRedirectRejection } from '../net/redirect';

/**
 * HTTP transport of the IPFS client (Kubo RPC API, https://docs.ipfs.tech/reference/kubo/rpc/):
 * `POST {apiUrl}/api/v0/<command>?arg=<a1>&arg=<a2>&<flag>=<value>`, HTTP basic
 * credentials on every request when configured, a timeout over the whole
 * exchange (headers and body), the deadline of the read it belongs to, and a
 * cap on the bytes read. Uses only `fetch`,
 * `AbortController`, `TextDecoder` and `btoa`: it runs in Node and in the snap.
 */

/** Why a redirect fails the request (an IpfsTransportError). */
const REDIRECT_REFUSED =
  'the IPFS API answered with a redirect; redirects are not followed';

/** The part of a `fetch` Response the client reads. */
export type ResponseLike = {
  /** The HTTP status. */
  status: number;
  /** Whether the response came through a redirect (WHATWG fetch); such a response is refused. */
  redirected?: boolean;
  /** The body as a byte stream, or null when the implementation has none. */
  body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
};

/** The subset of the WHATWG `fetch` the client uses. */
export type FetchLike = (
  input: string,
  init: {
    /** HTTP method: every Kubo RPC call is a POST. */
    method: 'POST';
    /** Request headers (`Authorization` when configured). */
    headers: Record<string, string>;
    /** Aborts the request on timeout or deadline. */
    signal: AbortSignal;
    /** Always `error`: a redirect rejects the request (WHATWG fetch `RequestRedirect`). */
    redirect: 'error';
  },
) => Promise<ResponseLike>;

/** Resolved settings of one client. */
export type HttpSettings = {
  /** Base URL without trailing slash, e.g. `https://ipfs.example.com:5001`. */
  apiUrl: string;
  /** `Basic ...` header value, or undefined when no credentials are configured. */
  authorization?: string;
  /** Strings that must never appear in a message (key, secret, header). */
  secrets: string[];
  /** The `fetch` implementation. */
  fetch: FetchLike;
  /** Timeout of one request, headers and body, in milliseconds. */
  timeoutMs: number;
};

/** Query of one command: positional `arg`s (repeated) and flags (`encoding=json`). */
export type Query = {
  /** Positional `arg` parameters, in order. */
  args?: string[];
  /** Flags, sent as query parameters. */
  flags?: Record<string, string | number | boolean>;
};

/** The most bytes read from an error body, to extract the server's message. */
const ERROR_BODY_CAP = 16 * 1024;

/**
 * Build `Basic base64(apiKey:apiKeySecret)`, UTF-8 encoded first (btoa takes Latin-1).
 *
 * @param apiKey - The API key (user name).
 * @param apiKeySecret - The API key secret (password).
 * @returns The Authorization header value.
 */
export function basicAuthorization(
  apiKey: string,
  apiKeySecret: string,
): string {
  const bytes = new TextEncoder().encode(`${apiKey}:${apiKeySecret}`);
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return `Basic ${btoa(binary)}`;
}

/**
 * Build the request URL of a command.
 *
 * @param apiUrl - Base URL without trailing slash.
 * @param command - E.g. `cat`, `object/get`.
 * @param query - Arguments and flags.
 * @returns The full URL.
 */
export function commandUrl(
  apiUrl: string,
  command: string,
  query: Query = {},
): string {
  const params = new URLSearchParams();
  for (const arg of query.args ?? []) {
    params.append('arg', arg);
  }
  for (const [name, value] of Object.entries(query.flags ?? {})) {
    params.append(name, String(value));
  }
  const search = params.toString();
  return `${apiUrl}/api/v0/${command}${search ? `?${search}` : ''}`;
}

/** An open reply: a byte reader that enforces the cap, the request timeout and the read's deadline. */
export type Reply = {
  /** The API command, e.g. `cat`. */
  command: string;
  /** Read up to `maxBytes` (throws ResponseTooLargeError beyond); the whole body. */
  bytes(maxBytes: number): Promise<Uint8Array>;
  /** The body as chunks, counting toward `maxBytes`. */
  chunks(maxBytes: number): AsyncGenerator<Uint8Array>;
  /** Abort the request and release the timer (idempotent). */
  close(): void;
};

/**
 * Send one command and return the open 200 reply; any other status becomes an
 * `IpfsApiError` with the server's message (`Message` of a JSON body, else the text).
 * Every wait (headers, each body chunk) is raced against the request timeout
 * and `deadline`, so a `fetch` or a body that ignores the abort signal cannot hold the caller.
 *
 * @param settings - Client settings.
 * @param command - The API command.
 * @param query - Arguments and flags.
 * @param deadline - Deadline of the whole read this request belongs to.
 * @returns The open reply; call `close()` when done (the readers do it).
 * @throws IpfsApiError, IpfsTimeoutError (IpfsDeadlineError when `deadline` passed), IpfsTransportError.
 */
export async function send(
  settings: HttpSettings,
  command: string,
  query: Query = {},
  deadline?: Deadline,
): Promise<Reply> {
  deadline?.check();
  const controller = new AbortController();
  let stopped: 'timeout' | 'deadline' | undefined;
  let rejectStopped: ((reason: Error) => void) | undefined;
  const stoppedPromise = new Promise<never>((_resolve, reject) => {
    rejectStopped = reject;
  });
  stoppedPromise.catch(() => undefined);
  /**
   * Stop the request: record why (the first reason wins), abort it and reject
   * the stopped promise.
   *
   * @param why - The timeout of the request, or the read's deadline.
   */
  const stop = (why: 'timeout' | 'deadline'): void => {
    stopped ??= why;
    controller.abort();
    rejectStopped?.(new Error('aborted'));
  };
  const timer = setTimeout(() => stop('timeout'), settings.timeoutMs);
  const unsubscribe =
    deadline?.onExpire(() => stop('deadline')) ?? ((): void => undefined);
  /** Release the timer and the deadline subscription, and abort the request. */
  const close = (): void => {
    clearTimeout(timer);
    unsubscribe();
    controller.abort();
  };
  /**
   * Release the request and throw the error that explains its failure.
   *
   * @param error - What failed.
   * @throws IpfsDeadlineError or IpfsTimeoutError when stopped; an IpfsError as
   * is; else IpfsTransportError with a scrubbed message.
   */
  const fail = (error: unknown): never => {
    close();
    if (stopped === 'deadline' && deadline) {
      throw deadline.error();
    }
    if (stopped === 'timeout') {
      throw new IpfsTimeoutError(command, settings.timeoutMs);
    }
    if (error instanceof IpfsError) {
      throw error;
    }
    throw new IpfsTransportError(
      command,
      new Error(
        scrub(String((error as Error)?.message ?? error), settings.secrets),
      ),
    );
  };
  /**
   * Await `promise` unless the request is stopped first (its late rejection is swallowed).
   *
   * @param promise - A step of the request (fetch, body read).
   * @returns What `promise` resolves to.
   */
  const guarded = async <Result>(promise: Promise<Result>): Promise<Result> => {
    promise.catch(() => undefined);
    return Promise.race([promise, stoppedPromise]);
  };

  const headers: Record<string, string> = {};
  if (settings.authorization) {
    headers.Authorization = settings.authorization;
  }
  let response: ResponseLike;
  try {
    response = await guarded(
      Promise.resolve().then(async () =>
        settings.fetch(commandUrl(settings.apiUrl, command, query), {
          method: 'POST',
          headers,
          signal: controller.signal,
          // a redirect could lead to http:// or a loopback address: never followed
          redirect: 'error',
        }),
      ),
    );
  } catch (error) {
    return fail(
      isRedirectRejection(error) ? new Error(REDIRECT_REFUSED) : error,
    );
  }
  if (isRedirect(response)) {
    return fail(new Error(REDIRECT_REFUSED));
  }

  /**
   * The body as chunks, each counted toward `maxBytes`.
   *
   * @param maxBytes - The most bytes read.
   * @yields Each chunk of the body.
   * @throws ResponseTooLargeError beyond `maxBytes`; the failure of the
   * request.
   */
  async function* chunks(maxBytes: number): AsyncGenerator<Uint8Array> {
    let total = 0;
    /**
     * Check and count one chunk.
     *
     * @param value - A chunk as the reader gave it.
     * @returns The chunk as a Uint8Array.
     * @throws IpfsTransportError for anything but bytes; ResponseTooLargeError
     * beyond `maxBytes`.
     */
    const counted = (value: unknown): Uint8Array => {
      if (!ArrayBuffer.isView(value)) {
        throw new IpfsTransportError(
          command,
          new Error('the reply body yielded something other than bytes'),
        );
      }
      total += value.byteLength;
      if (total > maxBytes) {
        throw new ResponseTooLargeError(command, maxBytes);
      }
      return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    };
    try {
      if (!response.body) {
        yield counted(new Uint8Array(await guarded(response.arrayBuffer())));
        return;
      }
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value } = await guarded(reader.read());
          if (done) {
            return;
          }
          yield counted(value);
        }
      } finally {
        reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      fail(error);
    } finally {
      close();
    }
  }

  /**
   * The whole body.
   *
   * @param maxBytes - The most bytes read.
   * @returns The body bytes.
   */
  const bytes = async (maxBytes: number): Promise<Uint8Array> => {
    const parts: Uint8Array[] = [];
    let length = 0;
    for await (const part of chunks(maxBytes)) {
      parts.push(part);
      length += part.length;
    }
    const out = new Uint8Array(length);
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  };

  if (response.status !== 200) {
    let text = '';
    const decoder = new TextDecoder();
    for await (const part of chunks(Number.MAX_SAFE_INTEGER)) {
      text += decoder.decode(part, { stream: true });
      if (text.length >= ERROR_BODY_CAP) {
        break; // the message is at the start; stop reading (closes the request)
      }
    }
    throw new IpfsApiError(
      response.status,
      command,
      scrub(serverMessage(text), settings.secrets),
    );
  }
  return { command, bytes, chunks, close };
}

/**
 * The server's message from an error body: `Message` of a JSON object (the
 * last JSON line when there are several), else the text itself.
 *
 * @param text - The error body.
 * @returns The message.
 */
export function serverMessage(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const line of lines.reverse()) {
    try {
      const value = JSON.parse(line) as Record<string, unknown> | null;
      const message = value?.Message ?? value?.message;
      if (typeof message === 'string') {
        return message;
      }
    } catch {
      break;
    }
  }
  return text;
}
