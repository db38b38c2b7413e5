import type {
  EthUserOperation,
  EthUserOperationPatch,
} from '@metamask/keyring-api';
import { isHex, numberToHex } from 'viem';
import type { Hex } from 'viem';

import { serviceClient } from './bundler';
import { checkPaymasterReply, paymasterOf } from './paymasterReply';
import { invalidParams } from '../../utils/errors';

/**
 * ERC-7677 paymaster web-service client for EntryPoint v0.6 operations. The snap holds no
 * paymaster key: the service signs. Params of both methods:
 * `[userOp, entryPoint, chainId (hex), context]`.
 */

/** An EntryPoint v0.6 operation as sent to the service: `preVerificationGas` may be a placeholder during prepare. */
type UserOpFields = Omit<EthUserOperation, 'preVerificationGas'> & {
  preVerificationGas: string;
};

/**
 * Call one ERC-7677 method of a paymaster service and check its reply carries paymasterAndData.
 *
 * @param url - Paymaster service URL.
 * @param method - `pm_getPaymasterStubData` or `pm_getPaymasterData`.
 * @param op - The operation.
 * @param entryPoint - EntryPoint v0.6 address.
 * @param chainId - Chain id (sent as a hex quantity).
 * @returns The reply object, whose `paymasterAndData` is hex bytes.
 * @throws JsonRpcError -32602 when the reply has no paymasterAndData hex bytes; the RPC client's
 * errors when the service cannot be reached or refuses the call.
 */
async function callPaymaster(
  url: string,
  method: string,
  op: UserOpFields,
  entryPoint: Hex,
  chainId: bigint,
): Promise<Record<string, unknown>> {
  const client = serviceClient(url, 'paymaster service');
  const result = await client.request(method, [
    op,
    entryPoint,
    numberToHex(chainId),
    {},
  ]);
  const paymasterAndData = (result as { paymasterAndData?: unknown } | null)
    ?.paymasterAndData;
  if (
    typeof paymasterAndData !== 'string' ||
    !isHex(paymasterAndData) ||
    paymasterAndData.length % 2 !== 0
  ) {
    throw invalidParams(
      `The paymaster service's ${method} reply has no paymasterAndData hex bytes`,
    );
  }
  return result as Record<string, unknown>;
}

/**
 * `pm_getPaymasterStubData`: paymasterAndData of its final length for gas estimation.
 *
 * @param url - Paymaster service URL.
 * @param op - The draft operation (dummy signature).
 * @param entryPoint - EntryPoint address.
 * @param chainId - Chain id.
 * @returns The stub paymasterAndData hex.
 */
export async function getPaymasterStubData(
  url: string,
  op: UserOpFields,
  entryPoint: Hex,
  chainId: bigint,
): Promise<string> {
  return (
    await callPaymaster(url, 'pm_getPaymasterStubData', op, entryPoint, chainId)
  ).paymasterAndData as string;
}

/**
 * eth_patchUserOperation through `pm_getPaymasterData`: the signed paymasterAndData, with the
 * gas limits the service changed (if any), each checked (checkPaymasterReply): the reply must name
 * the paymaster the stub named, and raise no gas limit above the operation's own + 10% + 10,000.
 * The stub is not kept between prepare and patch: the paymaster it named is read from the
 * operation's paymasterAndData (prepare's dummyPaymasterAndData, as the wallet sends it), or, when
 * that is `0x`, learnt by asking `pm_getPaymasterStubData` again.
 * Without a paymaster URL: `{ paymasterAndData: "0x" }`.
 *
 * @param url - Paymaster service URL, or undefined.
 * @param op - The operation with its final gas limits and fees.
 * @param entryPoint - EntryPoint address.
 * @param chainId - Chain id.
 * @returns Exactly the keyring-api `EthUserOperationPatch` fields.
 * @throws JsonRpcError -32602 naming the field of a refused reply or of a malformed paymasterAndData.
 */
export async function patchUserOperation(
  url: string | undefined,
  op: EthUserOperation,
  entryPoint: Hex,
  chainId: bigint,
): Promise<EthUserOperationPatch> {
  if (!url) {
    return { paymasterAndData: '0x' };
  }
  const paymaster =
    paymasterOf(
      op.paymasterAndData,
      'eth_patchUserOperation params[0].paymasterAndData',
    ) ??
    paymasterOf(
      await getPaymasterStubData(url, op, entryPoint, chainId),
      'paymaster service reply (pm_getPaymasterStubData) at paymasterAndData',
    );
  if (paymaster === undefined) {
    throw invalidParams(
      'Invalid paymaster service reply (pm_getPaymasterStubData) at paymasterAndData: names no paymaster',
    );
  }
  return checkPaymasterReply(
    await callPaymaster(url, 'pm_getPaymasterData', op, entryPoint, chainId),
    op,
    paymaster,
  );
}
