import { enums, object } from '@metamask/superstruct';
import type { Json, JsonRpcRequest } from '@metamask/utils';

import { methodNotFound, validate } from './errors';
import type { KeyringSnap } from './keyring';
import { SnapRpcMethod } from './permissions';

const ApprovalModeStruct = object({ mode: enums(['sync', 'async']) });

/**
 * The snap's own JSON-RPC methods (onRpcRequest), after the origin check.
 *
 * @param keyring - The keyring.
 * @param request - `{ method, params }`.
 * @returns The method's result.
 * @throws JsonRpcError -32601 for an unknown method, -32602 for bad params.
 */
export async function handleSnapRpc(keyring: KeyringSnap, request: JsonRpcRequest): Promise<Json> {
  switch (request.method) {
    case SnapRpcMethod.GetApprovalMode:
      return { mode: keyring.getApprovalMode() };
    case SnapRpcMethod.SetApprovalMode: {
      const { mode } = validate(request.params, ApprovalModeStruct, 'setApprovalMode params');
      await keyring.setApprovalMode(mode);
      return { mode };
    }
    default:
      throw methodNotFound(`Method '${request.method}' is not supported`);
  }
}
