import { DELEGATOR_CONTRACTS } from '@metamask/delegation-deployments';
import { getSmartAccountsEnvironment } from '@metamask/smart-accounts-kit';

import {
  CANONICAL_DELEGATION_CHAINS,
  CANONICAL_DELEGATION_ENVIRONMENT,
} from './canonical';
import { canonicalDelegationEnvironment } from './environment';

describe('the canonical Delegation Framework v1.3.0 table', () => {
  const packaged = DELEGATOR_CONTRACTS['1.3.0'] ?? {};

  it('lists exactly the chains @metamask/delegation-deployments has v1.3.0 on', () => {
    expect(
      [...CANONICAL_DELEGATION_CHAINS].sort((a, b) => a - b),
    ).toStrictEqual(
      Object.keys(packaged)
        .map(Number)
        .sort((a, b) => a - b),
    );
  });

  it("is, on every one of them, the kit's own getSmartAccountsEnvironment(chainId, '1.3.0')", () => {
    for (const chainId of CANONICAL_DELEGATION_CHAINS) {
      expect(canonicalDelegationEnvironment(BigInt(chainId))).toStrictEqual(
        getSmartAccountsEnvironment(chainId, '1.3.0'),
      );
    }
  });

  it('has the v1.3.0 DelegationManager, EIP7702StatelessDeleGatorImpl and EntryPoint v0.7', () => {
    expect(CANONICAL_DELEGATION_ENVIRONMENT.DelegationManager).toBe(
      '0xdb9B1e94B5b69Df7e401DDbedE43491141047dB3',
    );
    expect(
      CANONICAL_DELEGATION_ENVIRONMENT.implementations
        .EIP7702StatelessDeleGatorImpl,
    ).toBe('0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B');
    expect(CANONICAL_DELEGATION_ENVIRONMENT.EntryPoint).toBe(
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    );
  });

  it('gives nothing for a chain without the deployment (a local chain) and a copy otherwise', () => {
    expect(canonicalDelegationEnvironment(31337n)).toBeUndefined();
    const copy = canonicalDelegationEnvironment(1n);
    (copy as { caveatEnforcers: Record<string, string> }).caveatEnforcers.X =
      '0x1111111111111111111111111111111111111111';
    expect(
      canonicalDelegationEnvironment(1n)?.caveatEnforcers.X,
    ).toBeUndefined();
  });
});
