import { encodeErrorResult, getAddress, parseAbi } from 'viem';
import type { Hex } from 'viem';

import {
  decodeRevertData,
  MAX_REVERT_DATA_BYTES,
  MAX_REVERT_REASON_LENGTH,
} from './revert';

/** A custom error ABI, encoded independently with viem's encodeErrorResult. */
const ABI = parseAbi([
  'error Unauthorized(address caller, uint256 role)',
  'error Paused()',
]);

/**
 * @param message - The `Error(string)` message.
 * @returns Its revert payload, encoded by viem.
 */
const errorData = (message: string): Hex =>
  encodeErrorResult({
    abi: parseAbi(['error Error(string)']),
    errorName: 'Error',
    args: [message],
  });

describe('decodeRevertData', () => {
  it('decodes Error(string), Panic(uint256) and reports unknown selectors', () => {
    expect(decodeRevertData(errorData('boom'))).toStrictEqual({
      kind: 'Error',
      reason: 'boom',
      selector: '0x08c379a0',
    });
    const panic = encodeErrorResult({
      abi: parseAbi(['error Panic(uint256)']),
      errorName: 'Panic',
      args: [0x11n],
    });
    expect(decodeRevertData(panic)).toStrictEqual({
      kind: 'Panic',
      reason: 'Panic(0x11): arithmetic underflow or overflow',
      selector: '0x4e487b71',
      panicCode: 0x11n,
    });
    expect(decodeRevertData('0x12345678')).toStrictEqual({
      kind: 'custom',
      reason: 'custom error 0x12345678',
      selector: '0x12345678',
    });
    expect(decodeRevertData(undefined).reason).toBe('no revert data');
  });

  it('decodes a custom error declared in the ABI given, by name and arguments', () => {
    const caller = '0x00000000000000000000000000000000000000aa';
    const data = encodeErrorResult({
      abi: ABI,
      errorName: 'Unauthorized',
      args: [caller, 7n],
    });
    expect(decodeRevertData(data, ABI)).toStrictEqual({
      kind: 'custom',
      reason: `Unauthorized(${getAddress(caller)}, 7)`,
      selector: data.slice(0, 10),
      errorName: 'Unauthorized',
    });
    const paused = encodeErrorResult({ abi: ABI, errorName: 'Paused' });
    expect(decodeRevertData(paused, ABI).reason).toBe('Paused()');
    // Without the ABI the same payload is shown by its selector.
    expect(decodeRevertData(data).reason).toBe(
      `custom error ${data.slice(0, 10)}`,
    );
  });

  it('cuts a long decoded reason to MAX_REVERT_REASON_LENGTH characters', () => {
    const decoded = decodeRevertData(errorData('é'.repeat(1000)));
    expect(decoded.kind).toBe('Error');
    expect([...decoded.reason]).toHaveLength(MAX_REVERT_REASON_LENGTH);
    expect(decoded.reason.endsWith('…')).toBe(true);
  });

  it('does not decode a payload above MAX_REVERT_DATA_BYTES; an Error(string) one is still called Error, not a custom error', () => {
    const data = errorData('x'.repeat(MAX_REVERT_DATA_BYTES));
    expect(decodeRevertData(data)).toStrictEqual({
      kind: 'Error',
      reason:
        'Error(string) with a reason too long to show (4164 bytes of revert data)',
      selector: '0x08c379a0',
    });
    const other = `0x12345678${'00'.repeat(MAX_REVERT_DATA_BYTES)}`;
    expect(decodeRevertData(other)).toStrictEqual({
      kind: 'custom',
      reason: 'custom error 0x12345678',
      selector: '0x12345678',
    });
    // Just under the cap it is decoded.
    expect(decodeRevertData(errorData('x'.repeat(4000))).kind).toBe('Error');
  });

  it('never echoes unrecognised or malformed payloads', () => {
    const odd = `0x${'ab'.repeat(40)}c`;
    expect(decodeRevertData(odd).reason).toBe(
      'unrecognised revert data (83 characters)',
    );
    expect(decodeRevertData('0xabcd').reason).toBe(
      'unrecognised revert data (6 characters)',
    );
    // A known selector with a truncated body is shown by its selector.
    expect(decodeRevertData(errorData('boom').slice(0, 80)).kind).toBe(
      'custom',
    );
  });
});
