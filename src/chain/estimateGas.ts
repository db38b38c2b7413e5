import { InvalidParamsError } from './errors';
import { sendWithGasCap } from './gasCap';
import type { Transport } from './transport';
import type { BlockParam, CallRequest, StateOverride } from './types';
import { readGasEstimate } from './untrusted';
import { checkBlock, checkCall, checkStateOverride } from './validation';

/**
 * eth_estimateGas (Ethereum JSON-RPC API; errors: code 3 for a revert).
 *
 * Sends `[call]`, `[call, block]` when a block is given, or `[call, block ?? "latest",
 * stateOverride]` when a geth-style state override is given (anvil and geth accept
 * it; a provider that refuses it answers with a ChainRpcError, which callers may
 * catch to fall back to estimating without the override).
 *
 * @param transport - The transport.
 * @param call - Call object: from, to (20-byte addresses), gas (gas units), gasPrice,
 * maxFeePerGas, maxPriorityFeePerGas, value (wei; hex, bigint or number), data (hex).
 * @param block - Block number (hex, bigint) or tag latest, earliest, pending, finalized.
 * The tag `safe` is refused: the provider does not support it on eth_estimateGas.
 * @param stateOverride - Optional `{ [address]: { balance?, nonce?, code?, state?, stateDiff? } }`.
 * The block it names (`latest` by default) is read in the same batch (one round trip):
 * a `gas` above 10x its gas limit is refused, and the estimate must be a hex quantity
 * between 21,000 and that cap, so a lying endpoint cannot return 0 or 2^256 - 1 gas.
 *
 * @returns The estimate, in gas units.
 * @throws InvalidParamsError before sending for an invalid call or the `safe` tag, and for a
 * `gas` above 10x the block gas limit; ExecutionRevertedError (code 3, decoded `reason`, raw
 * `data`) on a revert; ChainRpcError; TransportError for transport faults or an estimate out of bounds.
 * @example await estimateGas(t, { from, to, value: 1n }) // 21000n
 */
export async function estimateGas(
  transport: Transport,
  call: CallRequest,
  block?: BlockParam,
  stateOverride?: StateOverride,
): Promise<bigint> {
  const wireCall = checkCall(call, 'eth_estimateGas');
  const wireBlock =
    block === undefined
      ? undefined
      : checkBlock(block, 'eth_estimateGas block');
  if (wireBlock === 'safe') {
    throw new InvalidParamsError(
      'eth_estimateGas: the block tag "safe" is not supported by the provider; use "finalized" instead',
      { method: 'eth_estimateGas' },
    );
  }
  const wireOverride =
    stateOverride === undefined ? undefined : checkStateOverride(stateOverride);
  const params: unknown[] = [wireCall];
  if (wireBlock !== undefined || wireOverride !== undefined) {
    params.push(wireBlock ?? 'latest');
  }
  if (wireOverride !== undefined) {
    params.push(wireOverride);
  }
  const gas = typeof wireCall.gas === 'string' ? wireCall.gas : undefined;
  const { result, cap } = await sendWithGasCap(
    transport,
    { method: 'eth_estimateGas', params },
    wireBlock ?? 'latest',
    gas,
  );
  return readGasEstimate(result, 'eth_estimateGas', cap, transport.origin);
}
