import type { KeyringRequest } from '@metamask/keyring-api';

import { confirmDeleteAccount } from './accounts';
import type { Domain } from '../../domain';
import { showConfirmation } from '../../platform';
import { CANCELLED_TEXT } from '../outcome';

jest.mock('../../platform', () => ({
  showConfirmation: jest.fn(),
  showAlert: jest.fn(),
}));

const ID = '0b3a7bd4-3e8d-4b7a-9c55-7f3a2b9d4c11';
const ADDRESS = '0x1111111111111111111111111111111111111111';

/**
 * A pending request of the account.
 *
 * @param id - The request id.
 * @returns A keyring-api request for account {@link ID}.
 */
function request(id: string): KeyringRequest {
  return {
    id,
    scope: '',
    account: ID,
    origin: 'https://dapp.example',
    request: { method: 'personal_sign', params: ['0x00', ADDRESS] },
  };
}

/**
 * A domain whose keyring has one account, with `pending` as its waiting requests.
 *
 * @param pending - The waiting requests (the test may add to it).
 * @returns The domain and the keyring's deleteAccount mock.
 */
function domainWith(pending: KeyringRequest[]): {
  domain: Domain;
  deleteAccount: jest.Mock;
} {
  const deleteAccount = jest.fn(async () => undefined);
  const keyring = {
    getAccount: async (): Promise<{ id: string; address: string }> => ({
      id: ID,
      address: ADDRESS,
    }),
    describeAccounts: (): {
      account: { id: string };
      name: string;
      keySource: { derivationIndex: number; derivationScheme: 'eoa' };
    }[] => [
      {
        account: { id: ID },
        name: 'Bob',
        keySource: { derivationIndex: 0, derivationScheme: 'eoa' },
      },
    ],
    listRequests: async (): Promise<KeyringRequest[]> => [...pending],
    deleteAccount,
  };
  return { domain: { keyring } as unknown as Domain, deleteAccount };
}

describe('confirmDeleteAccount', () => {
  afterEach(() => jest.mocked(showConfirmation).mockReset());

  it('declined: says CANCELLED_TEXT and deletes nothing', async () => {
    const { domain, deleteAccount } = domainWith([request('r1')]);
    jest.mocked(showConfirmation).mockResolvedValue(false);
    expect(await confirmDeleteAccount(domain, ID)).toStrictEqual({
      notice: { severity: 'info', text: CANCELLED_TEXT },
      errors: {},
    });
    expect(deleteAccount).not.toHaveBeenCalled();
  });

  it('asks the keyring to delete only if exactly the requests the dialog counted still wait', async () => {
    const pending = [request('r1')];
    const { domain, deleteAccount } = domainWith(pending);
    jest.mocked(showConfirmation).mockImplementation(async () => {
      pending.push(request('r2'));
      return true;
    });
    await confirmDeleteAccount(domain, ID);
    expect(deleteAccount).toHaveBeenCalledWith(ID, undefined, {
      waiting: ['r1'],
    });
  });

  it('confirmed with the count unchanged: deletes and says how many requests were rejected', async () => {
    const { domain, deleteAccount } = domainWith([
      request('r1'),
      request('r2'),
    ]);
    jest.mocked(showConfirmation).mockResolvedValue(true);
    expect((await confirmDeleteAccount(domain, ID)).notice).toStrictEqual({
      severity: 'success',
      text: `Deleted Bob (${ADDRESS}); 2 waiting requests rejected`,
    });
    expect(deleteAccount).toHaveBeenCalledWith(ID, undefined, {
      waiting: ['r1', 'r2'],
    });
  });
});
