import {
  encodeFunctionData,
  hashTypedData,
  parseAbi,
  recoverTypedDataAddress,
} from 'viem';
import type { Hex } from 'viem';
import {
  getUserOperationHash,
  getUserOperationTypedData,
} from 'viem/account-abstraction';
import { privateKeyToAddress } from 'viem/accounts';

import { parseEoaRequest, signEoaTask } from './eoa';
import { normaliseTypedData } from './typedData';
import { userOperationShape } from './typedDataGuard';

const KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = privateKeyToAddress(KEY);
/** Another account of the snap (a smart account, say). */
const OTHER_OWN: Hex = '0x1111111111111111111111111111111111111111';
const FOREIGN: Hex = '0x2222222222222222222222222222222222222222';
const ENTRY_POINT_V08: Hex = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108';
const THIEF: Hex = '0x000000000000000000000000000000000000bEEF';

const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

const CALL_DATA = encodeFunctionData({
  abi: parseAbi(['function execute(address, uint256, bytes)']),
  args: [THIEF, 10n ** 18n, '0x'],
});

/**
 * The typed data of an EntryPoint v0.8 user operation, as viem builds it, in JSON as a dapp sends it.
 *
 * @param sender - The operation's sender.
 * @param chainId - The chain.
 * @param entryPoint - The EntryPoint (the domain's verifyingContract).
 * @returns `{ types, primaryType, domain, message }`, integers as decimal strings.
 */
