import type { Json } from '@metamask/utils';

import {
  parseTypes,
  refuse,
  segment,
  TYPED_DATA_LIMITS,
} from './typedDataTypes';
import type {
  DeclaredStructs,
  FieldType,
  TypedDataField,
  TypedDataVersion,
} from './typedDataTypes';

/**
 * EIP-712 typed data (https://eips.ethereum.org/EIPS/eip-712) checked value by value against its
 * declared types before it is signed (eth_signTypedData_v3 and _v4). keyring-api's struct types
 * `domain` and `message` as `record(string, any)`, and eth-sig-util encodes what it is given:
 * before 9.0.0 `approved: "false"` signed `true`; it still turns a non-hex string in an `address`
 * field into some other address, accepts `uint8: -1` (as an int256), fixed-size arrays of any
 * length and `bytes4` values of 32 bytes. Only encodings that eth-sig-util 9 accepts and hashes
 * as what they say are let through; the checked data is returned normalised (bool as booleans,
 * integers as decimal strings, undeclared fields dropped), which is what is signed and what a
 * display should show.
 */

export {
  TYPED_DATA_LIMITS,
  type TypedDataField,
  type TypedDataVersion,
} from './typedDataTypes';

/** Typed data as signed: the declared types, and values normalised (see normaliseTypedData). */
export type NormalisedTypedData = {
  /** The declared types, each field `{ name, type }` (other properties dropped). */
  types: Record<string, TypedDataField[]>;
  /** The struct type of `message`. */
  primaryType: string;
  /** The EIP712Domain fields, normalised. */
  domain: Record<string, Json>;
  /** The primary type's fields, normalised. */
  message: Record<string, Json>;
};

const DECIMAL = /^-?[0-9]{1,78}$/u;
const HEX_NUMBER = /^0x[0-9a-fA-F]{1,64}$/u;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/u;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/u;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The walk's state: declared structs, the version, and the work done so far. */
export type Walk = {
  /** Each declared struct's fields, types parsed; EIP712Domain always present. */
  structs: DeclaredStructs;
  /** V3 or V4. */
  version: TypedDataVersion;
  /** Values visited so far (bounded by TYPED_DATA_LIMITS.items). */
  items: number;
};

/**
 * Check and normalise one value against its type.
 *
 * @param walk - The walk's state.
 * @param type - The value's declared type.
 * @param value - The value as received.
 * @param path - Its path, for errors.
 * @param depth - Struct and array levels above it.
 * @returns The normalised value.
 * @throws JsonRpcError -32602 naming the path and the expected type.
 */
export function normaliseValue(
  walk: Walk,
  type: FieldType,
  value: unknown,
  path: string,
  depth: number,
): Json {
  walk.items += 1;
  if (walk.items > TYPED_DATA_LIMITS.items) {
    throw refuse('', `more than ${TYPED_DATA_LIMITS.items} values`);
  }
  switch (type.kind) {
    case 'bool':
      if (typeof value === 'boolean') {
        return value;
      }
      if (value === 'true' || value === 'false') {
        return value === 'true';
      }
      throw refuse(path, 'expected bool (true or false)');
    case 'address':
      if (typeof value === 'string' && ADDRESS.test(value)) {
        return value;
      }
      throw refuse(path, 'expected an address (0x + 40 hex digits)');
    case 'string':
      if (typeof value === 'string' && !LONE_SURROGATE.test(value)) {
        return value;
      }
      throw refuse(path, 'expected a well-formed string');
    case 'bytes':
      if (typeof value === 'string' && HEX_BYTES.test(value)) {
        return value;
      }
      throw refuse(path, 'expected bytes (0x + an even number of hex digits)');
    case 'bytesN':
      if (
        // Stryker disable next-line ConditionalExpression: equivalent: a non-string that reads as hex bytes is an array of at most one item (more items join with commas), so its length is never 2 + 2N
        typeof value === 'string' &&
        HEX_BYTES.test(value) &&
        value.length === 2 + type.size * 2
      ) {
        return value;
      }
      throw refuse(
        path,
        `expected bytes${type.size} (0x + ${type.size * 2} hex digits)`,
      );
    case 'int':
      return normaliseInteger(type, value, path);
    case 'array':
      return normaliseArray(walk, type, value, path, depth);
    default:
      return normaliseStruct(walk, type.name, value, path, depth);
  }
}

