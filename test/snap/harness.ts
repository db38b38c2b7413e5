import { providerErrors } from '@metamask/rpc-errors';
import { installSnap } from '@metamask/snaps-jest';
import type { Json } from '@metamask/utils';

import manifest from '../../snap.manifest.json';

/** The companion dapp origin, read from the shipped manifest (not repeated here). */
export const COMPANION = manifest.initialPermissions['endowment:keyring']
  .allowedOrigins[0] as string;
export const METAMASK = 'metamask';

/** A keyring event the snap emitted through snap_manageAccounts. */
export type RecordedEvent = { method: string; params: Record<string, any> };

type Snap = Awaited<ReturnType<typeof installSnap>>;

/** The snap under test, with its keyring events recorded and typed helpers. */
export type KeyringHarness = {
  snap: Snap;
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
  /** Create an account from the companion dapp. */
  createAccount: (options?: Record<string, Json>) => Promise<any>;
  /**
   * Answer the next snap_dialog calls with these values instead of the simulation's own dialog,
   * recording each dialog's params in `dialogs` (for a dialog opened inside onUserInput, which
   * snaps-jest cannot hand to the test while the click is awaited).
   */
  answerDialogs: (...answers: Json[]) => void;
  dialogs: Record<string, any>[];
  /** `keyring_submitRequest` from MetaMask for `account`. */
  submit: (
    account: { id: string },
    method: string,
    params: Json,
    scope?: string,
  ) => Promise<any>;
};

/** Error thrown by the harness for an error reply, keeping code and message. */
export class SnapRpcError extends Error {
  code: number;

  constructor(error: { code: number; message: string }) {
    super(error.message);
    this.code = error.code;
  }
}

function unwrap(response: {
  response: { result: Json } | { error: Json };
}): any {
  if ('error' in response.response) {
    throw new SnapRpcError(
      response.response.error as { code: number; message: string },
    );
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
      return answers.shift() as Json;
    }
    if (
      request.method === 'snap_manageState' &&
      (request.params as { operation?: string }).operation === 'update'
    ) {
      options.onStateWrite?.((request.params as { newState: Json }).newState);
    }
    return undefined;
  });
  const keyring = async (
    method: string,
    params?: Record<string, Json> | Json[],
    origin = COMPANION,
  ) =>
    unwrap(
      await snap.onKeyringRequest({
        origin,
        method,
        ...(params === undefined ? {} : { params }),
      }),
    );
  const rpc = async (
    method: string,
    params?: Record<string, Json> | Json[],
    origin = COMPANION,
  ) =>
    unwrap(
      await snap.request({
        origin,
        method,
        ...(params === undefined ? {} : { params }),
      }),
    );
  let requestCount = 0;
  return {
    snap,
    events,
    dialogs,
    answerDialogs: (...values) => {
      answers.push(...values);
    },
    keyring,
    rpc,
    createAccount: async (options = {}) =>
      keyring('keyring_createAccount', { options }),
    submit: async (account, method, params, scope = 'eip155:1') => {
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
