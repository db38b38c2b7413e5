import {
  createErc20TokenPeriodicCaveats,
  createErc20TokenStreamCaveats,
  createNativeTokenPeriodicCaveats,
  createNativeTokenStreamCaveats,
  makePermissionDecoderConfigs,
} from '@metamask/7715-permission-types';
import type { EnforcerAddressesByName } from '@metamask/7715-permission-types';
import {
  createNonceTerms,
  createTimestampTerms,
  encodeDelegations,
  hashDelegation,
  ROOT_AUTHORITY as CORE_ROOT_AUTHORITY,
} from '@metamask/delegation-core';
import { DELEGATOR_CONTRACTS } from '@metamask/delegation-deployments';
import {
  hashDelegation as kitHashDelegation,
  SIGNABLE_DELEGATION_TYPED_DATA,
} from '@metamask/smart-accounts-kit/utils';
import {
  decodeFunctionData,
  getAddress,
  parseAbi,
  recoverTypedDataAddress,
} from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { GRANT_ENFORCERS, grantCaveats, permissionCaveats } from './caveats';
import type { GrantEnforcers, GrantTerms } from './caveats';
import {
  delegationHash,
  disableDelegationCall,
  encodePermissionContext,
  ROOT_AUTHORITY,
} from './delegation';
import type { Delegation } from './delegation';
import {
  DELEGATION_TYPES,
  signDelegationWithKey,
} from '../../accounts/deleGator/delegation';

const canonical = DELEGATOR_CONTRACTS['1.3.0'][1];
const enforcers = Object.fromEntries(
  GRANT_ENFORCERS.map((name) => [name, canonical[name]]),
) as GrantEnforcers;
const manager = canonical.DelegationManager;

/** The package's enforcer names (camelCase) for the same canonical addresses. */
const packageContracts: EnforcerAddressesByName = {
  erc20StreamingEnforcer: canonical.ERC20StreamingEnforcer,
  erc20PeriodTransferEnforcer: canonical.ERC20PeriodTransferEnforcer,
  nativeTokenStreamingEnforcer: canonical.NativeTokenStreamingEnforcer,
  nativeTokenPeriodTransferEnforcer:
    canonical.NativeTokenPeriodTransferEnforcer,
  approvalRevocationEnforcer: canonical.ApprovalRevocationEnforcer,
  exactCalldataEnforcer: canonical.ExactCalldataEnforcer,
  valueLteEnforcer: canonical.ValueLteEnforcer,
  timestampEnforcer: canonical.TimestampEnforcer,
  nonceEnforcer: canonical.NonceEnforcer,
  allowedCalldataEnforcer: canonical.AllowedCalldataEnforcer,
  allowedTargetsEnforcer: canonical.AllowedTargetsEnforcer,
  redeemerEnforcer: canonical.RedeemerEnforcer,
};

const TOKEN = '0x68e13372AE8FAaDDaf32cC08ee44C5ef5A002c69' as Hex;
/**
 * Caveats as this snap writes them: lower-case hex, args `0x`.
 *
 * @param caveats - Caveats from a package builder.
 * @returns Them, lower-case.
 */
const lower = <Item extends { enforcer: string; terms: string }>(
  caveats: Item[],
): { enforcer: string; terms: string; args: string }[] =>
  caveats.map((item) => ({
    enforcer: item.enforcer.toLowerCase(),
    terms: item.terms.toLowerCase(),
    args: '0x',
  }));

const native: GrantTerms = {
  type: 'native-token-periodic',
  periodAmount: 5n * 10n ** 17n,
  periodDuration: 3600,
  startTime: 1_764_424_800,
};
const erc20: GrantTerms = {
  type: 'erc20-token-periodic',
  tokenAddress: TOKEN,
  periodAmount: 10_000_000n,
  periodDuration: 86_400,
  startTime: 1_764_424_801,
};
const nativeStream: GrantTerms = {
  type: 'native-token-stream',
  initialAmount: 1n,
  maxAmount: 10n ** 18n,
  amountPerSecond: 10n ** 12n,
  startTime: 1_764_424_802,
};
const erc20Stream: GrantTerms = {
  type: 'erc20-token-stream',
  tokenAddress: TOKEN,
  initialAmount: 0n,
  maxAmount: 10n ** 9n,
  amountPerSecond: 7n,
  startTime: 1_764_424_803,
};

/**
 * @param value - A number.
 * @returns It as a hex quantity.
 */
const quantity = (value: bigint): Hex => `0x${value.toString(16)}`;

/**
 * A terms field as the package's decoder returns it.
 *
 * @param value - A field of GrantTerms.
 * @returns Amounts as hex quantities, addresses lower-case, numbers as they are.
 */
function wire(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return quantity(value);
  }
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/**
 * The package's populated permission for a grant's terms (amounts as hex).
 *
 * @param terms - The terms.
 * @returns Its `permission` argument.
 */
function populated(terms: GrantTerms): never {
  const { type, ...rest } = terms;
  const data = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [
      key,
      typeof value === 'bigint' ? quantity(value) : value,
    ]),
  );
  return {
    type,
    isAdjustmentAllowed: false,
    data: { ...data, justification: '' },
  } as never;
}

