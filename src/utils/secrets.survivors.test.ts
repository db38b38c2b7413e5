import { JsonRpcError } from '@metamask/rpc-errors';

import type * as Secrets from './secrets';

/**
 * What a caller gets back from `redactError` in the cases the other suites do not try (each found
 * by mutation testing, docs/testing.md "Mutation testing"): a secret only in `data`, `null`s in
 * `data`, data nested past the depth limit, credentials too short to scrub, an empty URL, and the
 * bound on what is remembered. Each test loads the module afresh: what it remembers lasts the
 * module's life.
 */

const KEY = 'Hq83Lm29Xc71Vb40';
const URL_WITH_KEY = `https://rpc.example.io/v3/${KEY}`;

/**
 * A fresh copy of the module, with nothing remembered.
 *
 * @returns The module's exports.
 */
function fresh(): typeof Secrets {
  let loaded: typeof Secrets | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports, n/global-require
    loaded = require('./secrets') as typeof Secrets;
  });
  return loaded as typeof Secrets;
}

/**
 * An error with the given message and data.
 *
 * @param message - The message.
 * @param data - The data.
 * @returns The error.
 */
function rpcError(message: string, data?: unknown): JsonRpcError<never> {
  return new JsonRpcError(-32000, message, data as never);
}

describe('redactError: the data is scrubbed even when the message is clean', () => {
  it('masks a key found only in data, keeping the message and code', () => {
    const { redactError } = fresh();
    const error = rpcError('upstream failed', {
      url: URL_WITH_KEY,
      nested: [{ note: `key ${KEY}` }],
    });
    const out = redactError(error, [URL_WITH_KEY]);
    expect(out).not.toBe(error);
    expect(out.code).toBe(-32000);
    expect(out.message).toBe('upstream failed');
    expect(out.data).toStrictEqual({
      url: 'https://rpc.example.io',
      nested: [{ note: 'key ***' }],
    });
    expect(JSON.stringify(out.serialize())).not.toContain(KEY);
  });

  it('masks a key used as a property name of data', () => {
    const { redactError } = fresh();
    const out = redactError(rpcError('failed', { [KEY]: 1 }), [URL_WITH_KEY]);
    expect(out.data).toStrictEqual({ '***': 1 });
  });

  it('keeps null, numbers and booleans in data, and returns the same error when nothing is secret', () => {
    const { redactError } = fresh();
    const data = { a: null, b: [null, 1, true], c: { d: null } };
    const error = rpcError('nothing secret here', data);
    const out = redactError(error, [URL_WITH_KEY]);
    expect(out).toBe(error);
    expect(out.data).toStrictEqual({
      a: null,
      b: [null, 1, true],
      c: { d: null },
    });
  });

  it('keeps null beside a masked value', () => {
    const { redactError } = fresh();
    const out = redactError(rpcError('failed', { a: null, b: KEY }), [
      URL_WITH_KEY,
    ]);
    expect(out.data).toStrictEqual({ a: null, b: '***' });
  });
});

describe('redactError: data deeper than 16 levels is cut', () => {
  /**
   * `levels` objects `{ a: ... }` around `inner`.
   *
   * @param levels - How many wrappers.
   * @param inner - The innermost value.
   * @returns The nested value.
   */
  function nest(levels: number, inner: unknown): unknown {
    let value = inner;
    for (let index = 0; index < levels; index++) {
      value = { a: value };
    }
    return value;
  }

  it('keeps an object 15 levels down, scrubbed', () => {
    const { redactError } = fresh();
    const out = redactError(rpcError('failed', nest(15, { key: KEY })), [
      URL_WITH_KEY,
    ]);
    expect(out.data).toStrictEqual(nest(15, { key: '***' }));
  });

  it('replaces an object 16 levels down by [truncated], so nothing below it leaves', () => {
    const { redactError } = fresh();
    const error = rpcError('failed', nest(16, { key: 'not secret at all' }));
    const out = redactError(error, [URL_WITH_KEY]);
    expect(out.data).toStrictEqual(nest(16, '[truncated]'));
    const deep = redactError(rpcError('failed', nest(40, { key: KEY })), []);
    expect(deep.data).toStrictEqual(nest(16, '[truncated]'));
  });
});

