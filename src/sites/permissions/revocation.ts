import type { Json } from '@metamask/utils';

import { disableDelegationCall } from './delegation';
import { storedDelegation } from './grantRecords';
import type { KeyringSnap } from '../../keyring/keyring';
import type { PermissionGrant } from '../../state/grants';
import type { StateStore } from '../../state/store';
import { internalError } from '../../utils/errors';

/** How often a revocation's receipt is asked for while it waits (milliseconds). */
const RECEIPT_POLL_MS = 1_000;

/** How many times it is asked before giving up (the revocation may still land). */
const RECEIPT_POLLS = 180;

/**
 * Revoke a grant: the granting account sends `DelegationManager.disableDelegation(delegation)`
 * through its send path (a user operation, behind the send confirmation naming who asked), the
 * grant remembers the operation, and this resolves once the operation succeeded on chain; from
 * then every redemption reverts with `CannotUseADisabledDelegation`.
 *
 * @param parts - What it works with.
 * @param parts.keyring - The send path and receipts.
 * @param parts.store - The state (the grant is marked revoked).
 * @param grant - The grant.
 * @param origin - Who asked, named in the send dialog.
 * @param pollMs - How long to wait between two receipt reads (milliseconds).
 * @returns `{}` (at once for a grant already revoked).
 * @throws JsonRpcError 4001 when the person declines the send; -32603 when the operation reverted,
 * or was not seen on chain after 180 reads; the send path's errors.
 */
export async function disableGrant(
  parts: { keyring: KeyringSnap; store: StateStore },
  grant: PermissionGrant,
  origin: string,
  pollMs = RECEIPT_POLL_MS,
): Promise<Json> {
  if (grant.revoked) {
    return {};
  }
  const { keyring, store } = parts;
  const { userOpHash } = await keyring.sendUserOperation(
    {
      account: grant.accountId,
      scope: grant.scope,
      intents: [
        {
          to: grant.delegationManager,
          value: '0x0',
          data: disableDelegationCall(storedDelegation(grant)),
        },
      ],
    },
    origin,
  );
  await markGrant(store, grant.hash, { revokedBy: userOpHash.toLowerCase() });
  for (let poll = 0; poll < RECEIPT_POLLS; poll += 1) {
    const receipt = (await keyring.userOperationReceipt({
      scope: grant.scope,
      userOpHash,
    })) as { success?: boolean } | null;
    if (receipt) {
      if (receipt.success !== true) {
        throw internalError(
          'The revocation reverted on chain: the permission is still active',
        );
      }
      await markGrant(store, grant.hash, { revoked: true });
      return {};
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw internalError(
    'The revocation was sent but is not on chain yet: check the home page later',
  );
}

/**
 * Update a stored grant.
 *
 * @param store - The state store.
 * @param hash - The grant's hash.
 * @param change - The fields to set.
 */
async function markGrant(
  store: StateStore,
  hash: string,
  change: Pick<PermissionGrant, 'revokedBy' | 'revoked'>,
): Promise<void> {
  await store.run(async () => {
    const state = store.draft();
    state.grants = (state.grants ?? []).map((item) =>
      item.hash === hash ? { ...item, ...change } : item,
    );
    await store.commit(state);
  });
}
