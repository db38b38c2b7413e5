import type { Json, JsonRpcRequest } from '@metamask/utils';

import type { Domain } from '../domain';
import { COMPANION_ORIGINS, SnapRpcMethod } from './permissions';
import { describeAccountsOnChains } from '../keyring/accountsOnChains';
import { methodNotFound } from '../utils/errors';

/**
 * The snap's own JSON-RPC methods (onRpcRequest, reached with `wallet_invokeSnap`), after the
 * origin check: each one translates to one domain call, which validates its params. Settings
 * changes get the caller's origin, so a site's change is confirmed by the user first.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring (userOperationReceipt, sendUserOperation, findAccounts,
 * restoreAccount, listEntropySources, describeAccounts...).
 * @param domain.settings - Chain, IPFS and approval settings.
 * @param domain.dapps - EIP-5792 and sendUserOperation by address, one send per site at a time.
 * @param domain.permissions - ERC-7715 execution permissions (a site's own grants only).
 * @param request - `{ method, params }`.
 * @param origin - The caller's origin as MetaMask reported it (named in consent and send dialogs).
 * @returns The method's result.
 * @throws JsonRpcError -32601 for an unknown method; the domain's errors otherwise (4001 when the
 * user declines a site's change, search or restore).
 */
export async function handleSnapRpc(
  { keyring, settings, dapps, permissions }: Domain,
  request: JsonRpcRequest,
  origin: string,
): Promise<Json> {
  const requester = { origin };
  // one waiting send per site, except the companion's own pages (several sends may wait there)
  const alone = !COMPANION_ORIGINS.includes(origin);
  switch (request.method) {
    case SnapRpcMethod.SetChainConfig:
      return settings.setChainConfig(request.params, requester);
    case SnapRpcMethod.GetChainConfigs:
      return settings.chainConfigs();
    case SnapRpcMethod.SetIpfsConfig:
      return settings.setIpfsConfig(request.params, requester);
    case SnapRpcMethod.GetUserOperationReceipt:
      return keyring.userOperationReceipt(request.params);
    case SnapRpcMethod.GetApprovalMode:
      return { mode: settings.approvalMode() };
    case SnapRpcMethod.SetApprovalMode:
      return settings.setApprovalMode(request.params, requester);
    case SnapRpcMethod.SendUserOperation:
      return dapps.sendUserOperation(request.params, origin, alone);
    case SnapRpcMethod.ListEntropySources:
      return keyring.listEntropySources();
    case SnapRpcMethod.FindAccounts:
      return await keyring.findAccounts({}, requester);
    case SnapRpcMethod.RestoreAccount:
      return await keyring.restoreAccount(request.params, requester);
    case SnapRpcMethod.GetCapabilities:
      return dapps.capabilities(request.params, origin, alone);
    case SnapRpcMethod.SendCalls:
      return dapps.sendCalls(request.params, origin, alone);
    case SnapRpcMethod.GetCallsStatus:
      return dapps.callsStatus(request.params, origin);
    case SnapRpcMethod.DescribeAccounts:
      return describeAccountsOnChains(
        keyring.describeAccounts(),
        Object.values(settings.allChainConfigs()),
      );
    case SnapRpcMethod.GetSupportedExecutionPermissions:
      return permissions.supported(request.params);
    case SnapRpcMethod.RequestExecutionPermissions:
      return permissions.request(request.params, origin);
    case SnapRpcMethod.GetGrantedExecutionPermissions:
      return permissions.granted(request.params, origin);
    case SnapRpcMethod.RevokeExecutionPermission:
      return permissions.revoke(request.params, origin);
    case SnapRpcMethod.ShowCallsStatus:
      return dapps.showCallsStatus();
    default:
      throw methodNotFound(`Method '${request.method}' is not supported`);
  }
}
