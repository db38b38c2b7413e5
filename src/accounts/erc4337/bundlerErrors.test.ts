import { JsonRpcError } from '@metamask/rpc-errors';

import {
  BUNDLER_ERROR_CODES,
  BUNDLER_MESSAGE_LIMIT,
  bundlerRefusal,
  ENTRY_POINT_REASONS,
} from './bundlerErrors';
import { ChainRpcError, TransportError } from '../../chain';

const URL = 'https://bundler.example/v3/sEcReT-KeY-77';

describe('bundlerRefusal', () => {
  it('names the AAxx reason from the bundler’s message and keeps the bundler’s code', () => {
    const error = bundlerRefusal(
      new ChainRpcError(
        -32500,
        "UserOperation reverted during simulation with reason: AA21 didn't pay prefund",
      ),
      URL,
    ) as JsonRpcError<{ reason: string }>;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32500);
    expect(error.message).toBe(
      "The bundler refused the user operation (AA21): the account cannot pay for gas and no paymaster sponsors it. Bundler: UserOperation reverted during simulation with reason: AA21 didn't pay prefund",
    );
    expect(error.data).toStrictEqual({
      reason: 'AA21',
      bundlerMessage:
        "UserOperation reverted during simulation with reason: AA21 didn't pay prefund",
    });
  });

  it('explains each ERC-7769 code when the message names no AAxx reason', () => {
    for (const code of [
      -32500, -32501, -32502, -32503, -32504, -32505, -32506, -32507,
    ]) {
      const error = bundlerRefusal(
        new ChainRpcError(code, 'refused'),
        URL,
      ) as JsonRpcError<never>;
      expect(error.code).toBe(code);
      expect(error.message).toBe(
        `The bundler refused the user operation: ${BUNDLER_ERROR_CODES[code]}. Bundler: refused`,
      );
    }
  });

  it('knows every EntryPoint v0.6 FailedOp reason', () => {
    expect(Object.keys(ENTRY_POINT_REASONS)).toStrictEqual([
      'AA10',
      'AA13',
      'AA14',
      'AA15',
      'AA20',
      'AA21',
      'AA22',
      'AA23',
      'AA24',
      'AA25',
      'AA30',
      'AA31',
      'AA32',
      'AA33',
      'AA34',
      'AA40',
      'AA41',
      'AA50',
      'AA51',
      'AA90',
      'AA91',
      'AA92',
      'AA93',
      'AA94',
      'AA95',
      'AA96',
    ]);
    const error = bundlerRefusal(
      new ChainRpcError(-32507, 'AA24 signature error'),
      URL,
    ) as JsonRpcError<never>;
    expect(error.message).toMatch(
      /^The bundler refused the user operation \(AA24\): the account’s signature is invalid/u,
    );
  });

  it('keeps an unknown code with the bundler’s own words, bounded, without its URL’s key or control characters', () => {
    const long = `maxFeePerGas must be at least 7 ${URL}\n${'x'.repeat(1000)}`;
    const error = bundlerRefusal(
      new ChainRpcError(-32602, long),
      URL,
    ) as JsonRpcError<{ bundlerMessage: string }>;
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(
      /^The bundler refused the user operation: maxFeePerGas must be at least 7 /u,
    );
    expect(error.message).not.toContain('sEcReT');
    expect(error.message).not.toContain('\n');
    expect(error.data?.bundlerMessage).toHaveLength(BUNDLER_MESSAGE_LIMIT);
  });

  it('passes transport faults through unchanged', () => {
    const fault = new TransportError('network', 'network error', {
      url: 'https://bundler.example/v3/***',
    });
    expect(bundlerRefusal(fault, URL)).toBe(fault);
  });

  it('after signing (eth_sendUserOperation) says the operation may still be submitted, never that nothing was sent', () => {
    const refused = bundlerRefusal(
      new ChainRpcError(-32603, 'internal error'),
      URL,
      true,
    ) as JsonRpcError<any>;
    expect(refused.code).toBe(-32603);
    expect(refused.message).toBe(
      'The bundler refused the user operation. The signed operation may still be submitted until it is replaced (a new send reuses its nonce). Bundler: internal error',
    );
    const timedOut = bundlerRefusal(
      new TransportError('timeout', 'timed out', {
        url: 'https://bundler.example/v3/***',
      }),
      URL,
      true,
    ) as JsonRpcError<any>;
    expect(timedOut).toBeInstanceOf(JsonRpcError);
    expect(timedOut.code).toBe(-32002);
    expect(timedOut.message).toMatch(
      /may still be submitted until it is replaced/u,
    );
    for (const error of [refused, timedOut]) {
      expect(error.message).not.toMatch(/nothing was/u);
    }
  });
});
