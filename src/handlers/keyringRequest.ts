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
import type { JsonRpcError } from '@metamask/rpc-errors';

import { invalidParams, validate } from '../utils/errors';
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
