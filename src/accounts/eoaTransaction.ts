import type { TypedTxData } from '@ethereumjs/tx';
import { isAddressEqual, isHex } from 'viem';

import { invalidParams } from '../utils/errors';

/**
 * The EOA's `eth_signTransaction` transaction parsing (keyring-api EthMethod.SignTransaction;
 * transaction types of EIP-2718, EIP-2930, EIP-1559, chain ids of EIP-155) and the check that
 * a request's signer is the account. Used by src/accounts/eoa.ts.
 */

/**
 * Check that a request's signer address is the account's.
 *
 * @param address - The account's address (20-byte hex).
 * @param candidate - The address the request names.
 * @param where - Where the request names it, for the error.
 * @throws JsonRpcError -32602 when the candidate is not a 20-byte hex address or is another address.
 */
export function assertSigner(
  address: string,
  candidate: string,
  where: string,
): void {
  if (!isHex(candidate) || candidate.length !== 42) {
    throw invalidParams(`Invalid ${where}: expected a 20-byte address`);
  }
  if (!isAddressEqual(address as `0x${string}`, candidate)) {
    throw invalidParams(
      `Invalid ${where}: ${candidate} is not this account's address`,
    );
  }
}

/**
 * Largest chain id of a legacy transaction: its EIP-155 `v` (chainId * 2 + 35 + parity) must stay a
 * safe integer, as @ethereumjs/tx derives the chain id back from `v` in float arithmetic.
 */
const MAX_LEGACY_CHAIN_ID = (BigInt(Number.MAX_SAFE_INTEGER) - 36n) / 2n;

/** An `eth_signTransaction` transaction object as keyring-api's struct lets it through: fields not yet checked. */
type TxInput = Record<string, string | number | null | undefined | unknown[]>;

/**
 * Check an `eth_signTransaction` transaction for the EOA `address` and turn it into
 * `@ethereumjs/tx` input: the type is inferred when absent (EIP-1559 fee fields: 2, an access
 * list: 1, else legacy 0), quantities become bigints and missing nonce, value and data default
 * to zero and empty; `input` is read as `data` when `data` is absent (see callData).
 *
 * @param address - The account's address (20-byte hex).
 * @param tx - The request's transaction object (`params[0]`).
 * @param scopeChainId - The request scope's chain id, or 0n when the request has no scope.
 * @returns The transaction data for `@ethereumjs/tx` and its chain id.
 * @throws JsonRpcError -32602 naming the field that is missing, malformed, out of range or
 * inconsistent with the account or the scope.
 */
export function parseTransaction(
  address: string,
  tx: TxInput,
  scopeChainId: bigint,
): { tx: TypedTxData; chainId: bigint } {
  if (tx.from === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.from: the sender is required',
    );
  }
  assertSigner(address, String(tx.from), 'eth_signTransaction params[0].from');
  if (tx.chainId === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.chainId: the chain id is required',
    );
  }
  const chainId = parseQuantity(tx.chainId, 'chainId');
  if (chainId === 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.chainId: out of range (1 to 2^53 - 1)',
    );
  }
  if (scopeChainId !== 0n && chainId !== scopeChainId) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.chainId: does not match the request scope eip155:${scopeChainId}`,
    );
  }
  const type =
    tx.type === undefined
      ? inferType(tx)
      : Number(parseQuantity(tx.type, 'type'));
  if (![0, 1, 2].includes(type)) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.type: unsupported; legacy (0), EIP-2930 (1) and EIP-1559 (2) are supported',
    );
  }
  if (type === 0 && chainId > MAX_LEGACY_CHAIN_ID) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.chainId: a legacy transaction's chain id must be at most ${MAX_LEGACY_CHAIN_ID} (use type 1 or 2)`,
    );
  }
  const gasLimit = tx.gasLimit ?? tx.gas;
  if (gasLimit === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.gasLimit: required',
    );
  }
  const fields: Record<string, unknown> = {
    type,
    chainId,
    nonce: parseQuantity(tx.nonce ?? '0x0', 'nonce'),
    gasLimit: parseQuantity(gasLimit, 'gasLimit'),
    value: parseQuantity(tx.value ?? '0x0', 'value'),
    data: callData(tx),
    to:
      tx.to === undefined || tx.to === null ? undefined : hexBytes(tx.to, 'to'),
  };
  if (type === 2) {
    fields.maxFeePerGas = parseQuantity(
      required(tx.maxFeePerGas, 'maxFeePerGas'),
      'maxFeePerGas',
    );
    fields.maxPriorityFeePerGas = parseQuantity(
      required(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
      'maxPriorityFeePerGas',
    );
  } else {
    fields.gasPrice = parseQuantity(
      required(tx.gasPrice, 'gasPrice'),
      'gasPrice',
    );
  }
  if (type !== 0) {
    fields.accessList = tx.accessList ?? [];
  }
  if (fields.to !== undefined && (fields.to as string).length !== 42) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.to: expected a 20-byte address or null',
    );
  }
  return { tx: fields, chainId };
}

