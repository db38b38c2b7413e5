import { isHex } from 'viem';

import { InvalidParamsError, TransportError } from './errors';
import { checkGasCap } from './gasCap';
import type { Transport } from './transport';
import type { BlockParam, CallRequest, StateOverride } from './types';
import { checkBlock, checkCall, checkStateOverride } from './validation';

/**
 * eth_estimateGas (spec part (a) "eth_estimateGas", "Limits", "Errors" code 3).
 *
 * Sends `[call]`, `[call, block]` when a block is given, or `[call, block ?? "latest",
 * stateOverride]` when a geth-style state override is given (anvil and geth accept
 * it; a provider that refuses it answers with a JsonRpcError, which callers may
 * catch to fall back to estimating without the override).
 *
 * @param transport - The transport.
 * @param call - Call object: from, to (20-byte addresses), gas (gas units), gasPrice,
 * maxFeePerGas, maxPriorityFeePerGas, value (wei; hex, bigint or number), data (hex).
 * @param block - Block number (hex, bigint) or tag latest, earliest, pending, finalized.
 * The tag `safe` is refused: the provider does not support it on eth_estimateGas.
 * @param stateOverride - Optional `{ [address]: { balance?, nonce?, code?, state?, stateDiff? } }`.
 * @returns The estimate, in gas units.
 * @throws InvalidParamsError before sending for an invalid call, the `safe` tag, or a `gas`
 * above 10x the block gas limit; ExecutionRevertedError (code 3, decoded `reason`, raw `data`)
 * on a revert; JsonRpcError, TransportError otherwise.
 * @example await estimateGas(t, { from, to, value: 1n }) // 21000n
 */
export async function estimateGas(
  transport: Transport,
  call: CallRequest,
  block?: BlockParam,
  stateOverride?: StateOverride,
): Promise<bigint> {
  const wireCall = checkCall(call, 'eth_estimateGas');
  const wireBlock = block === undefined ? undefined : checkBlock(block, 'eth_estimateGas block');
  if (wireBlock === 'safe') {
    throw new InvalidParamsError(
      'eth_estimateGas: the block tag "safe" is not supported by the provider; use "finalized" instead',
      { method: 'eth_estimateGas' },
    );
  }
  const wireOverride = stateOverride === undefined ? undefined : checkStateOverride(stateOverride);
  if (typeof wireCall.gas === 'string') {
    await checkGasCap(transport, wireCall.gas, 'eth_estimateGas');
  }
  const params: unknown[] = [wireCall];
  if (wireBlock !== undefined || wireOverride !== undefined) {
    params.push(wireBlock ?? 'latest');
  }
  if (wireOverride !== undefined) {
    params.push(wireOverride);
  }
  const result = await transport.request('eth_estimateGas', params);
  if (typeof result !== 'string' || !isHex(result) || result === '0x') {
    throw new TransportError('malformed', `eth_estimateGas returned ${JSON.stringify(result)} (${transport.maskedUrl})`, {
      url: transport.maskedUrl,
    });
  }
  return BigInt(result);
}
