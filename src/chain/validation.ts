import { isAddress, numberToHex } from 'viem';

import { InvalidParamsError } from './errors';
import type {
  BlockParam,
  CallRequest,
  Hex,
  LogFilter,
  Quantity,
  StateOverride,
  TopicFilter,
} from './types';

/**
 * Local checks run before anything is sent (Ethereum JSON-RPC API: filter keys, block
 * tags, 20-byte addresses, 32-byte hashes/topics). Each throws InvalidParamsError
 * (-32602) naming the field.
 */

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized']);
const HEX = /^0x[0-9a-fA-F]*$/u;
const QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/u;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/u;

/**
 * A 20-byte address (any checksum casing accepted, validated when mixed case).
 *
 * @param value - Candidate.
 * @param field - Name for the message.
 * @returns The address.
 * @throws InvalidParamsError when not a 20-byte hex address.
 */
export function checkAddress(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw new InvalidParamsError(`${field}: expected a 20-byte hex address`);
  }
  return value;
}

/**
 * A 32-byte hex value (hash or topic).
 *
 * @param value - Candidate.
 * @param field - Name for the message.
 * @returns The value, lower-cased.
 * @throws InvalidParamsError when not 32 bytes of hex.
 */
export function checkBytes32(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !BYTES32.test(value)) {
    throw new InvalidParamsError(`${field}: expected a 32-byte hex value`);
  }
  return value.toLowerCase() as Hex;
}

/**
 * Arbitrary hex data (`0x` + even number of hex digits).
 *
 * @param value - Candidate.
 * @param field - Name for the message.
 * @returns The data.
 * @throws InvalidParamsError otherwise.
 */
export function checkData(value: unknown, field: string): Hex {
  if (typeof value !== 'string' || !HEX.test(value) || value.length % 2 !== 0) {
    throw new InvalidParamsError(
      `${field}: expected hex bytes (0x and an even number of hex digits)`,
    );
  }
  return value as Hex;
}

/**
 * A quantity as the node wants it: a hex string without leading zeros.
 *
 * @param value - Hex string, bigint or non-negative safe integer.
 * @param field - Name for the message.
 * @returns The hex quantity.
 * @throws InvalidParamsError when negative, fractional or malformed.
 */
export function toQuantity(value: Quantity, field: string): Hex {
  if (typeof value === 'bigint' || typeof value === 'number') {
    if (
      (typeof value === 'number' && !Number.isSafeInteger(value)) ||
      value < 0
    ) {
      throw new InvalidParamsError(
        `${field}: expected a non-negative safe integer`,
      );
    }
    return numberToHex(value);
  }
  if (typeof value !== 'string' || !QUANTITY.test(value)) {
    throw new InvalidParamsError(
      `${field}: expected a hex quantity like 0x1a (no leading zeros)`,
    );
  }
  return value;
}

/**
 * A block parameter: one of the tags latest, earliest, pending, safe, finalized,
 * or a block number (hex quantity, bigint or number).
 *
 * @param value - Candidate.
 * @param field - Name for the message.
 * @returns The tag or hex block number.
 * @throws InvalidParamsError otherwise.
 */
export function checkBlock(
  value: BlockParam | undefined,
  field: string,
): Hex | string {
  if (value === undefined) {
    return 'latest';
  }
  if (typeof value === 'string' && TAGS.has(value)) {
    return value;
  }
  if (typeof value === 'string' && !QUANTITY.test(value)) {
    throw new InvalidParamsError(
      `${field}: expected a hex block number or one of latest, earliest, pending, safe, finalized`,
    );
  }
  return toQuantity(value as Exclude<BlockParam, string> | Hex, field);
}

/** A validated eth_getLogs filter, normalised. */
export type CheckedFilter = {
  /** The 20-byte addresses to match; undefined for any. */
  addresses?: Hex[];
  /** Each position: null (any) or a list of 32-byte alternatives. */
  topics: (Hex[] | null)[];
  /** First block: a tag or a hex number. */
  fromBlock: string;
  /** Last block: a tag or a hex number. */
  toBlock: string;
  /** A 32-byte block hash, instead of the range. */
  blockHash?: Hex;
};

/**
 * Validate an eth_getLogs filter (Ethereum JSON-RPC API, eth_getLogs): addresses,
 * up to 4 topic positions of 32-byte values (`null`, or `null` among a
 * position's alternatives, matches any value, as in geth), block tags,
 * `blockHash` (or `blockhash`, the same value if both are given) exclusive with
 * `fromBlock`/`toBlock`.
 *
 * @param filter - The caller's filter.
 * @returns The normalised filter (duplicate alternatives removed).
 * @throws InvalidParamsError on the first problem found.
 */
