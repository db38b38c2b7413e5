import type { EthUserOperation } from '@metamask/keyring-api';

import { invalidParams } from '../../errors';

/** The uint256 fields of an EntryPoint v0.6 UserOperation. */
const QUANTITIES = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const;

/** The bytes fields of an EntryPoint v0.6 UserOperation. */
const BYTES = [
  'initCode',
  'callData',
  'paymasterAndData',
  'signature',
] as const;

/**
 * What keyring-api's structs leave open in a user operation and the ABI encoding refuses later:
 * quantities above 2^256 - 1 (EthUint256Struct has no length bound) and bytes of odd hex length
 * (EthBytesStruct accepts `0x123`).
 *
 * @param op - A user operation that passed EthUserOperationStruct.
 * @param where - The params position, e.g. `eth_signUserOperation params[0]`.
 * @throws JsonRpcError -32602 naming the field.
 */
export function assertUserOperationBounds(
  op: EthUserOperation,
  where: string,
): void {
  for (const field of QUANTITIES) {
    if (op[field].length > 66) {
      throw invalidParams(`Invalid ${where} at ${field}: above 2^256 - 1`);
    }
  }
  for (const field of BYTES) {
    if (op[field].length % 2 !== 0) {
      throw invalidParams(
        `Invalid ${where} at ${field}: expected whole bytes (an even number of hex digits)`,
      );
    }
  }
}
