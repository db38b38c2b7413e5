import { InvalidParamsError, TransportError } from './errors';
import type { RpcCall, Transport } from './transport';
import { gasCapOf, readBlockGasLimit } from './untrusted';

/**
 * Send an eth_call or eth_estimateGas together with the block it names, in one
 * JSON-RPC batch (one round trip): eth_getBlockByNumber(block, false) gives the
 * gas cap, 10 times that block's gas limit (the limit Infura documents for
 * both methods). A `gas` above the cap is refused with InvalidParamsError
 * whatever the provider answered to the call.
 *
 * @param transport - The transport.
 * @param call - The eth_call / eth_estimateGas call.
 * @param block - The block the call names (tag or hex number; `latest` when it names none).
 * @param gas - The call's `gas`, hex quantity in gas units, when given.
 * @returns The call's result and the cap, in gas.
 * @throws InvalidParamsError naming both figures when `gas` is above the cap; the call's own
 * error (ExecutionRevertedError, ChainRpcError); TransportError for transport faults or a block
 * without a valid gasLimit.
 */
export async function sendWithGasCap(
  transport: Transport,
  call: RpcCall,
  block: string,
  gas?: string,
): Promise<{
  /** The call's result, as received. */
  result: unknown;
  /** The gas cap, in gas: 10 times the block gas limit. */
  cap: bigint;
}> {
  const [blockReply, reply] = await transport.batchSettled([
    { method: 'eth_getBlockByNumber', params: [block, false] },
    call,
  ]);
  const cap =
    blockReply.ok && blockReply.result !== null
      ? gasCapOf(readBlockGasLimit(blockReply.result, transport.origin))
      : undefined;
  if (gas !== undefined && cap !== undefined && BigInt(gas) > cap) {
    throw new InvalidParamsError(
      `${call.method}: gas ${BigInt(gas)} exceeds the provider's cap of 10x the block gas limit (${cap} gas)`,
      { method: call.method },
    );
  }
  if (!reply.ok) {
    throw reply.error;
  }
  if (cap === undefined) {
    if (!blockReply.ok) {
      throw blockReply.error;
    }
    throw new TransportError(
      'malformed',
      `eth_getBlockByNumber(${JSON.stringify(block)}) gave no block for the gas cap (${transport.origin})`,
      {
        url: transport.origin,
      },
    );
  }
  return { result: reply.result, cap };
}
