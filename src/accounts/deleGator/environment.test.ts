import { getAddress } from 'viem';

import { CANONICAL_DELEGATION_ENVIRONMENT } from './canonical';
import {
  MAX_CAVEAT_ENFORCERS,
  nonCanonicalContracts,
  resolveDelegationEnvironment,
} from './environment';
import { parseChainConfig } from '../erc4337/config';

const BASE = { scope: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545' };

/**
 * An address made of one repeated hex digit.
 *
 * @param digit - The digit.
 * @returns The address.
 */
const address = (digit: string): string => `0x${digit.repeat(40)}`;

/** A devnet-style environment: every address lower case and none canonical. */
const DEVNET = {
  DelegationManager: address('a'),
  EntryPoint: address('b'),
  SimpleFactory: address('c'),
  implementations: {
    EIP7702StatelessDeleGatorImpl: address('d'),
    HybridDeleGatorImpl: address('e'),
  },
  caveatEnforcers: { NativeTokenPeriodTransferEnforcer: address('f') },
};

/**
 * The error parseChainConfig throws for params.
 *
 * @param params - setChainConfig params.
 * @returns The error (fails the test when none).
 */
function refusal(params: unknown): { code: number; message: string } {
  try {
    parseChainConfig(params);
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('accepted');
}

describe('setChainConfig delegationEnvironment', () => {
  it("takes the kit's SmartAccountsEnvironment as is and stores it checksummed", () => {
    const config = parseChainConfig({ ...BASE, delegationEnvironment: DEVNET });
    expect(config.delegationEnvironment).toStrictEqual({
      DelegationManager: getAddress(address('a')),
      EntryPoint: getAddress(address('b')),
      SimpleFactory: getAddress(address('c')),
      implementations: {
        EIP7702StatelessDeleGatorImpl: getAddress(address('d')),
        HybridDeleGatorImpl: getAddress(address('e')),
      },
      caveatEnforcers: {
        NativeTokenPeriodTransferEnforcer: getAddress(address('f')),
      },
    });
    expect(
      parseChainConfig({
        ...BASE,
        delegationEnvironment: CANONICAL_DELEGATION_ENVIRONMENT,
      }).delegationEnvironment,
    ).toStrictEqual(CANONICAL_DELEGATION_ENVIRONMENT);
    expect(parseChainConfig(BASE)).not.toHaveProperty('delegationEnvironment');
  });

  it.each([
    [
      'a missing DelegationManager',
      { ...DEVNET, DelegationManager: undefined },
      'delegationEnvironment at DelegationManager: required',
    ],
    [
      'the zero address',
      { ...DEVNET, EntryPoint: `0x${'0'.repeat(40)}` },
      'delegationEnvironment at EntryPoint',
    ],
    [
      'no EIP7702StatelessDeleGatorImpl',
      { ...DEVNET, implementations: { HybridDeleGatorImpl: address('e') } },
      'implementations.EIP7702StatelessDeleGatorImpl',
    ],
    ['an unknown field', { ...DEVNET, Extra: address('1') }, 'unknown field'],
    [
      'an enforcer that is not an address',
      { ...DEVNET, caveatEnforcers: { ValueLteEnforcer: 'secret-api-key-1' } },
      'delegationEnvironment at caveatEnforcers.ValueLteEnforcer',
    ],
    [
      'a name that is not a contract name',
      { ...DEVNET, caveatEnforcers: { __proto__x: address('1') } },
      'contract name',
    ],
    [
      'a name longer than 64 characters',
      { ...DEVNET, caveatEnforcers: { [`A${'b'.repeat(64)}`]: address('1') } },
      'contract name',
    ],
    [
      'enforcers given as an array',
      { ...DEVNET, caveatEnforcers: [address('1')] },
      'delegationEnvironment at caveatEnforcers:',
    ],
    [
      `more than ${MAX_CAVEAT_ENFORCERS} enforcers`,
      {
        ...DEVNET,
        caveatEnforcers: Object.fromEntries(
          Array.from({ length: MAX_CAVEAT_ENFORCERS + 1 }, (_, index) => [
            `Enforcer${index}`,
            address('1'),
          ]),
        ),
      },
      `0 to ${MAX_CAVEAT_ENFORCERS} contract names`,
    ],
    [
      'more than 8 implementations',
      {
        ...DEVNET,
        implementations: Object.fromEntries(
          Array.from({ length: 9 }, (_, index) => [
            index === 0 ? 'EIP7702StatelessDeleGatorImpl' : `Impl${index}`,
            address('1'),
          ]),
        ),
      },
      '1 to 8 contract names',
    ],
  ])('refuses %s (-32602, the value never echoed)', (_, environment, named) => {
    const error = refusal({ ...BASE, delegationEnvironment: environment });
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(named);
    expect(error.message).not.toContain('secret-api-key-1');
  });

  it('resolves to the configured environment, else the canonical one where the chain has it', () => {
    expect(resolveDelegationEnvironment(undefined, 31337n)).toBeUndefined();
    expect(resolveDelegationEnvironment(undefined, 11155111n)).toStrictEqual(
      CANONICAL_DELEGATION_ENVIRONMENT,
    );
    const configured = parseChainConfig({
      ...BASE,
      delegationEnvironment: DEVNET,
    }).delegationEnvironment;
    expect(resolveDelegationEnvironment(configured, 1n)).toStrictEqual(
      configured,
    );
  });

  it('names the contracts that differ from the canonical deployment', () => {
    expect(
      nonCanonicalContracts(CANONICAL_DELEGATION_ENVIRONMENT),
    ).toStrictEqual([]);
    expect(
      nonCanonicalContracts({
        ...CANONICAL_DELEGATION_ENVIRONMENT,
        caveatEnforcers: {
          ...CANONICAL_DELEGATION_ENVIRONMENT.caveatEnforcers,
          ValueLteEnforcer: address('1'),
          Unknown: CANONICAL_DELEGATION_ENVIRONMENT.DelegationManager,
        },
      }),
    ).toStrictEqual(['ValueLteEnforcer', 'Unknown']);
    expect(nonCanonicalContracts(DEVNET)).toStrictEqual([
      'DelegationManager',
      'EntryPoint',
      'SimpleFactory',
      'EIP7702StatelessDeleGatorImpl',
      'HybridDeleGatorImpl',
      'NativeTokenPeriodTransferEnforcer',
    ]);
  });
});
