import { sendWithGasCap } from './gasCap';
import type { Transport } from './transport';
import type { BlockParam, CallRequest, Hex, StateOverride } from './types';
import { readHexData } from './untrusted';
import { checkBlock, checkCall, checkStateOverride } from './validation';

/**
 * eth_call: execute a call without a transaction (Ethereum JSON-RPC API). With a
 * `gas`, the block the call names is read in the same batch (one round trip) and
 * a `gas` above 10x its gas limit is refused, as for eth_estimateGas.
 *
 * @param transport - The transport.
 * @param request - Call object (addresses 20 bytes; gas in gas units; prices and value in wei).
 * @param block - Block number or tag (default latest).
 * @param stateOverride - Optional geth-style state override, sent as the 3rd param only when given.
 * @returns The return data, hex.
 * @throws InvalidParamsError before sending for invalid input, and for a gas above the cap;
 * ExecutionRevertedError on a revert (decoded reason); ChainRpcError; TransportError (also
 * when the result is not hex bytes).
 */
export async function call(
  transport: Transport,
  request: CallRequest,
  block?: BlockParam,
  stateOverride?: StateOverride,
): Promise<Hex> {
  const wireCall = checkCall(request, 'eth_call');
  const wireBlock = checkBlock(block, 'eth_call block');
  const params: unknown[] = [wireCall, wireBlock];
  if (stateOverride !== undefined) {
    params.push(checkStateOverride(stateOverride));
  }
  const result =
    typeof wireCall.gas === 'string'
      ? (
          await sendWithGasCap(
            transport,
            { method: 'eth_call', params },
            wireBlock,
            wireCall.gas,
          )
        ).result
      : await transport.request('eth_call', params);
  return readHexData(result, 'eth_call', transport.origin);
}
