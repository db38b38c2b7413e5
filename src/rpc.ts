import { define, enums, object } from '@metamask/superstruct';
import type { Json, JsonRpcRequest } from '@metamask/utils';

import { getUserOperationReceipt } from './accounts/erc4337';
import { createRpcClient } from './chain';
import { parseChainConfig, parseIpfsConfig } from './config';
import type { Hex } from 'viem';
import { invalidParams, methodNotFound, notFound, validate } from './errors';
import type { KeyringSnap } from './keyring';
import { SnapRpcMethod } from './permissions';
import { parseScope } from './scope';

const ApprovalModeStruct = object({ mode: enums(['sync', 'async']) });

const ReceiptParamsStruct = object({
  scope: define<string>('scope', (value) => typeof value === 'string' || 'expected eip155:<decimal chain id>'),
  userOpHash: define<string>('userOpHash', (value) =>
    typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/u.test(value) ? true : 'expected a 32-byte hex hash',
  ),
});

/**
 * The snap's own JSON-RPC methods (onRpcRequest), after the origin check (DESIGN.md "Snap RPC").
 *
 * @param keyring - The keyring.
 * @param request - `{ method, params }`.
 * @returns The method's result.
 * @throws JsonRpcError -32601 for an unknown method, -32602 for bad params, -32001 for an unknown chain.
 */
export async function handleSnapRpc(keyring: KeyringSnap, request: JsonRpcRequest): Promise<Json> {
  switch (request.method) {
    case SnapRpcMethod.SetChainConfig: {
      const config = parseChainConfig(request.params);
      const chainId = await createRpcClient({ url: config.rpcUrl }).chainId();
      if (BigInt(chainId) !== parseScope(config.scope).chainId) {
        throw invalidParams(`The rpcUrl serves chain ${chainId}, not ${config.scope}`);
      }
      return keyring.setChainConfig(config);
    }
    case SnapRpcMethod.GetChainConfigs:
      return keyring.getChainConfigs();
    case SnapRpcMethod.SetIpfsConfig: {
      const config = parseIpfsConfig(request.params);
      await keyring.setIpfsConfig(config);
      return { apiUrl: config.apiUrl };
    }
    case SnapRpcMethod.GetUserOperationReceipt: {
      const { scope, userOpHash } = validate(request.params, ReceiptParamsStruct, 'getUserOperationReceipt params');
      parseScope(scope);
      const config = keyring.chainConfig(scope) ?? throwNotFound(`No chain config for ${scope}: call setChainConfig first`);
      return getUserOperationReceipt(createRpcClient({ url: config.rpcUrl }), keyring.entryPoints(scope) as Hex[], userOpHash as Hex);
    }
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

function throwNotFound(message: string): never {
  throw notFound(message);
}
