import { decodeRevertData } from './revert';
import type { DecodedRevert } from './revert';

/**
 * Error classes of the chain adapter (JSON-RPC 2.0 error objects; the -32005 limits and
 * code-3 reverts Ethereum providers such as Infura document).
 * Every message is already free of secrets: endpoints appear as their origin only (`originOf`).
 */

/** Standard JSON-RPC code for invalid method parameters. */
export const INVALID_PARAMS = -32602;
/** The provider's code for a limit exceeded (eth_getLogs results or duration). */
export const LIMIT_EXCEEDED = -32005;
/** The code of an EVM revert (eth_estimateGas / eth_call). */
export const EXECUTION_REVERTED = 3;

/**
 * A JSON-RPC error object returned by the node (`{ code, message, data? }`), or
 * raised locally with a JSON-RPC code.
 */
export class ChainRpcError extends Error {
  /** JSON-RPC error code (integer). */
  readonly code: number;

  /** The error's `data` member, as received (often a hex string). */
  readonly data?: unknown;

  /** The JSON-RPC method that failed, when known. */
  readonly method?: string;

  /**
   * @param code - JSON-RPC error code.
   * @param message - The error message (the node's, verbatim, or a local one).
   * @param options - `data` from the reply, the `method` and an underlying `cause`.
   * @param options.data - The error's `data` member.
   * @param options.method - The JSON-RPC method name.
   * @param options.cause - The underlying error.
   */
  constructor(
    code: number,
    message: string,
    options: {
      /** The error's `data` member. */
      data?: unknown;
      /** The JSON-RPC method name. */
      method?: string;
      /** The underlying error. */
      cause?: unknown;
    } = {},
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ChainRpcError';
    this.code = code;
    this.data = options.data;
    this.method = options.method;
  }
}

/**
 * -32602: parameters refused, either locally before anything was sent (bad
 * address, block tag, topic, hash; `blockHash` with `fromBlock`/`toBlock`;
 * `safe` on eth_estimateGas; `gas` above 10x the block gas limit) or by the node.
 */
export class InvalidParamsError extends ChainRpcError {
  /**
   * @param message - What is wrong, naming the field.
   * @param options - See ChainRpcError.
   * @param options.data - Optional data.
   * @param options.method - The JSON-RPC method name.
   */
  constructor(
    message: string,
    options: {
      /** Optional data. */
      data?: unknown;
      /** The JSON-RPC method name. */
      method?: string;
    } = {},
  ) {
    super(INVALID_PARAMS, message, options);
    this.name = 'InvalidParamsError';
  }
}

/** A block range a provider suggests in a -32005 reply, inclusive. */
export type RangeHint = {
  /** First block, inclusive. */
  from: bigint;
  /** Last block, inclusive. */
  to: bigint;
};

const HEX_QUANTITY = /^0x[0-9a-f]{1,16}$/iu;

/**
 * The block range a provider suggests when it refuses an eth_getLogs range:
 * `data: { from, to }` (hex quantities, as Infura sends with -32005) or a
 * message naming `block range [0x…, 0x…]` (as in "this block range should
 * work: [0x…, 0x…]" or "Try with this block range [0x…, 0x…]").
 *
 * @param message - The provider's message.
 * @param data - The error's `data` member.
 * @returns The range, or undefined when there is none or it is malformed (from > to).
 */
