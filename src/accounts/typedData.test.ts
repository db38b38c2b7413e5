import * as fc from 'fast-check';
import { bytesToHex, hashTypedData, recoverAddress } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { parseEoaRequest, signEoaTask } from './eoa';
import { normaliseTypedData, TYPED_DATA_LIMITS } from './typedData';
import { fuzzRuns } from '../../test/fixtures/fuzz';

const KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = privateKeyToAddress(KEY);
const ZERO: Hex = `0x${'00'.repeat(20)}`;

/**
 * Typed data with one struct `Bad { field: <type> }` holding `value`.
 *
 * @param type - The field's declared type.
 * @param value - Its value.
 * @returns The typed data.
 */
function single(type: string, value: unknown): Record<string, any> {
  return {
    types: { EIP712Domain: [], Bad: [{ name: 'field', type }] },
    primaryType: 'Bad',
    domain: {},
    message: value === undefined ? {} : { field: value },
  };
}

/**
 * What parseEoaRequest (the snap's entry point) answers for typed data.
 *
 * @param data - The typed data.
 * @param method - eth_signTypedData_v3 or _v4.
 * @returns The error thrown, or undefined.
 */
function refusal(
  data: unknown,
  method = 'eth_signTypedData_v4',
): { code: number; message: string } | undefined {
  try {
    parseEoaRequest(ADDRESS, '', method, [ADDRESS, data]);
    return undefined;
  } catch (error) {
    return error as { code: number; message: string };
  }
}

