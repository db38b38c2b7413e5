import type { JsonRpcError } from '@metamask/rpc-errors';
import type {
  OnHomePageHandler,
  OnKeyringRequestHandler,
  OnRpcRequestHandler,
  OnUserInputHandler,
} from '@metamask/snaps-sdk';

import { loadDomain } from './domain';
import type { Domain } from './domain';
import { dispatchKeyring } from './handlers/keyringRequest';
import {
  COMPANION_ORIGINS,
  isAllowed,
  KNOWN_METHODS,
} from './handlers/permissions';
import { handleSnapRpc } from './handlers/snapRpc';
import { homeInput, homePage } from './ui';
import { snapPlatform } from './ui/snapPlatform';
import { callerError } from './utils/errorMap';
import { unauthorized } from './utils/errors';
import { knownName } from './utils/safeText';

let domain: Promise<Domain> | undefined;

/**
 * Where a parked request (async approval mode) is approved: the home page, or the companion dapp.
 *
 * @param id - The keyring request id (a UUID) the dapp's request page opens.
 * @returns keyring-api's redirect: a message for the user and the companion dapp's URL.
 */
const redirect = (id: string): { message: string; url: string } => ({
  message:
    'Open the Tandem Keyring home page in MetaMask (Menu > Snaps) or its companion site to approve or reject this request.',
  url: `${COMPANION_ORIGINS[0]}/#/requests/${id}`,
});

/**
 * The one domain of this snap instance (keyring and settings), loaded from state on first use.
 *
 * @returns The domain; a failed load rejects and is retried on the next call.
 */
async function getDomain(): Promise<Domain> {
  domain ??= loadDomain(redirect, snapPlatform).catch((error: unknown) => {
    domain = undefined; // a failed read is retried on the next request, not cached
    throw error;
  });
  return domain;
}

/**
 * What the RPC front doors throw: any error through `callerError` (src/utils/errorMap.ts, the one map:
 * library errors by class to their JSON-RPC codes, anything unknown -32603), with the snap's
 * configured credentials masked (the domain knows them, once it is loaded).
 *
 * @param caught - What a front door caught.
 * @returns The JSON-RPC error to throw to the caller.
 */
async function frontDoorError(caught: unknown): Promise<JsonRpcError<never>> {
  const loaded = await domain?.catch(() => undefined);
  return loaded ? loaded.scrub(caught) : callerError(caught);
}

/**
 * Refuse callers the allow-list does not grant; nothing else runs.
 *
 * @param origin - The caller's origin, as MetaMask reports it.
 * @param method - The JSON-RPC method asked for.
 * @throws JsonRpcError 4100 (unauthorized) if the origin may not call the method.
 */
function assertAllowed(origin: string, method: string): void {
  if (!isAllowed(origin, method)) {
    throw unauthorized(
      `Origin '${origin}' is not allowed to call ${knownName(method, KNOWN_METHODS)}`,
    );
  }
}

/**
 * keyring-api requests from MetaMask and the companion dapp (wallet_invokeKeyring).
 *
 * @param args - The snaps-sdk keyring request handler's arguments.
 * @param args.origin - The caller's origin.
 * @param args.request - The keyring-api JSON-RPC request.
 * @returns The keyring method's JSON result.
 * @throws JsonRpcError 4100 for an origin that may not call the method; otherwise as the keyring
 * method throws (see dispatchKeyring).
 */
export const onKeyringRequest: OnKeyringRequestHandler = async ({
  origin,
  request,
}) => {
  assertAllowed(origin, request.method);
  const { keyring } = await getDomain();
  try {
    return await dispatchKeyring(keyring, request, origin);
  } catch (error) {
    throw await frontDoorError(error);
  }
};

/**
 * The snap's own methods (wallet_invokeSnap): configuration and user-operation receipts.
 *
 * @param args - The snaps-sdk RPC request handler's arguments.
 * @param args.origin - The caller's origin.
 * @param args.request - The JSON-RPC request.
 * @returns The method's JSON result.
 * @throws JsonRpcError 4100 for an origin that may not call the method; any other failure as a
 * JSON-RPC error (see callerError in src/utils/errorMap.ts), credentials masked.
 */
export const onRpcRequest: OnRpcRequestHandler = async ({
  origin,
  request,
}) => {
  assertAllowed(origin, request.method);
  try {
    return await handleSnapRpc(await getDomain(), request, origin);
  } catch (error) {
    throw await frontDoorError(error);
  }
};

/**
 * The home page in MetaMask (endowment:page-home): manage accounts, chains, IPFS and requests.
 *
 * @returns The home page's interface (snaps-sdk `OnHomePageResponse`).
 */
export const onHomePage: OnHomePageHandler = async () =>
  homePage(await getDomain());

/**
 * Events of the home page: each one calls the same domain as the RPC front doors.
 *
 * @param args - The snaps-sdk user input handler's arguments.
 * @param args.id - The id of the interface the event came from.
 * @param args.event - The user input event (button click, form submission, input change).
 * @returns Nothing; the handler updates the interface.
 */
export const onUserInput: OnUserInputHandler = async ({ id, event }) =>
  homeInput(await getDomain(), id, event);
