import { TransportError } from './errors';
import type { Transport } from './transport';
import type { BlockParam, FeeHistory, Hex, RpcBlock } from './types';
import { readHexData, readQuantity } from './untrusted';
import { checkAddress, checkBlock, toQuantity } from './validation';

/**
 * Small read actions the ERC-4337 work needs. Each validates its input before
 * sending (InvalidParamsError, -32602), and throws ChainRpcError for an error
 * reply and TransportError for transport faults or a result of the wrong shape.
 */

/**
 * The error for a result of the wrong shape.
 *
 * @param transport - The transport, for its origin.
 * @param method - The JSON-RPC method.
 * @param result - The result as received (its first 80 characters are quoted).
 * @returns A TransportError of kind `malformed`.
 */
const malformed = (
  transport: Transport,
  method: string,
  result: unknown,
): TransportError =>
  new TransportError(
    'malformed',
    `${method} returned ${JSON.stringify(result)?.slice(0, 80)} (${transport.origin})`,
    {
      url: transport.origin,
    },
  );

/**
 * Read a hex quantity result.
 *
 * @param transport - The transport.
 * @param method - JSON-RPC method.
 * @param params - Its params.
 * @returns The quantity as a bigint.
 */
async function requestQuantity(
  transport: Transport,
  method: string,
  params: unknown[],
): Promise<bigint> {
  return readQuantity(
    await transport.request(method, params),
    method,
    {},
    transport.origin,
  );
}

/**
 * eth_getCode: the code deployed at an address.
 *
 * @param transport - The transport.
 * @param address - 20-byte address.
 * @param block - Block number or tag (default latest).
 * @returns The code, hex (`0x` when none).
 */
export async function getCode(
  transport: Transport,
  address: Hex,
  block?: BlockParam,
): Promise<Hex> {
  const result = await transport.request('eth_getCode', [
    checkAddress(address, 'eth_getCode address'),
    checkBlock(block, 'eth_getCode block'),
  ]);
  return readHexData(result, 'eth_getCode', transport.origin);
}

/**
 * eth_chainId.
 *
 * @param transport - The transport.
 * @returns The chain id as a number (e.g. 31337).
 */
export async function chainId(transport: Transport): Promise<number> {
  return Number(
    readQuantity(
      await transport.request('eth_chainId', []),
      'eth_chainId',
      { max: BigInt(Number.MAX_SAFE_INTEGER) },
      transport.origin,
    ),
  );
}

/**
 * eth_blockNumber.
 *
 * @param transport - The transport.
 * @returns The latest block number.
 */
export async function blockNumber(transport: Transport): Promise<bigint> {
  return requestQuantity(transport, 'eth_blockNumber', []);
}

/**
 * eth_getBlockByNumber.
 *
 * @param transport - The transport.
 * @param block - Block number or tag.
 * @param full - Whether to include full transaction objects (default false: hashes).
 * @returns The block with hex quantities (gasLimit/gasUsed in gas, baseFeePerGas in wei), or null.
 */
export async function getBlockByNumber(
  transport: Transport,
  block: BlockParam,
  full = false,
): Promise<RpcBlock | null> {
  const result = await transport.request('eth_getBlockByNumber', [
    checkBlock(block, 'eth_getBlockByNumber block'),
    full,
  ]);
  if (
    result !== null &&
    (typeof result !== 'object' || Array.isArray(result))
  ) {
    throw malformed(transport, 'eth_getBlockByNumber', result);
  }
  return result as RpcBlock | null;
}

/**
 * eth_gasPrice.
 *
 * @param transport - The transport.
 * @returns The gas price, in wei per gas.
 */
export async function gasPrice(transport: Transport): Promise<bigint> {
  return requestQuantity(transport, 'eth_gasPrice', []);
}

/**
 * eth_maxPriorityFeePerGas.
 *
 * @param transport - The transport.
 * @returns The suggested priority fee, in wei per gas.
 */
export async function maxPriorityFeePerGas(
  transport: Transport,
): Promise<bigint> {
  return requestQuantity(transport, 'eth_maxPriorityFeePerGas', []);
}

/**
 * eth_feeHistory.
 *
 * @param transport - The transport.
 * @param blockCount - Number of blocks (1..1024).
 * @param newestBlock - Newest block number or tag (default latest).
 * @param rewardPercentiles - Percentiles (0..100, ascending) of priority fees to report.
 * @returns `{ oldestBlock, baseFeePerGas (wei), gasUsedRatio, reward? (wei) }`, hex strings.
 */
export async function feeHistory(
  transport: Transport,
  blockCount: number,
  newestBlock: BlockParam = 'latest',
  rewardPercentiles: number[] = [],
): Promise<FeeHistory> {
  const result = await transport.request('eth_feeHistory', [
    toQuantity(blockCount, 'eth_feeHistory blockCount'),
    checkBlock(newestBlock, 'eth_feeHistory newestBlock'),
    rewardPercentiles,
  ]);
  if (
    typeof result !== 'object' ||
    result === null ||
    !Array.isArray((result as FeeHistory).baseFeePerGas)
  ) {
    throw malformed(transport, 'eth_feeHistory', result);
  }
  return result as FeeHistory;
}

/**
 * eth_getBalance.
 *
 * @param transport - The transport.
 * @param address - 20-byte address.
 * @param block - Block number or tag (default latest).
 * @returns The balance, in wei.
 */
export async function getBalance(
  transport: Transport,
  address: Hex,
  block?: BlockParam,
): Promise<bigint> {
  return requestQuantity(transport, 'eth_getBalance', [
    checkAddress(address, 'eth_getBalance address'),
    checkBlock(block, 'eth_getBalance block'),
  ]);
}

/**
 * eth_getTransactionCount.
 *
 * @param transport - The transport.
 * @param address - 20-byte address.
 * @param block - Block number or tag (default latest).
 * @returns The account's nonce (transactions sent).
 */
export async function getTransactionCount(
  transport: Transport,
  address: Hex,
  block?: BlockParam,
): Promise<bigint> {
  return requestQuantity(transport, 'eth_getTransactionCount', [
    checkAddress(address, 'eth_getTransactionCount address'),
    checkBlock(block, 'eth_getTransactionCount block'),
  ]);
}