/**
 * Check and normalise an intN/uintN value.
 *
 * @param type - The integer type.
 * @param type.bits - N, a multiple of 8 from 8 to 256.
 * @param type.signed - intN (two's complement) or uintN.
 * @param value - A safe integer, a decimal string (negative for intN) or a 0x hex string.
 * @param path - Its path, for errors.
 * @returns The value as a decimal string.
 * @throws JsonRpcError -32602 for another encoding or a value out of the type's range.
 */
function normaliseInteger(
  type: { bits: number; signed: boolean },
  value: unknown,
  path: string,
): string {
  let parsed: bigint | undefined;
  // Stryker disable next-line ConditionalExpression: equivalent: Number.isSafeInteger is false for anything but a number (it does not convert)
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    parsed = BigInt(value);
  } else if (
    typeof value === 'string' &&
    (DECIMAL.test(value) || HEX_NUMBER.test(value))
  ) {
    parsed = BigInt(value);
  }
  const min = type.signed ? -(2n ** BigInt(type.bits - 1)) : 0n;
  const max = 2n ** BigInt(type.bits - (type.signed ? 1 : 0)) - 1n;
  const name = `${type.signed ? '' : 'u'}int${type.bits}`;
  if (
    parsed === undefined ||
    parsed < min ||
    parsed > max ||
    (!type.signed && typeof value === 'string' && value.startsWith('-'))
  ) {
    throw refuse(
      path,
      `expected ${name} (${type.signed ? `-2^${type.bits - 1} to 2^${type.bits - 1} - 1` : `0 to 2^${type.bits} - 1`}, as a safe integer, decimal or 0x hex string)`,
    );
  }
  return parsed.toString();
}

/**
 * Check and normalise an array value (V4).
 *
 * @param walk - The walk's state.
 * @param type - The array type.
 * @param type.item - The items' type.
 * @param type.length - The fixed length, or undefined for a dynamic array.
 * @param value - The value as received.
 * @param path - Its path, for errors.
 * @param depth - Levels above it.
 * @returns The normalised items.
 * @throws JsonRpcError -32602 for a non-array, a wrong length, too deep, or a bad item.
 */
function normaliseArray(
  walk: Walk,
  type: { item: FieldType; length: number | undefined },
  value: unknown,
  path: string,
  depth: number,
): Json[] {
  if (depth >= TYPED_DATA_LIMITS.depth) {
    throw refuse(path, `nested deeper than ${TYPED_DATA_LIMITS.depth} levels`);
  }
  if (!Array.isArray(value)) {
    throw refuse(path, 'expected an array');
  }
  if (type.length !== undefined && value.length !== type.length) {
    throw refuse(path, `expected an array of exactly ${type.length} items`);
  }
  // Stryker disable next-line ConditionalExpression,BlockStatement,ArithmeticOperator: equivalent: an early exit only; without it the walk refuses the same array with the same error at its first value past the limit
  if (walk.items + value.length > TYPED_DATA_LIMITS.items) {
    throw refuse('', `more than ${TYPED_DATA_LIMITS.items} values`);
  }
  return value.map((item: unknown, index) =>
    normaliseValue(walk, type.item, item, `${path}[${index}]`, depth + 1),
  );
}

/**
 * Check and normalise a struct value: each declared field, in order; undeclared fields are not
 * signed and are dropped. In V4, a missing or null struct is signed as 32 zero bytes (as
 * eth-sig-util does, for recursive types) and normalised to null.
 *
 * @param walk - The walk's state.
 * @param name - The struct's type name.
 * @param value - The value as received.
 * @param path - Its path, for errors.
 * @param depth - Levels above it.
 * @returns The normalised object, or null.
 * @throws JsonRpcError -32602 for a non-object, too deep, a missing or bad field.
 */
