import { getAddress, isAddress, numberToHex } from 'viem';
import type { Hex } from 'viem';
import { formatUserOperationRequest } from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';

import { serviceClient } from './bundler';
import { ABSOLUTE_GAS_CAPS } from './opBounds';
import {
  assertSponsorshipData,
  MAX_PAYMASTER_AND_DATA_BYTES,
  PATCH_GAS_MARGIN,
} from './paymasterReply';
import { invalidParams } from '../../utils/errors';

/**
 * ERC-7677 paymaster web-service client for EntryPoint v0.7 and v0.8 operations, in ERC-7677's v0.7
 * form: the service answers `paymaster`, `paymasterData`, `paymasterVerificationGasLimit` and
 * `paymasterPostOpGasLimit` rather than v0.6's `paymasterAndData`. Params of both methods:
 * `[userOp (v0.7 RPC form), entryPoint, chainId (hex), context ({})]`. The snap holds no paymaster
 * key: the service signs. Every reply is untrusted, with the bounds v0.6 replies have
 * (paymasterReply.ts, opBounds.ts): the reply size (the service client's 64 KiB), the paymaster's
 * data (at most {@link MAX_PAYMASTER_AND_DATA_BYTES} with its address and gas limits), a stub that
 * names no paymaster is refused (the dialog would say a paymaster pays), the final reply must name
 * the stub's paymaster, a gas limit it changes stays within [own, own + 10% + 10,000 gas], the
 * operation's gas stays under {@link ABSOLUTE_GAS_CAPS}, and a send paid by no token accepts only
 * sponsorship data (`assertSponsorshipData`), whichever paymaster the reply names.
 */

/** A v0.7 / v0.8 operation as viem types it (quantities as bigints). */
type ModernUserOperation = UserOperation<'0.7' | '0.8'>;

/**
 * Longest `paymasterData` accepted (bytes): {@link MAX_PAYMASTER_AND_DATA_BYTES} less the packed
 * paymaster address (20) and its two 16-byte gas limits (EntryPoint v0.7 `paymasterAndData`).
 */
export const MAX_PAYMASTER_DATA_BYTES = MAX_PAYMASTER_AND_DATA_BYTES - 52;

/** What `pm_getPaymasterStubData` answered, checked. */
export type PaymasterStub = {
  /** The paymaster that is to pay (checksummed). */
  paymaster: Hex;
  /** Its stub data, of the final length (for gas estimation). */
  paymasterData: Hex;
  /** Gas for its validation, when the service gives it (else the bundler estimates it). */
  paymasterVerificationGasLimit?: bigint;
  /** Gas for its postOp (ERC-7677: the service must give it for v0.7; the paymaster pays it). */
  paymasterPostOpGasLimit: bigint;
  /** The stub is the final data: `pm_getPaymasterData` is not asked. */
  isFinal: boolean;
};

/** The ERC-7677 context: `{}`, or `{ token }` (ERC-20 mode, Pimlico style). */
export type PaymasterContext = {
  /** The ERC-20 token the paymaster is to take for the gas. */
  token?: Hex;
};

/** How a token-paid operation is finished (see {@link finishSponsorship}). */
export type TokenSettlement = {
  /** `{ token }`. */
  context: PaymasterContext;
  /** The estimated operation with the approve's final amount in its call data. */
  bind: (op: ModernUserOperation) => ModernUserOperation;
  /** Throws when the final operation is out of the approve's bounds. */
  check: (op: ModernUserOperation) => void;
};

const STUB = 'paymaster service reply (pm_getPaymasterStubData) at';
const FINAL = 'paymaster service reply (pm_getPaymasterData) at';

/**
 * Check a `pm_getPaymasterStubData` reply in ERC-7677's v0.7 form.
 *
 * @param reply - The service's result (untrusted JSON).
 * @returns The stub.
 * @throws JsonRpcError -32602 naming the field: a reply that names no paymaster (none, the zero
 * address, or v0.6's `paymasterAndData` instead), a paymasterData that is not hex bytes or longer
 * than {@link MAX_PAYMASTER_DATA_BYTES}, a gas limit that is not a hex quantity up to
 * ABSOLUTE_GAS_CAPS.perField (30,000,000 gas), no paymasterPostOpGasLimit, an isFinal that is not a
 * boolean.
 */
