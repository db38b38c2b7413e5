/**
 * Hostile callers against the BUILT snap (snaps-jest, fast-check), on real parts: anvil with the
 * v0.6 contracts behind the provider-limits proxy (an RPC key in its path), the ERC-7677 paymaster
 * service, a planted imported key and a planted IPFS API secret.
 *
 * - Every keyring and snap RPC method × every origin class × generated params: outside the
 *   allow-list always 4100; inside it a JSON-RPC error other than -32603 (short, naming what is
 *   wrong) or a result of the right shape; never a hang; the persisted state (every
 *   snap_manageState write, recorded) unchanged after every refused call.
 * - Signing round trips: random transactions, typed data and messages signed by the snap and
 *   recovered with viem; a chain-id or sender mismatch refused.
 * - Planted secrets never appear in any reply, error or keyring event of the whole run.
 */
import {
  CreateAccountResponseStruct,
  DeleteAccountResponseStruct,
  FilterAccountChainsResponseStruct,
  GetAccountResponseStruct,
  GetRequestResponseStruct,
  ListAccountsResponseStruct,
  ListRequestsResponseStruct,
  RejectRequestResponseStruct,
  ResolveAccountAddressResponseStruct,
  SetSelectedAccountsResponseStruct,
  SubmitRequestResponseStruct,
  UpdateAccountResponseStruct,
  ApproveRequestResponseStruct,
} from '@metamask/keyring-api';
import { is } from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';

import { COMPANION, installKeyringSnap, METAMASK } from './harness';
import type { KeyringHarness } from './harness';
import {
  mutate,
  PLANTED,
  recipe,
  short,
  SNAP_METHODS,
  template,
} from './hostile-arbitraries';
import type { LiveContext, Recipe } from './hostile-arbitraries';
import { assertSigningProperties, SIGNING_ROUNDS } from './hostile-signing';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { startPaymasterService } from '../../devnet/paymaster-service';
import type { PaymasterService } from '../../devnet/paymaster-service';
import { fuzzRuns } from '../fixtures/fuzz';

const SCOPE = 'eip155:31337';
const ORIGINS = [METAMASK, COMPANION, 'https://evil.example', 'npm:other-snap'];
/** How long one request may take before it counts as a hang (ms). */
const HANG_MS = 20_000;
/** Requests the property run sends (the signing round trips and setup add to the total). */
const FUZZ_RUNS = Number(process.env.HOSTILE_RUNS ?? fuzzRuns(750));
const BATCH = 8;
/** The most requests one generated run sends (its recipes; a call's dialogs are answered within its hang limit). */
const MAX_RECIPES = 40;
/**
 * The fuzz test's jest timeout, from its run count and not from the machine's speed: every request
 * is bounded by HANG_MS, so FUZZ_RUNS runs of at most MAX_RECIPES requests (and the faults' delays,
 * inside each request's bound) end in at most this long. A slow machine gets a slow run, not a
 * timeout that stops it halfway (jest's default, 120 s, stopped it once at 5,641 of 10,000
 * requests). Capped at the longest timer Node allows (2^31 - 1 ms).
 */
const FUZZ_TIMEOUT_MS = Math.min(
  FUZZ_RUNS * MAX_RECIPES * HANG_MS,
  2 ** 31 - 1,
);
/** The signing test's timeout, likewise: its rounds (at most three requests sent together) × HANG_MS. */
const SIGNING_TIMEOUT_MS = Math.min(SIGNING_ROUNDS * HANG_MS, 2 ** 31 - 1);
/**
 * The set-up's timeout: its requests (two settings, three accounts, the reads of `refresh`) × HANG_MS,
 * beside the servers' own bounded start-ups (anvil 15 s).
 */
const SETUP_TIMEOUT_MS = 12 * HANG_MS;

