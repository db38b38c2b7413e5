import { decodeErrorResult, isHex, numberToHex, size, slice } from 'viem';
import type { Abi, Hex } from 'viem';

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

/**
 * Largest revert payload decoded, in bytes (selector included). A longer one comes from a
 * server we do not trust and is shown by its selector only, without being decoded.
 */
export const MAX_REVERT_DATA_BYTES = 4096;

/** Longest decoded reason kept, in characters (code points); longer ones end in `…`. */
export const MAX_REVERT_REASON_LENGTH = 256;

/** What a revert payload says, decoded. */
export type DecodedRevert = {
  /** `Error` (require/revert with a string), `Panic`, `custom` (a custom error), `empty`. */
  kind: 'Error' | 'Panic' | 'custom' | 'empty';
  /**
   * Human-readable reason, at most {@link MAX_REVERT_REASON_LENGTH} characters, e.g. `boom`,
   * `Panic(0x11): arithmetic underflow or overflow`, `custom error 0x12345678`, or
   * `Unauthorized(0x…)` for a custom error found in the ABI given.
   */
  reason: string;
  /** The 4-byte selector, when the payload has one. */
  selector?: Hex;
  /** The panic code, for `Panic`. */
  panicCode?: bigint;
  /** The custom error's name, when the ABI given declares it. */
  errorName?: string;
};

/**
 * @param text - Decoded, untrusted text.
 * @returns It, cut to {@link MAX_REVERT_REASON_LENGTH} code points with `…` marking the cut.
 */
function capped(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_REVERT_REASON_LENGTH
    ? text
    : `${chars.slice(0, MAX_REVERT_REASON_LENGTH - 1).join('')}…`;
}

/**
 * @param value - One decoded ABI value (bigint, string, boolean, hex, array or tuple object).
 * @returns It as text: bigints in decimal, nested values as JSON.
 */
function argText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? item.toString() : item,
  );
}

/**
 * Decode an EVM revert payload (the `data` of a code-3 JSON-RPC error, Solidity docs,
 * "Error handling") with viem's `decodeErrorResult`: `Error(string)` gives its string,
 * `Panic(uint256)` its code and meaning, a custom error declared in `abi` its name and
 * arguments, and any other custom error is shown by its 4-byte selector.
 *
 * Bounds (the payload is untrusted): a payload above {@link MAX_REVERT_DATA_BYTES} bytes is not
 * decoded (shown by its selector; an `Error(string)` one is still reported as kind `Error`, its
 * reason too long to show), and the reason is cut to {@link MAX_REVERT_REASON_LENGTH}
 * characters. Callers that return the reason to a dapp still pass it through their own
 * printable-text filter.
 *
 * @param data - Hex revert payload, possibly `0x` or undefined.
 * @param abi - Optional contract ABI whose `error` items are tried after `Error` and `Panic`.
 * @returns The decoded reason. Never throws: malformed payloads are reported as custom.
 */
export function decodeRevertData(
  data: string | undefined,
  abi?: Abi,
): DecodedRevert {
  if (!data || !isHex(data) || data.length < 10 || data.length % 2 !== 0) {
    return {
      kind: 'empty',
      reason:
        data && data.length > 2
          ? `unrecognised revert data (${data.length} characters)`
          : 'no revert data',
    };
  }
  const selector = slice(data, 0, 4).toLowerCase() as Hex;
  const custom: DecodedRevert = {
    kind: 'custom',
    reason: `custom error ${selector}`,
    selector,
  };
  if (size(data) > MAX_REVERT_DATA_BYTES) {
    // not decoded (bounded work), but an Error(string) selector is not a custom error
    return selector === ERROR_SELECTOR
      ? {
          kind: 'Error',
          reason: `Error(string) with a reason too long to show (${size(data)} bytes of revert data)`,
          selector,
        }
      : custom;
  }
  let decoded;
  try {
    decoded = decodeErrorResult({ abi, data: data.toLowerCase() as Hex });
  } catch {
    // An unknown selector, or a known one with a malformed body: shown by its selector.
    return custom;
  }
  const args: readonly unknown[] = decoded.args ?? [];
  if (selector === ERROR_SELECTOR && typeof args[0] === 'string') {
    return { kind: 'Error', reason: capped(args[0]), selector };
  }
  if (selector === PANIC_SELECTOR && typeof args[0] === 'bigint') {
    const code = args[0];
    const meaning = PANIC_REASONS[Number(code)] ?? 'unknown panic code';
    return {
      kind: 'Panic',
      reason: capped(`Panic(${numberToHex(code)}): ${meaning}`),
      selector,
      panicCode: code,
    };
  }
  return {
    ...custom,
    reason: capped(`${decoded.errorName}(${args.map(argText).join(', ')})`),
    errorName: decoded.errorName,
  };
}