export function readPaymasterStub(reply: unknown): PaymasterStub {
  const fields = asObject(reply);
  const paymaster = paymasterIn(fields, STUB);
  const verification = fields.paymasterVerificationGasLimit;
  const { isFinal } = fields;
  if (isFinal !== undefined && typeof isFinal !== 'boolean') {
    throw invalidParams(`Invalid ${STUB} isFinal: expected a boolean`);
  }
  return {
    paymaster,
    paymasterData: paymasterDataIn(fields, STUB),
    ...(verification === undefined || verification === null
      ? {}
      : {
          paymasterVerificationGasLimit: gasIn(
            verification,
            `${STUB} paymasterVerificationGasLimit`,
          ),
        }),
    paymasterPostOpGasLimit: gasIn(
      fields.paymasterPostOpGasLimit,
      `${STUB} paymasterPostOpGasLimit`,
    ),
    isFinal: isFinal === true,
  };
}

/** Gas limits a final reply may set (each within the operation's own + the margin). */
const FINAL_GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const;

/**
 * Check a `pm_getPaymasterData` reply against the operation it was asked for, and apply it.
 *
 * @param reply - The service's result (untrusted JSON).
 * @param op - The operation sent (the stub's paymaster, final gas limits and fees).
 * @returns The operation with the service's `paymasterData` (and any gas limit it changed).
 * @throws JsonRpcError -32602 naming the field: no paymaster or another one than the stub's, a
 * paymasterData that is not hex bytes or too long, a gas limit that is not a hex quantity, is below
 * the operation's own or above it + 10% + 10,000 gas; gas above ABSOLUTE_GAS_CAPS.
 */
export function applyPaymasterData(
  reply: unknown,
  op: ModernUserOperation,
): ModernUserOperation {
  const fields = asObject(reply);
  if (
    paymasterIn(fields, FINAL).toLowerCase() !==
    (op.paymaster ?? '').toLowerCase()
  ) {
    throw invalidParams(
      `Invalid ${FINAL} paymaster: names another paymaster than its stub data`,
    );
  }
  const patched: ModernUserOperation = {
    ...op,
    paymasterData: paymasterDataIn(fields, FINAL),
  };
  for (const field of FINAL_GAS_FIELDS) {
    const value = fields[field];
    if (value === undefined || value === null) {
      continue;
    }
    const gas = gasIn(value, `${FINAL} ${field}`);
    const own = op[field] ?? 0n;
    if (gas < own) {
      throw invalidParams(
        `Invalid ${FINAL} ${field}: below the operation's own value (the estimate)`,
      );
    }
    if (
      gas >
      own + (own * PATCH_GAS_MARGIN.percent) / 100n + PATCH_GAS_MARGIN.extra
    ) {
      throw invalidParams(
        `Invalid ${FINAL} ${field}: above the operation's own value + ${PATCH_GAS_MARGIN.percent}% + ${PATCH_GAS_MARGIN.extra} gas`,
      );
    }
    patched[field] = gas;
  }
  assertModernGasCaps(patched, FINAL);
  return patched;
}

/**
 * Check a sponsored v0.7 / v0.8 operation's gas limits against {@link ABSOLUTE_GAS_CAPS}: each of
 * the five limits at most `perField`, their sum (what EntryPoint v0.7 / v0.8 `_getRequiredPrefund`
 * counts) at most `total`.
 *
 * @param op - The operation.
 * @param where - Who set them, for the message.
 * @throws JsonRpcError -32602 naming the field above the per-field cap, or the total above its cap.
 */
export function assertModernGasCaps(
  op: ModernUserOperation,
  where: string,
): void {
  let total = 0n;
  for (const field of FINAL_GAS_FIELDS) {
    const gas = op[field] ?? 0n;
    if (gas > ABSOLUTE_GAS_CAPS.perField) {
      throw invalidParams(
        `Invalid ${where} ${field}: above the absolute cap of ${ABSOLUTE_GAS_CAPS.perField} gas`,
      );
    }
    total += gas;
  }
  if (total > ABSOLUTE_GAS_CAPS.total) {
    throw invalidParams(
      `Invalid ${where} gas limits: their sum is above the absolute cap of ${ABSOLUTE_GAS_CAPS.total} gas`,
    );
  }
}

