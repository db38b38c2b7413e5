import {
  MethodNotSupportedError,
  handleKeyringRequest,
} from '@metamask/keyring-snap-sdk';
import type {
  OnHomePageHandler,
  OnKeyringRequestHandler,
  OnRpcRequestHandler,
  OnUserInputHandler,
} from '@metamask/snaps-sdk';
import type { Json } from '@metamask/utils';

import { methodNotFound, toRpcError, unauthorized } from './errors';
import { loadDomain } from './keyring';
import type { Domain, KeyringSnap } from './keyring';
import { keyringRequestError } from './keyringRequests';
import { COMPANION_ORIGINS, isAllowed, KNOWN_METHODS } from './permissions';
import { handleSnapRpc } from './rpc';
import { knownName } from './safeText';
import { homeInput, homePage } from './ui';

let domain: Promise<Domain> | undefined;

/** Where a parked request (async approval mode) is approved: the home page, or the companion dapp. */
const redirect = (id: string): { message: string; url: string } => ({
  message:
    'Open the Keyring Snap home page in MetaMask (or its companion site) to approve or reject this request.',
  url: `${COMPANION_ORIGINS[0]}/#/requests/${id}`,
});

/** The one domain of this snap instance (keyring and settings), loaded from state on first use. */
async function getDomain(): Promise<Domain> {
  domain ??= loadDomain(redirect).catch((error: unknown) => {
    domain = undefined; // a failed read is retried on the next request, not cached
    throw error;
  });
  return domain;
}

/** An error with the snap's configured credentials masked (the domain knows them), once it is loaded. */
function scrub<E extends Error>(error: E, loaded: Domain | undefined): E {
  return loaded ? (loaded.scrub(error as never) as unknown as E) : error;
}

/** Refuse callers the allow-list does not grant (4100); nothing else runs. */
function assertAllowed(origin: string, method: string): void {
  if (!isAllowed(origin, method)) {
    throw unauthorized(
      `Origin '${origin}' is not allowed to call ${knownName(method, KNOWN_METHODS)}`,
    );
  }
}

/**
 * keyring-snap-sdk's handleKeyringRequest rethrows every error as a plain Error,
 * losing its JSON-RPC code. Route the calls through a proxy that remembers the
 * typed error our Keyring threw, and rethrow that one (see toRpcError); errors raised by the SDK
 * itself are its request validation (-32602, see keyringRequestError) or an unknown method (-32601).
 */
async function dispatchKeyring(
  target: KeyringSnap,
  request: Parameters<typeof handleKeyringRequest>[1],
): Promise<Json> {
  let thrown: unknown;
  const proxy = new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') {
        return value;
      }
      return async (...args: unknown[]) => {
        try {
          return await value.apply(object, args);
        } catch (error) {
          thrown = error;
          throw error;
        }
      };
    },
  });
  try {
    return (await handleKeyringRequest(proxy, request)) ?? null;
  } catch (error) {
    if (thrown !== undefined) {
      throw scrub(toRpcError(thrown), await domain?.catch(() => undefined));
    }
    const { message } = error as Error;
    if (
      error instanceof MethodNotSupportedError ||
      message.startsWith('Method not supported')
    ) {
      throw methodNotFound('Method not supported');
    }
    throw keyringRequestError(request, message);
  }
}

/** keyring-api requests from MetaMask and the companion dapp (wallet_invokeKeyring). */
export const onKeyringRequest: OnKeyringRequestHandler = async ({
  origin,
  request,
}) => {
  assertAllowed(origin, request.method);
  return dispatchKeyring((await getDomain()).keyring, request);
};

/** The snap's own methods (wallet_invokeSnap): configuration and user-operation receipts. */
export const onRpcRequest: OnRpcRequestHandler = async ({
  origin,
  request,
}) => {
  assertAllowed(origin, request.method);
  try {
    return await handleSnapRpc(await getDomain(), request);
  } catch (error) {
    throw scrub(toRpcError(error), await domain?.catch(() => undefined));
  }
};

/** The home page in MetaMask (endowment:page-home): manage accounts, chains, IPFS and requests. */
export const onHomePage: OnHomePageHandler = async () =>
  homePage(await getDomain());

/** Events of the home page: each one calls the same domain as the RPC front doors. */
export const onUserInput: OnUserInputHandler = async ({ id, event }) =>
  homeInput(await getDomain(), id, event);
