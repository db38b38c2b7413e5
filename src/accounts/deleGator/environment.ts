import { define, object, record, refine, Struct } from '@metamask/superstruct';
import { getAddress, isAddressEqual, zeroAddress } from 'viem';
import type { Hex } from 'viem';

import {
  CANONICAL_DELEGATION_CHAINS,
  CANONICAL_DELEGATION_ENVIRONMENT,
} from './canonical';
import type { DelegationEnvironment } from './canonical';
import { AddressStruct } from '../../utils/structs';

export type { DelegationEnvironment };

/** Most implementations an environment may name (the kit's has 3). */
export const MAX_DELEGATION_IMPLEMENTATIONS = 8;

/** Most caveat enforcers an environment may name (the kit's v1.3.0 has 32). */
export const MAX_CAVEAT_ENFORCERS = 64;

/** The implementation an EOA of this snap delegates to (EIP-7702). */
export const STATELESS_DELEGATOR = 'EIP7702StatelessDeleGatorImpl';

/** A contract's name: a Solidity identifier of 1 to 64 characters (never `__proto__` or the like). */
const ContractNameStruct = define<string>('contract name', (value) =>
  typeof value === 'string' && /^[A-Za-z][A-Za-z0-9]{0,63}$/u.test(value)
    ? true
    : 'expected a contract name (a letter, then up to 63 letters or digits)',
);

/** A contract address that is not the zero address. */
const ContractStruct = refine(AddressStruct, 'contract', (value) =>
  isAddressEqual(value as Hex, zeroAddress)
    ? 'expected a contract address, not the zero address'
    : true,
);

/**
 * A plain object of `min` to `max` names to contracts. Its size is checked before any entry is
 * read (superstruct's `record` with `size` would read every entry of a huge object first).
 *
 * @param min - Fewest entries.
 * @param max - Most entries.
 * @returns The struct.
 */
function contracts(
  min: number,
  max: number,
): Struct<Record<string, string>, null> {
  return new Struct({
    ...record(ContractNameStruct, ContractStruct),
    validator: (value: unknown): true | string => {
      const count =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.keys(value).length
          : -1;
      return (
        (count >= min && count <= max) ||
        `expected an object of ${min} to ${max} contract names and addresses`
      );
    },
  });
}

/**
 * The kit's `SmartAccountsEnvironment` as `setChainConfig` takes it and the state keeps it:
 * `{ DelegationManager, EntryPoint, SimpleFactory, implementations, caveatEnforcers }`, each a
 * non-zero address, names of up to 64 letters and digits, at most
 * {@link MAX_DELEGATION_IMPLEMENTATIONS} implementations (`EIP7702StatelessDeleGatorImpl` among
 * them) and {@link MAX_CAVEAT_ENFORCERS} enforcers; no other field.
 */
export const DelegationEnvironmentStruct = refine(
  object({
    DelegationManager: ContractStruct,
    EntryPoint: ContractStruct,
    SimpleFactory: ContractStruct,
    implementations: contracts(1, MAX_DELEGATION_IMPLEMENTATIONS),
    caveatEnforcers: contracts(0, MAX_CAVEAT_ENFORCERS),
  }),
  'delegation environment',
  (environment) =>
    Object.hasOwn(environment.implementations, STATELESS_DELEGATOR)
      ? true
      : `expected implementations.${STATELESS_DELEGATOR}`,
);

/**
 * Checksum every address of a name-to-address record (EIP-55).
 *
 * @param entries - Names to addresses.
 * @returns The same names to checksummed addresses.
 */
const checksummed = (entries: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(entries).map(([name, address]) => [
      name,
      getAddress(address),
    ]),
  );

/**
 * An environment with every address checksummed (EIP-55), as it is stored.
 *
 * @param environment - A validated environment ({@link DelegationEnvironmentStruct}).
 * @returns A copy, checksummed.
 */
export function normalizeDelegationEnvironment(
  environment: DelegationEnvironment,
): DelegationEnvironment {
  return {
    DelegationManager: getAddress(environment.DelegationManager),
    EntryPoint: getAddress(environment.EntryPoint),
    SimpleFactory: getAddress(environment.SimpleFactory),
    implementations: checksummed(environment.implementations),
    caveatEnforcers: checksummed(environment.caveatEnforcers),
  };
}

/**
 * A copy of an environment a caller may change without changing the original.
 *
 * @param environment - An environment.
 * @returns Its copy.
 */
function copyOf(
  environment: Readonly<DelegationEnvironment>,
): DelegationEnvironment {
  return {
    ...environment,
    implementations: { ...environment.implementations },
    caveatEnforcers: { ...environment.caveatEnforcers },
  };
}

/**
 * The canonical v1.3.0 environment of a chain, when the chain has it.
 *
 * @param chainId - The chain's id.
 * @returns A copy of the canonical environment, or undefined for a chain without it.
 */
export function canonicalDelegationEnvironment(
  chainId: bigint,
): DelegationEnvironment | undefined {
  if (!CANONICAL_DELEGATION_CHAINS.includes(Number(chainId))) {
    return undefined;
  }
  return copyOf(CANONICAL_DELEGATION_ENVIRONMENT);
}

/**
 * The environment grants and DeleGator accounts use on a chain: the chain config's
 * `delegationEnvironment`, else the canonical v1.3.0 deployment where the chain has it.
 *
 * @param configured - The chain config's `delegationEnvironment`, if any.
 * @param chainId - The chain's id.
 * @returns The environment, or undefined when the chain has none.
 */
export function resolveDelegationEnvironment(
  configured: DelegationEnvironment | undefined,
  chainId: bigint,
): DelegationEnvironment | undefined {
  return configured
    ? copyOf(configured)
    : canonicalDelegationEnvironment(chainId);
}

/**
 * The names of an environment's contracts whose address differs from the canonical v1.3.0 one
 * (or that the canonical environment does not have), in the environment's order.
 *
 * @param environment - An environment.
 * @returns `DelegationManager`, `EntryPoint`, `SimpleFactory` and implementation or enforcer names.
 */
export function nonCanonicalContracts(
  environment: DelegationEnvironment,
): string[] {
  const canonical = CANONICAL_DELEGATION_ENVIRONMENT;
  /**
   * Whether an address is not the canonical one.
   *
   * @param address - The environment's address.
   * @param known - The canonical address of the same name, if any.
   * @returns True when there is none or it differs.
   */
  const differs = (address: string, known: string | undefined): boolean =>
    known === undefined || !isAddressEqual(address as Hex, known as Hex);
  /**
   * The names of a record whose address is not the canonical one.
   *
   * @param entries - Names to addresses.
   * @param known - The canonical names to addresses.
   * @returns Those names, in order.
   */
  const named = (
    entries: Record<string, string>,
    known: Record<string, string>,
  ): string[] =>
    Object.entries(entries)
      .filter(([name, address]) =>
        differs(address, Object.hasOwn(known, name) ? known[name] : undefined),
      )
      .map(([name]) => name);
  return [
    ...(['DelegationManager', 'EntryPoint', 'SimpleFactory'] as const).filter(
      (name) => differs(environment[name], canonical[name]),
    ),
    ...named(environment.implementations, canonical.implementations),
    ...named(environment.caveatEnforcers, canonical.caveatEnforcers),
  ];
}