/**
 * Ask the paymaster service for stub data (`pm_getPaymasterStubData`) and put it in the operation
 * for the bundler's gas estimate.
 *
 * @param url - The paymaster service's URL.
 * @param draft - The unsponsored draft (dummy signature; gas limits may be 0).
 * @param entryPoint - The EntryPoint (v0.7 or v0.8) address.
 * @param chainId - The chain id (sent as a hex quantity).
 * @param context - The ERC-7677 context (`{}`; `{ token }` to pay in an ERC-20 token).
 * @returns The stub and the draft carrying it (`paymaster`, `paymasterData`, both gas limits; the
 * verification limit left out when the service gives none, so the bundler estimates it).
 * @throws JsonRpcError -32602 from {@link readPaymasterStub}, and, without a token in the context,
 * when the stub is not sponsorship data (paymasterReply.ts `assertSponsorshipData`); the service
 * client's errors when it cannot be reached or refuses (its code and message).
 */
export async function sponsorDraft(
  url: string,
  draft: ModernUserOperation,
  entryPoint: Hex,
  chainId: bigint,
  context: PaymasterContext = {},
): Promise<{ stub: PaymasterStub; draft: ModernUserOperation }> {
  const stub = readPaymasterStub(
    await callPaymaster(
      url,
      'pm_getPaymasterStubData',
      draft,
      entryPoint,
      chainId,
      context,
    ),
  );
  if (!context.token) {
    assertSponsorshipData(stub.paymasterData, `${STUB} paymasterData`);
  }
  return {
    stub,
    draft: {
      ...draft,
      paymaster: stub.paymaster,
      paymasterData: stub.paymasterData,
      paymasterPostOpGasLimit: stub.paymasterPostOpGasLimit,
      ...(stub.paymasterVerificationGasLimit === undefined
        ? {}
        : {
            paymasterVerificationGasLimit: stub.paymasterVerificationGasLimit,
          }),
    },
  };
}

/**
 * Finish a sponsored operation after the bundler's estimate: the paymaster's verification gas (the
 * stub's, else the bundler's `paymasterVerificationGasLimit`), then the final data from
 * `pm_getPaymasterData` (unless the stub said `isFinal`), checked by {@link applyPaymasterData}.
 *
 * @param url - The paymaster service's URL.
 * @param op - The estimated operation carrying the stub (final gas limits and fees).
 * @param stub - The checked stub.
 * @param estimate - The bundler's `eth_estimateUserOperationGas` reply (untrusted).
 * @param entryPoint - The EntryPoint (v0.7 or v0.8) address.
 * @param chainId - The chain id.
 * @param settlement - For an operation paid in an ERC-20 token: its context, how the final
 * approve goes into the call data (`bind`, before `pm_getPaymasterData`, whose data is always
 * asked for) and the check of the final reply (`check`, paymasterToken.ts).
 * @returns The sponsored operation, every field final but the signature.
 * @throws JsonRpcError -32602 naming the field out of bounds (the bundler's verification estimate
 * as the service's reply); without a settlement, when the final data is not sponsorship data
 * (paymasterReply.ts `assertSponsorshipData`: a sponsored send never lets the paymaster take a
 * token); the service client's errors.
 */
export async function finishSponsorship(
  url: string,
  op: ModernUserOperation,
  stub: PaymasterStub,
  estimate: unknown,
  entryPoint: Hex,
  chainId: bigint,
  settlement?: TokenSettlement,
): Promise<ModernUserOperation> {
  const estimated: ModernUserOperation = {
    ...op,
    paymasterVerificationGasLimit:
      stub.paymasterVerificationGasLimit ??
      gasIn(
        asObject(estimate).paymasterVerificationGasLimit,
        "bundler's eth_estimateUserOperationGas at paymasterVerificationGasLimit",
      ),
  };
  assertModernGasCaps(estimated, "bundler's eth_estimateUserOperationGas at");
  if (!settlement) {
    const sponsored = stub.isFinal
      ? estimated
      : applyPaymasterData(
          await callPaymaster(
            url,
            'pm_getPaymasterData',
            estimated,
            entryPoint,
            chainId,
          ),
          estimated,
        );
    assertSponsorshipData(
      sponsored.paymasterData ?? '0x',
      `${stub.isFinal ? STUB : FINAL} paymasterData`,
    );
    return sponsored;
  }
  // paid in a token: the approve's final amount goes into the call data the paymaster signs
  const bound = settlement.bind(estimated);
  const final = applyPaymasterData(
    await callPaymaster(
      url,
      'pm_getPaymasterData',
      bound,
      entryPoint,
      chainId,
      settlement.context,
    ),
    bound,
  );
  settlement.check(final);
  return final;
}

