import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import {
  recoverTypedSignature,
  signTypedData,
  SignTypedDataVersion,
} from '@metamask/eth-sig-util';
import { EthEoaAccountStruct } from '@metamask/keyring-api';
import { is } from '@metamask/superstruct';
import * as fc from 'fast-check';
import {
  bytesToHex,
  hashTypedData,
  recoverAddress,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  stringToHex,
} from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap, expectError, rejection } from './harness';
import type { KeyringHarness } from './harness';
import { fuzzRuns } from '../fixtures/fuzz';

const TYPED_DATA = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

/** A field of generated typed data: its EIP-712 type and a JSON value of that type. */
const typedField: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(fc.constant('uint8'), fc.integer({ min: 0, max: 255 })),
  fc.tuple(fc.constant('uint256'), fc.nat()),
  fc.tuple(fc.constant('int8'), fc.integer({ min: -128, max: 127 })),
  fc.tuple(fc.constant('int256'), fc.integer()),
  fc.tuple(fc.constant('bool'), fc.boolean()),
  fc.tuple(fc.constant('string'), fc.string({ maxLength: 40 })),
  fc.tuple(
    fc.constant('address'),
    fc.uint8Array({ minLength: 20, maxLength: 20 }).map(bytesToHex),
  ),
  fc.tuple(
    fc.constant('bytes32'),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex),
  ),
  fc.tuple(
    fc.constant('bytes4'),
    fc.uint8Array({ minLength: 4, maxLength: 4 }).map(bytesToHex),
  ),
  fc.tuple(
    fc.constant('bytes'),
    fc.uint8Array({ maxLength: 70 }).map(bytesToHex),
  ),
  fc.tuple(fc.constant('uint256[]'), fc.array(fc.nat(), { maxLength: 3 })),
);

/** EIP-712 typed data (V4) with a nested struct and an array of structs, generated. */
const generatedTypedData = fc
  .tuple(
    fc.array(typedField, { minLength: 1, maxLength: 5 }),
    fc.array(typedField, { minLength: 1, maxLength: 3 }),
    fc.integer({ min: 0, max: 2 }),
  )
  .map(([outer, inner, items]) => ({
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Inner: inner.map(([type], index) => ({ name: `i${index}`, type })),
      Outer: [
        ...outer.map(([type], index) => ({ name: `o${index}`, type })),
        { name: 'inner', type: 'Inner' },
        { name: 'items', type: 'Inner[]' },
      ],
    },
    primaryType: 'Outer' as const,
    domain: { name: 'Generated', chainId: 1 },
    message: {
      ...Object.fromEntries(
        outer.map(([, value], index) => [`o${index}`, value]),
      ),
      inner: Object.fromEntries(
        inner.map(([, value], index) => [`i${index}`, value]),
      ),
      items: Array.from({ length: items }, () =>
        Object.fromEntries(
          inner.map(([, value], index) => [`i${index}`, value]),
        ),
      ),
    },
  }));

/**
 * Rebuild the signed transaction from `{ v, r, s }` as MetaMask's bridge does, and serialize it.
 *
 * @param tx - The transaction as sent to the snap.
 * @param signature - The snap's signature.
 * @returns The serialized signed transaction.
 */
function rebuild(
  tx: Record<string, unknown>,
  signature: Record<'v' | 'r' | 's', string>,
): Hex {
  const common = createCustomCommon({ chainId: Number(tx.chainId) }, Mainnet);
  const signed = createTx(
    { ...tx, gasLimit: tx.gasLimit, ...signature } as never,
    { common },
  );
  return bytesToHex(signed.serialize());
}