function normaliseStruct(
  walk: Walk,
  name: string,
  value: unknown,
  path: string,
  depth: number,
): Json {
  if (walk.version === 'V4' && (value === null || value === undefined)) {
    return null;
  }
  if (depth >= TYPED_DATA_LIMITS.depth) {
    throw refuse(path, `nested deeper than ${TYPED_DATA_LIMITS.depth} levels`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse(path, `expected an object (struct ${segment(name)})`);
  }
  const record = value as Record<string, unknown>;
  const normalised: Record<string, Json> = {};
  // Stryker disable next-line ArrayDeclaration: equivalent: never reached, parseTypes refuses a reference to an undeclared struct before any value is walked
  for (const field of walk.structs.get(name) ?? []) {
    const where = `${path}.${segment(field.name)}`;
    const own = Object.prototype.hasOwnProperty.call(record, field.name);
    const fieldValue = own ? record[field.name] : undefined;
    if (
      fieldValue === undefined &&
      (field.type.kind !== 'struct' || walk.version === 'V3')
    ) {
      throw refuse(where, 'required');
    }
    normalised[field.name] = normaliseValue(
      walk,
      field.type,
      fieldValue,
      where,
      depth + 1,
    );
  }
  return normalised;
}

/**
 * Check EIP-712 typed data (eth_signTypedData_v3 / _v4) against its declared types and normalise
 * it. Accepted encodings, exactly those eth-sig-util 9 hashes as what they say: bool as a JSON
 * boolean or the string "true"/"false"; intN/uintN as a safe integer, a decimal string (negative
 * only for intN) or a 0x hex string, in the type's range; address as 0x + 40 hex digits; bytesN as
 * 0x + exactly 2N hex digits; bytes as 0x + an even number of hex digits; string as a well-formed
 * string; structs as objects with every declared field (V4: or null); arrays (V4) as arrays,
 * of exactly the declared length when fixed. Work is bounded by TYPED_DATA_LIMITS.
 *
 * @param data - `{ types, primaryType, domain, message }` as keyring-api's EthTypedMessageStruct
 * lets it through.
 * @param data.types - The declared struct types.
 * @param data.primaryType - The struct type of `message`.
 * @param data.domain - The EIP712Domain values.
 * @param data.message - The primary type's values.
 * @param version - V3 (no arrays) or V4.
 * @returns The typed data to sign and display: declared types, booleans for bool, decimal strings
 * for integers, other values as received, undeclared fields dropped.
 * @throws JsonRpcError -32602 `Invalid typed data at <path>: <what was expected>`, never the value.
 */
export function normaliseTypedData(
  data: {
    types: Record<string, TypedDataField[]>;
    primaryType: string;
    domain: Record<string, unknown>;
    message: Record<string, unknown>;
  },
  version: TypedDataVersion,
): NormalisedTypedData {
  let size: number;
  try {
    size = JSON.stringify(data).length;
  } catch {
    throw refuse('', 'expected JSON values');
  }
  if (size > TYPED_DATA_LIMITS.bytes) {
    throw refuse('', `larger than ${TYPED_DATA_LIMITS.bytes} bytes`);
  }
  const structs = parseTypes(data.types, version);
  const { primaryType } = data;
  if (!structs.has(primaryType)) {
    throw refuse('primaryType', 'not a declared type');
  }
  if (primaryType === 'EIP712Domain' && Object.keys(data.message).length > 0) {
    throw refuse(
      'message',
      'must be empty when primaryType is EIP712Domain (it is not signed)',
    );
  }
  const walk: Walk = { structs, version, items: 0 };
  const domain = normaliseStruct(
    walk,
    'EIP712Domain',
    data.domain,
    'domain',
    0,
  ) as Record<string, Json>;
  const message =
    primaryType === 'EIP712Domain'
      ? {}
      : (normaliseStruct(
          walk,
          primaryType,
          data.message,
          'message',
          0,
        ) as Record<string, Json>);
  const types = Object.fromEntries(
    Object.entries(data.types).map(([name, fields]) => [
      name,
      fields.map(({ name: field, type }) => ({ name: field, type })),
    ]),
  );
  return { types, primaryType, domain, message };
}