describe('redactError: what is remembered as a credential', () => {
  it('scrubs a plain credential of 8 characters or more, then and later', () => {
    const { redactError } = fresh();
    const first = redactError(
      rpcError('bad key abcd1234 given'),
      [],
      ['abcd1234'],
    );
    expect(first.message).toBe('bad key *** given');
    const later = redactError(rpcError('still abcd1234'), []);
    expect(later.message).toBe('still ***');
  });

  it('masks a credential that holds another whole, whatever order they were given in', () => {
    const short = 'abcd1234';
    const middle = `${short}efgh`;
    const long = `${middle}5678`;
    const { redactError } = fresh();
    // shortest first: replacing it first would leave `***efgh5678` behind
    const out = redactError(
      rpcError(`keys ${long}, ${middle} and ${short}`),
      [],
      [short, middle, long],
    );
    expect(out.message).toBe('keys ***, *** and ***');
    const again = fresh().redactError(
      rpcError(`keys ${long}, ${middle} and ${short}`),
      [],
      [middle, short, long],
    );
    expect(again.message).toBe('keys ***, *** and ***');
  });

  it('leaves credentials under 8 characters alone (they would mangle words), then and later', () => {
    const { redactError } = fresh();
    const error = rpcError('the server said: abc1234 is wrong');
    expect(redactError(error, [], ['abc1234'])).toBe(error);
    expect(redactError(rpcError('abc1234'), []).message).toBe('abc1234');
  });

  it('ignores an empty URL (it would put text between every character)', () => {
    const { rememberCredentials, redactError } = fresh();
    rememberCredentials(['', undefined], [undefined, '']);
    const error = rpcError('plain words');
    expect(redactError(error, [])).toBe(error);
    expect(redactError(rpcError('plain words'), ['']).message).toBe(
      'plain words',
    );
  });

  it('remembers a replaced URL and scrubs its key from later errors', () => {
    const { rememberCredentials, redactError } = fresh();
    rememberCredentials([URL_WITH_KEY]);
    expect(redactError(rpcError(`old key ${KEY}`), []).message).toBe(
      'old key ***',
    );
  });

  it('keeps the 256 newest of each kind: the oldest is dropped first, one given again is newest', () => {
    const { rememberCredentials, redactError, MAX_REMEMBERED_CREDENTIALS } =
      fresh();
    expect(MAX_REMEMBERED_CREDENTIALS).toBe(256);
    const oldest = 'oldest-credential-0001';
    const renewed = 'renewed-credential-0002';
    rememberCredentials([], [oldest, renewed]);
    for (let index = 0; index < MAX_REMEMBERED_CREDENTIALS - 2; index++) {
      rememberCredentials([], [`filler-credential-${index}`]);
    }
    // full: all 256 still scrubbed
    expect(redactError(rpcError(`${oldest} ${renewed}`), []).message).toBe(
      '*** ***',
    );
    rememberCredentials([], [renewed]); // moved to the newest place
    // two more: the oldest goes, then the first filler (not the renewed one)
    rememberCredentials([], ['one-more-credential', 'two-more-credential']);
    expect(redactError(rpcError(`${oldest} ${renewed}`), []).message).toBe(
      `${oldest} ***`,
    );
  });

  it('keeps the 256 newest URLs too', () => {
    const { rememberCredentials, redactError, MAX_REMEMBERED_CREDENTIALS } =
      fresh();
    rememberCredentials([URL_WITH_KEY]);
    for (let index = 0; index <= MAX_REMEMBERED_CREDENTIALS - 1; index++) {
      rememberCredentials([
        `https://rpc${index}.example.io/v3/filler${index}x`,
      ]);
    }
    expect(redactError(rpcError(`key ${KEY}`), []).message).toBe(`key ${KEY}`);
  });
});
