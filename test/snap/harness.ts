import { providerErrors } from '@metamask/rpc-errors';
import { installSnap } from '@metamask/snaps-jest';
import type { Json } from '@metamask/utils';

import manifest from '../../snap.manifest.json';

/** The companion dapp origin, read from the shipped manifest (not repeated here). */
export const COMPANION =
  manifest.initialPermissions['endowment:keyring'].allowedOrigins[0];
export const METAMASK = 'metamask';

/** A keyring event the snap emitted through snap_manageAccounts. */
export type RecordedEvent = {
  /** The keyring event name, e.g. `notify:accountCreated`. */
  method: string;
  /** Its payload. */
  params: Record<string, any>;
};

/** The code and message of a JSON-RPC error reply. */
type ErrorReply = {
  /** The JSON-RPC error code. */
  code: number;
  /** The error message. */
  message: string;
};

/** The snap as snaps-jest installs it. */
type Snap = Awaited<ReturnType<typeof installSnap>>;

/** The snap under test, with its keyring events recorded and typed helpers. */
export type KeyringHarness = {
  /** The installed snap. */
  snap: Snap;
  /** Every keyring event the snap emitted, in order (refused ones excluded). */
  events: RecordedEvent[];
  /** Call a keyring method; resolve its result or reject with its `{ code, message }` error. */
  keyring: (
    method: string,
    params?: Record<string, Json> | Json[],
    origin?: string,
  ) => Promise<any>;
  /** Call a snap RPC method (wallet_invokeSnap). */
  rpc: (
    method: string,
    params?: Record<string, Json> | Json[],
    origin?: string,
  ) => Promise<any>;
  /**
   * Call a keyring method from the companion dapp (or `origin`) and approve the consent dialog it
   * opens, if any (a site's deletion asks the user first).
   */
  keyringApproved: KeyringHarness['keyring'];
  /**
   * Call a snap RPC method from the companion dapp (or `origin`) and approve the consent dialog it
   * opens, if any (a site's settings change asks the user first).
   */
  rpcApproved: KeyringHarness['rpc'];
  /** Create an account from the companion dapp. */
  createAccount: (options?: Record<string, Json>) => Promise<any>;
  /**
   * Answer the next snap_dialog calls with these values instead of the simulation's own dialog,
   * recording each dialog's params in `dialogs` (for a dialog opened inside onUserInput, which
   * snaps-jest cannot hand to the test while the click is awaited); with no values, drop the
   * answers still queued (after a step that must open no dialog).
   */
  answerDialogs: (...answers: Json[]) => void;
  /** The params of each dialog answered through {@link KeyringHarness.answerDialogs}, in order. */
  dialogs: Record<string, any>[];
  /** `keyring_submitRequest` from MetaMask for `account`. */
  submit: (
    account: {
      /** The account id. */
      id: string;
    },
    method: string,
    params: Json,
    scope?: string,
  ) => Promise<any>;
};

/** Error thrown by the harness for an error reply, keeping code and message. */
export class SnapRpcError extends Error {
  code: number;

  /**
   * @param error - The error of the reply.
   */
  constructor(error: ErrorReply) {
    super(error.message);
    this.code = error.code;
  }
}

/**
 * The result of a snaps-jest reply.
 *
 * @param response - The reply of the simulation.
 * @param response.response - Its JSON-RPC result or error.
 * @returns The result.
 * @throws SnapRpcError for an error reply.
 */
function unwrap(response: {
  /** The JSON-RPC result or error. */
  response: Record<'result', Json> | Record<'error', Json>;
}): any {
  if ('error' in response.response) {
    throw new SnapRpcError(response.response.error as ErrorReply);
  }
  return response.response.result;
}

/** Options of {@link installKeyringSnap}, for fault injection and state observation. */
export type HarnessOptions = {
  /** Return true to refuse a keyring event with 4001 (as MetaMask does when the user cancels); it is not recorded. */
  refuseEvent?: (event: RecordedEvent) => boolean;
  /** Called with every state the snap writes (snap_manageState `update`), which still goes through. */
  onStateWrite?: (state: Json) => void;
};

/** A request in flight in the simulation (snap.request / snap.onKeyringRequest). */
export type PendingRequest = ReturnType<Snap['request']>;

/** A dialog the simulation opened, as `getInterface` hands it to the test. */
export type OpenDialog = {
  /** `confirmation`, `alert`... */
  type: string;
  /** The dialog's JSX content. */
  content: Json;
  /** Approve a confirmation. */
  ok: () => Promise<void>;
  /** Cancel it. */
  cancel: () => Promise<void>;
};

/**
 * The dialog a request opens, or undefined when the request ends without one (getInterface alone
 * would wait for ever).
 *
 * @param pending - The request in flight.
 * @returns The open dialog, or undefined.
 */
export async function dialogOf(
  pending: PendingRequest,
): Promise<OpenDialog | undefined> {
  return Promise.race([
    pending.getInterface().then(
      (ui) => ui as unknown as OpenDialog,
      () => undefined,
    ),
    pending.then(() => undefined),
  ]);
}

/**
 * Every text of a dialog's content, joined (for `toContain` checks).
 *
 * @param dialog - The open dialog.
 * @returns Its content as JSON text.
 */