/** The documented allow-list, written out here (not imported) so a change to it is caught. */
const ALLOWED: Record<string, ReadonlySet<string>> = {
  [METAMASK]: new Set([
    'keyring_listAccounts',
    'keyring_getAccount',
    'keyring_createAccount',
    'keyring_filterAccountChains',
    'keyring_deleteAccount',
    'keyring_updateAccount',
    'keyring_listRequests',
    'keyring_getRequest',
    'keyring_submitRequest',
    'keyring_rejectRequest',
    'keyring_setSelectedAccounts',
    'keyring_resolveAccountAddress',
  ]),
  [COMPANION]: new Set([
    'keyring_listAccounts',
    'keyring_getAccount',
    'keyring_createAccount',
    'keyring_filterAccountChains',
    'keyring_updateAccount',
    'keyring_deleteAccount',
    'keyring_exportAccount',
    'keyring_listRequests',
    'keyring_getRequest',
    'keyring_approveRequest',
    'keyring_rejectRequest',
    ...SNAP_METHODS,
  ]),
  // any other https site: EIP-5792, ERC-7715, sendUserOperation and getUserOperationReceipt
  'https://evil.example': new Set([
    'wallet_getCapabilities',
    'wallet_sendCalls',
    'wallet_getCallsStatus',
    'wallet_getSupportedExecutionPermissions',
    'wallet_requestExecutionPermissions',
    'wallet_getGrantedExecutionPermissions',
    'wallet_revokeExecutionPermission',
    'wallet_showCallsStatus',
    'sendUserOperation',
    'getUserOperationReceipt',
  ]),
};
/**
 * Whether the snap lets an origin call a method (its permissions, from the manifest).
 *
 * @param origin - The caller.
 * @param method - The method.
 * @returns True when allowed.
 */
const allowed = (origin: string, method: string): boolean =>
  ALLOWED[origin]?.has(method) ?? false;

/** Methods that may change the persisted state when they succeed; run one at a time. */
const MUTATING = new Set([
  'keyring_createAccount',
  'keyring_updateAccount',
  'keyring_deleteAccount',
  'keyring_submitRequest',
  'keyring_approveRequest',
  'keyring_rejectRequest',
  'keyring_exportAccount',
  'setChainConfig',
  'setIpfsConfig',
  'setApprovalMode',
  'sendUserOperation',
  'findAccounts',
  'restoreAccount',
  'wallet_sendCalls',
  'wallet_requestExecutionPermissions',
  'wallet_revokeExecutionPermission',
  // a site's first question opens a dialog, and gives it the account when the person agrees
  'wallet_getCapabilities',
]);

/**
 * Dialogs a call may open are answered whatever the method (a send's confirmation, a site's
 * recovery confirmation, a key sent, a change to confirm): accepted or cancelled as the recipe says.
 * A key export is never accepted: handing the key to the site is what that method is for, and the
 * secrets scan would find it.
 */
const NEVER_ACCEPTED = new Set(['keyring_exportAccount']);

/** How many dialogs one call may open before the run calls it a loop. */
const MAX_DIALOGS = 4;

const RESULT_STRUCTS: Record<string, Parameters<typeof is>[1]> = {
  keyring_listAccounts: ListAccountsResponseStruct as never,
  keyring_getAccount: GetAccountResponseStruct as never,
  keyring_createAccount: CreateAccountResponseStruct as never,
  keyring_filterAccountChains: FilterAccountChainsResponseStruct as never,
  keyring_updateAccount: UpdateAccountResponseStruct as never,
  keyring_deleteAccount: DeleteAccountResponseStruct as never,
  keyring_listRequests: ListRequestsResponseStruct as never,
  keyring_getRequest: GetRequestResponseStruct as never,
  keyring_submitRequest: SubmitRequestResponseStruct as never,
  keyring_approveRequest: ApproveRequestResponseStruct as never,
  keyring_rejectRequest: RejectRequestResponseStruct as never,
  keyring_resolveAccountAddress: ResolveAccountAddressResponseStruct as never,
  keyring_setSelectedAccounts: SetSelectedAccountsResponseStruct as never,
};

