import {
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';

import { DELEGATOR_DOMAIN_NAME } from './account';
import type { DelegationEnvironment } from './canonical';
import { STATELESS_DELEGATOR } from './environment';
import type { RpcCall, Settled } from '../../chain';

/**
 * What the snap reads of a chain's EIP7702StatelessDeleGatorImpl before an EOA is upgraded to it
 * or sends through it: its code, and its own `entryPoint()`, `delegationManager()` and `NAME()`
 * (immutables and a constant of `EIP7702DeleGatorCore` / `EIP7702StatelessDeleGator` v1.3.0). They
 * must be the environment's EntryPoint and DelegationManager and the EIP-712 domain name the snap
 * signs with; otherwise the contract is not the DeleGator the settings name and nothing is signed.
 */

const implementationAbi = parseAbi([
  'function entryPoint() view returns (address)',
  'function delegationManager() view returns (address)',
  'function NAME() view returns (string)',
]);

/** The views read, in order. */
const VIEWS = ['entryPoint', 'delegationManager', 'NAME'] as const;

/**
 * The environment's implementation address.
 *
 * @param environment - A chain's Delegation Framework.
 * @returns EIP7702StatelessDeleGatorImpl, checksummed.
 */
export function deleGatorImplementation(
  environment: DelegationEnvironment,
): Hex {
  return getAddress(environment.implementations[STATELESS_DELEGATOR]);
}

/**
 * The reads of {@link implementationMatches}, for a batch: `eth_getCode` of the implementation
 * and an `eth_call` of each view.
 *
 * @param environment - A chain's Delegation Framework.
 * @returns Four read-only calls.
 */
export function implementationReads(
  environment: DelegationEnvironment,
): RpcCall[] {
  const to = deleGatorImplementation(environment);
  return [
    { method: 'eth_getCode', params: [to, 'latest'] },
    ...VIEWS.map((functionName) => ({
      method: 'eth_call',
      params: [
        {
          to,
          data: encodeFunctionData({ abi: implementationAbi, functionName }),
        },
        'latest',
      ],
    })),
  ];
}

/**
 * Whether the implementation's reads show the DeleGator of `environment`: code, the environment's
 * EntryPoint and DelegationManager, and the domain name `EIP7702StatelessDeleGator`. A failed or
 * malformed read counts as no.
 *
 * @param settled - The four results of {@link implementationReads}, in order.
 * @param environment - The same environment.
 * @returns True when everything matches.
 */
export function implementationMatches(
  settled: readonly Settled[],
  environment: DelegationEnvironment,
): boolean {
  const [code, entryPoint, manager, name] = settled.map((item) =>
    item.ok && typeof item.result === 'string' ? (item.result as Hex) : '0x',
  ) as [Hex, Hex, Hex, Hex];
  if (code.length <= 2) {
    return false;
  }
  try {
    /**
     * Decode one view's answer.
     *
     * @param functionName - The view.
     * @param data - Its eth_call result.
     * @returns The decoded value.
     */
    const read = (functionName: (typeof VIEWS)[number], data: Hex): unknown =>
      decodeFunctionResult({ abi: implementationAbi, functionName, data });
    return (
      isAddressEqual(
        read('entryPoint', entryPoint) as Hex,
        environment.EntryPoint as Hex,
      ) &&
      isAddressEqual(
        read('delegationManager', manager) as Hex,
        environment.DelegationManager as Hex,
      ) &&
      read('NAME', name) === DELEGATOR_DOMAIN_NAME
    );
  } catch {
    return false;
  }
}
