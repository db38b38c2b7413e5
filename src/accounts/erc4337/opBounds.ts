import type { EthUserOperation } from '@metamask/keyring-api';

import { invalidParams } from '../../utils/errors';

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

/**
 * Absolute gas caps on an operation's limits, whatever a server says (gas). The 10x-block-gas-limit
 * cap on estimates reads the block gas limit from the same RPC that estimates, so a lying RPC could
 * raise both; these do not move. 30,000,000 gas per field is the Ethereum mainnet block gas limit
 * of 2021-2024; no one operation needs more. The total bounds what the EntryPoint v0.6 prefund
 * charges for: `callGasLimit + verificationGasLimit * (3 with a paymaster, else 1) +
 * preVerificationGas`.
 */
export const ABSOLUTE_GAS_CAPS = {
  /** Largest callGasLimit, verificationGasLimit or preVerificationGas (gas). */
  perField: 30_000_000n,
  /** Largest callGasLimit + verificationGasLimit * multiplier + preVerificationGas (gas). */
  total: 60_000_000n,
} as const;

/**
 * Check an operation's gas limits against {@link ABSOLUTE_GAS_CAPS}.
 *
 * @param op - Hex-quantity gas limits and paymasterAndData (`0x` when none) of an EntryPoint v0.6 operation.
 * @param where - Who set them, for the message, e.g. `paymaster service reply (pm_getPaymasterData) at`.
 * @throws JsonRpcError -32602 naming the field above the per-field cap, or the total above its cap.
 */
export function assertAbsoluteGasCaps(
  op: Pick<
    EthUserOperation,
    | 'callGasLimit'
    | 'verificationGasLimit'
    | 'preVerificationGas'
    | 'paymasterAndData'
  >,
  where: string,
): void {
  const fields = [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
  ] as const;
  for (const field of fields) {
    if (BigInt(op[field]) > ABSOLUTE_GAS_CAPS.perField) {
      throw invalidParams(
        `Invalid ${where} ${field}: above the absolute cap of ${ABSOLUTE_GAS_CAPS.perField} gas`,
      );
    }
  }
  const multiplier = op.paymasterAndData === '0x' ? 1n : 3n;
  const total =
    BigInt(op.callGasLimit) +
    BigInt(op.verificationGasLimit) * multiplier +
    BigInt(op.preVerificationGas);
  if (total > ABSOLUTE_GAS_CAPS.total) {
    throw invalidParams(
      `Invalid ${where} gas limits: callGasLimit + verificationGasLimit x ${multiplier} + preVerificationGas above the absolute cap of ${ABSOLUTE_GAS_CAPS.total} gas`,
    );
  }
}
