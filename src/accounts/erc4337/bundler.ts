import type { EthUserOperation } from '@metamask/keyring-api';
import { rpcErrors } from '@metamask/rpc-errors';
import { getAddress, isAddress, numberToHex } from 'viem';
import type { Hex } from 'viem';

import { bundlerRefusal, SIGNED_REFUSAL_NOTE } from './bundlerErrors';
import type { UserOperationReceipt } from './types';
import { createRpcClient } from '../../chain';
import type { RpcClient } from '../../chain';

/**
 * The ERC-4337 bundler JSON-RPC client (ERC-7769, EntryPoint v0.6 operation shape): send an
 * operation, read its receipt. Network only: it receives signed operations, never a key. Every
 * reply is untrusted and checked field by field.
 */

const BYTES32 = /^0x[0-9a-fA-F]{64}$/u;
const UINT256_MAX = 2n ** 256n - 1n;
/** Block numbers and gas amounts are uint64 in Ethereum clients. */
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Largest reply body read from a bundler or paymaster service: 64 KiB (bytes). Their replies are a
 * hash, a receipt, fees or a paymasterAndData of at most a few KiB; the chain RPC's 32 MiB cap is
 * for eth_getLogs.
 */
export const MAX_SERVICE_REPLY_BYTES = 64 * 1024;

/**
 * A JSON-RPC client for an ERC-4337 service (bundler or ERC-7677 paymaster): no retries (sending
 * methods must not be repeated; lookups fall back elsewhere), replies capped at
 * {@link MAX_SERVICE_REPLY_BYTES}, redirects refused (as every transport does), and messages naming
 * the service.
 *
 * @param url - The service's JSON-RPC URL.
 * @param service - What it is, for messages: `bundler` or `paymaster service`.
 * @returns The client.
 */
export function serviceClient(
  url: string,
  service: 'bundler' | 'paymaster service' = 'bundler',
): RpcClient {
  return createRpcClient({
    url,
    retries: 0,
    maxReplyBytes: MAX_SERVICE_REPLY_BYTES,
    service,
  });
}

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
  const client = serviceClient(bundlerUrl);
  const hash = await client
    .request('eth_sendUserOperation', [userOp, entryPoint])
    .catch((error: unknown) => {
      throw bundlerRefusal(error, bundlerUrl, true);
    });
  if (typeof hash !== 'string' || !BYTES32.test(hash)) {
    throw rpcErrors.internal({
      message: `The bundler accepted the user operation but answered no 32-byte userOpHash. ${SIGNED_REFUSAL_NOTE}`,
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
    const reply = await serviceClient(bundlerUrl).request(
      'eth_getUserOperationReceipt',
      [userOpHash],
    );
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
 * @returns The receipt with canonical hex quantities, or null when absent or malformed: another
 * userOpHash, a sender that is not an address, a transactionHash that is not 32 bytes, a quantity
 * that is not hex or out of range (nonce and actualGasCost above 2^256 - 1, blockNumber and
 * actualGasUsed above 2^64 - 1).
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
  if (
    typeof hash !== 'string' ||
    hash.toLowerCase() !== userOpHash.toLowerCase() ||
    typeof sender !== 'string' ||
    !isAddress(sender, { strict: false }) ||
    typeof success !== 'boolean' ||
    typeof transactionHash !== 'string' ||
    !BYTES32.test(transactionHash)
  ) {
    return null;
  }
  const quantities = {
    nonce: receiptQuantity(nonce, UINT256_MAX),
    actualGasCost: receiptQuantity(actualGasCost, UINT256_MAX),
    actualGasUsed: receiptQuantity(actualGasUsed, UINT64_MAX),
    blockNumber: receiptQuantity(blockNumber, UINT64_MAX),
  };
  if (Object.values(quantities).some((value) => value === undefined)) {
    return null;
  }
  return {
    userOpHash,
    sender: getAddress(sender),
    nonce: quantities.nonce as Hex,
    success,
    actualGasCost: quantities.actualGasCost as Hex,
    actualGasUsed: quantities.actualGasUsed as Hex,
    transactionHash: transactionHash.toLowerCase() as Hex,
    blockNumber: quantities.blockNumber as Hex,
  };
}

/**
 * A hex quantity of a bundler's receipt (Ethereum JSON-RPC `uint`: `0x` and 1 to 64 hex digits;
 * leading zeros tolerated) within `[0, max]`, in canonical form (no leading zeros, lower case).
 *
 * @param value - The untrusted value.
 * @param max - Its largest accepted value.
 * @returns The canonical quantity, or undefined when it is not a hex quantity or is above `max`.
 */
function receiptQuantity(value: unknown, max: bigint): Hex | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/u.test(value)) {
    return undefined;
  }
  const number = BigInt(value);
  return number <= max ? numberToHex(number) : undefined;
}
