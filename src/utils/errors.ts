import { JsonRpcError, providerErrors, rpcErrors } from '@metamask/rpc-errors';
import { StructError } from '@metamask/superstruct';

import {
  bounded,
  defang,
  expectation,
  fieldPath,
  firstFailure,
} from './safeText';

/**
 * Typed JSON-RPC errors the snap throws (EIP-1474 / EIP-1193 codes through
 * `@metamask/rpc-errors`). Messages name what is wrong and never carry secrets.
 */

/**
 * Why an error was thrown, as a machine-readable key in its `data.reason` (JSON-RPC 2.0 error
 * `data`): what the home page translates into what to do there (src/ui/pageErrors.ts), and what a
 * caller can test instead of the message's text.
 * - `noChainConfig`: no chain is configured (or not the one asked for);
 * - `noIpfsConfig`: a metadataCid was given and no IPFS API is configured;
 * - `noBundlerUrl`: the chain (and the account's metadata) has no bundler URL;
 * - `keyInUse`: the key backs account `data.address` already;
 * - `addressInUse`: account `data.address` exists already;
 * - `invalidPrivateKey`: not a 32-byte secp256k1 private key;
 * - `invalidName`, `nameTaken`, `nameLookalike`: an account name that is refused, used by another
 *   account, or that looks like another account's (the same confusable skeleton, Unicode TS #39);
 * - `invalidIntent`: a sendUserOperation / eth_prepareUserOperation intent's `data.field` is wrong;
 * - `invalidField`: a param failed its struct: `data.field` names its top-level field and
 *   `data.problem` is `required` (missing) or `invalid`;
 * - `chainMismatch`: `data.field` (an RPC URL) serves chain `data.chainId` (decimal), not the
 *   config's `data.scope`;
 * - `noFactory`: the chain's account factory has no code there (a local chain without the
 *   canonical deployments); `data.version` is the account's EntryPoint version.
 * - `unknownEntropySource`: an entropy source id MetaMask does not list (`listEntropySources`).
 */
export type ErrorReason =
  | 'noChainConfig'
  | 'noIpfsConfig'
  | 'noBundlerUrl'
  | 'keyInUse'
  | 'addressInUse'
  | 'invalidPrivateKey'
  | 'invalidName'
  | 'nameTaken'
  | 'nameLookalike'
  | 'invalidIntent'
  | 'invalidField'
  | 'chainMismatch'
  | 'noFactory'
  | 'requestsChanged'
  | 'unknownEntropySource'
  | 'insufficientFunds'
  | 'rpcUnreachable';

/** An error's `data`: its reason, and the field or account it is about (never a secret). */
export type ErrorData = {
  /** See ErrorReason. */
  reason: ErrorReason;
  /** The field it is about (`to`, `value`, `data`), when the reason names one. */
  field?: string;
  /** The existing account it is about (checksummed address), when the reason names one. */
  address?: string;
  /**
   * `invalidField`: `required` when the field is missing, else `invalid`, or what is wrong with a
   * URL (`credentials`: a user name and password in it; `masked`: the hidden form of another URL;
   * `insecure`: plain http to another computer) or a key (`otherServer`: the stored IPFS key and
   * secret belong to another server); `invalidName`: `invisible`.
   */
  problem?:
    | 'required'
    | 'invalid'
    | 'credentials'
    | 'masked'
    | 'invisible'
    | 'insecure'
    | 'otherServer';
  /** `rpcUnreachable`: the HTTP status the URL answered with, when it answered one. */
  status?: number;
  /** `chainMismatch`: the chain id the URL serves (decimal). */
  chainId?: string;
  /** `chainMismatch`: the CAIP-2 scope the config names. */
  scope?: string;
  /** `noFactory`: the EntryPoint version whose factory is missing (`0.6`, `0.7`, `0.8`). */
  version?: string;
  /** `insufficientFunds`: what the account holds, in wei (decimal). */
  balance?: string;
  /** `insufficientFunds`: the value sent, in wei (decimal). */
  value?: string;
  /** `insufficientFunds`: what it needs (value plus the maximum fee it pays itself), in wei (decimal). */
  needed?: string;
};

