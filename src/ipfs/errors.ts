/**
 * Error classes of the IPFS HTTP API client (statuses as in the Kubo RPC API,
 * https://docs.ipfs.tech/reference/kubo/rpc/#http-status-codes). No message
 * ever contains the API key, the API key secret or the Authorization header,
 * nor a configured URL.
 */

/**
 * Remove every configured secret from a server-provided message (before
 * truncating, so no part of a secret survives the cut).
 *
 * @param message - Text from the server.
 * @param secrets - Strings to remove (API key, API key secret, basic-auth token).
 * @returns The cleaned message, trimmed and cut to 500 characters.
 */
export function scrub(message: string, secrets: string[]): string {
  let clean = message;
  for (const secret of secrets) {
    if (secret) {
      clean = clean.split(secret).join('***');
    }
  }
  return clean.trim().slice(0, 500);
}

/** Base class of every error the IPFS client throws. */
export class IpfsError extends Error {
  /**
   * @param message - Human-readable description.
   * @param options - Optional underlying `cause`.
   * @param options.cause - The underlying error.
   */
  constructor(
    message: string,
    options: {
      /** The underlying error. */
      cause?: unknown;
    } = {},
  ) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'IpfsError';
  }
}

/**
 * The API answered with an error: a non-200 status (400 bad argument, 403
 * forbidden / wrong credentials, 404 unknown command, 405 wrong method,
 * 500 command failed), or a 200 whose stream ended with an error object
 * `{ Message, Code, Type: "error" }` (then `status` is 200 and `streamed` true).
 */
export class IpfsApiError extends IpfsError {
  /** HTTP status of the reply. */
  readonly status: number;

  /** The API command, e.g. `cat`, `object/get`. */
  readonly command: string;

  /** The server's message (`Message` of a JSON error body, else the body text, truncated). */
  readonly serverMessage: string;

  /** True when the error came after streaming had begun (last NDJSON item). */
  readonly streamed: boolean;

  /**
   * @param status - HTTP status.
   * @param command - API command.
   * @param serverMessage - Message from the body (already free of credentials).
   * @param streamed - Whether the error arrived after a 200 inside the stream.
   */
  constructor(
    status: number,
    command: string,
    serverMessage: string,
    streamed = false,
  ) {
    const where = streamed
      ? 'failed after streaming began'
      : `failed with HTTP ${status}`;
    super(`IPFS ${command} ${where}: ${serverMessage || '(no message)'}`);
    this.name = 'IpfsApiError';
    this.status = status;
    this.command = command;
    this.serverMessage = serverMessage;
    this.streamed = streamed;
  }
}

/** What arrived does not match the CID that was asked for (tampered, truncated or inconsistent content). */
export class ContentVerificationError extends IpfsError {
  /** The CID that was asked for (as given, or the block CID within its DAG). */
  readonly cid: string;

  /** What was wrong, e.g. "sha2-256 digest mismatch". */
  readonly reason: string;

  /**
   * @param cid - The CID asked for.
   * @param reason - What did not match.
   */
  constructor(cid: string, reason: string) {
    super(`content of ${cid} failed verification: ${reason}`);
    this.name = 'ContentVerificationError';
    this.cid = cid;
    this.reason = reason;
  }
}

/** The argument is not a CID (only bare CIDv0/CIDv1 strings are accepted, no paths). */
export class InvalidCidError extends IpfsError {
  /**
   * @param input - The refused value (truncated in the message).
   * @param options - Optional cause.
   * @param options.cause - The parser's error.
   */
  constructor(
    input: unknown,
    options: {
      /** The underlying error (the parser's). */
      cause?: unknown;
    } = {},
  ) {
    const shown =
      typeof input === 'string'
        ? JSON.stringify(input.slice(0, 100))
        : typeof input;
    super(`invalid CID: ${shown}`, options);
    this.name = 'InvalidCidError';
  }
}

/** A reply or a reassembled file is larger than the configured cap. */
export class ResponseTooLargeError extends IpfsError {
  /** The cap that was exceeded, in bytes. */
  readonly limitBytes: number;

