import { hashTypedData } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { deleGatorUserOpTypedData } from './account';
import { CANONICAL_DELEGATION_ENVIRONMENT } from './canonical';
import { DELEGATION_TYPES } from './delegation';
import { parseEoaRequest } from '../eoa';

const KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = privateKeyToAddress(KEY);
/** Another account of the snap. */
const OTHER_OWN: Hex = '0x1111111111111111111111111111111111111111';
const FOREIGN: Hex = '0x2222222222222222222222222222222222222222';
/** A DelegationManager a chain config names (a devnet's). */
const CONFIGURED: Hex = '0x3333333333333333333333333333333333333333';
const CANONICAL = CANONICAL_DELEGATION_ENVIRONMENT.DelegationManager as Hex;

const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

/**
 * The typed data of a root delegation with no caveats (a blank cheque), as the Smart Accounts Kit
 * signs it, in JSON as a dapp sends it.
 *
 * @param delegator - Its delegator.
 * @param manager - The domain's verifyingContract.
 * @param name - The domain's name.
 * @returns `{ types, primaryType, domain, message }`.
 */
function delegationTypedData(
  delegator: Hex,
  manager: Hex = CANONICAL,
  name = 'DelegationManager',
): any {
  return {
    types: { EIP712Domain: DOMAIN_TYPE, ...DELEGATION_TYPES },
    primaryType: 'Delegation',
    domain: { name, version: '1', chainId: 1, verifyingContract: manager },
    message: {
      delegate: FOREIGN,
      delegator,
      authority: `0x${'f'.repeat(64)}`,
      caveats: [],
      salt: '0',
    },
  };
}

/**
 * Parse a typed-data request for ADDRESS, the snap holding OTHER_OWN and knowing CONFIGURED.
 *
 * @param data - The typed data.
 * @param method - The signing method.
 * @returns The task, or the error thrown.
 */
function parse(
  data: unknown,
  method = 'eth_signTypedData_v4',
): ReturnType<typeof parseEoaRequest> | { code: number; message: string } {
  try {
    return parseEoaRequest(
      ADDRESS,
      '',
      method,
      [ADDRESS, data],
      [OTHER_OWN],
      [CANONICAL, CONFIGURED],
    );
  } catch (error) {
    return error as { code: number; message: string };
  }
}

const DELEGATION_REFUSED = {
  code: -32602,
  message: expect.stringMatching(/^Invalid typed data: it is a delegation/u),
};

describe('typed data of a Delegation (the keyring signing path refuses it)', () => {
  it('a blank-cheque delegation of the signing account under the canonical DelegationManager: refused as an object or JSON text, with or without caveats', () => {
    const data = delegationTypedData(ADDRESS);
    expect(hashTypedData(data)).toMatch(/^0x[0-9a-f]{64}$/u); // a well-formed EIP-712 message
    expect(parse(data)).toMatchObject(DELEGATION_REFUSED);
    expect(parse(JSON.stringify(data))).toMatchObject(DELEGATION_REFUSED);
    // v3 has no arrays (Caveat[]): refused as well, before the guard
    expect(parse(data, 'eth_signTypedData_v3')).toMatchObject({
      code: -32602,
    });
    // one caveat (a real grant's shape) is refused just the same
    expect(
      parse({
        ...data,
        message: {
          ...data.message,
          caveats: [{ enforcer: FOREIGN, terms: '0x' }],
        },
      }),
    ).toMatchObject(DELEGATION_REFUSED);
  });

  it.each([
    [
      'a configured DelegationManager, any delegator',
      FOREIGN,
      CONFIGURED,
      'DelegationManager',
    ],
    [
      'the domain name in another case',
      FOREIGN,
      CANONICAL,
      'delegationmanager',
    ],
    [
      'another account of the snap as delegator, another domain',
      OTHER_OWN,
      FOREIGN,
      'Whatever',
    ],
    ['the signing account as delegator, no domain name', ADDRESS, FOREIGN, ''],
  ])('refuses %s', (_name, delegator, manager, name) => {
    expect(parse(delegationTypedData(delegator, manager, name))).toMatchObject(
      DELEGATION_REFUSED,
    );
  });

  it('refuses a delegator hidden in a wrapper struct, in another case, padded to 32 bytes', () => {
    const data = {
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Inner: [{ name: 'Delegator', type: 'bytes32' }],
        Wrapper: [{ name: 'inner', type: 'Inner' }],
      },
      primaryType: 'Wrapper',
      domain: {
        name: 'X',
        version: '1',
        chainId: 1,
        verifyingContract: FOREIGN,
      },
      message: {
        inner: { Delegator: `0x${'0'.repeat(24)}${ADDRESS.slice(2)}` },
      },
    };
    expect(parse(data)).toMatchObject(DELEGATION_REFUSED);
  });

  it('signs typed data a foreign delegator or another manager names (no instruction to the snap)', () => {
    expect(parse(delegationTypedData(FOREIGN, FOREIGN))).toMatchObject({
      method: 'eth_signTypedData',
    });
  });

  it("refuses the DeleGator's own user-operation typed data for the signing account", () => {
    const typed = deleGatorUserOpTypedData(
      {
        chainId: 1n,
        entryPoint: CANONICAL_DELEGATION_ENVIRONMENT.EntryPoint as Hex,
        sender: ADDRESS,
      },
      {
        sender: ADDRESS,
        nonce: 0n,
        callData: '0x',
        callGasLimit: 1n,
        verificationGasLimit: 1n,
        preVerificationGas: 1n,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
        signature: '0x',
      },
    );
    const data = JSON.parse(
      JSON.stringify(
        { ...typed, types: { EIP712Domain: DOMAIN_TYPE, ...typed.types } },
        (_key, value: unknown) =>
          typeof value === 'bigint' ? value.toString() : value,
      ),
    );
    expect(parse(data)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid typed data/u),
    });
  });
});