/** The figures the run reports. */
const figures = {
  requests: 0,
  outsideAllowList: 0,
  notJsonRpc: 0,
  results: 0,
  errorsByCode: {} as Record<string, number>,
  stateChecks: 0,
  concurrent: 0,
  faultsInjected: {
    refusedEvents: 0,
    providerFaults: 0,
    dialogsCancelled: 0,
    dialogsAccepted: 0,
  },
  secretsFound: 0,
  /** Planted secrets quoted back by the snaps platform itself for params it refused before the snap ran. */
  platformEchoes: 0,
  repliesScanned: 0,
  longestMessage: 0,
  fuzzMs: 0,
  signingMs: 0,
};

/** Distinct error messages (ids and hex elided) and how often each came. */
const messages = new Map<string, number>();

/** The snap's JSON-RPC reply to one call. */
type Reply = { result: Json } | { error: { code: number; message: string } };

describe('hostile callers through the built snap', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let proxy: LimitsProxy;
  let paymaster: PaymasterService;
  let harness: KeyringHarness;
  let live: LiveContext;
  let refuse = false;
  let lastState = 'null';
  /** Approve the dialogs requests open (setup, the signing properties) instead of cancelling them. */
  let approveDialogs = false;
  const transcript: string[] = [];
  const platformTranscript: string[] = [];

  /**
   * Send one request, answering the dialogs it opens (see NEVER_ACCEPTED); record the reply for
   * the secrets scan.
   *
   * @param handler - onKeyringRequest or onRpcRequest.
   * @param origin - The caller.
   * @param method - The method.
   * @param params - The params, as generated (may be anything).
   * @param accept - Accept its dialogs (else cancel them); `approveDialogs` accepts them all.
   * @param alone - Whether it runs alone (only such a call may open a dialog: the simulation shows
   * one interface at a time).
   * @returns The reply.
   * @throws If the snap does not answer within the hang limit, or opens dialogs without end.
   */
  async function send(
    handler: 'keyring' | 'rpc',
    origin: string,
    method: string,
    params: unknown,
    accept = false,
    alone = true,
  ): Promise<Reply> {
    figures.requests += 1;
    const request = {
      origin,
      method,
      ...(params === undefined ? {} : { params: params as Json[] }),
    };
    const pending =
      handler === 'keyring'
        ? harness.snap.onKeyringRequest(request)
        : harness.snap.request(request);
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `hang: ${handler} ${method} from ${origin} took over ${HANG_MS} ms`,
            ),
          ),
        HANG_MS,
      );
    });
    try {
      for (let shown = 0; shown <= (alone ? MAX_DIALOGS : -1); shown += 1) {
        const dialog = pending.getInterface().then(
          (ui) => ({ ui }),
          () => undefined,
        );
        const open = await Promise.race([
          pending.then(() => undefined),
          dialog,
          hang,
        ]);
        if (!open) {
          break;
        }
        if (shown === MAX_DIALOGS) {
          throw new Error(`${method} opened more than ${MAX_DIALOGS} dialogs`);
        }
        const ui = open.ui as Record<'ok' | 'cancel', () => Promise<void>>;
        if (approveDialogs || (accept && !NEVER_ACCEPTED.has(method))) {
          figures.faultsInjected.dialogsAccepted += 1;
          await ui.ok();
        } else {
          figures.faultsInjected.dialogsCancelled += 1;
          await ui.cancel();
        }
      }
      const { response } = await Promise.race([pending, hang]);
      const text = JSON.stringify(response);
      // params that are not structured never reach the snap: the platform refuses them (and quotes them)
      (params === undefined || (typeof params === 'object' && params !== null)
        ? transcript
        : platformTranscript
      ).push(text);
      return response as Reply;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Read the live accounts and parked requests for the next recipes.
   */
  async function refresh(): Promise<void> {
    const accounts = await send(
      'keyring',
      COMPANION,
      'keyring_listAccounts',
      undefined,
    );
    const requests = await send(
      'keyring',
      COMPANION,
      'keyring_listRequests',
      undefined,
    );
    live.accounts =
      'result' in accounts ? (accounts.result as LiveContext['accounts']) : [];
    live.requestIds =
      'result' in requests
        ? (requests.result as { id: string }[]).map((request) => request.id)
        : [];
    const sources = await send(
      'rpc',
      COMPANION,
      'listEntropySources',
      undefined,
    );
    live.entropySources =
      'result' in sources && Array.isArray(sources.result)
        ? (sources.result as { id: string }[]).map((source) => source.id)
        : [];
  }

  /**
   * Check one reply against the rules. Each rule adds what the reply shows (`seen`) and what the
   * rule requires (`want`), both naming the call: the caller compares a whole batch with one
   * `toEqual` (one expect per batch, not per rule: expect's own set-up costs more than the
   * comparison, and a mismatch names the call as before).
   *
   * @param item - The recipe sent.
   * @param params - The params sent.
   * @param reply - The snap's reply.
   * @param verdicts - Where the rules' `seen` and `want` objects are appended, pairwise.
   * @param verdicts.seen - What each rule found.
   * @param verdicts.want - What each rule requires (equal to `seen` when it holds).
   * @returns Whether it may have changed state.
   */
  function check(
    item: Recipe,
    params: unknown,
    reply: Reply,
    verdicts: {
      /** What each rule found. */
      seen: unknown[];
      /** What each rule requires. */
      want: unknown[];
    },
  ): boolean {
    /**
     * Record one rule: `seen` must equal `want`.
     *
     * @param seen - What the reply shows.
     * @param want - What the rule requires.
     */
    const rule = (seen: unknown, want: unknown): void => {
      verdicts.seen.push(seen);
      verdicts.want.push(want);
    };
    const where = `${item.handler} ${JSON.stringify(item.method).slice(0, 40)} from ${item.origin} with ${JSON.stringify(params)?.slice(0, 200)}`;
    if (
      params !== undefined &&
      (typeof params !== 'object' || params === null)
    ) {
      // not a JSON-RPC request (params must be structured): the platform refuses it before the snap runs
      figures.notJsonRpc += 1;
      rule({ where, refused: 'error' in reply }, { where, refused: true });
      return false;
    }
    if (!allowed(item.origin, item.method)) {
      figures.outsideAllowList += 1;
      rule(
        { where, code: 'error' in reply ? reply.error.code : 'result' },
        { where, code: 4100 },
      );
      return false;
    }
    if ('error' in reply) {
      const { code, message } = reply.error;
      figures.errorsByCode[code] = (figures.errorsByCode[code] ?? 0) + 1;
      messages.set(
        `${code} ${message.replace(/[0-9a-f-]{36}|0x[0-9a-fA-F]+/gu, '…')}`,
        (messages.get(
          `${code} ${message.replace(/[0-9a-f-]{36}|0x[0-9a-fA-F]+/gu, '…')}`,
        ) ?? 0) + 1,
      );
      figures.longestMessage = Math.max(figures.longestMessage, message.length);
      rule(
        {
          where,
          integer: Number.isInteger(code),
          short:
            typeof message === 'string' &&
            message.length > 0 &&
            message.length <= 300,
        },
        { where, integer: true, short: true },
      );
      // never an internal error (-32603)
      rule(
        { where, code, message, internal: code === -32603 },
        { where, code, message, internal: false },
      );
      if (code === -32602) {
        // names what is wrong: never rpc-errors' bare default text
        rule(
          {
            where,
            specific: !/^Invalid method parameter\(s\)\.?$/u.test(message),
          },
          { where, specific: true },
        );
      }
      // a refused approve/reject still resolves the request (by design): it changed state
      return (
        item.refuseEvents &&
        ['keyring_approveRequest', 'keyring_rejectRequest'].includes(
          item.method,
        ) &&
        code === 4001
      );
    }
    figures.results += 1;
    const struct =
      item.handler === 'keyring' ? RESULT_STRUCTS[item.method] : undefined;
    if (struct) {
      rule({ where, valid: is(reply.result, struct) }, { where, valid: true });
    }
    if (item.handler === 'rpc') {
      rule(
        { where, snapMethod: SNAP_METHODS.includes(item.method) },
        { where, snapMethod: true },
      );
    }
    return MUTATING.has(item.method);
  }

  /**
   * The params a recipe sends.
   *
   * @param item - The recipe.
   * @returns None, its raw value, or the method's template for the live snap, mutated.
   */
  function paramsOf(item: Recipe): unknown {
    let params: unknown;
    if (item.shape === 'raw') {
      params = item.raw;
    } else if (item.shape === 'template') {
      params = template(item.method, item.pick, live);
    }
    for (const change of item.mutations) {
      params = mutate(params, change);
    }
    return params;
  }

  /**
   * Run recipes: refused-to-mutate ones in parallel batches, mutating ones alone; check state
   * after each batch.
   *
   * @param items - The recipes, in order.
   */
  async function run(items: Recipe[]): Promise<void> {
    let index = 0;
    while (index < items.length) {
      const first = items[index];
      const alone =
        MUTATING.has(first.method) && allowed(first.origin, first.method);
      const group = alone ? [first] : [];
      if (!alone) {
        while (index + group.length < items.length && group.length < BATCH) {
          const next = items[index + group.length];
          if (MUTATING.has(next.method) && allowed(next.origin, next.method)) {
            break;
          }
          group.push(next);
        }
      }
      index += group.length;
      if (group.length > 1) {
        figures.concurrent += group.length;
      }
      const before = lastState;
      const prepared = group.map((item) => ({ item, params: paramsOf(item) }));
      refuse = alone && first.refuseEvents;
      const replies = await Promise.all(
        prepared.map(async ({ item, params }) =>
          send(
            item.handler,
            item.origin,
            item.method,
            params,
            item.acceptDialogs,
            alone,
          ),
        ),
      );
      refuse = false;
      const verdicts = { seen: [] as unknown[], want: [] as unknown[] };
      const changed = prepared.map(({ item, params }, at) =>
        check(item, params, replies[at], verdicts),
      );
      expect(verdicts.seen).toEqual(verdicts.want);
      if (changed.some(Boolean)) {
        await refresh();
      } else {
        figures.stateChecks += 1;
        expect({
          calls: prepared.map(({ item }) => `${item.origin} ${item.method}`),
          stateChanged: lastState !== before,
        }).toEqual({
          calls: prepared.map(({ item }) => `${item.origin} ${item.method}`),
          stateChanged: false,
        });
      }
    }
  }

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    proxy = await startLimitsProxy({
      upstream: anvil.url,
      apiKey: PLANTED.rpcKey,
    });
    paymaster = await startPaymasterService({
      rpcUrl: anvil.url,
      verifyingPaymaster: contracts.verifyingPaymaster,
      signerKey: contracts.paymasterSigner,
      entryPoint: contracts.entryPoint,
      chainId: 31337,
    });
    harness = await installKeyringSnap({
      refuseEvent: () => {
        if (refuse) {
          figures.faultsInjected.refusedEvents += 1;
        }
        return refuse;
      },
      onStateWrite: (state) => {
        lastState = JSON.stringify(state);
      },
    });
    const closedUrl = 'http://127.0.0.1:1';
    live = {
      accounts: [],
      requestIds: [],
      entropySources: [],
      // the v0.6 contracts under the v0.7 / v0.8 names: a config the snap must check, not trust
      entryPoints: {
        '0.7': {
          entryPoint: contracts.entryPoint,
          accountFactory: contracts.accountFactory,
        },
        '0.8': {
          entryPoint: contracts.entryPoint,
          accountFactory: contracts.accountFactory,
        },
      },
      scope: SCOPE,
      rpcUrl: anvil.url,
      keyedRpcUrl: proxy.url,
      closedUrl,
    };
    const chainConfig = {
      scope: SCOPE,
      rpcUrl: proxy.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
      bundlerUrl: closedUrl,
      paymasterUrl: paymaster.url,
    };
    const setup: [string, unknown][] = [
      ['setChainConfig', chainConfig],
      [
        'setIpfsConfig',
        {
          apiUrl: closedUrl,
          apiKey: 'planted',
          apiKeySecret: PLANTED.ipfsSecret,
        },
      ],
    ];
    approveDialogs = true; // the user agrees to the setup's changes; the fuzzing's dialogs are cancelled
    for (const [method, params] of setup) {
      const reply = await send('rpc', COMPANION, method, params);
      if (!('result' in reply)) {
        throw new Error(`setup: ${method} refused: ${JSON.stringify(reply)}`);
      }
    }
    for (const options of [
      { privateKey: PLANTED.privateKey },
      {},
      { type: 'eip155:erc4337', scopes: [SCOPE] },
    ]) {
      const reply = await send('keyring', COMPANION, 'keyring_createAccount', {
        options,
      });
      if (
        !('result' in reply) ||
        typeof (reply.result as { id?: unknown } | null)?.id !== 'string'
      ) {
        throw new Error(
          `setup: createAccount refused: ${JSON.stringify(reply)}`,
        );
      }
    }
    approveDialogs = false;
    await refresh();
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await paymaster?.close();
    await proxy?.close();
    await anvil?.stop();
  });

  it('keyring-snap-sdk refusals name the field, never echo the value, and stay short', async () => {
    const cases: [string, Json, RegExp][] = [
      [
        'keyring_getAccount',
        { id: PLANTED.privateKey },
        /^Invalid keyring_getAccount request at params\.id: Expected a value of type `UuidV4`$/u,
      ],
      [
        'keyring_getAccount',
        { id: Array.from({ length: 40_000 }, (_, index) => index) },
        /^Invalid keyring_getAccount request at params\.id: /u,
      ],
      [
        'keyring_getAccount',
        { id: { toString: 'x' } },
        /^Invalid keyring_getAccount request at params\.id: /u,
      ],
      [
        'keyring_getAccount',
        JSON.parse('{"__proto__": {"toString": "x"}}'),
        /^Invalid keyring_getAccount request at params\.id: required$/u,
      ],
      [
        'keyring_deleteAccount',
        { id: live.accounts[0]?.id, [PLANTED.ipfsSecret]: 1 },
        /^Invalid keyring_deleteAccount request at params\.<key>: unknown field$/u,
      ],
      [
        'keyring_updateAccount',
        {
          account: {
            ...(live.accounts[0] as Json & object),
            address: PLANTED.privateKey,
          },
        },
        /^Invalid account at address: the address cannot be changed$/u,
      ],
      [
        'keyring_createAccount',
        {
          options: {
            privateKey: 12345678901234,
            metadataCid: PLANTED.ipfsSecret,
          },
        },
        /^Invalid createAccount options at privateKey: Expected a string$/u,
      ],
    ];
    for (const [method, params, message] of cases) {
      const reply = await send('keyring', COMPANION, method, params);
      expect(reply).toEqual({
        error: expect.objectContaining({
          code: -32602,
          message: expect.stringMatching(message),
        }),
      });
      expect(
        (reply as { error: { message: string } }).error.message.length,
      ).toBeLessThanOrEqual(300);
    }
    const unknown = await send('keyring', METAMASK, PLANTED.privateKey, {});
    expect(unknown).toEqual({
      error: expect.objectContaining({
        code: 4100,
        message: "Origin 'metamask' is not allowed to call this method",
      }),
    });
  });

  it(
    `every method × origin class × generated params (${FUZZ_RUNS} runs of up to ${MAX_RECIPES} requests)`,
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          fc.array(recipe(ORIGINS), { minLength: 5, maxLength: MAX_RECIPES }),
          fc.option(fc.constantFrom('status', 'garbage', 'rpcError', 'delay'), {
            freq: 5,
          }),
          async (items, fault) => {
            if (fault) {
              figures.faultsInjected.providerFaults += 1;
              proxy.inject(faultOf(fault, proxy.url));
            }
            try {
              await run(items);
            } finally {
              proxy.clearFaults();
            }
          },
        ),
        { numRuns: FUZZ_RUNS, endOnFailure: true, reporter: short },
      );
      figures.fuzzMs = Date.now() - started;
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'signing round trips: random transactions, typed data and messages recover (viem) to the signer; mismatches refused',
    async () => {
      const started = Date.now();
      approveDialogs = true; // the user agrees to setApprovalMode sync
      await assertSigningProperties(async (handler, origin, method, params) =>
        send(handler, origin, method, params),
      );
      approveDialogs = false;
      figures.signingMs = Date.now() - started;
    },
    SIGNING_TIMEOUT_MS,
  );

  it('no planted secret appears in any reply, error or keyring event of the run', () => {
    // What a caller stored is its own data and comes back by design (keyring-api): a parked request's
    // params (keyring_getRequest / listRequests) and an account's free-form options (updateAccount).
    // A generated call may put a planted value there; the scan looks at everything else.
    const haystack = [
      ...transcript,
      ...harness.events.map((event) => JSON.stringify(event)),
    ].map((text) => JSON.stringify(withoutCallerData(JSON.parse(text))));
    const needles = [
      PLANTED.privateKey.slice(2),
      PLANTED.ipfsSecret,
      PLANTED.rpcKey,
    ].map((secret) => secret.toLowerCase());
    figures.repliesScanned = haystack.length;
    const found = haystack.filter((text) =>
      needles.some((needle) => text.toLowerCase().includes(needle)),
    );
    figures.secretsFound = found.length;
    figures.platformEchoes = platformTranscript.filter((text) =>
      needles.some((needle) => text.toLowerCase().includes(needle)),
    ).length;
    found.slice(0, 5).forEach((text) => {
      const at = Math.max(
        0,
        ...needles.map((needle) => text.toLowerCase().indexOf(needle)),
      );
      console.log(
        `secret found in: …${text.slice(Math.max(0, at - 300), at).replace(/[0-9a-f]{20,}/giu, '<hex>')}<SECRET>…`,
      );
    });
    console.log(`hostile-run figures: ${JSON.stringify(figures)}`);
    if (process.env.HOSTILE_DEBUG) {
      console.log(
        [...messages.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([text, count]) => `${count}\t${text}`)
          .join('\n'),
      );
    }
    if (process.env.HOSTILE_FIGURES) {
      writeFileSync(
        process.env.HOSTILE_FIGURES,
        JSON.stringify(figures, null, 2),
      );
    }
    expect(figures.secretsFound).toBe(0);
    expect(figures.requests).toBeGreaterThanOrEqual(
      Number(process.env.HOSTILE_MIN_REQUESTS ?? fuzzRuns(10_000)),
    );
  });
});

