import type { Json } from '@metamask/utils';

import { normaliseValue } from './typedData';
import type { Walk } from './typedData';
import {
  parseType,
  refuse,
  segment,
  TYPED_DATA_LIMITS,
} from './typedDataTypes';

/**
 * Legacy typed data (`eth_signTypedData_v1`, the early EIP-712 draft that eth-sig-util signs as
 * `SignTypedDataVersion.V1`: https://github.com/ethereum/EIPs/pull/712/commits/21abe254fe0452d8583d5b132b1d7be87c0439ca),
 * an array of `{ type, name, value }` hashed as
 * `keccak256(keccak256(packed "type name" strings) ++ keccak256(abi.encodePacked(values)))`.
 * eth-sig-util encodes what it is given: `int8 -129` signs as `127`, `uint8 -5` as `5`, an
 * address `"0x1234"` as `0x…001234`, a `bytes4` of eight bytes as its first four. Each value is
 * therefore checked against its declared type by the rules and bounds of v3/v4 (normaliseValue)
 * and normalised the same way before it is signed or shown.
 */

/** One legacy typed-data field as signed: its Solidity type, its name and its normalised value. */
export type TypedDataV1Field = {
  /** An atomic Solidity type, or a one-level array of a fixed-size one (`uint8[]`, `address[2]`). */
  type: string;
  /** The field's name (any non-empty text, signed in the schema hash). */
  name: string;
  /** The value, normalised as for v3/v4 (booleans, integers as decimal strings). */
  value: Json;
};

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Check legacy typed data (eth_signTypedData_v1) value by value and normalise it. Types: bool,
 * address, string, bytes, bytes1..32, intN/uintN (N a multiple of 8 up to 256), and one-level
 * arrays (fixed or dynamic) of bool, address, bytesN or intN/uintN: string, bytes and nested
 * arrays have no agreed packed encoding inside an array and are refused. Values follow the rules of
 * normaliseTypedData (same encodings, same ranges). Names: non-empty text of at most
 * TYPED_DATA_LIMITS.name characters, unique. At most TYPED_DATA_LIMITS.fields fields and
 * TYPED_DATA_LIMITS.items values.
 *
 * @param data - The `[{ type, name, value }, ...]` array as keyring-api's EthTypedDataV1Struct
 * lets it through.
 * @returns The fields in order, values normalised: what is signed and what a display shows.
 * @throws JsonRpcError -32602 `Invalid typed data at data[<i>]…: <what was expected>`, never the value.
 */
export function normaliseTypedDataV1(
  data: readonly { type: string; name: string; value?: unknown }[],
): TypedDataV1Field[] {
  if (data.length === 0) {
    throw refuse('data', 'expected at least one field');
  }
  if (data.length > TYPED_DATA_LIMITS.fields) {
    throw refuse('data', `more than ${TYPED_DATA_LIMITS.fields} fields`);
  }
  const walk: Walk = { structs: new Map(), version: 'V4', items: 0 };
  const seen = new Set<string>();
  return data.map(({ type, name, value }, index) => {
    const at = `data[${index}]`;
    if (
      typeof name !== 'string' ||
      name.length === 0 ||
      name.length > TYPED_DATA_LIMITS.name ||
      LONE_SURROGATE.test(name) ||
      seen.has(name)
    ) {
      throw refuse(
        `${at}.name`,
        `expected a unique name of 1 to ${TYPED_DATA_LIMITS.name} characters`,
      );
    }
    seen.add(name);
    if (typeof type !== 'string' || type.length > TYPED_DATA_LIMITS.name) {
      throw refuse(`${at}.type`, 'unknown or unsupported type');
    }
    const parsed = parseType(type, new Set(), 'V4', `${at}.type`);
    if (
      parsed.kind === 'array' &&
      (parsed.item.kind === 'array' ||
        parsed.item.kind === 'string' ||
        parsed.item.kind === 'bytes')
    ) {
      throw refuse(
        `${at}.type`,
        'arrays of string, bytes or arrays are not supported in eth_signTypedData_v1',
      );
    }
    return {
      type,
      name,
      value: normaliseValue(walk, parsed, value, `${at}.${segment(name)}`, 0),
    };
  });
}
