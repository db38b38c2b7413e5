import { zeroAddress } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { recoverAuthorizationAddress } from 'viem/utils';

import {
  assertUpgradable,
  SIMPLE_7702_ACCOUNT,
  signEip7702Authorization,
  stubAuthorization,
} from './eip7702';

const KEY: Hex =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

describe('EIP-7702 authorizations', () => {
  it.each([SIMPLE_7702_ACCOUNT, zeroAddress])(
    'signs an authorization to %s that recovers to the EOA (viem)',
    async (address) => {
      const signed = await signEip7702Authorization(KEY, {
        address,
        chainId: 31337n,
        nonce: 7n,
      });
      expect(signed).toMatchObject({ address, chainId: 31337, nonce: 7 });
      expect(await recoverAuthorizationAddress({ authorization: signed })).toBe(
        privateKeyToAddress(KEY),
      );
    },
  );

  it('never signs chain id 0 (an authorization valid on every chain)', async () => {
    await expect(
      signEip7702Authorization(KEY, {
        address: SIMPLE_7702_ACCOUNT,
        chainId: 0n,
        nonce: 0n,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/never chain id 0/u),
    });
    expect(() => stubAuthorization(0n, 0n)).toThrow(/never chain id 0/u);
  });

  it('refuses any other delegate', async () => {
    await expect(
      signEip7702Authorization(KEY, {
        address: '0x1111111111111111111111111111111111111111',
        chainId: 1n,
        nonce: 0n,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/only to Simple7702Account v0\.8/u),
    });
  });

  it('refuses to upgrade over a delegate whose code is not the canonical one, or over other code', () => {
    expect(() =>
      assertUpgradable({
        delegation: 'none',
        nonce: 0n,
        canonicalDelegate: false,
      }),
    ).toThrow(/not the canonical v0\.8 code/u);
    expect(() =>
      assertUpgradable({
        delegation: 'other',
        nonce: 0n,
        canonicalDelegate: true,
      }),
    ).toThrow(/undo it first/u);
    expect(() =>
      assertUpgradable({
        delegation: 'simple7702',
        nonce: 3n,
        canonicalDelegate: true,
      }),
    ).not.toThrow();
  });
});
