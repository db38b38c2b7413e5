import {
  affords,
  isRateLimit,
  isRetryable,
  jitter,
  retryAfterMs,
  sleep,
  spend,
} from './backoff';
import {
  fromRpcError,
  ChainRpcError,
  RateLimitedError,
  TransportError,
} from './errors';
import { originOf, redact } from './mask';
import { isReplyObject, jsonRpcErrorBody, readCapped } from './replyBody';
import { DEFAULT_MAX_REPLY_BYTES, READ_ONLY_METHODS } from './transportTypes';
import type {
  FetchLike,
  Reply,
  RpcCall,
  Settled,
  Transport,
  TransportOptions,
} from './transportTypes';
import { isRedirect, isRedirectRejection } from '../net/redirect';

/**
 * JSON-RPC 2.0 over HTTP POST (JSON-RPC 2.0 specification, jsonrpc.org: requests, replies,
 * batches): numeric ids echoed and checked, batches matched by id in any order, a timeout per HTTP
 * attempt, a cap on the bytes of a reply body, bounded retries with exponential backoff and jitter
 * for read-only methods on transport faults, HTTP 429 and 5xx. Rate limits (HTTP 429, honouring
 * `Retry-After`, RFC 9110 §10.2.3; a JSON-RPC -32005 that is not a result cap) are retried as the
 * same call (a batch re-sends only its rate-limited members), within the same retry and time
 * bounds, then surface as RateLimitedError. An optional CallBudget, shared by several transports,
 * pays for every attempt, retries included, and cuts them at its deadline. Redirects are never
 * followed (`redirect: 'error'`; a 3xx or redirected response is an `http` TransportError naming
 * the service). Errors name the endpoint's origin only. Not viem's `http` transport, see
 * docs/decisions.md.
 */

export {
  DEFAULT_MAX_REPLY_BYTES,
  READ_ONLY_METHODS,
  type BatchOptions,
  type FetchLike,
  type ResponseLike,
  type RpcCall,
  type Settled,
  type Transport,
  type TransportOptions,
  type CallBudget,
} from './transportTypes';

/**
 * Create a JSON-RPC transport. Nothing is sent until a method is called.
 *
 * @param options - Endpoint, fetch, timeout, reply cap and retry bounds.
 * @returns The transport.
 */
