import type { EthUserOperation } from '@metamask/keyring-api';
import { rpcErrors } from '@metamask/rpc-errors';
import { getAddress, isAddress } from 'viem';
import type { Hex } from 'viem';

import { bundlerRefusal } from './bundler-errors';
import type { UserOperationReceipt } from './receipt';
import { createRpcClient } from '../../chain';

/**
 * The ERC-4337 bundler JSON-RPC client (ERC-7769, EntryPoint v0.6 operation shape): send an
 * operation, read its receipt. Network only: it receives signed operations, never a key. Every
 * reply is untrusted and checked field by field.
 */

const BYTES32 = /^0x[0-9a-fA-F]{64}$/u;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/u;

/**
 * `eth_sendUserOperation [userOp, entryPoint]` (sent once: sending methods are never retried).
 *
 * @param bundlerUrl - The bundler's JSON-RPC URL.
 * @param userOp - The signed operation, hex quantities.
 * @param entryPoint - EntryPoint v0.6 address.
 * @returns The userOpHash the bundler answered (32-byte hex).
 * @throws JsonRpcError with the bundler's code and a message naming the refusal (see
 * `bundlerRefusal`); -32603 when the reply is not a 32-byte hash; the transport's errors.
 */
export async function sendToBundler(
  bundlerUrl: string,
  userOp: EthUserOperation,
  entryPoint: Hex,
): Promise<Hex> {
  const client = createRpcClient({ url: bundlerUrl, retries: 0 });
  const hash = await client
    .request('eth_sendUserOperation', [userOp, entryPoint])
    .catch((error: unknown) => {
      throw bundlerRefusal(error, bundlerUrl);
    });
  if (typeof hash !== 'string' || !BYTES32.test(hash)) {
    throw rpcErrors.internal({
      message:
        'The bundler accepted the user operation but answered no 32-byte userOpHash',
    });
  }
  return hash.toLowerCase() as Hex;
}

/**
 * `eth_getUserOperationReceipt [userOpHash]` at one bundler, mapped to the snap's receipt shape.
 * Never throws: an error, a refusal of the method, `null` or a malformed reply (wrong hash, bad
 * field) all give null, and the caller looks elsewhere.
 *
 * @param bundlerUrl - The bundler's JSON-RPC URL.
 * @param userOpHash - 32-byte hash.
 * @returns The receipt, or null.
 */
export async function bundlerReceipt(
  bundlerUrl: string,
  userOpHash: Hex,
): Promise<UserOperationReceipt | null> {
  try {
    const reply = await createRpcClient({
      url: bundlerUrl,
      retries: 0,
    }).request('eth_getUserOperationReceipt', [userOpHash]);
    return parseBundlerReceipt(reply, userOpHash);
  } catch {
    return null;
  }
}

/**
 * Check a bundler's `eth_getUserOperationReceipt` result (ERC-7769: `{ userOpHash, sender, nonce,
 * success, actualGasCost, actualGasUsed, receipt: { transactionHash, blockNumber, ... }, ... }`).
 *
 * @param reply - The untrusted result.
 * @param userOpHash - The hash asked for; the receipt must be for it.
 * @returns The receipt with canonical hex quantities, or null when absent or malformed.
 */
export function parseBundlerReceipt(
  reply: unknown,
  userOpHash: Hex,
): UserOperationReceipt | null {
  if (typeof reply !== 'object' || reply === null) {
    return null;
  }
  const {
    userOpHash: hash,
    sender,
    nonce,
    success,
    actualGasCost,
    actualGasUsed,
    receipt,
  } = reply as Record<string, unknown>;
  const { transactionHash, blockNumber } = (
    typeof receipt === 'object' && receipt !== null ? receipt : {}
  ) as Record<string, unknown>;
  const quantities = [nonce, actualGasCost, actualGasUsed, blockNumber];
  if (
    typeof hash !== 'string' ||
    hash.toLowerCase() !== userOpHash.toLowerCase() ||
    typeof sender !== 'string' ||
    !isAddress(sender, { strict: false }) ||
    typeof success !== 'boolean' ||
    typeof transactionHash !== 'string' ||
    !BYTES32.test(transactionHash) ||
    !quantities.every(
      (value) => typeof value === 'string' && QUANTITY.test(value),
    )
  ) {
    return null;
  }
  /**
   * Normalise a hex quantity checked above (no leading zeros, lower case).
   *
   * @param value - A hex quantity string.
   * @returns The same quantity in canonical form.
   */
  const toQuantity = (value: unknown): Hex =>
    `0x${BigInt(value as string).toString(16)}`;
  return {
    userOpHash,
    sender: getAddress(sender),
    nonce: toQuantity(nonce),
    success,
    actualGasCost: toQuantity(actualGasCost),
    actualGasUsed: toQuantity(actualGasUsed),
    transactionHash: transactionHash.toLowerCase() as Hex,
    blockNumber: toQuantity(blockNumber),
  };
}