describe('normaliseTypedData: refused values', () => {
  it.each([
    ['bool', '0', 'expected bool'],
    ['bool', 0, 'expected bool'],
    ['bool', 1, 'expected bool'],
    ['bool', 'False', 'expected bool'],
    ['bool', 'yes', 'expected bool'],
    ['bool', null, 'expected bool'],
    ['address', 'vitalik.eth', 'expected an address'],
    ['address', `0x${'zz'.repeat(20)}`, 'expected an address'],
    ['address', `0x${'12'.repeat(19)}`, 'expected an address'],
    ['address', `0x${'12'.repeat(21)}`, 'expected an address'],
    ['address', 1234567, 'expected an address'],
    ['uint8', 256, 'expected uint8'],
    ['uint8', -1, 'expected uint8'],
    ['uint8', '-1', 'expected uint8'],
    ['uint8', '-0', 'expected uint8'],
    ['uint8', '0x100', 'expected uint8'],
    ['uint8', 1.5, 'expected uint8'],
    ['uint8', '', 'expected uint8'],
    ['uint8', ' 12', 'expected uint8'],
    ['uint8', '1e2', 'expected uint8'],
    ['uint8', true, 'expected uint8'],
    ['uint256', 2 ** 53, 'expected uint256'],
    ['uint256', `0x1${'0'.repeat(64)}`, 'expected uint256'],
    ['int8', 128, 'expected int8'],
    ['int8', -129, 'expected int8'],
    ['int8', '0x80', 'expected int8'],
    ['int8', '-0x1', 'expected int8'],
    ['bytes4', '0x0102030405', 'expected bytes4'],
    ['bytes4', '0x010203', 'expected bytes4'],
    ['bytes4', 16909060, 'expected bytes4'],
    ['bytes4', 'abcd', 'expected bytes4'],
    ['bytes', '0x123', 'expected bytes'],
    ['bytes', 'hello world', 'expected bytes'],
    ['bytes', 1234, 'expected bytes'],
    ['string', 12345, 'expected a well-formed string'],
    ['string', 'x\uD800y', 'expected a well-formed string'],
    ['string', null, 'expected a well-formed string'],
    ['uint8[3]', [1, 2], 'expected an array of exactly 3 items'],
    ['uint8[3]', [1, 2, 3, 4], 'expected an array of exactly 3 items'],
    ['uint8[]', { length: 1, 0: 1 }, 'expected an array'],
    ['uint8', undefined, 'required'],
  ])(
    '%s %j: -32602 naming message.field, never the value',
    (type, value, expected) => {
      const error = refusal(single(type, value));
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(
        new RegExp(
          `^Invalid typed data at message\\.field: ${expected}( \\(|$)`,
          'u',
        ),
      );
      const echo =
        typeof value === 'string' && value !== ''
          ? value
          : String(JSON.stringify(value));
      expect(error?.message).not.toContain(echo);
    },
  );

  it('names the path of a nested value: message.approvals[2].approved', () => {
    const approvals = [
      { operator: ZERO, approved: true },
      { operator: ZERO, approved: 'false' },
      { operator: ZERO, approved: '0' },
    ];
    const error = refusal({
      types: {
        EIP712Domain: [],
        Approval: [
          { name: 'operator', type: 'address' },
          { name: 'approved', type: 'bool' },
        ],
        Batch: [{ name: 'approvals', type: 'Approval[3]' }],
      },
      primaryType: 'Batch',
      domain: {},
      message: { approvals },
    });
    expect(error).toMatchObject({
      code: -32602,
      message:
        'Invalid typed data at message.approvals[2].approved: expected bool (true or false)',
    });
  });

  it('checks the domain against EIP712Domain', () => {
    const data = {
      ...single('uint8', 1),
      types: {
        EIP712Domain: [{ name: 'verifyingContract', type: 'address' }],
        Bad: [{ name: 'field', type: 'uint8' }],
      },
      domain: { verifyingContract: 'not-an-address-at-all' },
    };
    expect(refusal(data)?.message).toBe(
      'Invalid typed data at domain.verifyingContract: expected an address (0x + 40 hex digits)',
    );
  });

  it.each([
    [
      'an unknown type',
      single('S3CR3TTYPE', 1),
      /at types\.Bad\[0\]\.type: unknown or unsupported type$/u,
    ],
    ['uint7', single('uint7', 1), /unknown or unsupported type$/u],
    ['uint264', single('uint264', 1), /unknown or unsupported type$/u],
    ['bare uint', single('uint', 1), /unknown or unsupported type$/u],
    ['bytes33', single('bytes33', '0x01'), /unknown or unsupported type$/u],
    ['bytes0', single('bytes0', '0x'), /unknown or unsupported type$/u],
    [
      'a tuple',
      single('(uint256,bool)', [1, true]),
      /unknown or unsupported type$/u,
    ],
    [
      'a zero-length array',
      single('uint8[0]', []),
      /unknown or unsupported type$/u,
    ],
    ['function', single('function', '0x'), /unknown or unsupported type$/u],
    [
      'an undeclared primaryType',
      { ...single('uint8', 1), primaryType: 'Nope' },
      /at primaryType: not a declared type$/u,
    ],
    [
      'a struct named like an atomic type',
      {
        types: { EIP712Domain: [], uint256: [{ name: 'a', type: 'bool' }] },
        primaryType: 'uint256',
        domain: {},
        message: { a: true },
      },
      /at types\.<key>: a type name must be an identifier and not an atomic type$/u,
    ],
    [
      'duplicate field names',
      {
        types: {
          EIP712Domain: [],
          Bad: [
            { name: 'a', type: 'bool' },
            { name: 'a', type: 'uint8' },
          ],
        },
        primaryType: 'Bad',
        domain: {},
        message: { a: true },
      },
      /at types\.Bad\[1\]\.name: expected a unique identifier$/u,
    ],
    [
      'a field name that breaks the type string',
      {
        types: { EIP712Domain: [], Bad: [{ name: 'a,uint8 b', type: 'bool' }] },
        primaryType: 'Bad',
        domain: {},
        message: {},
      },
      /expected a unique identifier$/u,
    ],
    [
      'a struct in the domain',
      {
        types: {
          EIP712Domain: [{ name: 'inner', type: 'Bad' }],
          Bad: [{ name: 'field', type: 'bool' }],
        },
        primaryType: 'Bad',
        domain: { inner: { field: true } },
        message: { field: true },
      },
      /at types\.EIP712Domain\[0\]\.type: the domain cannot hold structs$/u,
    ],
    [
      'a message when primaryType is EIP712Domain',
      {
        types: { EIP712Domain: [] },
        primaryType: 'EIP712Domain',
        domain: {},
        message: { hidden: 1 },
      },
      /at message: must be empty/u,
    ],
  ])('refuses %s with -32602', (_name, data, expected) => {
    const error = refusal(data);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(expected);
    expect(error?.message).not.toContain('S3CR3T');
  });

  it('refuses in V3 arrays, missing fields and missing structs (eth-sig-util V3 skipped them)', () => {
    expect(
      refusal(single('uint8[]', [1]), 'eth_signTypedData_v3')?.message,
    ).toBe(
      'Invalid typed data at types.Bad[0].type: arrays need eth_signTypedData_v4',
    );
    expect(
      refusal(single('uint8', undefined), 'eth_signTypedData_v3')?.message,
    ).toBe('Invalid typed data at message.field: required');
    const nested = {
      types: {
        EIP712Domain: [],
        Inner: [{ name: 'a', type: 'bool' }],
        Outer: [{ name: 'inner', type: 'Inner' }],
      },
      primaryType: 'Outer',
      domain: {},
      message: {},
    };
    expect(refusal(nested, 'eth_signTypedData_v3')?.message).toBe(
      'Invalid typed data at message.inner: required',
    );
    // V4 signs a missing struct as 32 zero bytes (eth-sig-util's extension for recursive types).
    expect(refusal(nested)).toBeUndefined();
  });
});

