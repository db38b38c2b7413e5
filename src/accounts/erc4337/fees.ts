import { rpcErrors } from '@metamask/rpc-errors';

import { serviceClient } from './bundler';
import type { RpcCall, Settled } from '../../chain';

/**
 * EIP-1559 fees of a user operation (wei per gas), from the chain or from the bundler.
 */
export type Fees = {
  /** `maxFeePerGas`: the most paid per gas, base fee and tip together (wei per gas). */
  maxFeePerGas: bigint;
  /** `maxPriorityFeePerGas`: the most paid per gas to the block's proposer above the base fee (wei per gas). */
  maxPriorityFeePerGas: bigint;
  /** Where the fees come from: `chain` (eth_feeHistory and eth_maxPriorityFeePerGas) or `bundler` (pimlico_getUserOperationGasPrice). */
  source: 'chain' | 'bundler';
};

/**
 * Largest fee per gas accepted from a server: 10^14 wei (100,000 gwei). A reply above it is
 * treated as malformed rather than shown to the person as a price.
 */
export const MAX_FEE_PER_GAS = 10n ** 14n;

/**
 * The chain reads for fees, sent in prepare's batch: `eth_maxPriorityFeePerGas` and
 * `eth_feeHistory(1, latest, [])`, whose last `baseFeePerGas` is the base fee of the pending
 * (next) block (EIP-1559; JSON-RPC `eth_feeHistory`).
 */
export const CHAIN_FEE_READS: readonly RpcCall[] = [
  { method: 'eth_maxPriorityFeePerGas', params: [] },
  { method: 'eth_feeHistory', params: ['0x1', 'latest', []] },
];

/**
 * Fees from the chain reads: `maxFeePerGas = 2 × pending base fee + priority fee`, which stays
 * valid while the base fee rises for six full blocks in a row (12.5% each, EIP-1559).
 *
 * @param priority - Settled `eth_maxPriorityFeePerGas`.
 * @param history - Settled `eth_feeHistory(1, latest, [])`.
 * @returns The fees.
 * @throws The read's JsonRpcError when it failed; JsonRpcError -32603 when a result is malformed or out of bounds.
 */
export function chainFees(priority: Settled, history: Settled): Fees {
  if (!priority.ok) {
    throw priority.error;
  }
  if (!history.ok) {
    throw history.error;
  }
  const baseFees = (history.result as { baseFeePerGas?: unknown } | null)
    ?.baseFeePerGas;
  const baseFee = Array.isArray(baseFees)
    ? feeQuantity(baseFees.at(-1))
    : undefined;
  const tip = feeQuantity(priority.result);
  if (baseFee === undefined || tip === undefined) {
    throw rpcErrors.internal({
      message:
        'The chain’s fee reads (eth_maxPriorityFeePerGas, eth_feeHistory) gave no usable fee',
    });
  }
  return {
    maxFeePerGas: 2n * baseFee + tip,
    maxPriorityFeePerGas: tip,
    source: 'chain',
  };
}

/**
 * The bundler's own fees, when it has a fee method: Pimlico/Alto `pimlico_getUserOperationGasPrice`
 * (`{ slow, standard, fast }`, each `{ maxFeePerGas, maxPriorityFeePerGas }`); the `standard` tier
 * is used. Never throws: a bundler without the method, an unreachable one or a malformed reply
 * gives undefined, and the chain's fees are used.
 *
 * @param bundlerUrl - The bundler's JSON-RPC URL.
 * @returns The fees, or undefined.
 */
export async function bundlerFees(
  bundlerUrl: string,
): Promise<Fees | undefined> {
  try {
    const reply = await serviceClient(bundlerUrl).request(
      'pimlico_getUserOperationGasPrice',
      [],
    );
    const standard = (
      reply as {
        standard?: { maxFeePerGas?: unknown; maxPriorityFeePerGas?: unknown };
      } | null
    )?.standard;
    const maxFeePerGas = feeQuantity(standard?.maxFeePerGas);
    const maxPriorityFeePerGas = feeQuantity(standard?.maxPriorityFeePerGas);
    if (
      maxFeePerGas === undefined ||
      maxPriorityFeePerGas === undefined ||
      maxPriorityFeePerGas > maxFeePerGas
    ) {
      return undefined;
    }
    return { maxFeePerGas, maxPriorityFeePerGas, source: 'bundler' };
  } catch {
    return undefined;
  }
}

/**
 * A fee per gas from an untrusted reply.
 *
 * @param value - The reply field.
 * @returns The fee (wei per gas) when it is a hex quantity of at most {@link MAX_FEE_PER_GAS}, else undefined.
 */
export function feeQuantity(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/u.test(value)) {
    return undefined;
  }
  const fee = BigInt(value);
  return fee <= MAX_FEE_PER_GAS ? fee : undefined;
}
