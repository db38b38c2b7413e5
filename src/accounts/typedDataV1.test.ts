import {
  recoverTypedSignature,
  SignTypedDataVersion,
} from '@metamask/eth-sig-util';
import type { KeyringRequest } from '@metamask/keyring-api';
import {
  encodePacked,
  keccak256,
  recoverAddress,
  stringToHex,
  concat,
} from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { parseEoaRequest, signEoaTask } from './eoa';
import { summarizeRequest } from '../keyring/requestSummary';

const KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = privateKeyToAddress(KEY);
const METHOD = 'eth_signTypedData_v1';

/**
 * The legacy (v1) typed-data hash, computed here with viem alone from the draft's definition:
 * keccak256(keccak256(concatenated "type name" strings) ++ keccak256(abi.encodePacked(values))).
 *
 * @param fields - `[type, name, value]` with values as viem encodes them (bigint, boolean, hex).
 * @returns The 32-byte hash the signature must be over.
 */
function v1Hash(fields: [string, string, unknown][]): Hex {
  const schema = keccak256(
    concat(fields.map(([type, name]) => stringToHex(`${type} ${name}`))),
  );
  const values = keccak256(
    encodePacked(
      fields.map(([type]) => type),
      fields.map(([, , value]) => value),
    ),
  );
  return keccak256(encodePacked(['bytes32', 'bytes32'], [schema, values]));
}

/**
 * @param data - The v1 param.
 * @returns What parseEoaRequest throws, or undefined.
 */
function refusal(data: unknown): { code: number; message: string } | undefined {
  try {
    parseEoaRequest(ADDRESS, '', METHOD, [ADDRESS, data]);
    return undefined;
  } catch (error) {
    return error as { code: number; message: string };
  }
}