function userOperationTypedData(
  sender: Hex,
  chainId = 1,
  entryPoint = ENTRY_POINT_V08,
): any {
  const typed = getUserOperationTypedData({
    chainId,
    entryPointAddress: entryPoint,
    userOperation: {
      sender,
      nonce: 7n,
      callData: CALL_DATA,
      callGasLimit: 100_000n,
      verificationGasLimit: 200_000n,
      preVerificationGas: 50_000n,
      maxFeePerGas: 3n,
      maxPriorityFeePerGas: 1n,
      signature: '0x',
    },
  });
  return JSON.parse(
    JSON.stringify(
      { ...typed, types: { EIP712Domain: DOMAIN_TYPE, ...typed.types } },
      (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
    ),
  );
}

/**
 * Parse a typed-data request for ADDRESS, the snap holding OTHER_OWN too.
 *
 * @param data - The typed data (object or JSON text).
 * @param method - The signing method.
 * @returns The task, or the error thrown.
 */
function parse(
  data: unknown,
  method = 'eth_signTypedData_v4',
): ReturnType<typeof parseEoaRequest> | { code: number; message: string } {
  try {
    return parseEoaRequest(ADDRESS, '', method, [ADDRESS, data], [OTHER_OWN]);
  } catch (error) {
    return error as { code: number; message: string };
  }
}

const USER_OPERATION_REFUSED = {
  code: -32602,
  message: expect.stringMatching(
    /^Invalid typed data: it is a user operation \(ERC-4337\) for account 0x[0-9a-fA-F]{40} of this snap\./u,
  ),
};

describe('typed data that is a user operation of one of the snap’s accounts', () => {
  it('the exact EntryPoint v0.8 shape: its digest is the userOpHash (viem), and it is refused in v3 and v4, as an object or as JSON text', () => {
    const data = userOperationTypedData(ADDRESS);
    // what would be signed is the EntryPoint's userOpHash
    expect(hashTypedData(data)).toBe(
      getUserOperationHash({
        chainId: 1,
        entryPointAddress: ENTRY_POINT_V08,
        entryPointVersion: '0.8',
        userOperation: {
          sender: ADDRESS,
          nonce: 7n,
          callData: CALL_DATA,
          callGasLimit: 100_000n,
          verificationGasLimit: 200_000n,
          preVerificationGas: 50_000n,
          maxFeePerGas: 3n,
          maxPriorityFeePerGas: 1n,
          signature: '0x',
        },
      }),
    );
    for (const method of ['eth_signTypedData_v3', 'eth_signTypedData_v4']) {
      expect(parse(data, method)).toMatchObject(USER_OPERATION_REFUSED);
      expect(parse(JSON.stringify(data), method)).toMatchObject(
        USER_OPERATION_REFUSED,
      );
    }
    expect((parse(data) as { message: string }).message).toContain(ADDRESS);
  });

  it.each([
    [
      'any chain and any EntryPoint',
      userOperationTypedData(ADDRESS, 8453, FOREIGN),
    ],
    [
      'the sender in lower case',
      userOperationTypedData(ADDRESS.toLowerCase() as Hex),
    ],
    [
      'another account of the snap as sender',
      userOperationTypedData(OTHER_OWN),
    ],
  ])('refused: %s', (_name, data) => {
    expect(parse(data)).toMatchObject(USER_OPERATION_REFUSED);
  });

  /**
   * The exact shape with one change.
   *
   * @param change - Changes the typed data in place.
   * @returns The changed typed data.
   */
  function variant(change: (data: any) => void): any {
    const data = userOperationTypedData(ADDRESS);
    change(data);
    return data;
  }

  it.each([
    [
      'the primary type renamed UserOperation',
      variant((data) => {
        data.types.UserOperation = data.types.PackedUserOperation;
        delete data.types.PackedUserOperation;
        data.primaryType = 'UserOperation';
      }),
    ],
    [
      'another type name and another domain name, fields kept (any case)',
      variant((data) => {
        data.types.Op = data.types.PackedUserOperation.map(
          (field: { name: string; type: string }) => ({
            ...field,
            name: field.name === 'callData' ? 'CALLDATA' : field.name,
          }),
        );
        delete data.types.PackedUserOperation;
        data.primaryType = 'Op';
        data.domain.name = 'Something';
        data.message.CALLDATA = data.message.callData;
        delete data.message.callData;
      }),
    ],
    [
      'only the domain name says it (ERC-4337), type and fields renamed',
      variant((data) => {
        data.types.Order = [{ name: 'maker', type: 'address' }];
        delete data.types.PackedUserOperation;
        data.primaryType = 'Order';
        data.domain.name = 'ERC-4337';
        data.message = { maker: ADDRESS };
      }),
    ],
    [
      'an extra field, and the sender left-padded to 32 bytes',
      variant((data) => {
        data.types.PackedUserOperation[0].type = 'bytes32';
        data.types.PackedUserOperation.push({ name: 'memo', type: 'string' });
        data.message.sender = `0x${'00'.repeat(12)}${ADDRESS.slice(2)}`;
        data.message.memo = 'hello';
      }),
    ],
    [
      'the operation inside a wrapper struct',
      variant((data) => {
        data.types.Wrapper = [{ name: 'op', type: 'PackedUserOperation' }];
        data.primaryType = 'Wrapper';
        data.message = { op: data.message };
      }),
    ],
  ])('refused, a look-alike: %s', (_name, data) => {
    expect(parse(data)).toMatchObject(USER_OPERATION_REFUSED);
  });

  it('a user operation of another sender is signed as asked (viem recovers the signer), and reads as one', async () => {
    const data = userOperationTypedData(FOREIGN);
    const task = parse(data) as ReturnType<typeof parseEoaRequest>;
    expect(task.method).toBe('eth_signTypedData');
    const signature = signEoaTask(KEY, task) as Hex;
    expect(await recoverTypedDataAddress({ ...data, signature })).toBe(ADDRESS);
    expect(userOperationShape(normaliseTypedData(data, 'V4'))).toStrictEqual({
      sender: FOREIGN,
      entryPoint: ENTRY_POINT_V08,
      callData: CALL_DATA,
    });
  });

  it('typed data that is no user operation may name the account (a Permit of its tokens)', () => {
    const task = parse({
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      domain: {
        name: 'Token',
        version: '1',
        chainId: 1,
        verifyingContract: FOREIGN,
      },
      message: { owner: ADDRESS, spender: FOREIGN, value: '1' },
    });
    expect(task).toMatchObject({ method: 'eth_signTypedData' });
    expect(
      userOperationShape(
        normaliseTypedData(
          {
            types: { Mail: [{ name: 'sender', type: 'address' }] },
            primaryType: 'Mail',
            domain: {},
            message: { sender: ADDRESS },
          },
          'V4',
        ),
      ),
    ).toBeUndefined();
  });
});

describe('typed data addressed to one of the snap’s accounts (domain.verifyingContract)', () => {
  it.each([
    ['the signing account itself', ADDRESS],
    ['the signing account, lower case', ADDRESS.toLowerCase()],
    ['another account of the snap', OTHER_OWN],
  ])('refused: %s', (_name, verifyingContract) => {
    expect(
      parse({
        types: {
          EIP712Domain: DOMAIN_TYPE,
          Execute: [{ name: 'data', type: 'bytes' }],
        },
        primaryType: 'Execute',
        domain: {
          name: 'Account',
          version: '1',
          chainId: 1,
          verifyingContract,
        },
        message: { data: '0x' },
      }),
    ).toStrictEqual(
      expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(
          /^Invalid typed data at domain\.verifyingContract: it is account 0x[0-9a-fA-F]{40} of this snap\. A message to an account's own code is not signed here/u,
        ),
      }),
    );
  });
});
