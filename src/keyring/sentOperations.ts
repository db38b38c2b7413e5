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
 * @param chain - The account's chain side.
 * @param chain.sender - The account that sent it.
 * @param chain.entryPoint - The EntryPoint it was sent to.
 * @param chain.bundlerUrl - The bundler it was sent through (its receipt is asked there).
 * @param scope - The chain, CAIP-2.
 * @param userOpHash - The operation's hash (32-byte hex; kept lower case).
 * @param fromBlock - The block it was drafted at (hex quantity): where its receipt is searched from.
 * @param details - Its Activity entry: `kind` (`operation`, or `upgrade` when it carries an EIP-7702
 * authorization) and what it sends (opDetails.ts `sentDetails`: recipient, value in wei, calls).
 */
export async function rememberSentOperation(
  store: StateStore,
  chain: { sender: string; entryPoint: string; bundlerUrl?: string },
  scope: string,
  userOpHash: string,
  fromBlock: string,
  details: Omit<Parameters<typeof notePendingActivity>[3], 'hash'>,
): Promise<void> {
  const entry: SentUserOperation = {
    userOpHash: userOpHash.toLowerCase(),
    scope,
    entryPoint: chain.entryPoint,
    bundlerUrl: chain.bundlerUrl as string,
    fromBlock,
  };
  await store
    .run(async () => {
      const state = store.draft();
      state.sentUserOperations = rememberSent(
        state.sentUserOperations ?? [],
        entry,
      );
      notePendingActivity(state, chain.sender, scope, {
        ...details,
        hash: entry.userOpHash,
      });
      await store.commit(state);
    })
    .catch(() => undefined);
}
