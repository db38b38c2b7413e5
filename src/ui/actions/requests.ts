import type { Domain } from '../../domain';
import { UI } from '../homeModel';
import { attempt } from '../outcome';
import type { Outcome } from '../outcome';

/**
 * Approve a pending (async) signing request: the keyring signs it and answers MetaMask.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The request's id.
 * @returns The outcome: signed, or the error next to the button.
 */
export async function approveParked(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  return attempt(UI.requestApprove, async () => {
    await keyring.approveRequest(id);
    return 'Request approved and signed';
  });
}

/**
 * Reject a pending (async) signing request: MetaMask is told the user rejected it.
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The request's id.
 * @returns The outcome: rejected, or the error next to the button.
 */
export async function rejectParked(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  return attempt(UI.requestReject, async () => {
    await keyring.rejectRequest(id);
    return 'Request rejected';
  });
}
