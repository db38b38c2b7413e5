import type { ChainRpcError } from './errors';

/**
 * The types and constants of the JSON-RPC transport (src/chain/transport.ts):
 * its fetch subset, options, batch calls and settled results, and the set of
 * read-only methods it retries. Re-exported from src/chain/transport.ts.
 */

/** The part of a `fetch` Response the transport reads: `body` (a byte stream) when present, else `text()`. */
export type ResponseLike = {
  /** Whether the HTTP status is 2xx. */
  ok: boolean;
  /** The HTTP status. */
  status: number;
  text(): Promise<string>;
  /** The body as a byte stream, when the implementation provides one. */
  body?: ReadableStream<Uint8Array> | null;
  /** The response headers. */
  headers?: { get(name: string): string | null };
  /** Whether the response came through a redirect (WHATWG fetch); such a response is refused. */
  redirected?: boolean;
};

/** The subset of the WHATWG `fetch` the transport uses. */
export type FetchLike = (
  input: string,
  init: {
    /** HTTP method: always POST. */
    method: string;
    /** Request headers. */
    headers: Record<string, string>;
    /** The JSON-RPC request, serialised. */
    body: string;
    /** Aborts the request on timeout. */
    signal: AbortSignal;
    /** Always `error`: a redirect rejects the request (WHATWG fetch `RequestRedirect`). */
    redirect: 'error';
  },
) => Promise<ResponseLike>;

/** Default cap on the bytes of one reply body: 32 MiB (about 45,000 logs). */
export const DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** Options of `createTransport` (also accepted by `createRpcClient`). */
export type TransportOptions = {
  /** Endpoint, e.g. `https://mainnet.example.io/v3/<API_KEY>`; messages name its origin only. */
  url: string;
  /** `fetch` implementation; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Timeout of one HTTP attempt, in milliseconds (default 20,000). */
  timeoutMs?: number;
  /** Retries after the first attempt, read-only methods only (default 3, max 10). */
  retries?: number;
  /** Base delay of the exponential backoff, in milliseconds (default 200; doubled each retry, with jitter). */
  retryDelayMs?: number;
  /** Upper bound of the time spent retrying one call, in milliseconds (default 30,000). */
  retryMaxElapsedMs?: number;
  /** Largest reply body read, in bytes (default 32 MiB); a longer one is a `tooLarge` TransportError. */
  maxReplyBytes?: number;
  /** What the endpoint is, for messages, e.g. `bundler` (default `JSON-RPC endpoint`). */
  service?: string;
  /** How the transport waits between retries (default a `setTimeout` pause); tests pass a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A budget shared with other transports (default none: no bound but the above). Every HTTP
   * attempt, retries included, first takes its JSON-RPC calls from it; an attempt it cannot pay
   * for, or one due at or after its deadline, is not sent (a `budget` TransportError, never
   * retried), and an attempt in flight is aborted at the deadline.
   */
  budget?: CallBudget;
};

/** What several transports may still spend together (see `TransportOptions.budget`). */
export type CallBudget = {
  /** JSON-RPC calls still allowed (a batch takes one per member); lowered by each attempt. */
  calls: number;
  /** When no attempt may start any more or still run, in `Date.now()` milliseconds. */
  deadline: number;
};

/** Per-call options of `batchSettled`. */
export type BatchOptions = {
  /**
   * Whether a timeout is retried like other transport faults (default true).
   * eth_getLogs turns it off: a range that timed out is narrowed instead.
   */
  retryTimeouts?: boolean;
};

/** One call of a batch. */
export type RpcCall = {
  /** The JSON-RPC method. */
  method: string;
  /** Its parameters (default none). */
  params?: readonly unknown[];
};

/** A settled batch item: the result, or the typed error of that call. */
export type Settled =
  | {
      /** Discriminant: the call succeeded. */
      ok: true;
      /** The call's `result`. */
      result: unknown;
    }
  | {
      /** Discriminant: the call failed. */
      ok: false;
      /** The typed error of the call. */
      error: ChainRpcError;
    };

/**
 * Methods that never change chain state; only these are retried. Sending methods
 * (eth_sendRawTransaction, eth_sendUserOperation, ...) are never retried.
 */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'net_version',
  'web3_clientVersion',
  'eth_supportedEntryPoints',
  'eth_estimateUserOperationGas',
  'eth_getUserOperationByHash',
  'eth_getUserOperationReceipt',
]);

/** The low-level transport returned by `createTransport`. */
export type Transport = {
  /** The endpoint's origin (scheme, host, port), the only part of it messages show. */
  origin: string;
  /** Retry bounds (rate limits and transport faults are retried inside the transport). */
  retry: {
    /** Retries after the first attempt. */
    retries: number;
    /** The pause before retry number `attempt` (1-based), in milliseconds, jittered. */
    delayMs(attempt: number): number;
  };
  /**
   * Send one call; resolve with its `result`.
   *
   * @throws ChainRpcError (or a subclass) for an error reply; TransportError otherwise.
   */
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
  /** Send several calls in one HTTP POST; each settles on its own. */
  batchSettled(
    calls: readonly RpcCall[],
    options?: BatchOptions,
  ): Promise<Settled[]>;
};

/** A JSON-RPC reply object, as received: every member unchecked. */
export type Reply = {
  /** Expected to be "2.0". */
  jsonrpc?: unknown;
  /** The request id it answers. */
  id?: unknown;
  /** The result, on success. */
  result?: unknown;
  /** The error object, on failure. */
  error?: unknown;
};
