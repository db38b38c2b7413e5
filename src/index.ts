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

import { loadDomain } from './domain';
import type { Domain } from './domain';
import { keyringRequestError } from './handlers/keyringRequest';
import {
  COMPANION_ORIGINS,
  isAllowed,
  KNOWN_METHODS,
} from './handlers/permissions';
import { handleSnapRpc } from './handlers/snapRpc';
import type { KeyringSnap } from './keyring/keyring';
import { homeInput, homePage } from './ui';
import { methodNotFound, toRpcError, unauthorized } from './utils/errors';
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
    'Open the Keyring Snap home page in MetaMask (or its companion site) to approve or reject this request.',
  url: `${COMPANION_ORIGINS[0]}/#/requests/${id}`,
});

/**
 * The one domain of this snap instance (keyring and settings), loaded from state on first use.
 *
 * @returns The domain; a failed load rejects and is retried on the next call.
 */
async function getDomain(): Promise<Domain> {
  domain ??= loadDomain(redirect).catch((error: unknown) => {
    domain = undefined; // a failed read is retried on the next request, not cached
    throw error;
  });
  return domain;
}

/**
 * An error with the snap's configured credentials masked (the domain knows them), once it is loaded.
 *
 * @param error - The error about to be thrown to the caller.
 * @param loaded - The domain if it has loaded, else `undefined` (nothing is known to mask yet).
 * @returns The same kind of error, its message masked.
 */
function scrub<ErrorType extends Error>(
  error: ErrorType,
  loaded: Domain | undefined,
): ErrorType {
  return loaded
    ? (loaded.scrub(error as never) as unknown as ErrorType)
    : error;
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
 * Keyring methods that take the caller after keyring-api's own argument (the creation options or
 * the account id), so a site's deletion or export, and a metadata confirmation during creation,
 * name it (see KeyringSnap.createAccount, deleteAccount, exportAccount).
 */
const TAKES_REQUESTER: ReadonlySet<PropertyKey> = new Set([
  'createAccount',
  'deleteAccount',
  'exportAccount',
]);

/**
 * keyring-snap-sdk's handleKeyringRequest rethrows every error as a plain Error,
 * losing its JSON-RPC code. Route the calls through a proxy that remembers the
 * typed error our Keyring threw, and rethrow that one (see toRpcError); errors raised by the SDK
 * itself are its request validation (-32602, see keyringRequestError) or an unknown method (-32601).
 * The proxy also hands the caller's origin to the methods of TAKES_REQUESTER.
 *
 * @param target - The snap's keyring (keyring-api `Keyring`).
 * @param request - The keyring-api JSON-RPC request from MetaMask or the companion dapp.
 * @param origin - The caller's origin, as MetaMask reports it.
 * @returns The method's JSON result (`null` for methods that return nothing).
 * @throws JsonRpcError with the keyring's own code, -32602 or -32601 as above.
 */
async function dispatchKeyring(
  target: KeyringSnap,
  request: Parameters<typeof handleKeyringRequest>[1],
  origin: string,
): Promise<Json> {
  let thrown: unknown;
  const proxy = new Proxy(target, {
    /**
     * Read a keyring member; methods come back wrapped so that what they throw is remembered.
     *
     * @param object - The keyring.
     * @param property - The member the SDK reads.
     * @returns The member, methods wrapped.
     */
    get(object, property): unknown {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') {
        return value;
      }
      return async (...args: unknown[]): Promise<unknown> => {
        try {
          return await value.apply(
            object,
            TAKES_REQUESTER.has(property) ? [args[0], { origin }] : args,
          );
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
  return dispatchKeyring((await getDomain()).keyring, request, origin);
};

/**
 * The snap's own methods (wallet_invokeSnap): configuration and user-operation receipts.
 *
 * @param args - The snaps-sdk RPC request handler's arguments.
 * @param args.origin - The caller's origin.
 * @param args.request - The JSON-RPC request.
 * @returns The method's JSON result.
 * @throws JsonRpcError 4100 for an origin that may not call the method; any other failure as a
 * JSON-RPC error (see toRpcError), credentials masked.
 */
export const onRpcRequest: OnRpcRequestHandler = async ({
  origin,
  request,
}) => {
  assertAllowed(origin, request.method);
  try {
    return await handleSnapRpc(await getDomain(), request, origin);
  } catch (error) {
    throw scrub(toRpcError(error), await domain?.catch(() => undefined));
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