/**
 * -32602 (invalid params, EIP-1474): a parameter is missing or malformed.
 *
 * @param message - What is wrong with which parameter.
 * @param data - Optional machine-readable reason (`data.reason`).
 * @returns The error to throw.
 */
export const invalidParams = (
  message: string,
  data?: ErrorData,
): JsonRpcError<never> =>
  rpcErrors.invalidParams(data ? { message, data } : { message }) as never;

/**
 * -32001 (resource not found, EIP-1474): an unknown account, request or config.
 *
 * @param message - What was not found.
 * @param data - Optional machine-readable reason (`data.reason`).
 * @returns The error to throw.
 */
export const notFound = (
  message: string,
  data?: ErrorData,
): JsonRpcError<never> =>
  rpcErrors.resourceNotFound(data ? { message, data } : { message }) as never;

/**
 * 4100 (unauthorized, EIP-1193): the caller's origin may not use this method.
 *
 * @param message - Which origin may not do what.
 * @returns The error to throw.
 */
export const unauthorized = (message: string): JsonRpcError<never> =>
  providerErrors.unauthorized({ message });

/**
 * -32003 (transaction rejected, EIP-1474): the chain's state refuses what was asked (the account
 * cannot pay it), before anything is signed.
 *
 * @param message - Why, in words.
 * @param data - The machine-readable reason and amounts.
 * @returns The error to throw.
 */
export const transactionRejected = (
  message: string,
  data: ErrorData,
): JsonRpcError<never> =>
  rpcErrors.transactionRejected({ message, data }) as never;

/**
 * -32601 (method not found, EIP-1474): the method does not exist here.
 *
 * @param message - Names the unknown method.
 * @returns The error to throw.
 */
export const methodNotFound = (message: string): JsonRpcError<never> =>
  rpcErrors.methodNotFound({ message });

/**
 * -32603 (internal error, EIP-1474): the snap cannot do what was asked for a reason of its own
 * (never the caller's input).
 *
 * @param message - What went wrong; never key material.
 * @returns The error to throw.
 */
export const internalError = (message: string): JsonRpcError<never> =>
  rpcErrors.internal({ message });

/**
 * 4001 (user rejected request, EIP-1193): the user declined in a dialog.
 *
 * @param message - What the user declined.
 * @returns The error to throw.
 */
export const userRejected = (message: string): JsonRpcError<never> =>
  providerErrors.userRejectedRequest({ message });

/**
 * Validate `value` with a superstruct struct, turning a failure into a -32602
 * error that names the failing path.
 *
 * @param value - Untrusted input.
 * @param struct - The superstruct struct to check against.
 * @param struct.validate - Superstruct's `validate`: a tuple of the error (if any) and the
 * coerced value.
 * @param what - A label for the message, e.g. "eth_signTransaction params".
 * @returns The value, typed.
 * @throws JsonRpcError -32602 naming the failing field (`data`: reason `invalidField`, the
 * top-level field, and whether it is missing).
 */
export function validate<Type>(
  value: unknown,
  struct: {
    validate: (input: unknown) => [StructError | undefined, Type | undefined];
  },
  what: string,
): Type {
  let outcome: [StructError | undefined, Type | undefined];
  try {
    outcome = struct.validate(value);
  } catch {
    // superstruct threw while printing a value it refused: describe the same input, defanged
    outcome = struct.validate(defang(value));
    if (!outcome[0]) {
      throw invalidParams(`Invalid ${what}: expected JSON values`);
    }
  }
  const [error, result] = outcome;
  if (error) {
    const failure = firstFailure(error);
    const path =
      failure.path.length > 0 ? ` at ${fieldPath(failure.path)}` : '';
    const described = describeFailure(failure);
    throw invalidParams(
      bounded(`Invalid ${what}${path}: ${described}`),
      failure.path.length > 0
        ? {
            reason: 'invalidField',
            field: fieldPath(failure.path.slice(0, 1)),
            problem: described === 'required' ? 'required' : 'invalid',
          }
        : undefined,
    );
  }
  return result as Type;
}