/**
 * The limits proxy's fault for a generated fault name.
 *
 * @param fault - The name.
 * @param upstreamUrl - The proxy's URL, which the upstream error quotes beside the planted key.
 * @returns The fault, each injected twice: a JSON-RPC error quoting the planted key, a delay, or
 * a bad HTTP reply.
 */
function faultOf(
  fault: 'status' | 'garbage' | 'rpcError' | 'delay',
  upstreamUrl: string,
): Parameters<LimitsProxy['inject']>[0] {
  if (fault === 'rpcError') {
    return {
      type: 'rpcError',
      code: -32000,
      message: `upstream refused ${upstreamUrl} key ${PLANTED.rpcKey}`,
      times: 2,
    };
  }
  return fault === 'delay'
    ? { type: 'delay', ms: 300, times: 2 }
    : { type: fault, status: 502, times: 2 };
}

/** Options the snap itself sets on an account (the rest are the caller's free-form options). */
const SNAP_OPTIONS = ['exportable', 'entropy', 'metadataCid'];

/**
 * A reply or event with what callers stored replaced by placeholders: the `request.params` of every
 * KeyringRequest, and the caller-set keys of every account's `options`.
 *
 * @param value - A reply or an event.
 * @returns The same value without caller data.
 */
function withoutCallerData(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutCallerData);
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const object = value as Record<string, unknown>;
  const entries = Object.entries(object).map(([key, entry]) => {
    if (
      key === 'request' &&
      typeof entry === 'object' &&
      entry !== null &&
      'method' in entry
    ) {
      return [
        key,
        {
          ...(entry as Record<string, unknown>),
          params: '<the caller’s own params>',
        },
      ];
    }
    if (
      key === 'options' &&
      'methods' in object &&
      typeof entry === 'object' &&
      entry !== null
    ) {
      const own = Object.entries(entry as Record<string, unknown>).filter(
        ([name]) => SNAP_OPTIONS.includes(name),
      );
      return [key, Object.fromEntries(own)];
    }
    return [key, withoutCallerData(entry)];
  });
  return Object.fromEntries(entries);
}