/**
 * Call one ERC-7677 method with a v0.7-form operation.
 *
 * @param url - The paymaster service's URL.
 * @param method - `pm_getPaymasterStubData` or `pm_getPaymasterData`.
 * @param op - The operation (its dummy signature is sent as it is).
 * @param entryPoint - The EntryPoint address.
 * @param chainId - The chain id.
 * @param context - The ERC-7677 context.
 * @returns The untrusted result.
 */
async function callPaymaster(
  url: string,
  method: 'pm_getPaymasterStubData' | 'pm_getPaymasterData',
  op: ModernUserOperation,
  entryPoint: Hex,
  chainId: bigint,
  context: PaymasterContext = {},
): Promise<unknown> {
  return serviceClient(url, 'paymaster service').request(method, [
    formatUserOperationRequest(op),
    entryPoint,
    numberToHex(chainId),
    context,
  ]);
}

/**
 * The reply as an object (anything else is read as an empty one, so its fields are reported missing).
 *
 * @param reply - Untrusted JSON.
 * @returns Its fields.
 */
function asObject(reply: unknown): Record<string, unknown> {
  return (
    typeof reply === 'object' && reply !== null && !Array.isArray(reply)
      ? reply
      : {}
  ) as Record<string, unknown>;
}

/**
 * The reply's `paymaster`.
 *
 * @param fields - The reply.
 * @param where - The reply, for the message.
 * @returns The checksummed address.
 * @throws JsonRpcError -32602 when it names no paymaster (absent, not an address, the zero address).
 */
function paymasterIn(fields: Record<string, unknown>, where: string): Hex {
  const { paymaster } = fields;
  if (
    typeof paymaster !== 'string' ||
    !isAddress(paymaster, { strict: false }) ||
    /^0x0{40}$/u.test(paymaster)
  ) {
    throw invalidParams(
      `Invalid ${where} paymaster: names no paymaster (expected its address, in the EntryPoint v0.7 form)`,
    );
  }
  return getAddress(paymaster);
}

/**
 * The reply's `paymasterData`.
 *
 * @param fields - The reply.
 * @param where - The reply, for the message.
 * @returns The hex bytes.
 * @throws JsonRpcError -32602 when it is not whole hex bytes or longer than {@link MAX_PAYMASTER_DATA_BYTES}.
 */
function paymasterDataIn(fields: Record<string, unknown>, where: string): Hex {
  const data = fields.paymasterData;
  if (
    typeof data !== 'string' ||
    !/^0x(?:[0-9a-fA-F]{2})*$/u.test(data) ||
    data.length > 2 + 2 * MAX_PAYMASTER_DATA_BYTES
  ) {
    throw invalidParams(
      `Invalid ${where} paymasterData: expected hex bytes, at most ${MAX_PAYMASTER_DATA_BYTES} bytes`,
    );
  }
  return data as Hex;
}

/**
 * A gas limit of an untrusted reply.
 *
 * @param value - The value.
 * @param where - The field, for the message.
 * @returns Gas units.
 * @throws JsonRpcError -32602 when it is not a hex quantity up to ABSOLUTE_GAS_CAPS.perField.
 */
function gasIn(value: unknown, where: string): bigint {
  if (
    typeof value !== 'string' ||
    !/^0x[0-9a-fA-F]{1,16}$/u.test(value) ||
    BigInt(value) > ABSOLUTE_GAS_CAPS.perField
  ) {
    throw invalidParams(
      `Invalid ${where}: expected a gas amount (hex quantity) up to ${ABSOLUTE_GAS_CAPS.perField}`,
    );
  }
  return BigInt(value);
}