/**
 * What a superstruct failure expected, never the value received: a mistyped secret field
 * (`apiSecret`, `private_key`) must not be echoed back.
 *
 * @param failure - A superstruct failure.
 * @param failure.type - The failing refinement or type, `never` for an unknown field.
 * @param failure.value - The value received; only checked for `undefined` (a missing field).
 * @param failure.message - Superstruct's message, reduced to what was expected.
 * @returns A message such as `unknown field` or `Expected a string`.
 */
function describeFailure(failure: {
  type: string;
  value: unknown;
  message: string;
}): string {
  if (failure.type === 'never') {
    return 'unknown field';
  }
  if (failure.value === undefined) {
    return 'required';
  }
  return expectation(failure.message);
}

/**
 * The snap's one error base, for a domain step that failed on a library's error and adds what it
 * was doing (`Account metadata <cid>: <the IPFS client's message>`). The front door's map
 * (src/utils/errorMap.ts) gives it the JSON-RPC code of its `cause` and keeps its own message. Anything
 * the domain refuses on its own is thrown with the factories above instead.
 */
export class SnapError extends Error {
  /**
   * @param message - The whole message the caller sees (free of secrets; the front door also
   * scrubs it).
   * @param options - The library error that caused it.
   * @param options.cause - The library error (its class chooses the JSON-RPC code).
   */
  constructor(
    message: string,
    options: {
      /** The library error (its class chooses the JSON-RPC code). */
      cause: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = 'SnapError';
  }
}

/**
 * Throw a not-found error; usable as an expression (`value ?? throwNotFound(...)`).
 *
 * @param message - What was not found.
 * @param data - Optional machine-readable reason (`data.reason`).
 * @throws JsonRpcError -32001 (resource not found), always.
 */
export function throwNotFound(message: string, data?: ErrorData): never {
  throw notFound(message, data);
}

/**
 * An EIP-5792 wallet-call error (https://eips.ethereum.org/EIPS/eip-5792#error-codes): 5700
 * unsupported non-optional capability, 5710 unsupported chain id, 5720 duplicate id, 5730 unknown
 * bundle id, 5740 bundle too large.
 *
 * @param code - The EIP-5792 code.
 * @param message - What is wrong; never echoes the caller's value.
 * @returns The error to throw.
 */
export const walletCallsError = (
  code: 5700 | 5710 | 5720 | 5730 | 5740,
  message: string,
): JsonRpcError<never> => new JsonRpcError(code, message);

/**
 * 4200 (unsupported method, EIP-1193): the snap knows the method and does not support it.
 *
 * @param message - Which method, and what to use instead.
 * @returns The error to throw.
 */
export const unsupportedMethod = (message: string): JsonRpcError<never> =>
  providerErrors.unsupportedMethod({ message });

/**
 * -32002 (resource unavailable, EIP-1474), as MetaMask answers a second request of a kind while one
 * waits: the site has a dialog waiting already.
 *
 * @param message - What is waiting.
 * @returns The error to throw.
 */
export const alreadyWaiting = (message: string): JsonRpcError<never> =>
  rpcErrors.resourceUnavailable({ message });

/**
 * -32002 (resource unavailable, EIP-1474): a service the caller named could not be used (a chain
 * config's RPC URL that does not answer as a node).
 *
 * @param message - What failed, in words a page can show.
 * @param data - The machine-readable reason and field.
 * @returns The error to throw.
 */
export const unavailable = (
  message: string,
  data: ErrorData,
): JsonRpcError<never> =>
  rpcErrors.resourceUnavailable({ message, data }) as never;