describe('EOA accounts through the built snap', () => {
  let harness: KeyringHarness;
  let first: any;
  let second: any;

  beforeAll(async () => {
    harness = await installKeyringSnap();
    first = await harness.createAccount();
    second = await harness.createAccount();
  });

  it('creates accounts with distinct addresses and emits notify:accountCreated after saving', async () => {
    expect(first.address).not.toBe(second.address);
    expect(first.type).toBe('eip155:eoa');
    expect(first.scopes).toStrictEqual(['eip155:0']);
    expect(first.methods).not.toContain('eth_sign');
    // MetaMask's bridge validates accounts against keyring-api's struct
    expect(is(first, EthEoaAccountStruct)).toBe(true);
    const created = harness.events.filter(
      (event) => event.method === 'notify:accountCreated',
    );
    expect(created.map((event) => event.params.account.id)).toStrictEqual([
      first.id,
      second.id,
    ]);
    expect(await harness.keyring('keyring_listAccounts')).toStrictEqual([
      first,
      second,
    ]);
    expect(
      await harness.keyring('keyring_getAccount', { id: second.id }),
    ).toStrictEqual(second);
  });

  it('personal_sign: the signature recovers to the account (viem)', async () => {
    const message = 'Sign in to example.com\nNonce: 42';
    const response = await harness.submit(first, 'personal_sign', [
      stringToHex(message),
      first.address,
    ]);
    expect(response.pending).toBe(false);
    const recovered = await recoverMessageAddress({
      message,
      signature: response.result,
    });
    expect(recovered).toBe(first.address);
  });

  it('eth_signTypedData_v4: the EIP-712 signature recovers to the account (viem)', async () => {
    const response = await harness.submit(second, 'eth_signTypedData_v4', [
      second.address,
      TYPED_DATA as never,
    ]);
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it("eth_signTypedData_v4 over generated typed data: the signature is eth-sig-util's in Node, byte for byte, and recovers to the account (viem)", async () => {
    const privateKey =
      '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
    const account = await harness.createAccount({ privateKey });
    await fc.assert(
      fc.asyncProperty(generatedTypedData, async (data) => {
        const response = await harness.submit(account, 'eth_signTypedData_v4', [
          account.address,
          data as never,
        ]);
        expect(response.result).toBe(
          signTypedData({
            privateKey: Buffer.from(privateKey.slice(2), 'hex'),
            data,
            version: SignTypedDataVersion.V4,
          }),
        );
        expect(
          await recoverTypedDataAddress({
            ...(data as any),
            signature: response.result,
          }),
        ).toBe(account.address);
      }),
      { numRuns: fuzzRuns(25), seed: 712 },
    );
    await harness.keyringApproved('keyring_deleteAccount', { id: account.id });
  });

  it('eth_signTypedData_v4 refuses every value its declared type does not admit, eth-sig-util-signable ones included, naming the field and never the value', async () => {
    const bad: [string, unknown, RegExp][] = [
      ['uint8', 256, /at message\.field: expected uint8 /u],
      // eth-sig-util 9 signs these three: int8 -129 as an int256, a 5-byte bytes4 as a bytes32,
      // a uint8[2] of one item as a uint8[] of one.
      ['int8', -129, /at message\.field: expected int8 /u],
      ['bytes4', '0x0102030405', /at message\.field: expected bytes4 /u],
      [
        'uint8[2]',
        [1],
        /at message\.field: expected an array of exactly 2 items$/u,
      ],
      ['uint256', 'ten', /at message\.field: expected uint256 /u],
      [
        'address',
        `0x${'11'.repeat(21)}`,
        /at message\.field: expected an address /u,
      ],
      ['uint7', 1, /at types\.Bad\[0\]\.type: unknown or unsupported type$/u],
      [
        'bytes33',
        '0x01',
        /at types\.Bad\[0\]\.type: unknown or unsupported type$/u,
      ],
      [
        '(uint256,bool)',
        [1, true, 3],
        /at types\.Bad\[0\]\.type: unknown or unsupported type$/u,
      ],
      ['string', undefined, /at message\.field: required$/u],
    ];
    for (const [type, value, expected] of bad) {
      const data = {
        types: {
          EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
          Bad: [{ name: 'field', type }],
        },
        primaryType: 'Bad' as const,
        domain: { chainId: 1 },
        message: value === undefined ? {} : { field: value },
      };
      const error = await harness
        .submit(first, 'eth_signTypedData_v4', [first.address, data as never])
        .then(
          () => undefined,
          (refusal: { code: number; message: string }) => refusal,
        );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(/^Invalid typed data at /u);
      expect(error?.message).toMatch(expected);
      expect(error?.message).not.toContain(
        typeof value === 'string' ? value : String(JSON.stringify(value)),
      );
    }
  });

  it('eth_signTypedData_v1 refuses int8 -129, uint8 -5, address 0x1234 and an 8-byte bytes4, naming the field and never the value', async () => {
    const bad: [string, unknown, RegExp][] = [
      ['int8', -129, /at data\[0\]\.field: expected int8 /u],
      ['uint8', -5, /at data\[0\]\.field: expected uint8 /u],
      ['address', '0x1234', /at data\[0\]\.field: expected an address /u],
      [
        'bytes4',
        '0x0102030405060708',
        /at data\[0\]\.field: expected bytes4 /u,
      ],
    ];
    for (const [type, value, expected] of bad) {
      const error = await harness
        .submit(first, 'eth_signTypedData_v1', [
          first.address,
          [{ type, name: 'field', value }] as never,
        ])
        .then(
          () => undefined,
          (refusal: { code: number; message: string }) => refusal,
        );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(expected);
      expect(error?.message).not.toContain(String(value));
    }
  });

  it('eth_signTypedData_v4 Approval { operator, approved: "false" } signs approved = false (viem), and "0", out-of-range and wrong-length values are refused without echoing them', async () => {
    const operator = '0x1234567890AbcdEF1234567890aBcdef12345678';
    const types = {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Approval: [
        { name: 'operator', type: 'address' },
        { name: 'approved', type: 'bool' },
      ],
    } as const;
    const domain = { name: 'Collection', chainId: 1 };
    /**
     * @param approvalTypes - The declared types.
     * @param message - The Approval message.
     * @returns The typed data.
     */
    const request = (
      approvalTypes: Record<string, unknown>,
      message: Record<string, unknown>,
    ): Record<string, unknown> => ({
      types: approvalTypes,
      primaryType: 'Approval',
      domain,
      message,
    });
    const response = await harness.submit(first, 'eth_signTypedData_v4', [
      first.address,
      request(types, { operator, approved: 'false' }) as never,
    ]);
    const hash = hashTypedData({
      types,
      primaryType: 'Approval',
      domain: { name: 'Collection', chainId: 1n },
      message: { operator, approved: false },
    });
    expect(
      await recoverAddress({ hash, signature: response.result as Hex }),
    ).toBe(first.address);

    const refusals: [
      Record<string, unknown>,
      Record<string, unknown>,
      string,
      RegExp,
    ][] = [
      [
        types,
        { operator, approved: '0' },
        '"0"',
        /message\.approved: expected bool/u,
      ],
      [
        {
          ...types,
          Approval: [...types.Approval, { name: 'level', type: 'uint8' }],
        },
        { operator, approved: false, level: 65536 },
        '65536',
        /message\.level: expected uint8 /u,
      ],
      [
        {
          ...types,
          Approval: [...types.Approval, { name: 'ids', type: 'uint256[2]' }],
        },
        { operator, approved: true, ids: ['777001', '777002', '777003'] },
        '77700',
        /message\.ids: expected an array of exactly 2 items$/u,
      ],
    ];
    for (const [approvalTypes, message, value, expected] of refusals) {
      const error = await rejection(
        harness.submit(first, 'eth_signTypedData_v4', [
          first.address,
          request(approvalTypes, message) as never,
        ]),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(expected);
      expect(error.message).not.toContain(value);
    }
  });

  it('signs requests MetaMask sends without a chain (scope ""): personal_sign, typed data v4 without chainId, v1', async () => {
    const message = 'no chain here';
    const personal = await harness.submit(
      first,
      'personal_sign',
      [stringToHex(message), first.address],
      '',
    );
    expect(
      await recoverMessageAddress({ message, signature: personal.result }),
    ).toBe(first.address);

    const { chainId: _chainId, ...domain } = TYPED_DATA.domain;
    const chainless = {
      ...TYPED_DATA,
      types: {
        ...TYPED_DATA.types,
        EIP712Domain: TYPED_DATA.types.EIP712Domain.filter(
          (field) => field.name !== 'chainId',
        ),
      },
      domain,
    };
    const typed = await harness.submit(
      first,
      'eth_signTypedData_v4',
      [first.address, chainless as never],
      '',
    );
    expect(
      await recoverTypedDataAddress({
        ...(chainless as any),
        signature: typed.result,
      }),
    ).toBe(first.address);

    const v1 = [
      { type: 'string', name: 'greeting', value: 'hello' },
      { type: 'uint32', name: 'n', value: '42' },
    ];
    const signature = (
      await harness.submit(
        first,
        'eth_signTypedData_v1',
        [first.address, v1],
        '',
      )
    ).result;
    expect(
      recoverTypedSignature({
        data: v1,
        signature,
        version: SignTypedDataVersion.V1,
      }),
    ).toBe(first.address.toLowerCase());
  });

  it('accepts the hex chain reference MetaMask copies from a hex domain.chainId (eip155:0x1)', async () => {
    const response = await harness.submit(
      second,
      'eth_signTypedData_v4',
      [
        second.address,
        {
          ...TYPED_DATA,
          domain: { ...TYPED_DATA.domain, chainId: '0x1' },
        } as never,
      ],
      'eip155:0x1',
    );
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it('eth_signTypedData_v4 accepts the typed data as a JSON string, as some dapps send it', async () => {
    const response = await harness.submit(second, 'eth_signTypedData_v4', [
      second.address,
      JSON.stringify(TYPED_DATA),
    ]);
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it.each([
    [
      'legacy on chain 1 (EIP-155 v)',
      { type: '0x0', chainId: '0x1', gasPrice: '0x3b9aca00' },
      'eip155:1',
    ],
    [
      'EIP-2930',
      {
        type: '0x1',
        chainId: '0x7a69',
        gasPrice: '0x3b9aca00',
        accessList: [],
      },
      'eip155:31337',
    ],
    [
      'EIP-1559',
      {
        type: '0x2',
        chainId: '0x7a69',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x3b9aca00',
      },
      'eip155:31337',
    ],
  ])(
    'eth_signTransaction %s: { v, r, s } rebuild into a transaction signed by the account',
    async (_name, fields, scope) => {
      const tx = {
        ...fields,
        from: first.address,
        to: second.address,
        nonce: '0x0',
        value: '0xde0b6b3a7640000',
        data: '0x',
        gasLimit: '0x5208',
      };
      const { result } = await harness.submit(
        first,
        'eth_signTransaction',
        [tx],
        scope,
      );
      expect(Object.keys(result).sort()).toStrictEqual(['r', 's', 'v']);
      // legacy: EIP-155 v for chain 1; typed: the y parity
      const validV = fields.type === '0x0' ? ['0x25', '0x26'] : ['0x0', '0x1'];
      expect(validV).toContain(result.v);
      const serialized = rebuild(tx, result);
      expect(
        await recoverTransactionAddress({
          serializedTransaction: serialized as never,
        }),
      ).toBe(first.address);
    },
  );

  it('imports a private key without keeping it in the account options or any reply', async () => {
    const privateKey =
      '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
    const imported = await harness.createAccount({ privateKey });
    expect(imported.address).toBe(privateKeyToAddress(privateKey));
    const everything = JSON.stringify([
      await harness.keyring('keyring_listAccounts'),
      harness.events,
    ]);
    expect(everything).not.toContain(privateKey.slice(2));
    await expectError(
      harness.createAccount({ privateKey }),
      -32602,
      /this key already backs account 0x/u,
    );
    await harness.keyringApproved('keyring_deleteAccount', { id: imported.id });
  });

  it('refuses malformed private keys without echoing them', async () => {
    await expectError(
      harness.createAccount({ privateKey: '0x1234' }),
      -32602,
      /Invalid private key/u,
    );
    await expectError(
      harness.createAccount({ privateKey: `0x${'0'.repeat(64)}` }),
      -32602,
      /out of the secp256k1 range/u,
    );
    await expectError(
      harness.createAccount({ privateKey: `0x${'zz'.repeat(32)}` }),
      -32602,
      /^Invalid private key: expected 32 bytes of hex$/u,
    );
  });
});