export function createTransport(options: TransportOptions): Transport {
  const { url } = options;
  const origin = originOf(url);
  const doFetch: FetchLike = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const retries = Math.max(0, Math.min(options.retries ?? 3, 10));
  const baseDelay = options.retryDelayMs ?? 200;
  const maxElapsed = options.retryMaxElapsedMs ?? 30_000;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const service = options.service ?? 'JSON-RPC endpoint';
  const redirectRefused = `the ${service} answered with a redirect; redirects are not followed`;
  const wait = options.sleep ?? sleep;
  /** The Retry-After of each HTTP 429 fault, in milliseconds. */
  const retryAfter = new WeakMap<TransportError, number>();
  /**
   * The backoff before a retry: the base delay doubled per attempt, with jitter.
   *
   * @param retry - The retry's number, from 1.
   * @returns The delay, in milliseconds.
   */
  const delayMs = (retry: number): number =>
    baseDelay * 2 ** (retry - 1) * jitter();
  let nextId = 1;

  /**
   * A TransportError whose message is scrubbed of the endpoint's secrets and
   * names its origin.
   *
   * @param kind - The class of fault.
   * @param text - The message.
   * @param extra - HTTP status and cause.
   * @param extra.status - The HTTP status.
   * @param extra.cause - The underlying error.
   * @returns The error (not thrown).
   */
  const fault = (
    kind: TransportError['kind'],
    text: string,
    extra: {
      /** The HTTP status. */
      status?: number;
      /** The underlying error. */
      cause?: unknown;
    } = {},
  ): TransportError =>
    new TransportError(kind, `${redact(text, url)} (${origin})`, {
      url: origin,
      ...extra,
    });

  /**
   * One HTTP attempt: POST `body`, return the parsed JSON reply.
   *
   * @param body - The serialised JSON-RPC request or batch.
   * @param calls - The JSON-RPC calls in it (taken from the budget).
   * @returns The parsed JSON reply.
   */
  async function attempt(body: string, calls: number): Promise<unknown> {
    const limit = spend(options.budget, calls, timeoutMs);
    if (limit === undefined) {
      throw fault('budget', 'the call or time budget is spent: not sent');
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), limit);
    let text: string;
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        signal: controller.signal,
        // a redirect could lead to http:// or a loopback address: the https-only rule holds for the URL given
        redirect: 'error',
      });
      if (isRedirect(response)) {
        controller.abort();
        throw fault('http', redirectRefused, { status: response.status });
      }
      try {
        text = await readCapped(response, maxReplyBytes);
      } catch (error) {
        if (error instanceof RangeError) {
          controller.abort();
          throw fault('tooLarge', error.message);
        }
        throw error;
      }
      if (!response.ok) {
        const rpcReply =
          response.status === 429 || response.status >= 500
            ? undefined
            : jsonRpcErrorBody(text);
        if (rpcReply !== undefined) {
          return rpcReply;
        }
        const error = fault(
          'http',
          `HTTP ${response.status} from the ${service}`,
          {
            status: response.status,
          },
        );
        const asked =
          response.status === 429
            ? retryAfterMs(response.headers?.get('retry-after'))
            : undefined;
        if (asked !== undefined) {
          retryAfter.set(error, asked);
        }
        throw error;
      }
    } catch (error) {
      if (error instanceof TransportError) {
        throw error;
      }
      if (controller.signal.aborted) {
        throw fault('timeout', `no reply within ${limit} ms`);
      }
      if (isRedirectRejection(error)) {
        throw fault('http', redirectRefused);
      }
      const detail = error instanceof Error ? error.message : String(error);
      throw fault('network', `network error: ${detail}`);
    } finally {
      clearTimeout(timer);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw fault(
        'malformed',
        `reply is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
      );
    }
  }

  /**
   * POST with bounded retries (only when `mayRetry`).
   *
   * @param body - The serialised JSON-RPC request or batch.
   * @param calls - The JSON-RPC calls in it.
   * @param mayRetry - Whether the call is read-only, so safe to retry.
   * @param retryTimeouts - Whether a timeout is retried (default true).
   * @returns The parsed JSON reply.
   */
  async function post(
    body: string,
    calls: number,
    mayRetry: boolean,
    retryTimeouts = true,
  ): Promise<unknown> {
    const started = Date.now();
    let waited = 0;
    for (let attemptNo = 1; ; attemptNo += 1) {
      try {
        return await attempt(body, calls);
      } catch (error) {
        const asked =
          error instanceof TransportError ? retryAfter.get(error) : undefined;
        const delay = Math.max(delayMs(attemptNo), asked ?? 0);
        const canRetry =
          mayRetry &&
          isRetryable(error, retryTimeouts) &&
          attemptNo <= retries &&
          Math.max(Date.now() - started, waited) + delay <= maxElapsed;
        if (canRetry && !affords(options.budget, calls, delay)) {
          throw fault('budget', 'the call or time budget cannot pay a retry');
        }
        if (!canRetry) {
          if (error instanceof TransportError && error.status === 429) {
            throw new RateLimitedError(origin, {
              attempts: attemptNo,
              status: 429,
              retryAfterMs: asked,
              method: 'request',
              cause: error,
            });
          }
          if (error instanceof TransportError) {
            const suffix = attemptNo > 1 ? ` after ${attemptNo} attempts` : '';
            throw new TransportError(error.kind, `${error.message}${suffix}`, {
              url: origin,
              status: error.status,
              attempts: attemptNo,
            });
          }
          throw error;
        }
        waited += delay;
        await wait(delay);
      }
    }
  }

  /**
   * Re-send the rate-limited read-only calls of a settled batch (and only
   * those: the answered ones are kept) after a backoff, as the same calls,
   * until none is rate-limited or the retry bounds are reached; those still
   * rate-limited then settle as RateLimitedError.
   *
   * @param calls - The calls.
   * @param first - Their first settlement.
   * @param send - Sends some of the calls, settled in order.
   * @returns The settlement after the retries.
   */
  async function retryRateLimited(
    calls: readonly RpcCall[],
    first: Settled[],
    send: (some: RpcCall[]) => Promise<Settled[]>,
  ): Promise<Settled[]> {
    const settled = [...first];
    const started = Date.now();
    let waited = 0;
    for (let attemptNo = 1; ; attemptNo += 1) {
      const limited = settled.flatMap((item, index) =>
        !item.ok &&
        isRateLimit(item.error) &&
        READ_ONLY_METHODS.has(calls[index].method)
          ? [index]
          : [],
      );
      if (limited.length === 0) {
        return settled;
      }
      const asked = Math.max(
        0,
        ...limited.map((index) => {
          const { error } = settled[index] as { error: ChainRpcError };
          // Infura's -32005 data: { backoff_seconds }.
          const backoff =
            typeof error.data === 'object' && error.data !== null
              ? (error.data as Record<string, unknown>).backoff_seconds
              : undefined;
          return (
            retryAfterMs(typeof backoff === 'number' ? backoff : undefined) ?? 0
          );
        }),
      );
      const delay = Math.max(delayMs(attemptNo), asked);
      if (
        attemptNo > retries ||
        Math.max(Date.now() - started, waited) + delay > maxElapsed ||
        !affords(options.budget, limited.length, delay)
      ) {
        for (const index of limited) {
          const { error } = settled[index] as { error: ChainRpcError };
          settled[index] = {
            ok: false,
            error: new RateLimitedError(origin, {
              attempts: attemptNo,
              method: calls[index].method,
              cause: error,
            }),
          };
        }
        return settled;
      }
      waited += delay;
      await wait(delay);
      const again = await send(limited.map((index) => calls[index]));
      limited.forEach((index, i) => {
        settled[index] = again[i];
      });
    }
  }

  /**
   * Check one reply object and turn it into a settled item (the node's message scrubbed of the endpoint's secrets).
   *
   * @param reply - The reply object.
   * @param method - The JSON-RPC method it answers.
   * @returns The settled item.
   */
  function settle(reply: Reply, method: string): Settled {
    if (reply.jsonrpc !== '2.0') {
      throw fault(
        'malformed',
        `reply to ${method} has jsonrpc ${JSON.stringify(reply.jsonrpc)?.slice(0, 40)}, not "2.0"`,
      );
    }
    if (reply.error !== undefined && reply.error !== null) {
      return { ok: false, error: rpcError(reply.error, method) };
    }
    if (!('result' in reply)) {
      throw fault(
        'malformed',
        `reply to ${method} has neither result nor error`,
      );
    }
    return { ok: true, result: reply.result };
  }

  /**
   * The typed error of an error object, its message scrubbed of the endpoint's secrets.
   *
   * @param error - The reply's `error` member.
   * @param method - The JSON-RPC method it answers.
   * @returns The error (not thrown).
   */
  function rpcError(error: unknown, method: string): ChainRpcError {
    const object: Record<string, unknown> = isReplyObject(error) ? error : {};
    // redact before cutting, so no cut leaves part of a secret behind (the body is already capped)
    const message =
      typeof object.message === 'string'
        ? redact(object.message, url).slice(0, 2000)
        : object.message;
    return fromRpcError({ ...(error as object), message }, method);
  }

  return {
    origin,
    retry: { retries, delayMs },

    /** @inheritdoc */
    async request(method, params = []): Promise<unknown> {
      const first = await requestOnce(method, params);
      const [settled] = await retryRateLimited(
        [{ method, params }],
        [first],
        async () => [await requestOnce(method, params)],
      );
      if (!settled.ok) {
        throw settled.error;
      }
      return settled.result;
    },

    /** @inheritdoc */
    async batchSettled(calls, batchOptions = {}): Promise<Settled[]> {
      if (calls.length === 0) {
        return [];
      }
      const retryTimeouts = batchOptions.retryTimeouts ?? true;
      return retryRateLimited(
        calls,
        await sendBatch(calls, retryTimeouts),
        async (some) => sendBatch(some, retryTimeouts),
      );
    },
  };

  /**
   * One call, one POST (with the transport-fault retries of `post`).
   *
   * @param method - The JSON-RPC method.
   * @param params - Its parameters.
   * @returns The settled reply.
   */
  async function requestOnce(
    method: string,
    params: readonly unknown[],
  ): Promise<Settled> {
    const id = nextId;
    nextId += 1;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const reply = await post(body, 1, READ_ONLY_METHODS.has(method));
    if (!isReplyObject(reply)) {
      throw fault('malformed', `reply to ${method} is not a JSON-RPC object`);
    }
    if (reply.id !== id) {
      if (reply.id === null && isReplyObject(reply.error)) {
        throw rpcError(reply.error, method);
      }
      throw fault(
        'malformed',
        `reply to ${method} has id ${JSON.stringify(reply.id)?.slice(0, 40)}, expected ${id}`,
      );
    }
    return settle(reply, method);
  }

  /**
   * One batch, one POST (with the transport-fault retries of `post`).
   *
   * @param calls - The calls (at least one).
   * @param retryTimeouts - Whether a timeout is retried.
   * @returns Each call's settlement, in call order.
   */
  async function sendBatch(
    calls: readonly RpcCall[],
    retryTimeouts: boolean,
  ): Promise<Settled[]> {
    const ids = calls.map(() => {
      const id = nextId;
      nextId += 1;
      return id;
    });
    const body = JSON.stringify(
      calls.map((call, index) => ({
        jsonrpc: '2.0',
        id: ids[index],
        method: call.method,
        params: call.params ?? [],
      })),
    );
    const readOnly = calls.every((call) => READ_ONLY_METHODS.has(call.method));
    const reply = await post(body, calls.length, readOnly, retryTimeouts);
    if (!Array.isArray(reply)) {
      if (isReplyObject(reply) && isReplyObject(reply.error)) {
        throw rpcError(reply.error, 'batch');
      }
      throw fault('malformed', 'reply to a batch is not an array');
    }
    const byId = new Map<number, Reply>();
    for (const item of reply) {
      if (
        !isReplyObject(item) ||
        typeof item.id !== 'number' ||
        !ids.includes(item.id)
      ) {
        throw fault(
          'malformed',
          `batch reply holds an unknown id ${JSON.stringify(isReplyObject(item) ? item.id : item)?.slice(0, 40)}`,
        );
      }
      if (byId.has(item.id)) {
        throw fault('malformed', `batch reply repeats id ${item.id}`);
      }
      byId.set(item.id, item);
    }
    return calls.map((call, index) => {
      const item = byId.get(ids[index]);
      if (!item) {
        throw fault(
          'malformed',
          `batch reply lacks the reply to ${call.method} (id ${ids[index]})`,
        );
      }
      return settle(item, call.method);
    });
  }
}
