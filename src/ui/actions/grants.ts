import type { Domain } from '../../domain';
import { UI } from '../homeModel';
import { attempt } from '../outcome';
import type { Outcome } from '../outcome';

/**
 * The button *Revoke* of a spending permission (`grant-revoke:<hash>`): the granting account sends
 * `DelegationManager.disableDelegation` for it, after the send confirmation, and the page says so
 * once the revocation is on chain (ExecutionPermissions.revokeFromHome).
 *
 * @param domain - The domain.
 * @param hash - The delegation's hash.
 * @returns The outcome: revoked, cancelled, or the error next to the button.
 */
export async function revokeGrant(
  domain: Domain,
  hash: string,
): Promise<Outcome> {
  return attempt(`${UI.grantRevoke}:${hash}`, async () => {
    await domain.permissions.revokeFromHome(hash);
    return 'Permission revoked: the session account can no longer spend from this account with it';
  });
}