/**
 * The transaction type a transaction object without `type` has, from the fields it carries.
 *
 * @param tx - The request's transaction object.
 * @returns 2 (EIP-1559) with a fee cap or tip, 1 (EIP-2930) with an access list, else 0 (legacy).
 */
function inferType(tx: TxInput): number {
  if (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined) {
    return 2;
  }
  return tx.accessList === undefined ? 0 : 1;
}

/**
 * A field the transaction's type requires.
 *
 * @param value - The field's value.
 * @param field - The field's name, for the error.
 * @returns The value, when present.
 * @throws JsonRpcError -32602 when the value is undefined or null.
 */
function required<Value>(value: Value | undefined, field: string): Value {
  if (value === undefined || value === null) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.${field}: required for this transaction type`,
    );
  }
  return value;
}

/**
 * A transaction quantity (wei, gas, nonce, chain id or type).
 *
 * @param value - A non-negative safe integer, a `0x` hex string or a decimal string.
 * @param field - The field's name, for the error.
 * @returns The quantity.
 * @throws JsonRpcError -32602 for any other value.
 */
function parseQuantity(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return BigInt(value);
  }
  if (
    typeof value === 'string' &&
    (/^0x[0-9a-fA-F]+$/u.test(value) || /^[0-9]+$/u.test(value))
  ) {
    return BigInt(value);
  }
  throw invalidParams(
    `Invalid eth_signTransaction params at 0.${field}: expected a hex or decimal quantity`,
  );
}

/**
 * The transaction's call data: `data`, or `input` (the name the Ethereum execution API's
 * GenericTransaction gives it: https://github.com/ethereum/execution-apis) when `data` is absent,
 * so what is signed is what a summary showing `data ?? input` shows. Both present and different
 * is refused: which one would be signed is not for the snap to guess.
 *
 * @param tx - The request's transaction object.
 * @returns The call data (`0x` when neither is given).
 * @throws JsonRpcError -32602 for malformed bytes, or `input` that differs from `data`.
 */
function callData(tx: TxInput): string {
  const data = tx.data === undefined ? undefined : hexBytes(tx.data, 'data');
  const input =
    tx.input === undefined ? undefined : hexBytes(tx.input, 'input');
  if (
    data !== undefined &&
    input !== undefined &&
    data.toLowerCase() !== input.toLowerCase()
  ) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.input: differs from data; send the call data once, as data',
    );
  }
  return data ?? input ?? '0x';
}

/**
 * A transaction bytes field (`data`, `input`, `to`).
 *
 * @param value - The field's value.
 * @param field - The field's name, for the error.
 * @returns The value: `0x` followed by an even number of hex digits.
 * @throws JsonRpcError -32602 for anything else.
 */
function hexBytes(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isHex(value) || value.length % 2 !== 0) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.${field}: expected hex bytes`,
    );
  }
  return value;
}
