import { notePendingActivity } from './accountActivity';
import { rememberSent } from '../accounts/erc4337';
import type { SentUserOperation } from '../state/schema';
import type { StateStore } from '../state/store';

/**
 * Remember a user operation the snap just sent, for its receipt (`sentUserOperations`), and put it
 * pending at the top of its account's Activity list. Best effort: the operation is sent either
 * way; without the entry its receipt is searched as a foreign one.
 *
 * @param store - The state store.
 * @param entry - The sent operation (userOpHash lower case).
 * @param sender - The account that sent it.
 * @param details - Its Activity entry: `kind` (`operation`, or `upgrade` when it carries an EIP-7702
 * authorization) and what it sends (opDetails.ts `sentDetails`: recipient, value in wei, calls).
 */
export async function rememberSentOperation(
  store: StateStore,
  entry: SentUserOperation,
  sender: string,
  details: Omit<Parameters<typeof notePendingActivity>[3], 'hash'>,
): Promise<void> {
  await store
    .run(async () => {
      const state = store.draft();
      state.sentUserOperations = rememberSent(
        state.sentUserOperations ?? [],
        entry,
      );
      notePendingActivity(state, sender, entry.scope, {
        ...details,
        hash: entry.userOpHash,
      });
      await store.commit(state);
    })
    .catch(() => undefined);
}