  /**
   * @param what - What was too large (command or CID).
   * @param limitBytes - The cap, in bytes.
   */
  constructor(what: string, limitBytes: number) {
    super(`IPFS reply too large: ${what} exceeds ${limitBytes} bytes`);
    this.name = 'ResponseTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** The request (including reading its body) took longer than `timeoutMs`. */
export class IpfsTimeoutError extends IpfsError {
  /** The timeout, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * @param command - API command.
   * @param timeoutMs - The timeout, in milliseconds.
   */
  constructor(command: string, timeoutMs: number) {
    super(`IPFS ${command} timed out after ${timeoutMs} ms`);
    this.name = 'IpfsTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** The API could not be reached (connection refused, DNS, reset). */
export class IpfsTransportError extends IpfsError {
  /**
   * @param command - API command.
   * @param cause - The fetch error.
   */
  constructor(command: string, cause: unknown) {
    super(
      `IPFS ${command} request failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'IpfsTransportError';
  }
}

/**
 * The content is verified but not what was expected: not a UnixFS file (a
 * directory, an unsupported codec), not UTF-8, not JSON, or a malformed reply.
 */
export class InvalidContentError extends IpfsError {
  /** The CID concerned, when there is one. */
  readonly cid?: string;

  /**
   * @param message - What is wrong.
   * @param cid - The CID concerned.
   * @param options - Optional cause.
   * @param options.cause - The underlying error.
   */
  constructor(
    message: string,
    cid?: string,
    options: {
      /** The underlying error. */
      cause?: unknown;
    } = {},
  ) {
    super(cid === undefined ? message : `${cid}: ${message}`, options);
    this.name = 'InvalidContentError';
    this.cid = cid;
  }
}

/**
 * The whole read (every request of one `cat`, `getJson`, `objectGet`, ...) took
 * longer than the client's `deadlineMs`. A subclass of `IpfsTimeoutError`, so
 * callers that handle timeouts handle it too.
 */
export class IpfsDeadlineError extends IpfsTimeoutError {
  /**
   * @param operation - The client method, e.g. `cat`.
   * @param deadlineMs - The deadline, in milliseconds.
   */
  constructor(operation: string, deadlineMs: number) {
    super(operation, deadlineMs);
    this.message = `IPFS ${operation} did not finish within its ${deadlineMs} ms deadline`;
    this.name = 'IpfsDeadlineError';
  }
}

/**
 * A UnixFS DAG goes beyond the walk's bounds: more nodes visited than `maxNodes`
 * (a repeated child counts each time it is reached) or deeper than `maxDepth`.
 */
export class DagLimitError extends InvalidContentError {
  /** Which bound was exceeded. */
  readonly limit: 'nodes' | 'depth';

  /** The bound (nodes or levels). */
  readonly max: number;

  /**
   * @param root - The root CID of the read.
   * @param limit - Which bound.
   * @param max - Its value.
   */
  constructor(root: string, limit: 'nodes' | 'depth', max: number) {
    super(
      limit === 'nodes'
        ? `DAG has more than ${max} nodes to visit`
        : `DAG deeper than ${max} levels`,
      root,
    );
    this.name = 'DagLimitError';
    this.limit = limit;
    this.max = max;
  }
}

/** The configured API URL is refused; the message names the problem, never the URL. */
export class InvalidApiUrlError extends IpfsError {
  /** What is wrong: `syntax`, `scheme`, `userinfo`, `query`, `fragment`, `insecure` or `length`. */
  readonly problem:
    | 'syntax'
    | 'scheme'
    | 'userinfo'
    | 'query'
    | 'fragment'
    | 'insecure'
    | 'length';

  /**
   * @param problem - What is wrong.
   * @param detail - The explanation shown (no part of the URL).
   */
  constructor(problem: InvalidApiUrlError['problem'], detail: string) {
    super(`apiUrl: ${detail}`);
    this.name = 'InvalidApiUrlError';
    this.problem = problem;
  }
}