export function dialogText(dialog: OpenDialog): string {
  return JSON.stringify(dialog.content);
}

/**
 * Approve the dialog a request opens, if any, and return its result.
 *
 * @param pending - The request in flight.
 * @returns The result.
 * @throws SnapRpcError for an error reply.
 */
async function approving(pending: PendingRequest): Promise<any> {
  await (await dialogOf(pending))?.ok();
  return unwrap(await pending);
}

/**
 * Install the built snap (dist/bundle.js) in the snaps-jest simulation.
 * snap_manageAccounts does not work there (docs/decisions.md), so it is mocked and
 * every keyring event is recorded in `events`.
 *
 * @param options - Fault injection and state observation (default: none).
 * @returns The harness.
 */
export async function installKeyringSnap(
  options: HarnessOptions = {},
): Promise<KeyringHarness> {
  const snap = await installSnap();
  const events: RecordedEvent[] = [];
  const dialogs: Record<string, any>[] = [];
  const answers: Json[] = [];
  snap.mockJsonRpc((request) => {
    if (request.method === 'snap_manageAccounts') {
      if (options.refuseEvent?.(request.params as RecordedEvent)) {
        throw providerErrors.userRejectedRequest({
          message: 'The user refused the keyring event',
        });
      }
      events.push(request.params as RecordedEvent);
      return null;
    }
    if (request.method === 'snap_dialog' && answers.length > 0) {
      dialogs.push(request.params as Record<string, any>);
      return answers.shift();
    }
    if (
      request.method === 'snap_manageState' &&
      (request.params as Record<string, Json>).operation === 'update'
    ) {
      options.onStateWrite?.((request.params as Record<string, Json>).newState);
    }
    return undefined;
  });
  /**
   * Call a keyring method.
   *
   * @param method - The method.
   * @param params - Its params, if any.
   * @param origin - The caller (the companion dapp by default).
   * @returns The result.
   */
  const keyring = async (
    method: string,
    params?: Record<string, Json> | Json[],
    origin = COMPANION,
  ): Promise<any> =>
    unwrap(
      await snap.onKeyringRequest({
        origin,
        method,
        ...(params === undefined ? {} : { params }),
      }),
    );
  /**
   * Call a snap RPC method.
   *
   * @param method - The method.
   * @param params - Its params, if any.
   * @param origin - The caller (the companion dapp by default).
   * @returns The result.
   */
  const rpc = async (
    method: string,
    params?: Record<string, Json> | Json[],
    origin = COMPANION,
  ): Promise<any> =>
    unwrap(
      await snap.request({
        origin,
        method,
        ...(params === undefined ? {} : { params }),
      }),
    );
  let requestCount = 0;
  return {
    keyringApproved: async (method, params, origin = COMPANION) =>
      approving(
        snap.onKeyringRequest({
          origin,
          method,
          ...(params === undefined ? {} : { params }),
        }),
      ),
    rpcApproved: async (method, params, origin = COMPANION) =>
      approving(
        snap.request({
          origin,
          method,
          ...(params === undefined ? {} : { params }),
        }),
      ),
    snap,
    events,
    dialogs,
    /**
     * Queue answers for the next dialogs; called with none, drop the answers still queued.
     *
     * @param values - The answers, in order.
     */
    answerDialogs: (...values): void => {
      if (values.length === 0) {
        answers.length = 0;
      }
      answers.push(...values);
    },
    keyring,
    rpc,
    /**
     * Create an account from the companion dapp.
     *
     * @param accountOptions - The account options.
     * @returns The account.
     */
    createAccount: async (accountOptions = {}) =>
      keyring('keyring_createAccount', { options: accountOptions }),
    /**
     * Submit a request from MetaMask, with a fresh request id.
     *
     * @param account - The account.
     * @param account.id - Its id.
     * @param method - The request method.
     * @param params - Its params.
     * @param scope - The CAIP-2 chain (mainnet by default).
     * @returns The keyring's response.
     */
    submit: async (
      account,
      method,
      params,
      scope = 'eip155:1',
    ): Promise<any> => {
      requestCount += 1;
      return keyring(
        'keyring_submitRequest',
        {
          id: `00000000-0000-4000-8000-${String(requestCount).padStart(12, '0')}`,
          scope,
          account: account.id,
          origin: 'https://dapp.example',
          request: { method, params },
        },
        METAMASK,
      );
    },
  };
}

/**
 * Await a call that must fail and return its JSON-RPC error.
 *
 * @param promise - The call.
 * @returns The SnapRpcError it rejected with (the test fails if it resolved).
 */
export async function rejection(
  promise: Promise<unknown>,
): Promise<SnapRpcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SnapRpcError);
  return error as SnapRpcError;
}

/**
 * Expect a call to fail with `code` and a message matching `message`.
 *
 * @param promise - The call.
 * @param code - JSON-RPC error code.
 * @param message - Pattern the message must match.
 */
export async function expectError(
  promise: Promise<unknown>,
  code: number,
  message: RegExp,
): Promise<void> {
  const error = await rejection(promise);
  expect({ code: error.code, message: error.message }).toEqual({
    code,
    message: expect.stringMatching(message),
  });
}
