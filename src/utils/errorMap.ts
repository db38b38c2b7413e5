import { JsonRpcError, rpcErrors } from '@metamask/rpc-errors';

import { invalidParams, SnapError } from './errors';
import { redactError } from './secrets';
import {
  ChainRpcError,
  ExecutionRevertedError,
  TransportError,
} from '../chain/errors';
import {
  IpfsError,
  IpfsTimeoutError,
  IpfsTransportError,
} from '../ipfs/errors';

/**
 * The one place anything thrown becomes what a caller sees: `callerError` maps it to a JSON-RPC
 * error (EIP-1474 / EIP-1193 codes through `@metamask/rpc-errors`) by its class (`instanceof`,
 * never its name), then masks the snap's credentials in it. The front doors (src/index.ts through
 * the domain's `scrub`, the home page through the same `scrub`) and the one early conversion
 * (src/settings.ts, for a chain config not stored yet) all call it.
 */

/** Builds the JSON-RPC error of one library error class, given the message to keep. */
type ToRpc = (error: never, message: string) => JsonRpcError<never>;

/** A class of the libraries' error families, and how its instances map. */
type ErrorRule = readonly [abstract new (...args: never[]) => Error, ToRpc];

/**
 * -32002 (resource unavailable, EIP-1474): a service could not be reached or did not answer.
 *
 * @param _error - The library error.
 * @param message - Its message.
 * @returns The JSON-RPC error.
 */
const unavailable: ToRpc = (_error, message) =>
  rpcErrors.resourceUnavailable({ message });

/**
 * -32602 (invalid params, EIP-1474): what the caller named (a CID, a metadata document) is not
 * usable.
 *
 * @param _error - The library error.
 * @param message - Its message.
 * @returns The JSON-RPC error.
 */
const refused: ToRpc = (_error, message) => invalidParams(message);

/**
 * A server's JSON-RPC error reply (or a chain-library refusal with a JSON-RPC code), passed on:
 * its code and message, and its `data` when that is a string (a revert's payload, hex).
 *
 * @param error - The chain library's error.
 * @param message - Its message.
 * @returns The JSON-RPC error.
 */
function sameCode(error: ChainRpcError, message: string): JsonRpcError<never> {
  return new JsonRpcError(
    error.code,
    message,
    (typeof error.data === 'string' ? error.data : undefined) as never,
  );
}

/**
 * The library error classes and their JSON-RPC errors, the first match winning (so a subclass
 * comes before its base):
 * - chain `TransportError` (HTTP, network, timeout, malformed or oversized reply): -32002;
 * - chain `ChainRpcError` and its subclasses (a node's or bundler's error reply, -32005 limits and
 * rate limits, code-3 reverts, -32602 refused parameters): the same code and message, `data`
 * kept when it is a string (revert data);
 * - IPFS `IpfsTransportError`, `IpfsTimeoutError` (and its `IpfsDeadlineError`): -32002;
 * - any other `IpfsError` (bad CID, API refusal, verification, size, content): -32602.
 *
 * Errors of the snap's own modules carry their code (`AccountMetadataError`: -32602), so this
 * leaf module needs to know only the two libraries' error classes.
 */
const ERROR_MAP: readonly ErrorRule[] = [
  [TransportError, unavailable],
  [ChainRpcError, sameCode],
  [IpfsTransportError, unavailable],
  [IpfsTimeoutError, unavailable],
  [IpfsError, refused],
];

/**
 * Map anything thrown to a JSON-RPC error, without scrubbing it (see `callerError`):
 * `@metamask/rpc-errors` errors pass through; a `SnapError` keeps its message and takes the code
 * of its `cause`; library errors map by ERROR_MAP; any other error carrying an integer `code`
 * (another copy of rpc-errors, a platform rejection) keeps its code, message and string `data`;
 * anything else becomes -32603 (internal error) with its message.
 *
 * @param error - What was thrown.
 * @returns A JSON-RPC error.
 */
export function toRpcError(error: unknown): JsonRpcError<never> {
  if (error instanceof JsonRpcError) {
    return error as JsonRpcError<never>;
  }
  const { code, message, data } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  const text =
    typeof message === 'string' && message.length > 0
      ? message
      : 'Internal error';
  if (error instanceof SnapError) {
    const cause = toRpcError(error.cause);
    return new JsonRpcError<never>(cause.code, text, cause.data);
  }
  const rule = ERROR_MAP.find(([type]) => error instanceof type);
  if (rule) {
    return rule[1](error as never, text);
  }
  if (typeof code === 'number' && Number.isInteger(code)) {
    return new JsonRpcError(
      code,
      text,
      (typeof data === 'string' ? data : undefined) as never,
    );
  }
  return rpcErrors.internal({ message: text });
}

/** ERC-7769's bundler code for an operation whose execution reverts (or will), e.g. in estimation. */
const BUNDLER_EXECUTION_REVERTED = -32521;

/**
 * What a site's EIP-5792 `wallet_sendCalls` is told when a call of its bundle would revert, found
 * before anything was signed: a node's revert (`ExecutionRevertedError`, code 3) or a bundler's
 * ERC-7769 -32521. EIP-5792 has no code for it (a wallet "MAY reject the request if one or more
 * calls in the batch is expected to fail"), so it is EIP-1474's code for a transaction the wallet
 * will not send, -32003 (transaction rejected), worded "execution reverted" as nodes word a revert
 * (what dapp libraries recognise), with the revert's payload (hex) or the bundler's excerpt as
 * `data`. Anything else is returned as it is.
 *
 * @param error - What the send threw.
 * @returns The error to throw.
 */
export function callsRejected(error: unknown): unknown {
  if (error instanceof ExecutionRevertedError) {
    return new JsonRpcError(
      -32003,
      `Transaction rejected: a call of this bundle would fail (execution reverted${error.reason ? `: ${error.reason}` : ''}); nothing was sent`,
      error.data as never,
    );
  }
  if (
    error instanceof JsonRpcError &&
    error.code === BUNDLER_EXECUTION_REVERTED
  ) {
    return new JsonRpcError(
      -32003,
      'Transaction rejected: a call of this bundle would fail (execution reverted, as the bundler simulated it); nothing was sent',
      error.data as never,
    );
  }
  return error;
}

/**
 * What a caller sees of anything thrown: `toRpcError`, then `redactError` (every service URL and
 * credential given here or remembered this session masked, the message cut to 300 printable
 * characters).
 *
 * @param error - What was thrown.
 * @param urls - Service URLs that may carry keys (remembered for the session).
 * @param plain - Credentials given on their own (remembered for the session).
 * @returns The JSON-RPC error to throw or show; never carries a configured credential.
 */
export function callerError(
  error: unknown,
  urls: readonly string[] = [],
  plain: readonly (string | undefined)[] = [],
): JsonRpcError<never> {
  return redactError(toRpcError(error), urls, plain);
}