describe('grant caveats against @metamask/7715-permission-types 2.0.0', () => {
  it.each([
    ['native-token-periodic', native, createNativeTokenPeriodicCaveats],
    ['erc20-token-periodic', erc20, createErc20TokenPeriodicCaveats],
    ['native-token-stream', nativeStream, createNativeTokenStreamCaveats],
    ['erc20-token-stream', erc20Stream, createErc20TokenStreamCaveats],
  ] as const)(
    '%s: the same enforcers and terms as the package builder',
    (_type, terms, build) => {
      const theirs = build({
        permission: populated(terms),
        contracts: packageContracts,
      });
      expect(permissionCaveats(terms, enforcers)).toStrictEqual(
        lower(theirs as { enforcer: string; terms: string }[]),
      );
    },
  );

  it('appends the expiry (delegation-core createTimestampTerms) and the nonce (createNonceTerms)', () => {
    const caveats = grantCaveats(native, 1_767_225_600, 7n, enforcers);
    expect(caveats.slice(2)).toStrictEqual(
      lower([
        {
          enforcer: enforcers.TimestampEnforcer,
          terms: createTimestampTerms({
            afterThreshold: 0,
            beforeThreshold: 1_767_225_600,
          }),
        },
        {
          enforcer: enforcers.NonceEnforcer,
          terms: createNonceTerms({ nonce: '0x7' }),
        },
      ]),
    );
  });

  it.each([
    ['native-token-periodic', native],
    ['erc20-token-periodic', erc20],
    ['native-token-stream', nativeStream],
    ['erc20-token-stream', erc20Stream],
  ] as const)(
    "%s: the package's own decoder reads the grant back as the same permission and expiry",
    (type, terms) => {
      const caveats = grantCaveats(terms, 1_767_225_600, 0n, enforcers).map(
        (item) => ({ ...item, enforcer: getAddress(item.enforcer) }),
      );
      const config = makePermissionDecoderConfigs(packageContracts).find(
        (candidate) => candidate.permissionType === type,
      );
      const data = config?.validateAndDecodeData(
        caveats,
        config.contractAddresses,
      );
      const { type: _type, ...rest } = terms;
      expect(data).toMatchObject(
        Object.fromEntries(
          Object.entries(rest).map(([key, value]) => [key, wire(value)]),
        ),
      );
      const rules = config?.rules
        .map((decode) =>
          decode({
            contractAddresses: config.contractAddresses,
            caveats,
            requiredEnforcers: new Map(),
          }),
        )
        .filter(Boolean);
      expect(rules).toStrictEqual([
        { type: 'expiry', data: { timestamp: 1_767_225_600 } },
      ]);
    },
  );
});

describe('the delegation against delegation-core and the Smart Accounts Kit', () => {
  const owner = privateKeyToAccount(`0x${'11'.repeat(32)}`);
  const unsigned = {
    delegate: '0x000000000000000000000000000000000000bEEF' as Hex,
    delegator: owner.address.toLowerCase() as Hex,
    authority: ROOT_AUTHORITY,
    caveats: grantCaveats(erc20, 1_767_225_600, 3n, enforcers),
    salt: 2n ** 255n + 12_345n,
  };

  it('rOOT_AUTHORITY is the framework constant', () => {
    expect(ROOT_AUTHORITY).toBe(CORE_ROOT_AUTHORITY);
  });

  it('delegationHash is delegation-core hashDelegation and the kit hashDelegation', () => {
    expect(delegationHash(unsigned)).toBe(
      hashDelegation({ ...unsigned, signature: '0x' }),
    );
    expect(delegationHash(unsigned)).toBe(
      kitHashDelegation({
        ...unsigned,
        salt: `0x${unsigned.salt.toString(16)}`,
        signature: '0x',
      }),
    );
  });

  it("the grant's delegation, as the snap's only delegation signer signs it, recovers to the delegator under the kit's typed data and the DelegationManager's domain", async () => {
    expect(DELEGATION_TYPES).toStrictEqual(SIGNABLE_DELEGATION_TYPED_DATA);
    const signature = await signDelegationWithKey(
      `0x${'11'.repeat(32)}`,
      owner.address,
      { DelegationManager: manager } as never,
      31337n,
      unsigned,
    );
    const kitTypedData = {
      domain: {
        name: 'DelegationManager',
        version: '1',
        chainId: 31337,
        verifyingContract: manager,
      },
      types: SIGNABLE_DELEGATION_TYPED_DATA,
      primaryType: 'Delegation',
      message: unsigned,
    } as const;
    expect(
      await recoverTypedDataAddress({ ...kitTypedData, signature }),
    ).toStrictEqual(owner.address);
    // another chain is another digest: the same signature does not recover the delegator there
    expect(
      await recoverTypedDataAddress({
        ...kitTypedData,
        domain: { ...kitTypedData.domain, chainId: 1 },
        signature,
      }),
    ).not.toStrictEqual(owner.address);
  });

  it('encodePermissionContext is delegation-core encodeDelegations of the signed delegation', () => {
    const signed: Delegation = {
      ...unsigned,
      signature: `0x${'ab'.repeat(65)}`,
    };
    expect(encodePermissionContext([signed])).toBe(
      encodeDelegations([signed]).toLowerCase(),
    );
  });

  it('disableDelegationCall is DelegationManager.disableDelegation of that delegation', () => {
    const signed: Delegation = {
      ...unsigned,
      signature: `0x${'cd'.repeat(65)}`,
    };
    const decoded = decodeFunctionData({
      abi: parseAbi([
        'function disableDelegation((address delegate, address delegator, bytes32 authority, (address enforcer, bytes terms, bytes args)[] caveats, uint256 salt, bytes signature) delegation)',
      ]),
      data: disableDelegationCall(signed),
    });
    const [arg] = decoded.args as unknown as [Record<string, unknown>];
    expect(arg).toStrictEqual({
      delegate: getAddress(signed.delegate),
      delegator: getAddress(signed.delegator),
      authority: signed.authority,
      caveats: signed.caveats.map((item) => ({
        ...item,
        enforcer: getAddress(item.enforcer),
      })),
      salt: signed.salt,
      signature: signed.signature,
    });
  });
});
