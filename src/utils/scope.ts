import { invalidParams } from './errors';

/** CAIP-2 scope of an EVM chain: `eip155:<decimal chain id>` (`eip155:0` = any EVM chain). */
const EIP155_SCOPE = /^eip155:(0|[1-9][0-9]{0,17})$/u;

/**
 * Parse a CAIP-2 `eip155` scope.
 *
 * @param scope - For example `eip155:1` or `eip155:31337`.
 * @returns The chain id as a bigint (0n for the EOA wildcard `eip155:0`).
 * @throws JsonRpcError -32602 when the scope is not `eip155:<decimal>`.
 */
export function parseScope(scope: string): { chainId: bigint } {
  const match = EIP155_SCOPE.exec(scope);
  if (!match) {
    throw invalidParams(
      'Invalid scope: expected a CAIP-2 EVM chain id, eip155:<decimal chain id>',
    );
  }
  return { chainId: BigInt(match[1]) };
}

/**
 * The chain of an EOA signing request's scope, as MetaMask's keyring bridge sends it: `''` for
 * personal_sign and for typed data without `domain.chainId` (no chain: 0n), `eip155:<decimal>`, or
 * `eip155:0x<hex>` when the bridge copied a hex `domain.chainId`.
 *
 * @param scope - The request's scope.
 * @returns The chain id, 0n when the request names none.
 * @throws JsonRpcError -32602 for any other scope.
 */
export function parseEoaScope(scope: string): { chainId: bigint } {
  if (scope === '') {
    return { chainId: 0n };
  }
  const hexScope = /^eip155:(0x[0-9a-fA-F]{1,16})$/u.exec(scope);
  return hexScope ? { chainId: BigInt(hexScope[1]) } : parseScope(scope);
}
