import type { Json, JsonRpcRequest } from '@metamask/utils';

import { methodNotFound } from './errors';
import type { Domain } from './keyring';
import { SnapRpcMethod } from './permissions';

/**
 * The snap's own JSON-RPC methods (onRpcRequest, reached with `wallet_invokeSnap`), after the
 * origin check: each one translates to one domain call, which validates its params.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring (createAccount, userOperationReceipt, sendUserOperation...).
 * @param domain.settings - Chain, IPFS and approval settings.
 * @param request - `{ method, params }`.
 * @param origin - The caller's origin as MetaMask reported it (shown in sendUserOperation's dialog).
 * @returns The method's result.
 * @throws JsonRpcError -32601 for an unknown method; the domain's errors otherwise.
 */
export async function handleSnapRpc(
  { keyring, settings }: Domain,
  request: JsonRpcRequest,
  origin: string,
): Promise<Json> {
  switch (request.method) {
    case SnapRpcMethod.SetChainConfig:
      return settings.setChainConfig(request.params);
    case SnapRpcMethod.GetChainConfigs:
      return settings.chainConfigs();
    case SnapRpcMethod.SetIpfsConfig:
      return settings.setIpfsConfig(request.params);
    case SnapRpcMethod.GetUserOperationReceipt:
      return keyring.userOperationReceipt(request.params);
    case SnapRpcMethod.GetApprovalMode:
      return { mode: settings.approvalMode() };
    case SnapRpcMethod.SetApprovalMode:
      return settings.setApprovalMode(request.params);
    case SnapRpcMethod.SendUserOperation:
      return keyring.sendUserOperation(request.params, origin);
    default:
      throw methodNotFound(`Method '${request.method}' is not supported`);
  }
}
