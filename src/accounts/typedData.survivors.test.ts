import { normaliseTypedData, TYPED_DATA_LIMITS } from './typedData';

/**
 * What is refused and what is signed, in the cases the other suites do not try (each found by
 * mutation testing, docs/testing.md "Mutation testing"): values with junk before a valid
 * encoding, non-hex bytesN, null and non-object structs, the value limit reached through arrays and
 * through structs alone, and `primaryType: 'EIP712Domain'`; values that only look right once
 * turned into text (a one-item array), junk after a hex integer, the words of each refusal, the
 * nesting and size bounds at their edge, and values that are not JSON.
 */

/** Typed data as normaliseTypedData takes it. */
type Data = Parameters<typeof normaliseTypedData>[0];

/**
 * Typed data with one struct `Bad { field: <type> }` holding `value`.
 *
 * @param type - The field's declared type.
 * @param value - Its value.
 * @returns The typed data.
 */
function single(type: string, value: unknown): Data {
  return {
    types: { EIP712Domain: [], Bad: [{ name: 'field', type }] },
    primaryType: 'Bad',
    domain: {},
    message: { field: value },
  };
}

/**
 * The error normaliseTypedData throws, or undefined when it accepts.
 *
 * @param data - The typed data.
 * @param version - V3 or V4.
 * @returns The error's code and message.
 */
function refusal(
  data: Data,
  version: 'V3' | 'V4' = 'V4',
): { code: number; message: string } | undefined {
  try {
    normaliseTypedData(data, version);
    return undefined;
  } catch (error) {
    return error as { code: number; message: string };
  }
}

const HEX40 = '11'.repeat(20);

describe('values with junk before a valid encoding are refused, with -32602', () => {
  it.each([
    ['address', `x0x${HEX40}`, 'expected an address'],
    ['address', ` 0x${HEX40}`, 'expected an address'],
    ['bytes', 'zz0x1234', 'expected bytes'],
    ['bytes4', 'zz0x123456', 'expected bytes4'],
    ['bytes4', '0xzzzzzzzz', 'expected bytes4'],
    ['uint256', 'abc123', 'expected uint256'],
    ['uint256', 'zz0x12', 'expected uint256'],
    ['int256', '--12', 'expected int256'],
  ])('%s %j', (type, value, expected) => {
    const error = refusal(single(type, value));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('at message.field');
    expect(error?.message).toContain(expected);
    expect(error?.message).not.toContain(String(value));
  });

  it('accepts the same encodings without the junk', () => {
    expect(
      normaliseTypedData(single('address', `0x${HEX40}`), 'V4').message,
    ).toStrictEqual({ field: `0x${HEX40}` });
    expect(
      normaliseTypedData(single('bytes4', '0x12345678'), 'V4').message,
    ).toStrictEqual({ field: '0x12345678' });
    expect(
      normaliseTypedData(single('uint256', '0x12'), 'V4').message,
    ).toStrictEqual({ field: '18' });
  });
});

describe('struct values', () => {
  const types = {
    EIP712Domain: [],
    Outer: [{ name: 'inner', type: 'Inner' }],
    Inner: [{ name: 'length', type: 'uint256' }],
  };

  it('v3 refuses a null struct; V4 signs it as null (32 zero bytes)', () => {
    const data = {
      types,
      primaryType: 'Outer',
      domain: {},
      message: { inner: null },
    };
    const error = refusal(data, 'V3');
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('at message.inner');
    expect(normaliseTypedData(data, 'V4').message).toStrictEqual({
      inner: null,
    });
  });

  it.each([
    ['a string (which has a length)', 'abc'],
    ['an array (which has a length)', [1, 2, 3]],
    ['a number', 5],
    ['a boolean', true],
  ])('refuses %s where a struct is declared', (_what, value) => {
    for (const version of ['V3', 'V4'] as const) {
      const error = refusal(
        { types, primaryType: 'Outer', domain: {}, message: { inner: value } },
        version,
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain(
        'at message.inner: expected an object (struct Inner)',
      );
    }
  });

  it('refuses a message that is not an object', () => {
    const error = refusal({
      types,
      primaryType: 'Inner',
      domain: {},
      message: 'abc' as never,
    });
    expect(error?.message).toContain('at message: expected an object');
  });
});

describe(`at most ${TYPED_DATA_LIMITS.items} values`, () => {
  /**
   * A message `{ list: uint8[] }` with `count` zeros.
   *
   * @param count - The array's length.
   * @returns The typed data.
   */
  function list(count: number): Data {
    return {
      types: { EIP712Domain: [], List: [{ name: 'list', type: 'uint8[]' }] },
      primaryType: 'List',
      domain: {},
      message: { list: new Array(count).fill(0) },
    };
  }

  it('accepts exactly the limit (the array and its 9,999 items) and refuses one more', () => {
    const items = TYPED_DATA_LIMITS.items - 1;
    const accepted = normaliseTypedData(list(items), 'V4');
    expect(accepted.message.list as unknown[]).toHaveLength(items);
    const error = refusal(list(items + 1));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe(
      `Invalid typed data: more than ${TYPED_DATA_LIMITS.items} values`,
    );
  });

  it('refuses more values reached through nested structs alone, with no array', () => {
    // 10 × 10 × 10 × 10 uint8 leaves under 1,110 struct values: 11,110 values
    /**
     * @param type - The fields' type.
     * @returns Ten fields `f0`…`f9` of that type.
     */
    const fields = (type: string): { name: string; type: string }[] =>
      Array.from({ length: 10 }, (_, index) => ({ name: `f${index}`, type }));
    const leaf = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [`f${index}`, 1]),
    );
    /**
     * @param inner - Each field's value.
     * @returns An object with ten fields `f0`…`f9` holding it.
     */
    const level = (inner: unknown): Record<string, unknown> =>
      Object.fromEntries(
        Array.from({ length: 10 }, (_, index) => [`f${index}`, inner]),
      );
    const data: Data = {
      types: {
        EIP712Domain: [],
        A: fields('B'),
        B: fields('C'),
        C: fields('D'),
        D: fields('uint8'),
      },
      primaryType: 'A',
      domain: {},
      message: level(level(level(leaf))),
    };
    const error = refusal(data);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe(
      `Invalid typed data: more than ${TYPED_DATA_LIMITS.items} values`,
    );
  });
});

