import { decodeAbiParameters, isHex } from 'viem';
import type { Hex } from 'viem';

/** Solidity `Panic(uint256)` codes and their meaning (Solidity docs, "Panic via assert"). */
export const PANIC_REASONS: Readonly<Record<number, string>> = {
  0x00: 'generic compiler inserted panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an invalid enum value',
  0x22: 'access to an incorrectly encoded storage byte array',
  0x31: 'pop() on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated or array too large',
  0x51: 'call to a zero-initialized internal function variable',
};

/** The selector of `Error(string)`. */
export const ERROR_SELECTOR = '0x08c379a0';
/** The selector of `Panic(uint256)`. */
export const PANIC_SELECTOR = '0x4e487b71';

/** What a revert payload says, decoded. */
export type DecodedRevert = {
  /** `Error` (require/revert with a string), `Panic`, `custom` (a custom error), `empty`. */
  kind: 'Error' | 'Panic' | 'custom' | 'empty';
  /** Human-readable reason, e.g. `boom`, `Panic(0x11): arithmetic underflow or overflow`. */
  reason: string;
  /** The 4-byte selector, when the payload has one. */
  selector?: Hex;
  /** The panic code, for `Panic`. */
  panicCode?: bigint;
};

/**
 * Decode an EVM revert payload (the `data` of a code-3 JSON-RPC error, Solidity docs,
 * "Error handling"): `Error(string)` gives its string, `Panic(uint256)` its code and
 * meaning, anything else is a custom error shown by its 4-byte selector.
 *
 * @param data - Hex revert payload, possibly `0x` or undefined.
 * @returns The decoded reason. Never throws: malformed payloads are reported as custom.
 */
export function decodeRevertData(data: string | undefined): DecodedRevert {
  if (!data || !isHex(data) || data.length < 10) {
    return {
      kind: 'empty',
      reason:
        data && data.length > 2
          ? `unrecognised revert data ${data}`
          : 'no revert data',
    };
  }
  const selector = data.slice(0, 10).toLowerCase() as Hex;
  const body: Hex = `0x${data.slice(10)}`;
  try {
    if (selector === ERROR_SELECTOR) {
      const [message] = decodeAbiParameters([{ type: 'string' }], body);
      return { kind: 'Error', reason: message, selector };
    }
    if (selector === PANIC_SELECTOR) {
      const [code] = decodeAbiParameters([{ type: 'uint256' }], body);
      const meaning = PANIC_REASONS[Number(code)] ?? 'unknown panic code';
      return {
        kind: 'Panic',
        reason: `Panic(0x${code.toString(16)}): ${meaning}`,
        selector,
        panicCode: code,
      };
    }
  } catch {
    // fall through: a well-known selector with a malformed body is shown raw
  }
  return { kind: 'custom', reason: `custom error ${selector}`, selector };
}
