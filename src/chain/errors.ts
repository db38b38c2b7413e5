import { decodeRevertData, type DecodedRevert } from './revert';

/**
 * Error classes of the chain adapter (spec part (a), "Errors" and "Limits").
 * Every message is already free of secrets (URLs pass through `maskUrl`).
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
export class JsonRpcError extends Error {
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
    options: { data?: unknown; method?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JsonRpcError';
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
export class InvalidParamsError extends JsonRpcError {
  /**
   * @param message - What is wrong, naming the field.
   * @param options - See JsonRpcError.
   * @param options.data - Optional data.
   * @param options.method - The JSON-RPC method name.
   */
  constructor(message: string, options: { data?: unknown; method?: string } = {}) {
    super(INVALID_PARAMS, message, options);
    this.name = 'InvalidParamsError';
  }
}

/**
 * -32005 from the provider: "query returned more than 10000 results" (`reason`
 * `results`) or "query timeout exceeded" (`reason` `timeout`). Thrown to the
 * caller of `getLogs` only when a single block alone exceeds the limit
 * (`block` set) or when splitting is impossible (a `blockHash` query).
 */
export class LimitExceededError extends JsonRpcError {
  /** Which limit: the result cap or the query duration. */
  readonly reason: 'results' | 'timeout' | 'unknown';

  /** The block number that alone exceeds the limit, when known. */
  readonly block?: bigint;

  /**
   * @param message - The provider's message, or a message naming the block.
   * @param options - Reply data, method, the block, the provider's own message.
   * @param options.data - The error's data.
   * @param options.method - The JSON-RPC method name.
   * @param options.block - The single block that exceeds the limit.
   * @param options.providerMessage - The provider's message, to classify the reason.
   * @param options.cause - The underlying error.
   */
  constructor(
    message: string,
    options: {
      data?: unknown;
      method?: string;
      block?: bigint;
      providerMessage?: string;
      cause?: unknown;
    } = {},
  ) {
    super(LIMIT_EXCEEDED, message, options);
    this.name = 'LimitExceededError';
    const source = (options.providerMessage ?? message).toLowerCase();
    this.reason = source.includes('timeout')
      ? 'timeout'
      : source.includes('more than')
        ? 'results'
        : 'unknown';
    this.block = options.block;
  }
}

/**
 * Code 3: the EVM ran a REVERT (eth_estimateGas, eth_call). `reason` is decoded
 * from `data`: `Error(string)` → the string; `Panic(uint256)` → code and meaning;
 * a custom error → `custom error 0x<selector>`. `data` keeps the raw payload.
 */
export class ExecutionRevertedError extends JsonRpcError {
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
    const raw = typeof data === 'string' ? data : typeof (data as { data?: unknown })?.data === 'string' ? (data as { data: string }).data : '0x';
    const decoded = decodeRevertData(raw);
    const fromMessage = message.replace(/^execution reverted:?\s*/iu, '');
    const reason = decoded.kind === 'empty' && fromMessage ? fromMessage : decoded.reason;
    super(EXECUTION_REVERTED, `execution reverted: ${reason}`, { data: raw, method });
    this.name = 'ExecutionRevertedError';
    this.reason = reason;
    this.decoded = decoded;
  }
}

/** What went wrong below JSON-RPC. */
export type TransportFault = 'http' | 'network' | 'timeout' | 'malformed';

/**
 * The request did not produce a usable JSON-RPC reply: an HTTP status other than
 * 2xx (`status` set; 429 and 5xx are retried first for read-only methods), a
 * network failure, a timeout, or a malformed reply (not JSON, wrong `jsonrpc`,
 * unknown or missing id, neither `result` nor `error`). The URL is masked.
 */
export class TransportError extends Error {
  /** The class of fault. */
  readonly kind: TransportFault;

  /** The HTTP status, for `http` faults. */
  readonly status?: number;

  /** The endpoint, with its API key masked. */
  readonly url: string;

  /** How many HTTP attempts were made in all (1 + retries). */
  readonly attempts: number;

  /**
   * @param kind - The class of fault.
   * @param message - A message free of secrets.
   * @param options - Masked URL, HTTP status, attempts and cause.
   * @param options.url - The masked URL.
   * @param options.status - The HTTP status.
   * @param options.attempts - Attempts made.
   * @param options.cause - The underlying error.
   */
  constructor(
    kind: TransportFault,
    message: string,
    options: { url: string; status?: number; attempts?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
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
 * -32602 → InvalidParamsError, anything else → JsonRpcError.
 *
 * @param error - The reply's `error` member.
 * @param method - The JSON-RPC method that was called.
 * @returns The error instance (not thrown).
 */
export function fromRpcError(error: unknown, method?: string): JsonRpcError {
  const object = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof object.code === 'number' ? object.code : -32603;
  const message = typeof object.message === 'string' ? object.message : 'unknown JSON-RPC error';
  if (code === EXECUTION_REVERTED) {
    return new ExecutionRevertedError(message, object.data, method);
  }
  if (code === LIMIT_EXCEEDED) {
    return new LimitExceededError(message, { data: object.data, method, providerMessage: message });
  }
  if (code === INVALID_PARAMS) {
    return new InvalidParamsError(message, { data: object.data, method });
  }
  return new JsonRpcError(code, message, { data: object.data, method });
}
