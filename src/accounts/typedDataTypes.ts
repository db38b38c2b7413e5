import { invalidParams } from '../utils/errors';
import { bounded, fieldName } from '../utils/safeText';

/**
 * The declared types of EIP-712 typed data (https://eips.ethereum.org/EIPS/eip-712): the bounds
 * on one request, the shapes of a declaration, and the parsing of the type strings and struct
 * declarations that src/accounts/typedData.ts checks values against.
 */

/** Bounds on the work one request may cause. */
export const TYPED_DATA_LIMITS = {
  /** Declared types, EIP712Domain included. */
  types: 64,
  /** Fields over all declared types. */
  fields: 1024,
  /** Values visited in `domain` and `message` (struct, array, item and atomic values). */
  items: 10_000,
  /** Struct and array nesting below `domain` or `message`. */
  depth: 16,
  /** Size of the typed data as JSON text (UTF-16 code units, about bytes). */
  bytes: 1024 * 1024,
  /** Length of a type or field name. */
  name: 100,
} as const;

/** An EIP-712 struct's fields as declared: `{ name, type }`. */
export type TypedDataField = {
  /** The field's name (an identifier). */
  name: string;
  /** Its EIP-712 type, e.g. `address`, `uint8[3]`, `Person`. */
  type: string;
};

/** EIP-712 versions with typed structs: V3 (no arrays) and V4. */
export type TypedDataVersion = 'V3' | 'V4';

/** A parsed field type: an atomic type, a struct, or an array (length undefined when dynamic). */
export type FieldType =
  | { kind: 'bool' | 'address' | 'string' | 'bytes' }
  | { kind: 'bytesN'; size: number }
  | { kind: 'int'; bits: number; signed: boolean }
  | { kind: 'struct'; name: string }
  | { kind: 'array'; item: FieldType; length: number | undefined };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/u;
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/u;
/** Names an atomic Solidity type (or one EIP-712 leaves out): never a struct's name. */
const ATOMIC_NAME =
  /^(bool|address|string|function|bytes[0-9]*|u?int[0-9]*|u?fixed[0-9x]*)$/u;
const ARRAY_SUFFIX = /\[([1-9][0-9]{0,4})?\]$/u;

/** Each declared struct's fields, types parsed; EIP712Domain always present. */
export type DeclaredStructs = Map<string, { name: string; type: FieldType }[]>;

/**
 * A type or field name as an error may show it: EIP712Domain, or what fieldName lets through.
 *
 * @param name - A name from the request.
 * @returns The name, or `<key>`.
 */
export function segment(name: string): string {
  return name === 'EIP712Domain' ? name : fieldName(name);
}

/**
 * The -32602 error for typed data.
 *
 * @param path - Where, e.g. `message.approvals[2].approved`; empty for the whole.
 * @param problem - What is wrong, never the value.
 * @returns The error.
 */
export function refuse(path: string, problem: string): Error {
  return invalidParams(
    bounded(`Invalid typed data${path ? ` at ${path}` : ''}: ${problem}`),
  );
}

/**
 * Parse a declared field type.
 *
 * @param type - The declared type string.
 * @param structs - The declared struct names.
 * @param version - V3 refuses arrays.
 * @param where - The declaration's path, for errors.
 * @returns The parsed type.
 * @throws JsonRpcError -32602 for an unknown type, an array in V3 or a malformed size.
 */
export function parseType(
  type: string,
  structs: ReadonlySet<string>,
  version: TypedDataVersion,
  where: string,
): FieldType {
  const array = ARRAY_SUFFIX.exec(type);
  if (array) {
    if (version === 'V3') {
      throw refuse(where, 'arrays need eth_signTypedData_v4');
    }
    return {
      kind: 'array',
      item: parseType(type.slice(0, array.index), structs, version, where),
      length: array[1] === undefined ? undefined : Number(array[1]),
    };
  }
  if (structs.has(type)) {
    return { kind: 'struct', name: type };
  }
  if (
    type === 'bool' ||
    type === 'address' ||
    type === 'string' ||
    type === 'bytes'
  ) {
    return { kind: type };
  }
  const fixed = /^bytes([1-9][0-9]?)$/u.exec(type);
  if (fixed && Number(fixed[1]) <= 32) {
    return { kind: 'bytesN', size: Number(fixed[1]) };
  }
  const integer = /^(u?)int([1-9][0-9]{0,2})$/u.exec(type);
  const bits = Number(integer?.[2]);
  if (integer && bits % 8 === 0 && bits <= 256) {
    return { kind: 'int', bits, signed: integer[1] === '' };
  }
  throw refuse(where, 'unknown or unsupported type');
}

/**
 * Check the declared types: at most TYPED_DATA_LIMITS.types types and .fields fields; struct
 * names identifiers that are not atomic type names; field names identifiers, unique in their
 * struct; field types atomic (bool, address, string, bytes, bytes1..32, intN/uintN with N a
 * multiple of 8 from 8 to 256), declared structs or (V4) arrays of them; EIP712Domain without
 * structs (eth-sig-util hashes the domain with the EIP712Domain type alone).
 *
 * @param types - `types` as keyring-api's struct lets it through.
 * @param version - V3 or V4.
 * @returns The parsed structs, EIP712Domain always present.
 * @throws JsonRpcError -32602 naming the declaration.
 */
export function parseTypes(
  types: Record<string, TypedDataField[]>,
  version: TypedDataVersion,
): DeclaredStructs {
  const names = Object.keys(types);
  if (names.length > TYPED_DATA_LIMITS.types) {
    throw refuse('types', `more than ${TYPED_DATA_LIMITS.types} types`);
  }
  const fieldCount = names.reduce(
    (sum, name) => sum + (types[name]?.length ?? 0),
    0,
  );
  if (fieldCount > TYPED_DATA_LIMITS.fields) {
    throw refuse('types', `more than ${TYPED_DATA_LIMITS.fields} fields`);
  }
  const declared = new Set(names);
  const structs: DeclaredStructs = new Map([['EIP712Domain', []]]);
  for (const name of names) {
    const where = `types.${segment(name)}`;
    if (
      name.length > TYPED_DATA_LIMITS.name ||
      !IDENTIFIER.test(name) ||
      name === '__proto__' ||
      ATOMIC_NAME.test(name)
    ) {
      throw refuse(
        where,
        'a type name must be an identifier and not an atomic type',
      );
    }
    const seen = new Set<string>();
    const fields = (types[name] ?? []).map(({ name: field, type }, index) => {
      const at = `${where}[${index}]`;
      if (
        field.length > TYPED_DATA_LIMITS.name ||
        !FIELD_NAME.test(field) ||
        field === '__proto__' ||
        seen.has(field)
      ) {
        throw refuse(`${at}.name`, 'expected a unique identifier');
      }
      seen.add(field);
      if (type.length > TYPED_DATA_LIMITS.name) {
        throw refuse(`${at}.type`, 'unknown or unsupported type');
      }
      const parsed = parseType(type, declared, version, `${at}.type`);
      let item = parsed;
      while (item.kind === 'array') {
        item = item.item;
      }
      if (name === 'EIP712Domain' && item.kind === 'struct') {
        throw refuse(`${at}.type`, 'the domain cannot hold structs');
      }
      return { name: field, type: parsed };
    });
    structs.set(name, fields);
  }
  return structs;
}
