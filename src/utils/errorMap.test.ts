import { JsonRpcError, rpcErrors } from '@metamask/rpc-errors';

import {
  ChainRpcError,
  ExecutionRevertedError,
  InvalidParamsError,
  LimitExceededError,
  RateLimitedError,
  RemovedLogsError,
  TransportError,
} from '../chain';
import { callerError, toRpcError } from './errorMap';
import {
  ContentVerificationError,
  InvalidCidError,
  IpfsApiError,
  IpfsDeadlineError,
  IpfsTimeoutError,
  IpfsTransportError,
} from '../ipfs';
import { AccountMetadataError } from '../metadata';
import { SnapError } from './errors';

/**
 * The code, message and data a caller sees.
 *
 * @param error - What was thrown.
 * @returns `{ code, message, data }` of the mapped error.
 */
function seen(error: unknown): {
  code: number;
  message: string;
  data: unknown;
} {
  const mapped = toRpcError(error);
  expect(mapped).toBeInstanceOf(JsonRpcError);
  return { code: mapped.code, message: mapped.message, data: mapped.data };
}

describe('toRpcError: library errors map by class, never by name', () => {
  it('passes rpc-errors errors through unchanged', () => {
    const error = rpcErrors.invalidParams({ message: 'bad field' });
    expect(toRpcError(error)).toBe(error);
  });

  it('chain transport faults are -32002, a subclass too, whatever its name', () => {
    const fault = new TransportError(
      'timeout',
      'https://node.example timed out',
      {
        url: 'https://node.example',
      },
    );
    expect(seen(fault)).toStrictEqual({
      code: -32002,
      message: 'https://node.example timed out',
      data: undefined,
    });
    /**
     *
     */
    class Renamed extends TransportError {}
    const renamed = new Renamed('http', 'HTTP 503', { url: 'https://a.test' });
    renamed.name = 'SomethingElse';
    expect(seen(renamed).code).toBe(-32002);
  });

  it('an error only named like a library class is not one of them (-32603)', () => {
    const impostor = new Error('spoofed');
    impostor.name = 'TransportError';
    expect(seen(impostor)).toStrictEqual({
      code: -32603,
      message: 'spoofed',
      data: undefined,
    });
  });

  it('chain JSON-RPC errors keep their code and message, and string data', () => {
    expect(seen(new ChainRpcError(-32000, 'nonce too low'))).toStrictEqual({
      code: -32000,
      message: 'nonce too low',
      data: undefined,
    });
    expect(seen(new InvalidParamsError('bad topic')).code).toBe(-32602);
    expect(
      seen(new LimitExceededError('query returned more than 10000 results'))
        .code,
    ).toBe(-32005);
    expect(
      seen(new RateLimitedError('https://a.test', { attempts: 3 })).code,
    ).toBe(-32005);
    const reverted = new ExecutionRevertedError(
      'execution reverted',
      '0x4e487b710000000000000000000000000000000000000000000000000000000000000011',
    );
    expect(seen(reverted)).toMatchObject({
      code: 3,
      data: '0x4e487b710000000000000000000000000000000000000000000000000000000000000011',
    });
    expect(
      seen(new ChainRpcError(-32000, 'x', { data: { nested: true } })).data,
    ).toBeUndefined();
  });

  it('iPFS errors: unreachable or too slow -32002, anything else -32602', () => {
    expect(seen(new IpfsTransportError('cat', new Error('refused'))).code).toBe(
      -32002,
    );
    expect(seen(new IpfsTimeoutError('cat', 10)).code).toBe(-32002);
    expect(seen(new IpfsDeadlineError('cat', 10)).code).toBe(-32002);
    expect(seen(new IpfsApiError(403, 'cat', 'forbidden')).code).toBe(-32602);
    expect(seen(new InvalidCidError('nope')).code).toBe(-32602);
    expect(seen(new ContentVerificationError('bafy', 'mismatch')).code).toBe(
      -32602,
    );
  });

  it('accountMetadataError is -32602 with its message', () => {
    expect(seen(new AccountMetadataError('name', 'required'))).toStrictEqual({
      code: -32602,
      message: 'invalid account metadata: name: required',
      data: undefined,
    });
  });

  it('a SnapError keeps its message and takes the code of its cause', () => {
    const unreachable = new SnapError('Account metadata bafy: down', {
      cause: new IpfsTransportError('cat', new Error('down')),
    });
    expect(seen(unreachable)).toStrictEqual({
      code: -32002,
      message: 'Account metadata bafy: down',
      data: undefined,
    });
    const schema = new SnapError('Account metadata bafy: bad', {
      cause: new AccountMetadataError('name', 'required'),
    });
    expect(seen(schema).code).toBe(-32602);
  });

  it('other errors: an integer code is kept, anything else is -32603', () => {
    expect(
      seen(Object.assign(new Error('declined'), { code: 4001, data: 'x' })),
    ).toStrictEqual({ code: 4001, message: 'declined', data: 'x' });
    expect(seen(new RemovedLogsError([1n], 'removed')).code).toBe(-32603);
    expect(seen(undefined)).toStrictEqual({
      code: -32603,
      message: 'Internal error',
      data: undefined,
    });
  });
});

describe('callerError: mapped, then scrubbed', () => {
  it('masks the given URL in a library error', () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0';
    const url = `https://mainnet.example.io/v3/${key}`;
    const error = callerError(
      new TransportError('http', `HTTP 401 from ${url}`, { url }),
      [url],
    );
    expect(error.code).toBe(-32002);
    expect(error.message).not.toContain(key);
  });
});
