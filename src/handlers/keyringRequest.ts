import {
  ApproveRequestRequestStruct,
  CreateAccountRequestStruct,
  DeleteAccountRequestStruct,
  ExportAccountRequestStruct,
  FilterAccountChainsStruct,
  GetAccountRequestStruct,
  GetRequestRequestStruct,
  KeyringRpcMethod,
  ListAccountsRequestStruct,
  ListRequestsRequestStruct,
  RejectRequestRequestStruct,
  ResolveAccountAddressRequestStruct,
  SetSelectedAccountsRequestStruct,
  SubmitRequestRequestStruct,
  UpdateAccountRequestStruct,
} from '@metamask/keyring-api';
import {
  MethodNotSupportedError,
  handleKeyringRequest,
} from '@metamask/keyring-snap-sdk';
import type { JsonRpcError } from '@metamask/rpc-errors';
import type { Json } from '@metamask/utils';

import type { KeyringSnap } from '../keyring/keyring';
import { invalidParams, methodNotFound, validate } from '../utils/errors';
import { structMessage } from '../utils/safeText';

/** keyring-api's request structs (what keyring-snap-sdk asserts) of the methods this keyring serves. */
const REQUEST_STRUCTS: Record<string, Parameters<typeof validate>[1]> = {
  [KeyringRpcMethod.ListAccounts]: ListAccountsRequestStruct,
  [KeyringRpcMethod.GetAccount]: GetAccountRequestStruct,
  [KeyringRpcMethod.CreateAccount]: CreateAccountRequestStruct,
  [KeyringRpcMethod.FilterAccountChains]: FilterAccountChainsStruct,
  [KeyringRpcMethod.UpdateAccount]: UpdateAccountRequestStruct,
  [KeyringRpcMethod.DeleteAccount]: DeleteAccountRequestStruct,
  [KeyringRpcMethod.ExportAccount]: ExportAccountRequestStruct,
  [KeyringRpcMethod.ListRequests]: ListRequestsRequestStruct,
  [KeyringRpcMethod.GetRequest]: GetRequestRequestStruct,
  [KeyringRpcMethod.SubmitRequest]: SubmitRequestRequestStruct,
  [KeyringRpcMethod.ApproveRequest]: ApproveRequestRequestStruct,
  [KeyringRpcMethod.RejectRequest]: RejectRequestRequestStruct,
  [KeyringRpcMethod.ResolveAccountAddress]: ResolveAccountAddressRequestStruct,
  [KeyringRpcMethod.SetSelectedAccounts]: SetSelectedAccountsRequestStruct,
};

/**
 * The -32602 error for a keyring request keyring-snap-sdk refused before any keyring method ran.
 * The SDK passes on superstruct's message, which ends with the received value (`but received:
 * <value>`, a private key sent in the wrong field included) and is unbounded; and superstruct
 * itself throws a TypeError on some JSON (`{ "toString": "x" }`). So the request is validated again
 * here against the same keyring-api struct, giving the failing field and what it expects.
 *
 * @param request - The keyring JSON-RPC request `{ jsonrpc, id, method, params }`.
 * @param request.method - The keyring-api method, which picks the struct to validate against.
 * @param sdkMessage - The SDK's message, used (stripped of the value) only if the struct accepts the request.
 * @returns JsonRpcError -32602 `Invalid <method> request at <path>: <expectation>`, at most 300 characters.
 */
export function keyringRequestError(
  request: { method: string },
  sdkMessage: string,
): JsonRpcError<never> {
  const struct = Object.prototype.hasOwnProperty.call(
    REQUEST_STRUCTS,
    request.method,
  )
    ? REQUEST_STRUCTS[request.method]
    : undefined;
  if (struct) {
    validate(request, struct, `${request.method} request`);
  }
  const detail = structMessage(sdkMessage);
  return invalidParams(
    `Invalid keyring request${detail.startsWith('at ') ? ' ' : ': '}${detail}`,
  );
}

/**
 * Keyring methods that take the caller after keyring-api's own argument (the creation options or
 * the account id), so a site's deletion or export, and a metadata confirmation during creation,
 * name it (see KeyringSnap.createAccount, deleteAccount, exportAccount).
 */
const TAKES_REQUESTER: ReadonlySet<PropertyKey> = new Set([
  'createAccount',
  'deleteAccount',
  'exportAccount',
]);

/**
 * keyring-snap-sdk's handleKeyringRequest rethrows every error as a plain Error,
 * losing its JSON-RPC code. Route the calls through a proxy that remembers the
 * typed error our Keyring threw, and rethrow that one (src/index.ts maps it with callerError and
 * scrubs it, as it does every error). This proxy stays until @metamask/keyring-snap-sdk >= 7.2
 * is installable here: its handleKeyringRequest keeps the JSON-RPC code of the error a keyring
 * throws (MetaMask/accounts, keyring-snap-sdk CHANGELOG 7.2.0). Errors raised by the SDK
 * itself are its request validation (-32602, see keyringRequestError) or an unknown method (-32601).
 * The proxy also hands the caller's origin to the methods of TAKES_REQUESTER.
 *
 * @param target - The snap's keyring (keyring-api `Keyring`).
 * @param request - The keyring-api JSON-RPC request from MetaMask or the companion dapp.
 * @param origin - The caller's origin, as MetaMask reports it.
 * @returns The method's JSON result (`null` for methods that return nothing).
 * @throws The keyring's own error (typed), or JsonRpcError -32602 / -32601 as above.
 */
export async function dispatchKeyring(
  target: KeyringSnap,
  request: Parameters<typeof handleKeyringRequest>[1],
  origin: string,
): Promise<Json> {
  let thrown: unknown;
  const proxy = new Proxy(target, {
    /**
     * Read a keyring member; methods come back wrapped so that what they throw is remembered.
     *
     * @param object - The keyring.
     * @param property - The member the SDK reads.
     * @returns The member, methods wrapped.
     */
    get(object, property): unknown {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') {
        return value;
      }
      return async (...args: unknown[]): Promise<unknown> => {
        try {
          return await value.apply(
            object,
            TAKES_REQUESTER.has(property) ? [args[0], { origin }] : args,
          );
        } catch (error) {
          thrown = error;
          throw error;
        }
      };
    },
  });
  try {
    return (await handleKeyringRequest(proxy, request)) ?? null;
  } catch (error) {
    if (thrown !== undefined) {
      // The keyring's own typed error, as it threw it; the front door maps and scrubs it.
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrown unchanged
      throw thrown;
    }
    const { message } = error as Error;
    if (
      error instanceof MethodNotSupportedError ||
      message.startsWith('Method not supported')
    ) {
      throw methodNotFound('Method not supported');
    }
    throw keyringRequestError(request, message);
  }
}