describe('normaliseTypedData: limits', () => {
  it('refuses more types than TYPED_DATA_LIMITS.types', () => {
    const types: Record<string, { name: string; type: string }[]> = {
      EIP712Domain: [],
    };
    for (let index = 0; index < TYPED_DATA_LIMITS.types; index += 1) {
      types[`T${index}`] = [{ name: 'a', type: 'bool' }];
    }
    expect(
      refusal({ types, primaryType: 'T0', domain: {}, message: { a: true } })
        ?.message,
    ).toBe('Invalid typed data at types: more than 64 types');
  });

  it('refuses more values than TYPED_DATA_LIMITS.items', () => {
    const data = single('uint8[]', new Array(TYPED_DATA_LIMITS.items).fill(1));
    expect(refusal(data)?.message).toBe(
      'Invalid typed data: more than 10000 values',
    );
    expect(
      refusal(
        single('uint8[]', new Array(TYPED_DATA_LIMITS.items - 2).fill(1)),
      ),
    ).toBeUndefined();
  });

  it('refuses nesting deeper than TYPED_DATA_LIMITS.depth, on a recursive type', () => {
    /**
     * @param levels - Nodes.
     * @returns A linked list of that many nodes, null-terminated.
     */
    const nest = (levels: number): unknown =>
      levels === 0 ? null : { next: nest(levels - 1) };
    /**
     * @param levels - Nodes.
     * @returns Typed data whose message is that list.
     */
    const data = (levels: number): unknown => ({
      types: { EIP712Domain: [], Node: [{ name: 'next', type: 'Node' }] },
      primaryType: 'Node',
      domain: {},
      message: nest(levels) as object,
    });
    expect(refusal(data(TYPED_DATA_LIMITS.depth))).toBeUndefined();
    expect(refusal(data(TYPED_DATA_LIMITS.depth + 1))?.message).toMatch(
      /^Invalid typed data at message(\.next){16}: nested deeper than 16 levels$/u,
    );
    const arrays = single(`uint8${'[]'.repeat(20)}`, [
      [[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]],
    ]);
    expect(refusal(arrays)?.message).toMatch(/nested deeper than 16 levels$/u);
  });

  it('refuses typed data larger than TYPED_DATA_LIMITS.bytes, as an object and as JSON text', () => {
    const data = single('string', 'a'.repeat(TYPED_DATA_LIMITS.bytes));
    expect(refusal(data)?.message).toBe(
      'Invalid typed data: larger than 1048576 bytes',
    );
    expect(refusal(JSON.stringify(data))?.message).toBe(
      'Invalid eth_signTypedData_v4 params[1]: larger than 1048576 bytes',
    );
  });
});

describe('normaliseTypedData: accepted encodings', () => {
  it('normalises bool strings, integer encodings and drops undeclared fields', () => {
    const normalised = normaliseTypedData(
      {
        types: {
          EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
          Approval: [
            { name: 'operator', type: 'address' },
            { name: 'approved', type: 'bool' },
            { name: 'small', type: 'int8' },
            { name: 'big', type: 'uint256' },
            { name: 'fixed', type: 'bytes2[2]' },
          ],
        },
        primaryType: 'Approval',
        domain: { chainId: '0x1', name: 'not declared, not signed' },
        message: {
          operator: ZERO,
          approved: 'false',
          small: '-128',
          big: 12,
          fixed: ['0xABcd', '0x0000'],
          extra: 'not declared',
        },
      },
      'V4',
    );
    expect(normalised.domain).toStrictEqual({ chainId: '1' });
    expect(normalised.message).toStrictEqual({
      operator: ZERO,
      approved: false,
      small: '-128',
      big: '12',
      fixed: ['0xABcd', '0x0000'],
    });
  });

  it('signs approved "false" as viem signs approved = false', async () => {
    const types = {
      EIP712Domain: [{ name: 'name', type: 'string' }],
      Approval: [
        { name: 'operator', type: 'address' },
        { name: 'approved', type: 'bool' },
      ],
    } as const;
    const task = parseEoaRequest(ADDRESS, '', 'eth_signTypedData_v4', [
      ADDRESS,
      {
        types,
        primaryType: 'Approval',
        domain: { name: 'N' },
        message: { operator: ZERO, approved: 'false' },
      },
    ]);
    const signature = signEoaTask(KEY, task) as Hex;
    const hash = hashTypedData({
      types,
      primaryType: 'Approval',
      domain: { name: 'N' },
      message: { operator: ZERO, approved: false },
    });
    expect(await recoverAddress({ hash, signature })).toBe(ADDRESS);
  });
});

