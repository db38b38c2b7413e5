import {
  canonicalDelegationEnvironment,
  nonCanonicalContracts,
  STATELESS_DELEGATOR,
} from './environment';
import { parseScope } from '../../utils/scope';
import type { ChainConfig } from '../erc4337/types';

/** What a settings dialog says about the Delegation Framework of a chain. */
const NOT_CANONICAL_WARNING =
  "The spending-permission contracts of this chain are NOT MetaMask's canonical Delegation Framework v1.3.0 deployment. They decide what a spending permission granted on this chain lets a site or agent take, and accounts that grant one run their code: approve only if you trust them.";

/**
 * The rows a chain-settings dialog shows for the Delegation Framework a config sets (or leaves
 * to the canonical v1.3.0 deployment): the delegation manager, the smart-account code an EOA is
 * upgraded to and its EntryPoint in full, and each caveat enforcer that is not the canonical one
 * (the canonical ones counted in one row); a warning when anything differs from the canonical
 * deployment.
 *
 * @param config - The chain config that will be stored.
 * @param config.scope - Its chain, `eip155:<decimal chain id>`.
 * @param config.delegationEnvironment - Its environment, if any.
 * @param warnings - Where the warning is added.
 * @returns Label and value rows, plain text.
 */
export function delegationEnvironmentRows(
  config: Pick<ChainConfig, 'scope' | 'delegationEnvironment'>,
  warnings: string[],
): { label: string; value: string }[] {
  const label = 'Spending permissions';
  const configured = config.delegationEnvironment;
  if (!configured) {
    return [
      {
        label,
        value: canonicalDelegationEnvironment(parseScope(config.scope).chainId)
          ? "MetaMask's Delegation Framework v1.3.0 (canonical deployment)"
          : 'not available on this chain',
      },
    ];
  }
  const different = new Set(nonCanonicalContracts(configured));
  if (different.size > 0) {
    warnings.push(NOT_CANONICAL_WARNING);
  }
  /**
   * An address as the dialog shows it.
   *
   * @param name - Its contract name.
   * @param address - The address.
   * @returns The address, flagged canonical or not.
   */
  const flagged = (name: string, address: string): string =>
    `${address}${different.has(name) ? ' (NOT canonical)' : ' (canonical)'}`;
  const enforcers = Object.entries(configured.caveatEnforcers);
  const canonicalCount = enforcers.filter(
    ([name]) => !different.has(name),
  ).length;
  return [
    {
      label,
      value:
        different.size === 0
          ? "MetaMask's Delegation Framework v1.3.0 (canonical deployment)"
          : 'contracts set by this change',
    },
    {
      label: 'Delegation manager',
      value: flagged('DelegationManager', configured.DelegationManager),
    },
    {
      label: 'Smart-account code of an account that grants',
      value: flagged(
        STATELESS_DELEGATOR,
        configured.implementations[STATELESS_DELEGATOR],
      ),
    },
    {
      label: 'Its EntryPoint',
      value: flagged('EntryPoint', configured.EntryPoint),
    },
    ...enforcers
      .filter(([name]) => different.has(name))
      .map(([name, address]) => ({
        label: `Rule contract ${name}`,
        value: `${address} (NOT canonical)`,
      })),
    ...(canonicalCount > 0
      ? [
          {
            label: 'Other rule contracts',
            value: `${canonicalCount} canonical`,
          },
        ]
      : []),
  ];
}