export function parseRangeHint(
  message: string,
  data: unknown,
): RangeHint | undefined {
  let bounds: [unknown, unknown] | undefined;
  if (
    typeof data === 'object' &&
    data !== null &&
    'from' in data &&
    'to' in data
  ) {
    bounds = [data.from, data.to];
  } else {
    const match =
      /block range[^[]{0,40}\[\s*(0x[0-9a-f]{1,16})\s*,\s*(0x[0-9a-f]{1,16})\s*\]/iu.exec(
        message.slice(0, 1000),
      );
    bounds = match ? [match[1], match[2]] : undefined;
  }
  if (!bounds?.every((b) => typeof b === 'string' && HEX_QUANTITY.test(b))) {
    return undefined;
  }
  const [from, to] = bounds.map((b) => BigInt(b as string));
  return from <= to ? { from, to } : undefined;
}

/** Why a provider answered -32005. */
export type LimitReason = 'results' | 'timeout' | 'rate';

/**
 * Classify a -32005 message: `results` ("query returned more than 10000
 * results", or any reply suggesting a narrower range), `timeout` ("query
 * timeout exceeded"); anything else (e.g. "project ID request rate exceeded")
 * is `rate`: a limit on the caller, not on the query.
 *
 * @param message - The provider's message.
 * @param hint - The range the reply suggests, if any.
 * @returns The reason.
 */
export function classifyLimit(message: string, hint?: RangeHint): LimitReason {
  if (/query timeout exceeded/iu.test(message)) {
    return 'timeout';
  }
  if (hint || /more than \d+ results|response size exceeded/iu.test(message)) {
    return 'results';
  }
  return 'rate';
}

/**
 * -32005, a limit exceeded. From the provider: `reason` `results` ("query
 * returned more than 10000 results"), `timeout` ("query timeout exceeded") or
 * `rate` (any other -32005, e.g. rate limiting), with the range it suggests in
 * `hint` when it gives one. Thrown to the caller of `getLogs` when one block
 * alone exceeds the limit (`block` set), when splitting is impossible (a
 * `blockHash` or `pending`-only query), or when rate limiting outlasts the
 * retries.
 */
export class LimitExceededError extends ChainRpcError {
  /** Which limit: the result cap, the query duration, or a rate limit. */
  readonly reason: LimitReason;

  /** The block number that alone exceeds the limit, when known. */
  readonly block?: bigint;

  /** The block range the provider suggests instead, when it gives one. */
  readonly hint?: RangeHint;

  /**
   * @param message - The provider's message, or a message naming the block.
   * @param options - Reply data, method, the block, the provider's own message.
   * @param options.data - The error's data.
   * @param options.method - The JSON-RPC method name.
   * @param options.block - The single block that exceeds the limit.
   * @param options.providerMessage - The provider's message, to classify the reason.
   * @param options.reason - The reason, when already known (else classified from the message).
   * @param options.cause - The underlying error.
   */
  constructor(
    message: string,
    options: {
      /** The error's data. */
      data?: unknown;
      /** The JSON-RPC method name. */
      method?: string;
      /** The single block that exceeds the limit. */
      block?: bigint;
      /** The provider's message, to classify the reason. */
      providerMessage?: string;
      /** The reason, when already known (else classified from the message). */
      reason?: LimitReason;
      /** The underlying error. */
      cause?: unknown;
    } = {},
  ) {
    super(LIMIT_EXCEEDED, message, options);
    this.name = 'LimitExceededError';
    const source = options.providerMessage ?? message;
    this.hint = parseRangeHint(source, options.data);
    this.reason = options.reason ?? classifyLimit(source, this.hint);
    this.block = options.block;
  }
}

/**
 * -32005 (reason `rate`) or HTTP 429: the provider rate-limited the caller
 * (Infura: "project ID request rate exceeded"; Alchemy / others: "rate limit
 * exceeded: too many requests", or HTTP 429 with `Retry-After`, RFC 9110
 * §10.2.3). Thrown once the transport's bounded retries (exponential backoff
 * with jitter, never less than the `Retry-After` asked for) are used up. The
 * message names the endpoint's origin only, never its path, query or key, and
 * not the provider's own text (kept in `cause`).
 */
export class RateLimitedError extends LimitExceededError {
  /** The endpoint's origin (scheme, host, port). */
  readonly url: string;

  /** HTTP attempts made for the rate-limited call(s), in all. */
  readonly attempts: number;

  /** 429 when the limit came as HTTP 429; undefined for a JSON-RPC -32005. */
  readonly status?: number;

  /** The last `Retry-After` the provider asked for, in milliseconds, if any. */
  readonly retryAfterMs?: number;

  /**
   * @param origin - The endpoint's origin (from `originOf`), the only part of it named.
   * @param options - Attempts, HTTP status, Retry-After, method and cause.
   * @param options.attempts - HTTP attempts made in all.
   * @param options.status - 429 for an HTTP rate limit.
   * @param options.retryAfterMs - The provider's last Retry-After, in milliseconds.
   * @param options.method - The JSON-RPC method (or `batch`).
   * @param options.cause - The provider's refusal.
   */
  constructor(
    origin: string,
    options: {
      /** HTTP attempts made in all. */
      attempts: number;
      /** 429 for an HTTP rate limit. */
      status?: number;
      /** The provider's last Retry-After, in milliseconds. */
      retryAfterMs?: number;
      /** The JSON-RPC method (or `batch`). */
      method?: string;
      /** The provider's refusal. */
      cause?: unknown;
    },
  ) {
    super(
      `${options.method ?? 'request'}: rate limited by ${origin} (${
        options.status === 429 ? 'HTTP 429' : '-32005'
      }) after ${options.attempts} attempts; try again later`,
      { method: options.method, reason: 'rate', cause: options.cause },
    );
    this.name = 'RateLimitedError';
    this.url = origin;
    this.attempts = options.attempts;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The provider reported logs as `removed: true` (a chain reorganisation undid
 * them), or gave two different hashes for the same block number while the
 * query was split: the results mix two views of the chain. Nothing is returned;
 * retry the query.
 */
export class RemovedLogsError extends Error {
  /** The block numbers concerned (ascending). */
  readonly blocks: bigint[];

  /**
   * @param blocks - The block numbers whose logs were removed or inconsistent.
   * @param what - `removed` or `inconsistent`, for the message.
   */
  constructor(blocks: bigint[], what: 'removed' | 'inconsistent') {
    const sorted = [...new Set(blocks)].sort((a, b) => {
      if (a === b) {
        return 0;
      }
      return a < b ? -1 : 1;
    });
    const shown =
      sorted.slice(0, 5).join(', ') + (sorted.length > 5 ? ', ...' : '');
    super(
      what === 'removed'
        ? `eth_getLogs: the provider reported removed logs (a chain reorganisation) in block(s) ${shown}; retry the query`
        : `eth_getLogs: the provider gave two different hashes for block(s) ${shown} (a chain reorganisation during the query); retry the query`,
    );
    this.name = 'RemovedLogsError';
    this.blocks = sorted;
  }
}

/**
 * Code 3: the EVM ran a REVERT (eth_estimateGas, eth_call). `reason` is decoded
 * from `data`: `Error(string)` → the string; `Panic(uint256)` → code and meaning;
 * a custom error → `custom error 0x<selector>`. `data` keeps the raw payload.
 */
export class ExecutionRevertedError extends ChainRpcError {
  /** Decoded reason, e.g. `boom` or `Panic(0x11): arithmetic underflow or overflow`. */
  readonly reason: string;

  /** Raw revert payload (hex), `0x` when the node gave none. */
  declare readonly data: string;

  /** Kind of payload, its selector and panic code. */
  readonly decoded: DecodedRevert;

  /**
   * @param message - The node's message (`execution reverted: ...`).
   * @param data - The hex revert payload from the error's `data`.
   * @param method - The JSON-RPC method name.
   */
  constructor(message: string, data: unknown, method?: string) {
    // The payload is `data` itself or, with some nodes, its `data` member.
    const payload: unknown =
      typeof data === 'string'
        ? data
        : (data as Record<string, unknown> | null | undefined)?.data;
    const raw = typeof payload === 'string' ? payload : '0x';
    const decoded = decodeRevertData(raw);
    const fromMessage = message.replace(/^execution reverted:?\s*/iu, '');
    const reason =
      decoded.kind === 'empty' && fromMessage ? fromMessage : decoded.reason;
    super(EXECUTION_REVERTED, `execution reverted: ${reason}`, {
      data: raw,
      method,
    });
    this.name = 'ExecutionRevertedError';
    this.reason = reason;
    this.decoded = decoded;
  }
}

/** What went wrong below JSON-RPC. */
export type TransportFault =
  'http' | 'network' | 'timeout' | 'malformed' | 'tooLarge' | 'budget';

/**
 * The request did not produce a usable JSON-RPC reply: an HTTP status other than
 * 2xx (`status` set; 429 and 5xx are retried first for read-only methods), a
 * network failure, a timeout, a malformed reply (not JSON, wrong `jsonrpc`,
 * unknown or missing id, neither `result` nor `error`, a result of the wrong
 * shape or out of bounds), a reply body above the byte cap (`tooLarge`), or an
 * attempt its caller's CallBudget could not pay for or that reached its deadline (`budget`).
 * Messages and `url` name the endpoint's origin only (scheme, host, port).
 */
export class TransportError extends Error {
  /** The class of fault. */
  readonly kind: TransportFault;

  /** The HTTP status, for `http` faults. */
  readonly status?: number;

  /** The endpoint's origin (scheme, host, port): never its path, query or credentials. */
  readonly url: string;

  /** How many HTTP attempts were made in all (1 + retries). */
  readonly attempts: number;

  /**
   * @param kind - The class of fault.
   * @param message - A message free of secrets.
   * @param options - Origin, HTTP status, attempts and cause.
   * @param options.url - The endpoint's origin.
   * @param options.status - The HTTP status.
   * @param options.attempts - Attempts made.
   * @param options.cause - The underlying error.
   */
  constructor(
    kind: TransportFault,
    message: string,
    options: {
      /** The endpoint's origin. */
      url: string;
      /** The HTTP status. */
      status?: number;
      /** Attempts made. */
      attempts?: number;
      /** The underlying error. */
      cause?: unknown;
    },
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'TransportError';
    this.kind = kind;
    this.status = options.status;
    this.url = options.url;
    this.attempts = options.attempts ?? 1;
  }
}

/**
 * Turn a JSON-RPC error object from a reply into the matching class:
 * code 3 → ExecutionRevertedError, -32005 → LimitExceededError,
 * -32602 → InvalidParamsError, anything else → ChainRpcError.
 *
 * @param error - The reply's `error` member.
 * @param method - The JSON-RPC method that was called.
 * @returns The error instance (not thrown).
 */
export function fromRpcError(error: unknown, method?: string): ChainRpcError {
  const object = (error ?? {}) as {
    /** JSON-RPC error code, when a number. */
    code?: unknown;
    /** Error message, when a string. */
    message?: unknown;
    /** The error's `data` member, as received. */
    data?: unknown;
  };
  const code = typeof object.code === 'number' ? object.code : -32603;
  const message =
    typeof object.message === 'string'
      ? object.message
      : 'unknown JSON-RPC error';
  if (code === EXECUTION_REVERTED) {
    return new ExecutionRevertedError(message, object.data, method);
  }
  if (code === LIMIT_EXCEEDED) {
    return new LimitExceededError(message, {
      data: object.data,
      method,
      providerMessage: message,
    });
  }
  if (code === INVALID_PARAMS) {
    return new InvalidParamsError(message, { data: object.data, method });
  }
  return new ChainRpcError(code, message, { data: object.data, method });
}
