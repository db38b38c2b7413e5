import { JsonRpcError } from '@metamask/rpc-errors';

import { pageError } from './pageErrors';
import { invalidParams, notFound, userRejected } from '../utils/errors';

describe('pageError', () => {
  const fields = { privateKey: 'import-privateKey' };

  it('translates by code and data.reason, under the field the rule names, naming the account', () => {
    const address = '0x1111111111111111111111111111111111111111';
    expect(
      pageError(
        invalidParams(
          'Invalid createAccount options: this key already backs account …',
          {
            reason: 'keyInUse',
            address,
          },
        ),
        { form: 'import-key', fields, accountName: () => 'Sav\u202Eings' },
      ),
    ).toStrictEqual({
      text: `This key is already the account Sav\uFFFDings (${address})`,
      under: 'import-privateKey',
    });
  });

  it('an empty key says to enter one, a bad key what a key is, both under the key input', () => {
    const context = { form: 'import-key', fields };
    expect(
      pageError(
        invalidParams('Invalid createAccount options at privateKey: …', {
          reason: 'invalidPrivateKey',
          field: 'privateKey',
          problem: 'required',
        }),
        context,
      ),
    ).toStrictEqual({
      text: 'Enter a private key',
      under: 'import-privateKey',
    });
    expect(
      pageError(
        invalidParams('Invalid private key: …', {
          reason: 'invalidPrivateKey',
        }),
        context,
      ),
    ).toStrictEqual({
      text: 'Invalid private key: paste the key, 64 hex characters (0x optional)',
      under: 'import-privateKey',
    });
  });

  it('falls back to the form when the field has no input, and never reads inherited keys', () => {
    expect(
      pageError(
        invalidParams('x', { reason: 'invalidIntent', field: 'constructor' }),
        { form: 'send:1', fields: {} },
      ),
    ).toStrictEqual({ text: 'Check this field', under: 'send:1' });
  });

  it('a declined dialog is a cancellation; an unknown error or reason is left to attempt()', () => {
    expect(
      pageError(userRejected('declined'), { form: 'x', fields: {} }),
    ).toStrictEqual({ cancelled: true });
    expect(
      pageError(new JsonRpcError(-32603, 'boom'), { form: 'x', fields: {} }),
    ).toBeUndefined();
    expect(
      pageError(notFound('Account not found'), { form: 'x', fields: {} }),
    ).toBeUndefined();
    // -32002 means an unreachable RPC URL only on the chain form
    expect(
      pageError(new JsonRpcError(-32002, 'down'), {
        form: 'send:1',
        fields: {},
      }),
    ).toBeUndefined();
  });
});