export function checkLogFilter(filter: LogFilter): CheckedFilter {
  if (typeof filter !== 'object' || filter === null) {
    throw new InvalidParamsError('eth_getLogs: the filter must be an object');
  }
  const known = new Set([
    'address',
    'fromBlock',
    'toBlock',
    'topics',
    'blockHash',
    'blockhash',
  ]);
  for (const key of Object.keys(filter)) {
    if (!known.has(key)) {
      throw new InvalidParamsError(
        `eth_getLogs: unknown filter key ${JSON.stringify(key.slice(0, 40))}`,
      );
    }
  }
  if (
    filter.blockHash !== undefined &&
    filter.blockhash !== undefined &&
    (typeof filter.blockHash !== 'string' ||
      typeof filter.blockhash !== 'string' ||
      filter.blockHash.toLowerCase() !== filter.blockhash.toLowerCase())
  ) {
    throw new InvalidParamsError(
      'eth_getLogs: blockHash and blockhash are both given, with different values; give one',
    );
  }
  const blockHashValue = filter.blockHash ?? filter.blockhash;
  if (
    blockHashValue !== undefined &&
    (filter.fromBlock !== undefined || filter.toBlock !== undefined)
  ) {
    throw new InvalidParamsError(
      'eth_getLogs: blockHash excludes fromBlock and toBlock; give one or the other',
    );
  }
  let addresses: Hex[] | undefined;
  if (filter.address !== undefined) {
    const list = Array.isArray(filter.address)
      ? filter.address
      : [filter.address];
    addresses = [
      ...new Set(
        list.map(
          (a, i) => checkAddress(a, `address[${i}]`).toLowerCase() as Hex,
        ),
      ),
    ];
  }
  const rawTopics: readonly TopicFilter[] = filter.topics ?? [];
  if (!Array.isArray(rawTopics)) {
    throw new InvalidParamsError('eth_getLogs: topics must be an array');
  }
  if (rawTopics.length > 4) {
    throw new InvalidParamsError(
      `eth_getLogs: at most 4 topic positions, got ${rawTopics.length}`,
    );
  }
  const topics = rawTopics.map((position, i) => {
    if (position === null) {
      return null;
    }
    const list: readonly unknown[] = Array.isArray(position)
      ? position
      : [position];
    const values = list.map((topic, j) =>
      topic === null ? null : checkBytes32(topic, `topics[${i}][${j}]`),
    );
    // A null among the alternatives matches any value, as in geth (go-ethereum eth/filters/api.go).
    return values.includes(null) ? null : [...new Set(values as Hex[])];
  });
  return {
    addresses,
    topics,
    fromBlock:
      blockHashValue === undefined
        ? checkBlock(filter.fromBlock, 'fromBlock')
        : 'latest',
    toBlock:
      blockHashValue === undefined
        ? checkBlock(filter.toBlock, 'toBlock')
        : 'latest',
    blockHash:
      blockHashValue === undefined
        ? undefined
        : checkBytes32(blockHashValue, 'blockHash'),
  };
}

/**
 * Validate a transaction call object (eth_call, eth_estimateGas) and
 * convert its quantities to hex (gas in gas units; prices and value in wei).
 *
 * @param call - The caller's call object.
 * @param method - `eth_estimateGas` or `eth_call`, for messages.
 * @returns The JSON-ready call object.
 * @throws InvalidParamsError on a bad address, quantity or data.
 */
export function checkCall(
  call: CallRequest,
  method: string,
): Record<string, unknown> {
  if (typeof call !== 'object' || call === null) {
    throw new InvalidParamsError(`${method}: the call must be an object`);
  }
  const out: Record<string, unknown> = {};
  if (call.from !== undefined) {
    out.from = checkAddress(call.from, `${method} from`);
  }
  if (call.to !== undefined && call.to !== null) {
    out.to = checkAddress(call.to, `${method} to`);
  }
  for (const key of [
    'gas',
    'gasPrice',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
    'value',
  ] as const) {
    const value = call[key];
    if (value !== undefined) {
      out[key] = toQuantity(value, `${method} ${key}`);
    }
  }
  if (call.data !== undefined) {
    out.data = checkData(call.data, `${method} data`);
  }
  if (
    call.gasPrice !== undefined &&
    (call.maxFeePerGas !== undefined || call.maxPriorityFeePerGas !== undefined)
  ) {
    throw new InvalidParamsError(
      `${method}: give gasPrice or maxFeePerGas/maxPriorityFeePerGas, not both`,
    );
  }
  return out;
}

/**
 * Validate a geth-style state override and convert quantities to hex.
 *
 * @param override - Map of address to `{ balance?, nonce?, code?, state?, stateDiff? }`.
 * @returns The JSON-ready override.
 * @throws InvalidParamsError on a bad address or value.
 */
export function checkStateOverride(
  override: StateOverride,
): Record<string, unknown> {
  if (typeof override !== 'object' || override === null) {
    throw new InvalidParamsError(
      'stateOverride must be an object keyed by address',
    );
  }
  const out: Record<string, unknown> = {};
  for (const [address, entry] of Object.entries(override)) {
    checkAddress(address, 'stateOverride address');
    const item: Record<string, unknown> = {};
    if (entry.balance !== undefined) {
      item.balance = toQuantity(entry.balance, 'stateOverride balance');
    }
    if (entry.nonce !== undefined) {
      item.nonce = toQuantity(entry.nonce, 'stateOverride nonce');
    }
    if (entry.code !== undefined) {
      item.code = checkData(entry.code, 'stateOverride code');
    }
    if (entry.state !== undefined && entry.stateDiff !== undefined) {
      throw new InvalidParamsError(
        'stateOverride: give state or stateDiff for an address, not both',
      );
    }
    for (const key of ['state', 'stateDiff'] as const) {
      const slots = entry[key];
      if (slots !== undefined) {
        for (const [slot, value] of Object.entries(slots)) {
          checkBytes32(slot, `stateOverride ${key} slot`);
          checkBytes32(value, `stateOverride ${key} value`);
        }
        item[key] = slots;
      }
    }
    out[address] = item;
  }
  return out;
}
