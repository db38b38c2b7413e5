import { InvalidParamsError, TransportError } from './errors';
import type { Transport } from './transport';

/** The provider's gas parameter cap: 10 times (1000%) the current block gas limit (spec "Limits"). */
export const GAS_CAP_MULTIPLIER = 10n;

/**
 * Refuse a `gas` above 10x the current block gas limit before sending (spec
 * part (a) "Limits", eth_estimateGas and eth_call). Reads the latest block
 * (eth_getBlockByNumber("latest", false)).
 *
 * @param transport - The transport.
 * @param gas - The call's gas, hex quantity in gas units.
 * @param method - `eth_estimateGas` or `eth_call`, for the message.
 * @throws InvalidParamsError naming both figures when above the cap; TransportError/JsonRpcError from the read.
 */
export async function checkGasCap(transport: Transport, gas: string, method: string): Promise<void> {
  const block = (await transport.request('eth_getBlockByNumber', ['latest', false])) as { gasLimit?: unknown } | null;
  if (!block || typeof block.gasLimit !== 'string') {
    throw new TransportError('malformed', `eth_getBlockByNumber("latest") gave no gasLimit (${transport.maskedUrl})`, {
      url: transport.maskedUrl,
    });
  }
  const cap = BigInt(block.gasLimit) * GAS_CAP_MULTIPLIER;
  if (BigInt(gas) > cap) {
    throw new InvalidParamsError(
      `${method}: gas ${BigInt(gas)} exceeds the provider's cap of 10x the block gas limit (${cap} gas)`,
      { method },
    );
  }
}
