import { TransportError } from './errors';
import type { Transport } from './transport';
import type { Hex, RpcTransaction } from './types';
import { checkBytes32 } from './validation';

/**
 * eth_getTransactionByHash (Ethereum JSON-RPC API, eth_getTransactionByHash,
 * "Transaction object").
 *
 * @param transport - The transport.
 * @param hash - The 32-byte transaction hash (hex).
 * @returns The transaction with every quantity kept as the node's hex string
 * (gas in gas units; gasPrice, maxFeePerGas, maxPriorityFeePerGas, value in wei),
 * `chainID` renamed `chainId`, block fields null while pending; or null when not found.
 * @throws InvalidParamsError before sending when `hash` is not 32 bytes;
 * ChainRpcError from the node; TransportError (malformed) when the result is not an object.
 */
export async function getTransactionByHash(
  transport: Transport,
  hash: Hex,
): Promise<RpcTransaction | null> {
  const checked = checkBytes32(hash, 'eth_getTransactionByHash hash');
  const result = await transport.request('eth_getTransactionByHash', [checked]);
  if (result === null) {
    return null;
  }
  if (typeof result !== 'object' || Array.isArray(result)) {
    throw new TransportError(
      'malformed',
      `eth_getTransactionByHash returned ${typeof result} (${transport.origin})`,
      {
        url: transport.origin,
      },
    );
  }
  const { chainID, ...rest } = result as Record<string, unknown>;
  const tx = { ...rest } as RpcTransaction;
  if (tx.chainId === undefined && typeof chainID === 'string') {
    tx.chainId = chainID as Hex;
  }
  for (const key of ['blockHash', 'blockNumber', 'transactionIndex'] as const) {
    if (tx[key] === undefined) {
      tx[key] = null;
    }
  }
  return tx;
}
