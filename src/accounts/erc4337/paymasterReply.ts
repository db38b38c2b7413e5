import type {
  EthUserOperation,
  EthUserOperationPatch,
} from '@metamask/keyring-api';
import { numberToHex } from 'viem';

import { assertAbsoluteGasCaps } from './opBounds';
import { invalidParams } from '../../utils/errors';

/**
 * Checks on what an ERC-7677 paymaster service answers to `pm_getPaymasterData` before it goes
 * into an EntryPoint v0.6 operation the user signs. The service is untrusted: it could name
 * another paymaster (or none, `0x`, and the user pays), or raise the gas limits (in v0.6
 * `preVerificationGas` is paid in full whatever is used, so a raised value is money taken), or
 * lower them (a callGasLimit of 1 makes the included operation revert and spends its nonce). A gas
 * limit may change only within [the operation's own value, own + 10% + 10,000 gas].
 */

/** Gas a service may add to each of the operation's own limits: 10% plus this many gas. */
export const PATCH_GAS_MARGIN = { percent: 10n, extra: 10_000n } as const;

/** Longest paymasterAndData accepted (bytes): address (20) + the service's data and signature. */
export const MAX_PAYMASTER_AND_DATA_BYTES = 2048;

const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
] as const;

/**
 * Refuse paymaster data that is not plain sponsorship, for a send whose gas no token pays (no
 * `gasToken`: ERC-7677 context `{}`). Read the way Pimlico's SingletonPaymaster reads it
 * (pimlicolabs/singleton-paymaster, `BaseSingletonPaymaster._parsePaymasterAndData`): the first
 * byte of the paymaster's data is `mode << 1 | allowAllBundlers`; mode 0 is verifying (the
 * paymaster pays the gas), mode 1 ERC-20 (its postOp takes a token from the account, up to what
 * the account has approved it), any other mode it refuses. Whatever paymaster the data names, only
 * mode 0 is accepted, and empty data is refused (SingletonPaymaster refuses it; a paymaster that
 * needs no signed data could charge anything). eth-infinitism's VerifyingPaymaster (v0.6 and v0.7)
 * starts its data with `abi.encode(uint48 validUntil, ...)`, whose first byte is 0: it passes.
 *
 * @param paymasterData - The paymaster's data: after its address in v0.6 `paymasterAndData`, the
 * `paymasterData` field in v0.7 / v0.8 (after the address and both gas limits in the packed form).
 * @param where - The reply's field, for the message.
 * @throws JsonRpcError -32602 when it is empty or asks for another mode than sponsorship.
 */
export function assertSponsorshipData(
  paymasterData: string,
  where: string,
): void {
  const modeByte = /^0x[0-9a-fA-F]{2}/u.test(paymasterData)
    ? Number.parseInt(paymasterData.slice(2, 4), 16)
    : undefined;
  // mode << 1 | allowAllBundlers: mode 0 is the byte 0 or 1
  if (modeByte === undefined || modeByte > 1) {
    throw invalidParams(
      `Invalid ${where}: not sponsorship data (its first byte asks the paymaster for another mode, such as taking an ERC-20 token from this account); a send without gasToken accepts only data in which the paymaster pays the gas`,
    );
  }
}

/**
 * The paymaster a paymasterAndData names (its first 20 bytes).
 *
 * @param paymasterAndData - Hex bytes: paymaster address ++ data, or `0x`.
 * @param where - The field, for the message.
 * @returns The address, lower case, or undefined for `0x`.
 * @throws JsonRpcError -32602 when non-empty but shorter than 20 bytes or not hex.
 */
export function paymasterOf(
  paymasterAndData: string,
  where: string,
): string | undefined {
  if (paymasterAndData === '0x') {
    return undefined;
  }
  if (
    !/^0x[0-9a-fA-F]*$/u.test(paymasterAndData) ||
    paymasterAndData.length % 2 !== 0 ||
    paymasterAndData.length < 42
  ) {
    throw invalidParams(
      `Invalid ${where}: expected 0x or a paymaster address (20 bytes) followed by its data`,
    );
  }
  return paymasterAndData.slice(0, 42).toLowerCase();
}