/** A generated field: its declared type and a generator of [value as sent, value as viem takes it]. */
type Shape = {
  /** The declared EIP-712 type. */
  type: string;
  /** Generates [value as sent, value as viem takes it]. */
  value: fc.Arbitrary<[unknown, unknown]>;
};

/**
 * @param bytes - Bytes.
 * @returns Them as lowercase 0x hex.
 */
const hexOf = (bytes: Uint8Array): Hex => bytesToHex(bytes);

/**
 * Random letter case: addresses and bytes are hex, case-insensitive.
 *
 * @param text - Lowercase 0x hex.
 * @returns The same, or with its digits uppercase.
 */
const anyCase = (text: string): fc.Arbitrary<string> =>
  fc
    .boolean()
    .map((upper) => (upper ? `0x${text.slice(2).toUpperCase()}` : text));

/**
 * An integer type's encodings as sent: a safe integer, a decimal string, a 0x hex string (when
 * not negative).
 *
 * @param sample - The value.
 * @returns An arbitrary of its encodings.
 */
const integerEncodings = (sample: bigint): fc.Arbitrary<unknown> =>
  fc.constantFrom<unknown>(
    sample.toString(),
    ...(sample >= 0n ? [`0x${sample.toString(16)}`] : []),
    ...(Number.isSafeInteger(Number(sample)) ? [Number(sample)] : []),
  );

const atomicShape: fc.Arbitrary<Shape> = fc.oneof(
  fc.constant<Shape>({
    type: 'bool',
    value: fc
      .boolean()
      .chain((sample) =>
        fc.constantFrom<[unknown, unknown]>(
          [sample, sample],
          [String(sample), sample],
        ),
      ),
  }),
  fc.integer({ min: 1, max: 32 }).map((width): Shape => ({
    type: `uint${width * 8}`,
    value: fc
      .oneof(
        fc.bigInt({ min: 0n, max: 2n ** BigInt(width * 8) - 1n }),
        fc.constantFrom(0n, 2n ** BigInt(width * 8) - 1n),
      )
      .chain((sample) =>
        integerEncodings(sample).map((sent): [unknown, unknown] => [
          sent,
          sample,
        ]),
      ),
  })),
  fc.integer({ min: 1, max: 32 }).map((width): Shape => {
    const half = 2n ** BigInt(width * 8 - 1);
    return {
      type: `int${width * 8}`,
      value: fc
        .oneof(
          fc.bigInt({ min: -half, max: half - 1n }),
          fc.constantFrom(-half, half - 1n, -1n),
        )
        .chain((sample) =>
          integerEncodings(sample).map((sent): [unknown, unknown] => [
            sent,
            sample,
          ]),
        ),
    };
  }),
  fc.constant<Shape>({
    type: 'address',
    value: fc
      .uint8Array({ minLength: 20, maxLength: 20 })
      .map(hexOf)
      .chain((sample) =>
        anyCase(sample).map((sent): [unknown, unknown] => [sent, sample]),
      ),
  }),
  fc.integer({ min: 1, max: 32 }).map((size): Shape => ({
    type: `bytes${size}`,
    value: fc
      .uint8Array({ minLength: size, maxLength: size })
      .map(hexOf)
      .chain((sample) =>
        anyCase(sample).map((sent): [unknown, unknown] => [sent, sample]),
      ),
  })),
  fc.constant<Shape>({
    type: 'bytes',
    value: fc
      .uint8Array({ maxLength: 48 })
      .map(hexOf)
      .chain((sample) =>
        anyCase(sample).map((sent): [unknown, unknown] => [sent, sample]),
      ),
  }),
  fc.constant<Shape>({
    type: 'string',
    value: fc
      .string({ unit: 'grapheme', maxLength: 16 })
      .map((sample): [unknown, unknown] => [sample, sample]),
  }),
);

