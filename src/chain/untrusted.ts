import { TransportError } from './errors';
import type { Hex } from './types';

/**
 * Checks of numbers and bytes a provider returns, which are untrusted: an
 * endpoint that lies may make a caller fail, never hand it an out-of-range
 * value. Each helper throws TransportError (`malformed`) naming what was read
 * and the endpoint's origin, never the value.
 */

/** The intrinsic gas of any transaction (Ethereum Yellow Paper, G_transaction): no gas estimate is lower. */
export const MIN_GAS_ESTIMATE = 21_000n;

/** The largest block gas limit believed (2^63 gas; real chains report at most about 2^50). */
export const MAX_BLOCK_GAS_LIMIT = 2n ** 63n;

/** The provider's gas parameter cap: 10 times the block gas limit (as Infura documents for eth_call and eth_estimateGas). */
export const GAS_CAP_MULTIPLIER = 10n;

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/iu;
const DATA = /^0x([0-9a-f]{2})*$/iu;

/**
 * The error for a result that is not what the method returns.
 *
 * @param what - What was read, e.g. `eth_estimateGas`.
 * @param problem - What the provider returned instead.
 * @param origin - The endpoint's origin, for the message.
 * @returns A TransportError of kind `malformed`.
 */
const malformed = (
  what: string,
  problem: string,
  origin = '(unknown endpoint)',
): TransportError =>
  new TransportError(
    'malformed',
    `${what}: the provider returned ${problem} (${origin})`,
    { url: origin },
  );

/**
 * A hex quantity (`0x` and hex digits without leading zeros, at most 256 bits)
 * within bounds.
 *
 * @param value - The result as received.
 * @param what - What was read, e.g. `eth_estimateGas`.
 * @param bounds - Inclusive bounds.
 * @param bounds.min - Smallest value accepted (default 0).
 * @param bounds.max - Largest value accepted (default 2^256 - 1).
 * @param origin - The endpoint's origin, for the message.
 * @returns The value.
 * @throws TransportError (malformed) when not a quantity or out of bounds.
 */
export function readQuantity(
  value: unknown,
  what: string,
  bounds: {
    /** Smallest value accepted (default 0). */
    min?: bigint;
    /** Largest value accepted (default 2^256 - 1). */
    max?: bigint;
  } = {},
  origin?: string,
): bigint {
  if (typeof value !== 'string' || value.length > 66 || !QUANTITY.test(value)) {
    throw malformed(what, 'something that is not a hex quantity', origin);
  }
  const number = BigInt(value);
  const { min = 0n, max = 2n ** 256n - 1n } = bounds;
  if (number < min || number > max) {
    throw malformed(what, `a value outside [${min}, ${max}]`, origin);
  }
  return number;
}

/**
 * Hex bytes (`0x` and an even number of hex digits), e.g. eth_getCode's result.
 *
 * @param value - The result as received.
 * @param what - What was read.
 * @param origin - The endpoint's origin, for the message.
 * @param size - The exact length in bytes, when fixed (e.g. 32 for one ABI word).
 * @returns The bytes, hex.
 * @throws TransportError (malformed) otherwise.
 */
export function readHexData(
  value: unknown,
  what: string,
  origin?: string,
  size?: number,
): Hex {
  if (typeof value !== 'string' || !DATA.test(value)) {
    throw malformed(what, 'something that is not hex bytes', origin);
  }
  if (size !== undefined && value.length !== 2 + 2 * size) {
    throw malformed(
      what,
      `${(value.length - 2) / 2} bytes instead of ${size}`,
      origin,
    );
  }
  return value as Hex;
}

/**
 * One ABI-encoded `uint256` (an eth_call result of 32 bytes) at most `max`.
 *
 * @param value - The result as received.
 * @param what - What was read, e.g. `EntryPoint.getNonce`.
 * @param max - Largest value accepted.
 * @param origin - The endpoint's origin, for the message.
 * @returns The number.
 * @throws TransportError (malformed) when not 32 bytes or above `max`.
 */
export function readUintWord(
  value: unknown,
  what: string,
  max: bigint,
  origin?: string,
): bigint {
  const number = BigInt(readHexData(value, what, origin, 32));
  if (number > max) {
    throw malformed(what, `a value above ${max}`, origin);
  }
  return number;
}

/**
 * The gas limit of a block object (eth_getBlockByNumber), in gas: a quantity in
 * [1, 2^63].
 *
 * @param block - The block as received.
 * @param origin - The endpoint's origin, for the message.
 * @returns The block gas limit.
 * @throws TransportError (malformed) when the block or its gasLimit is missing or out of range.
 */
export function readBlockGasLimit(block: unknown, origin?: string): bigint {
  if (typeof block !== 'object' || block === null) {
    throw malformed('eth_getBlockByNumber', 'no block', origin);
  }
  return readQuantity(
    (block as Record<string, unknown>).gasLimit,
    'eth_getBlockByNumber gasLimit',
    { min: 1n, max: MAX_BLOCK_GAS_LIMIT },
    origin,
  );
}

/**
 * The largest gas a call may name: 10 times the block gas limit.
 *
 * @param blockGasLimit - The block gas limit, in gas.
 * @returns The cap, in gas.
 */
export const gasCapOf = (blockGasLimit: bigint): bigint =>
  blockGasLimit * GAS_CAP_MULTIPLIER;

/**
 * A gas estimate (eth_estimateGas result), in gas: a quantity of at least
 * 21,000 and at most `cap` (10 times the block gas limit).
 *
 * @param value - The result as received.
 * @param what - What was estimated, for the message.
 * @param cap - The largest estimate accepted, in gas (see `gasCapOf`).
 * @param origin - The endpoint's origin, for the message.
 * @returns The estimate.
 * @throws TransportError (malformed) otherwise.
 */
export function readGasEstimate(
  value: unknown,
  what: string,
  cap: bigint,
  origin?: string,
): bigint {
  return readQuantity(value, what, { min: MIN_GAS_ESTIMATE, max: cap }, origin);
}

/**
 * Check a total of gas (e.g. estimates added up) against the cap.
 *
 * @param gas - The total, in gas.
 * @param what - What it is, for the message.
 * @param cap - The cap, in gas.
 * @param origin - The endpoint's origin, for the message.
 * @returns `gas`.
 * @throws TransportError (malformed) when above the cap.
 */
export function capGas(
  gas: bigint,
  what: string,
  cap: bigint,
  origin?: string,
): bigint {
  if (gas > cap) {
    throw malformed(
      what,
      `estimates adding up to more than 10x the block gas limit (${cap} gas)`,
      origin,
    );
  }
  return gas;
}