describe('eth_signTypedData_v1: values checked against their declared types', () => {
  it.each([
    ['int8', -129, /at data\[0\]\.field: expected int8 /u],
    ['int8', '128', /at data\[0\]\.field: expected int8 /u],
    ['uint8', -5, /at data\[0\]\.field: expected uint8 /u],
    ['uint8', '-5', /at data\[0\]\.field: expected uint8 /u],
    ['uint256', 'ten', /at data\[0\]\.field: expected uint256 /u],
    ['address', '0x1234', /at data\[0\]\.field: expected an address /u],
    ['address', 1234, /at data\[0\]\.field: expected an address /u],
    ['bytes4', '0x0102030405060708', /at data\[0\]\.field: expected bytes4 /u],
    ['bytes4', 5, /at data\[0\]\.field: expected bytes4 /u],
    ['bytes', '0x123', /at data\[0\]\.field: expected bytes /u],
    ['bool', 'yes', /at data\[0\]\.field: expected bool /u],
    ['string', 5, /at data\[0\]\.field: expected a well-formed string/u],
    ['uint8[2]', [1], /at data\[0\]\.field: expected an array of exactly 2/u],
    ['uint8[]', [1, 300], /at data\[0\]\.field\[1\]: expected uint8 /u],
    ['uint7', 1, /at data\[0\]\.type: unknown or unsupported type$/u],
    ['function', '0x', /at data\[0\]\.type: unknown or unsupported type$/u],
    ['string[]', ['a'], /at data\[0\]\.type: arrays of string/u],
    ['uint8[][]', [[1]], /at data\[0\]\.type: arrays of string/u],
  ])(
    '%s %j is refused with -32602 naming the field, not the value',
    (type, value, expected) => {
      const error = refusal([{ type, name: 'field', value }]);
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(/^Invalid typed data at /u);
      expect(error?.message).toMatch(expected);
      expect(error?.message).not.toContain(JSON.stringify(value));
      const shown =
        typeof value === 'string' && value.length > 3 ? value : '\u0000';
      expect(error?.message).not.toContain(shown);
    },
  );

  it('refuses an empty array, an empty or repeated name, a missing value', () => {
    expect(refusal([])?.message).toMatch(/at data: expected at least one/u);
    expect(refusal([{ type: 'uint8', name: '', value: 1 }])?.message).toMatch(
      /at data\[0\]\.name: expected a unique name/u,
    );
    expect(
      refusal([
        { type: 'uint8', name: 'n', value: 1 },
        { type: 'uint8', name: 'n', value: 2 },
      ])?.message,
    ).toMatch(/at data\[1\]\.name: expected a unique name/u);
    expect(refusal([{ type: 'uint8', name: 'n' }])?.message).toMatch(
      /at data\[0\]\.n: expected uint8/u,
    );
  });

  it('a field name that is not a plain identifier is not echoed', () => {
    const error = refusal([
      { type: 'uint8', name: 'sk 0x4c0883a69102937d62', value: 'x' },
    ]);
    expect(error?.message).toBe(
      'Invalid typed data at data[0].<key>: expected uint8 (0 to 2^8 - 1, as a safe integer, decimal or 0x hex string)',
    );
  });

  it('signs what the values say: the signature recovers (viem) over the draft hash computed independently', async () => {
    const data = [
      { type: 'string', name: 'Message', value: 'Hi, Alice!' },
      { type: 'uint32', name: 'A number', value: '1337' },
      { type: 'int8', name: 'low', value: -128 },
      { type: 'int256', name: 'neg', value: '-16' },
      { type: 'uint256', name: 'hex', value: '0xff' },
      { type: 'bool', name: 'flag', value: 'false' },
      {
        type: 'address',
        name: 'to',
        value: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
      },
      { type: 'bytes4', name: 'sel', value: '0xa9059cbb' },
      { type: 'bytes', name: 'blob', value: '0x0102' },
      { type: 'uint16[]', name: 'list', value: [1, '0x2', '3'] },
      {
        type: 'address[2]',
        name: 'pair',
        value: [
          '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
          '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
        ],
      },
      { type: 'int16[]', name: 'signed', value: [-1, 2] },
    ];
    const task = parseEoaRequest(ADDRESS, '', METHOD, [ADDRESS, data]);
    const signature = signEoaTask(KEY, task) as Hex;
    const hash = v1Hash([
      ['string', 'Message', 'Hi, Alice!'],
      ['uint32', 'A number', 1337],
      ['int8', 'low', -128],
      ['int256', 'neg', -16n],
      ['uint256', 'hex', 255n],
      ['bool', 'flag', false],
      ['address', 'to', '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826'],
      ['bytes4', 'sel', '0xa9059cbb'],
      ['bytes', 'blob', '0x0102'],
      ['uint16[]', 'list', [1, 2, 3]],
      [
        'address[2]',
        'pair',
        [
          '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
          '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
        ],
      ],
      ['int16[]', 'signed', [-1, 2]],
    ]);
    expect(await recoverAddress({ hash, signature })).toBe(ADDRESS);
    expect(
      recoverTypedSignature({
        data,
        signature,
        version: SignTypedDataVersion.V1,
      }),
    ).toBe(ADDRESS.toLowerCase());
  });

  it('a parked v1 request shows its fields as signed, read from params[1]', () => {
    const request: KeyringRequest = {
      id: '00000000-0000-4000-8000-000000000000',
      scope: '',
      account: '00000000-0000-4000-8000-000000000001',
      origin: 'https://dapp.example',
      request: {
        method: METHOD,
        params: [
          ADDRESS,
          [
            { type: 'string', name: 'Message', value: 'Hi, Alice!' },
            { type: 'uint32', name: 'A number', value: '0x539' },
            { type: 'bool', name: 'ok', value: 'false' },
            { type: 'uint8[]', name: 'ids', value: [1, 2] },
          ],
        ],
      },
    };
    const lines = summarizeRequest(request);
    expect(lines).not.toContainEqual(
      expect.objectContaining({ label: 'Typed data' }),
    );
    expect(lines.slice(2)).toStrictEqual([
      { label: 'Message (string)', value: 'Hi, Alice!' },
      { label: 'A number (uint32)', value: '1337' },
      { label: 'ok (bool)', value: 'false' },
      { label: 'ids (uint8[]).0', value: '1' },
      { label: 'ids (uint8[]).1', value: '2' },
    ]);
  });
});
