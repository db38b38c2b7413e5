import { errorCodes, JsonRpcError } from '@metamask/rpc-errors';

import type { Domain } from '../../domain';
import { requestWords } from '../../keyring/requestWords';
import { accountLabel, siteLabel } from '../accountLabel';
import { UI } from '../homeModel';
import { attempt } from '../outcome';
import type { Outcome } from '../outcome';

/**
 * What the page says when Approve or Reject acts on a request that no longer waits: a page
 * rendered before the request was answered elsewhere (the companion dapp, another page) or
 * withdrawn (its account deleted).
 */
export const ANSWERED_TEXT = 'This request was already answered or withdrawn';

/**
 * Answer a pending request from the page, saying in page language when it no longer waits: the
 * keyring's JsonRpcError -32001 (resource not found, EIP-1474) for a request that is no longer
 * pending becomes {@link ANSWERED_TEXT}. Any other failure, or a -32001 while the request still
 * waits, goes through {@link attempt} with its own message. The RPC front doors are unaffected:
 * they call the keyring directly and keep its precise error.
 *
 * @param keyring - The keyring.
 * @param button - The button's name (`request-approve`, `request-reject`): the error is filed under it.
 * @param id - The request's id.
 * @param action - The keyring call that answers the request; resolves to the success notice's text.
 * @returns The outcome; never throws.
 */
async function answerRequest(
  keyring: Domain['keyring'],
  button: string,
  id: string,
  action: () => Promise<string>,
): Promise<Outcome> {
  let failure: unknown;
  const outcome = await attempt(button, async () =>
    action().catch((error: unknown) => {
      failure = error;
      throw error;
    }),
  );
  if (
    failure instanceof JsonRpcError &&
    failure.code === errorCodes.rpc.resourceNotFound &&
    !(await keyring.listRequests()).some((request) => request.id === id)
  ) {
    return {
      notice: { severity: 'danger', text: ANSWERED_TEXT },
      errors: { [button]: ANSWERED_TEXT },
    };
  }
  return outcome;
}

/**
 * What a notice says a request was: what it does, the site that sent it and the account that
 * signs (`signing a message from dapp.example for Savings`), read before it is answered.
 *
 * @param keyring - The keyring.
 * @param id - The request's id.
 * @returns The description, or `the request` when it no longer waits.
 */
async function describeRequest(
  keyring: Domain['keyring'],
  id: string,
): Promise<string> {
  const request = (await keyring.listRequests()).find(
    (entry) => entry.id === id,
  );
  if (!request) {
    return 'the request';
  }
  const account = keyring
    .describeAccounts()
    .find((entry) => entry.account.id === request.account);
  const who = account
    ? accountLabel(account.name, account.account.address)
    : 'an unknown account';
  return `${requestWords(request.request.method)} from ${siteLabel(request.origin)} for ${who}`;
}

/**
 * Approve a pending (async) signing request: the keyring signs it and answers MetaMask
 * (keyring-api `approveRequest`, `notify:requestApproved`).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The request's id.
 * @returns The outcome: `Approved signing a message from <site> for <account>`; {@link ANSWERED_TEXT} when it no longer waits; or the error.
 */
export async function approveParked(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  return answerRequest(keyring, UI.requestApprove, id, async () => {
    const what = await describeRequest(keyring, id);
    await keyring.approveRequest(id);
    return `Approved ${what}`;
  });
}

/**
 * Reject a pending (async) signing request: MetaMask is told the user rejected it (keyring-api
 * `rejectRequest`, `notify:requestRejected`).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param id - The request's id.
 * @returns The outcome: `Rejected signing a message from <site> for <account>`; {@link ANSWERED_TEXT} when it no longer waits; or the error.
 */
export async function rejectParked(
  { keyring }: Domain,
  id: string,
): Promise<Outcome> {
  return answerRequest(keyring, UI.requestReject, id, async () => {
    const what = await describeRequest(keyring, id);
    await keyring.rejectRequest(id);
    return `Rejected ${what}`;
  });
}

/**
 * Re-read the pending requests (the `requests-refresh` button): snaps cannot update an open home
 * page when a request arrives, so the page catches up when asked (or on its next action).
 *
 * @returns An outcome with no notice: the page re-renders from the keyring as it is now.
 */
export function refreshRequests(): Outcome {
  return { errors: {} };
}
