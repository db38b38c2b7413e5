import { attempt } from './outcome';
import { invalidParams } from '../utils/errors';

describe('attempt', () => {
  it('shows an error the page table does not know without the method and field it names, under that field', async () => {
    const outcome = await attempt(
      'ipfs-form',
      async () => {
        throw invalidParams(
          'Invalid setIpfsConfig params at apiUrl: apiUrl: must not have a query string',
        );
      },
      { apiUrl: 'ipfs-apiUrl' },
    );
    expect(outcome).toStrictEqual({
      notice: { severity: 'danger', text: 'Must not have a query string' },
      errors: { 'ipfs-apiUrl': 'Must not have a query string' },
    });
  });

  it('keeps a message without such a prefix as it is', async () => {
    const outcome = await attempt('form', async () => {
      throw new Error('boom: the node went away');
    });
    expect(outcome.notice?.text).toBe('boom: the node went away');
  });
});
