import { isHex } from 'viem';

import { TransportError } from './errors';
import { checkGasCap } from './gasCap';
import type { Transport } from './transport';
import type { BlockParam, CallRequest, Hex, StateOverride } from './types';
import { checkBlock, checkCall, checkStateOverride } from './validation';

/**
 * eth_call: execute a call without a transaction (spec part (a) "Limits": the
 * gas cap of 10x the block gas limit applies to eth_call too).
 *
 * @param transport - The transport.
 * @param request - Call object (addresses 20 bytes; gas in gas units; prices and value in wei).
 * @param block - Block number or tag (default latest).
 * @param stateOverride - Optional geth-style state override, sent as the 3rd param only when given.
 * @returns The return data, hex.
 * @throws InvalidParamsError before sending for invalid input or gas above the cap;
 * ExecutionRevertedError on a revert (decoded reason); JsonRpcError; TransportError.
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
  if (typeof wireCall.gas === 'string') {
    await checkGasCap(transport, wireCall.gas, 'eth_call');
  }
  const result = await transport.request('eth_call', params);
  if (typeof result !== 'string' || !isHex(result)) {
    throw new TransportError('malformed', `eth_call returned ${JSON.stringify(result)} (${transport.maskedUrl})`, {
      url: transport.maskedUrl,
    });
  }
  return result;
}