/**
 * Check a `pm_getPaymasterData` reply against the operation it was asked for and build the patch.
 *
 * @param reply - The service's result (untrusted JSON).
 * @param op - The operation sent for patching (its gas limits are the caps' base).
 * @param paymaster - The paymaster the stub named (lower-case address).
 * @returns keyring-api `EthUserOperationPatch`: `paymasterAndData`, and each gas limit the service
 * changed, as a canonical hex quantity.
 * @throws JsonRpcError -32602 naming the field: a paymasterAndData that is `0x`, malformed, longer
 * than MAX_PAYMASTER_AND_DATA_BYTES, names another paymaster or is not sponsorship data
 * ({@link assertSponsorshipData}: the reply is always to a request for sponsorship); a gas limit that is not a hex
 * quantity, is 0, is below the operation's own value (a callGasLimit of 1 would make the included
 * operation revert and spend its nonce) or above it + 10% + 10,000 gas; gas limits of the patched
 * operation above ABSOLUTE_GAS_CAPS (30,000,000 gas per field, 60,000,000 in all).
 */
export function checkPaymasterReply(
  reply: unknown,
  op: EthUserOperation,
  paymaster: string,
): EthUserOperationPatch {
  const where = 'paymaster service reply (pm_getPaymasterData) at';
  const fields = (
    typeof reply === 'object' && reply !== null && !Array.isArray(reply)
      ? reply
      : {}
  ) as Record<string, unknown>;
  const data = fields.paymasterAndData;
  if (
    typeof data !== 'string' ||
    data === '0x' ||
    data.length > 2 + 2 * MAX_PAYMASTER_AND_DATA_BYTES
  ) {
    throw invalidParams(
      `Invalid ${where} paymasterAndData: expected the sponsoring paymaster's data (not 0x, at most ${MAX_PAYMASTER_AND_DATA_BYTES} bytes)`,
    );
  }
  if (paymasterOf(data, `${where} paymasterAndData`) !== paymaster) {
    throw invalidParams(
      `Invalid ${where} paymasterAndData: names another paymaster than its stub data`,
    );
  }
  assertSponsorshipData(`0x${data.slice(42)}`, `${where} paymasterAndData`);
  const patch: EthUserOperationPatch = { paymasterAndData: data };
  for (const field of GAS_FIELDS) {
    const value = fields[field];
    if (value === undefined || value === null) {
      continue;
    }
    if (
      typeof value !== 'string' ||
      !/^0x[0-9a-fA-F]{1,64}$/u.test(value) ||
      BigInt(value) === 0n
    ) {
      throw invalidParams(
        `Invalid ${where} ${field}: expected a non-zero hex quantity`,
      );
    }
    const own = BigInt(op[field]);
    if (BigInt(value) < own) {
      // below the account's own estimate the operation may run out of gas once included: it
      // reverts (or fails validation) and the nonce and the gas are spent
      throw invalidParams(
        `Invalid ${where} ${field}: below the operation's own value (the estimate)`,
      );
    }
    if (
      BigInt(value) >
      own + (own * PATCH_GAS_MARGIN.percent) / 100n + PATCH_GAS_MARGIN.extra
    ) {
      throw invalidParams(
        `Invalid ${where} ${field}: above the operation's own value + ${PATCH_GAS_MARGIN.percent}% + ${PATCH_GAS_MARGIN.extra} gas`,
      );
    }
    // keyring-api's EthUint256Struct wants canonical quantities: no leading zeros
    patch[field] = numberToHex(BigInt(value));
  }
  assertAbsoluteGasCaps({ ...op, ...patch }, where);
  return patch;
}