/**
 * Generated struct types and a message: nested structs (named S0, S1, ...) and, in V4, dynamic
 * and fixed-size arrays of anything, several levels deep.
 *
 * @param v4 - Whether arrays may appear.
 * @returns Arbitrary of `{ sent, viem }` typed data.
 */
function typedDataArbitrary(
  v4: boolean,
): fc.Arbitrary<{ sent: Record<string, unknown>; viem: Record<string, any> }> {
  // A fresh `types` record for each generated value (fc.constant(null).chain runs per value).
  return fc.constant(null).chain(() => {
    const types: Record<string, { name: string; type: string }[]> = {};
    let next = 0;
    /**
     * A field shape, with structs registered in `types` as they are made.
     *
     * @param depth - Levels left.
     * @returns Its shape.
     */
    function shape(depth: number): fc.Arbitrary<Shape> {
      return depth === 0
        ? atomicShape
        : fc.oneof(
            { weight: 4, arbitrary: atomicShape },
            { weight: 1, arbitrary: struct(depth - 1) },
            ...(v4
              ? [
                  {
                    weight: 1,
                    arbitrary: fc
                      .tuple(
                        shape(depth - 1),
                        fc.option(fc.integer({ min: 1, max: 3 })),
                      )
                      .map(([item, length]): Shape => ({
                        type: `${item.type}[${length ?? ''}]`,
                        value: fc
                          .array(item.value, {
                            minLength: length ?? 0,
                            maxLength: length ?? 3,
                          })
                          .map((items): [unknown, unknown] => [
                            items.map(([sent]) => sent),
                            items.map(([, viem]) => viem),
                          ]),
                      })),
                  },
                ]
              : []),
          );
    }
    /**
     * A struct shape.
     *
     * @param depth - Levels left below it.
     * @returns Its shape, registered in `types` when generated.
     */
    function struct(depth: number): fc.Arbitrary<Shape> {
      return fc
        .array(shape(depth), { minLength: 1, maxLength: 4 })
        .map((fields): Shape => {
          const name = `S${next}`;
          next += 1;
          types[name] = fields.map((field, index) => ({
            name: `f${index}`,
            type: field.type,
          }));
          return {
            type: name,
            value: fc
              .tuple(...fields.map((field) => field.value))
              .map((values): [unknown, unknown] => [
                Object.fromEntries(
                  values.map(([sent], index) => [`f${index}`, sent]),
                ),
                Object.fromEntries(
                  values.map(([, viem], index) => [`f${index}`, viem]),
                ),
              ]),
          };
        });
    }
    return struct(3).chain((root) =>
      fc
        .tuple(
          root.value,
          fc.string({ maxLength: 8 }),
          fc.integer({ min: 1, max: 2 ** 31 }),
          fc.boolean(),
        )
        .map(([[sent, viem], name, chainId, chainAsString]) => {
          const declared = {
            ...types,
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'chainId', type: 'uint256' },
            ],
          };
          return {
            sent: {
              types: declared,
              primaryType: root.type,
              domain: {
                name,
                chainId: chainAsString ? String(chainId) : chainId,
              },
              message: sent,
            },
            viem: {
              types: declared,
              primaryType: root.type,
              domain: { name, chainId: BigInt(chainId) },
              message: viem,
            },
          };
        }),
    );
  });
}

describe('normaliseTypedData: property', () => {
  it.each([
    ['eth_signTypedData_v4', true, 300],
    ['eth_signTypedData_v3', false, 100],
  ])(
    '%s: generated typed data in every accepted encoding is accepted and its signature recovers against viem’s hash of the normalised values',
    async (method, v4, runs) => {
      await fc.assert(
        fc.asyncProperty(typedDataArbitrary(v4), async ({ sent, viem }) => {
          const task = parseEoaRequest(ADDRESS, '', method, [
            ADDRESS,
            JSON.parse(JSON.stringify(sent)),
          ]);
          const signature = signEoaTask(KEY, task) as Hex;
          const hash = hashTypedData(viem as never);
          expect(await recoverAddress({ hash, signature })).toBe(ADDRESS);
        }),
        { numRuns: fuzzRuns(runs), seed: 712 },
      );
    },
  );
});