describe("primaryType 'EIP712Domain'", () => {
  const types = {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
  };
  const domain = { name: 'Example', chainId: 1 };

  it('accepts it with an empty message: the domain alone is signed', () => {
    const normalised = normaliseTypedData(
      { types, primaryType: 'EIP712Domain', domain, message: {} },
      'V4',
    );
    expect(normalised.message).toStrictEqual({});
    expect(normalised.domain).toStrictEqual({
      name: 'Example',
      chainId: '1',
    });
  });

  it('refuses a message given beside it (it would not be signed)', () => {
    const error = refusal({
      types,
      primaryType: 'EIP712Domain',
      domain,
      message: { note: 'pay 1 ETH' },
    });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('at message: must be empty');
  });
});

describe('a value must be of its JSON kind, not only look right as text', () => {
  it.each([
    ['address', [`0x${HEX40}`], 'expected an address (0x + 40 hex digits)'],
    ['bytes', ['0x1234'], 'expected bytes (0x + an even number of hex digits)'],
  ])(
    '%s given as the one-item array %j is refused',
    (type, value, expected) => {
      expect(refusal(single(type, value))).toMatchObject({
        code: -32602,
        message: `Invalid typed data at message.field: ${expected}`,
      });
    },
  );
});

describe('the words of a refusal name the type and its range', () => {
  it.each([
    ['bytes4', '0x1234', 'expected bytes4 (0x + 8 hex digits)'],
    [
      'int8',
      128,
      'expected int8 (-2^7 to 2^7 - 1, as a safe integer, decimal or 0x hex string)',
    ],
    [
      'uint8',
      256,
      'expected uint8 (0 to 2^8 - 1, as a safe integer, decimal or 0x hex string)',
    ],
    [
      'uint256',
      '0x12zz',
      'expected uint256 (0 to 2^256 - 1, as a safe integer, decimal or 0x hex string)',
    ],
  ])('%s %j', (type, value, expected) => {
    expect(refusal(single(type, value))).toMatchObject({
      code: -32602,
      message: `Invalid typed data at message.field: ${expected}`,
    });
  });
});

describe(`arrays nest at most ${TYPED_DATA_LIMITS.depth} levels`, () => {
  /**
   * A `uint8` inside `levels` arrays, one item each.
   *
   * @param levels - How many array levels.
   * @returns The typed data.
   */
  const nested = (levels: number): Data => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level += 1) {
      value = [value];
    }
    return single(`uint8${'[]'.repeat(levels)}`, value);
  };

  it('accepts the deepest array allowed and refuses one level more', () => {
    const deepest = TYPED_DATA_LIMITS.depth - 1;
    expect(refusal(nested(deepest))).toBeUndefined();
    const error = refusal(nested(deepest + 1));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(
      new RegExp(
        `^Invalid typed data at message\\.field(\\[0\\]){${deepest}}: nested deeper than ${TYPED_DATA_LIMITS.depth} levels$`,
        'u',
      ),
    );
  });
});

describe(`typed data up to ${TYPED_DATA_LIMITS.bytes} bytes of JSON`, () => {
  /**
   * Typed data with one string, padded so that its JSON text is `size` long.
   *
   * @param size - The length of its JSON text.
   * @returns The typed data.
   */
  const ofSize = (size: number): Data => {
    const base = single('string', '');
    const padding = size - JSON.stringify(base).length;
    return single('string', 'a'.repeat(padding));
  };

  it('accepts exactly the limit and refuses one more', () => {
    const atLimit = ofSize(TYPED_DATA_LIMITS.bytes);
    expect(JSON.stringify(atLimit)).toHaveLength(TYPED_DATA_LIMITS.bytes);
    expect(refusal(atLimit)).toBeUndefined();
    expect(refusal(ofSize(TYPED_DATA_LIMITS.bytes + 1))).toMatchObject({
      code: -32602,
      message: `Invalid typed data: larger than ${TYPED_DATA_LIMITS.bytes} bytes`,
    });
  });
});

describe('values that are not JSON', () => {
  it('refuses them as such (a caller in the snap passing a bigint or a cycle)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [1n, cyclic]) {
      expect(refusal(single('uint256', value))).toMatchObject({
        code: -32602,
        message: 'Invalid typed data: expected JSON values',
      });
    }
  });
});
