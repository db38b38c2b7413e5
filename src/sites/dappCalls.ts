import {
  array,
  boolean,
  literal,
  object,
  optional,
  pattern,
  record,
  size,
  string,
  type,
  unknown,
} from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import type { Hex } from 'viem';

import {
  accountCapabilities,
  chainHex,
  requiredCapabilities,
  sendRefusal,
} from './capabilities';
import { notGiven } from './siteAccounts';
import type { SiteAccounts } from './siteAccounts';
import {
  parseBundlerReceipt,
  serviceClient,
} from '../accounts/erc4337/bundler';
import type { KeyringSnap } from '../keyring/keyring';
import type { Settings } from '../settings';
import type { DappCall } from '../state/schema';
import type { StateStore } from '../state/store';
import { callsRejected } from '../utils/errorMap';
import {
  alreadyWaiting,
  unauthorized,
  unsupportedMethod,
  validate,
  walletCallsError,
} from '../utils/errors';
import { AddressStruct, Bytes32Struct } from '../utils/structs';

/** How many sent bundles the snap remembers for wallet_getCallsStatus (the oldest is dropped first). */
export const MAX_DAPP_CALLS = 64;

/** The most calls one bundle may hold (one user operation; the send path's own bound). */
const MAX_CALLS = 32;

const HexStruct = pattern(string(), /^0x[0-9a-fA-F]*$/u);
const ChainIdStruct = pattern(string(), /^0x[1-9a-fA-F][0-9a-fA-F]{0,15}$/u);
const CapabilitiesStruct = optional(record(string(), unknown()));

const SendCallsStruct = object({
  version: literal('2.0.0'),
  id: optional(size(string(), 1, 4096)),
  from: AddressStruct,
  chainId: ChainIdStruct,
  atomicRequired: boolean(),
  calls: size(
    array(
      object({
        to: AddressStruct,
        value: optional(HexStruct),
        data: optional(HexStruct),
        capabilities: CapabilitiesStruct,
      }),
    ),
    1,
    Infinity,
  ),
  capabilities: CapabilitiesStruct,
});

const LogStruct = type({
  address: AddressStruct,
  data: HexStruct,
  topics: size(array(Bytes32Struct), 0, 4),
});

/**
 * EIP-5792 (version 2.0.0, https://eips.ethereum.org/EIPS/eip-5792) for any site, through
 * `wallet_invokeSnap`: `wallet_getCapabilities` (for an account the site was given: see
 * SiteAccounts), `wallet_sendCalls` (one user operation behind the send confirmation, through
 * `sendUserOperation`), `wallet_getCallsStatus` (only a site's own bundles), `wallet_showCallsStatus`
 * (not supported), and `sendUserOperation` with the account given by address. One send per site
 * waits at a time. Before the send dialog, a site learns nothing of an address it was not given:
 * not the snap's, not usable on that chain, or refused while drafted, the answer is the same 4100.
 */
export class DappCalls {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #keyring: KeyringSnap;

  readonly #sites: SiteAccounts;

  /** The sites with a send waiting (its preparation or its dialog). */
  readonly #waiting = new Set<string>();

  /**
   * @param parts - What the calls work with.
   * @param parts.store - The snap's state store (the bundles sent, for their status).
   * @param parts.settings - Chain settings (which chains, which have a paymaster service).
   * @param parts.keyring - The accounts, the send path and receipts.
   * @param parts.sites - The addresses each site was given.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    keyring: KeyringSnap;
    sites: SiteAccounts;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#keyring = parts.keyring;
    this.#sites = parts.sites;
  }

  /**
   * `wallet_getCapabilities` of an account the site was given (see accountCapabilities): a site
   * not given it is asked about once (one dialog per site, whatever the address); otherwise the
   * answer is 4100, the same whether the address is the snap's or not. The companion sees every
   * account.
   *
   * @param params - `[address, [chainIds]?]` (chain ids as hex quantities).
   * @param origin - The site, as MetaMask reported it.
   * @param alone - False for the companion's own pages (they see every account).
   * @returns Capabilities keyed by chain id hex, e.g. `{ "0x7a69": { atomic: { status: "ready" } } }`.
   * @throws JsonRpcError -32602 for bad params; 4100 for an address the site was not given (or,
   * for the companion, that is not the snap's).
   */
  async capabilities(
    params: unknown,
    origin: string,
    alone = true,
  ): Promise<Json> {
    const [address, chainIds] = validate(
      params,
      size(array(unknown()), 1, 2),
      'wallet_getCapabilities params',
    );
    validate(address, AddressStruct, 'wallet_getCapabilities address');
    const wanted = validate(
      chainIds ?? [],
      size(array(ChainIdStruct), 0, 256),
      'wallet_getCapabilities chain ids',
    ).map((id) => chainHex(`eip155:${BigInt(id)}`));
    const from = address as string;
    let account = await this.#sites.account(origin, from, !alone);
    if (!account && alone && (await this.#sites.askOnce(origin, from))) {
      account = await this.#sites.account(origin, from, false);
    }
    if (!account) {
      throw alone
        ? notGiven()
        : unauthorized('That address is not one of this snap’s accounts');
    }
    return accountCapabilities(
      this.#settings,
      account,
      chainIds === undefined ? undefined : wanted,
    );
  }

  /**
   * `wallet_showCallsStatus`: not supported (the snap shows no status window; a site reads the
   * status with `wallet_getCallsStatus` and shows it itself).
   *
   * @throws JsonRpcError 4200 (EIP-1193 unsupported method), always.
   */
  showCallsStatus(): never {
    throw unsupportedMethod(
      'wallet_showCallsStatus is not supported: read the status with wallet_getCallsStatus',
    );
  }

  /**
   * `wallet_sendCalls`: the calls as one user operation from `from` (the send path of
   * `sendUserOperation`: its confirmation names the site first), always atomic. The bundle is
   * remembered for the site's `wallet_getCallsStatus`.
   *
   * @param params - `[{ version: "2.0.0", id?, from, chainId, atomicRequired, calls: [{ to, value?, data?, capabilities? }], capabilities? }]`
   * (value and chainId hex quantities, data hex bytes).
   * @param origin - The site, as MetaMask reported it.
   * @param alone - Whether the site may have only one send waiting (every site but the companion).
   * @returns `{ id }`: the site's id, else the userOpHash.
   * @throws JsonRpcError -32602 for bad params; 5700 for a capability it does not offer and the
   * site did not mark optional; 5720 for an id the site used before; 5740 above 32 calls; -32002
   * while the site has a send waiting; for an address the site was not given, 4100 for anything
   * refused before the dialog (not the snap's, no settings for the chain, no paymaster service,
   * refused while drafted); for one it was given (or the companion), 4100 when it is not the
   * snap's, 5710 for a chain without settings (or the account does not serve), 5700 for
   * `paymasterService` where the chain has none, -32003 when a call would revert (see
   * callsRejected); 4001 when the person declines; the send path's errors.
   */
  async sendCalls(
    params: unknown,
    origin: string,
    alone = true,
  ): Promise<{ id: string }> {
    const [raw] = validate(
      params,
      size(array(unknown()), 1, 1),
      'wallet_sendCalls params',
    );
    const calls = (raw as { calls?: unknown } | null)?.calls;
    if (Array.isArray(calls) && calls.length > MAX_CALLS) {
      throw walletCallsError(
        5740,
        `Too many calls: at most ${MAX_CALLS} in one bundle`,
      );
    }
    const request = validate(raw, SendCallsStruct, 'wallet_sendCalls params');
    const required = requiredCapabilities(request);
    if (required.some((name) => name !== 'paymasterService')) {
      throw walletCallsError(
        5700,
        'Unsupported capability: not one this snap offers',
      );
    }
    if (request.id !== undefined && this.#find(origin, request.id)) {
      throw walletCallsError(5720, 'Duplicate id: this site used it already');
    }
    const given = !alone || this.#sites.isGiven(origin, request.from);
    const account = await this.#sites.anyAccount(request.from);
    const scope = `eip155:${BigInt(request.chainId)}`;
    const config = this.#settings.chainConfig(scope);
    const refusal = sendRefusal(account, scope, config, required);
    if (refusal || !account) {
      throw given && refusal ? refusal : notGiven();
    }
    const { userOpHash } = await this.#maybeAlone(origin, alone, async () =>
      this.#keyring
        .sendUserOperation(
          {
            account: account.id,
            scope,
            intents: request.calls.map(({ to, value, data }) => ({
              to,
              ...(value === undefined ? {} : { value }),
              ...(data === undefined ? {} : { data }),
            })),
          },
          origin,
        )
        .catch((error: unknown) => {
          throw this.#sent(origin, request.from, given, callsRejected(error));
        }),
    );
    const entry: DappCall = {
      id: request.id ?? userOpHash,
      origin,
      scope,
      userOpHash: userOpHash.toLowerCase(),
    };
    await this.#store.run(async () => {
      const state = this.#store.draft();
      state.dappCalls = [...(state.dappCalls ?? []), entry].slice(
        -MAX_DAPP_CALLS,
      );
      await this.#store.commit(state);
    });
    return { id: entry.id };
  }

  /**
   * `wallet_getCallsStatus` of a bundle this site sent: 100 while pending, 200 when its operation
   * succeeded, 500 when it reverted (atomic: all its calls reverted together); `receipts` from the
   * bundler's receipt (the bundle transaction's hash, block and the operation's gas and logs).
   *
   * @param params - `[id]`.
   * @param origin - The site, as MetaMask reported it.
   * @returns `{ version: "2.0.0", id, chainId, status, atomic: true, receipts? }`.
   * @throws JsonRpcError -32602 for bad params; 5730 for an id this site did not send (or one
   * forgotten among the oldest); the chain adapter's errors while the bundler cannot tell.
   */
  async callsStatus(params: unknown, origin: string): Promise<Json> {
    const [id] = validate(
      params,
      size(array(size(string(), 1, 4096)), 1, 1),
      'wallet_getCallsStatus params',
    );
    const entry = this.#find(origin, id);
    if (!entry) {
      throw walletCallsError(
        5730,
        'Unknown bundle id: this site sent no such bundle',
      );
    }
    const { scope, userOpHash } = entry;
    const hash = userOpHash as Hex;
    const bundlerUrl =
      (this.#store.current.sentUserOperations ?? []).find(
        (sent) => sent.userOpHash === hash,
      )?.bundlerUrl ?? this.#settings.chainConfig(scope)?.bundlerUrl;
    let reply = await bundlerReply(bundlerUrl, hash);
    let parsed = parseBundlerReceipt(reply, hash);
    const known =
      parsed ??
      ((await this.#keyring.userOperationReceipt({
        scope,
        userOpHash: hash,
      })) as { success: boolean } | null);
    if (known && !parsed) {
      // mined between the two reads: the bundler's receipt (with the logs) is there now
      reply = await bundlerReply(bundlerUrl, hash);
      parsed = parseBundlerReceipt(reply, hash);
    }
    const blockHash = (reply as { receipt?: { blockHash?: unknown } } | null)
      ?.receipt?.blockHash;
    const logs = (reply as { logs?: unknown } | null)?.logs;
    let code = 100;
    if (known) {
      code = known.success ? 200 : 500;
    }
    const status: Record<string, Json> = {
      version: '2.0.0',
      id: entry.id,
      chainId: chainHex(scope),
      status: code,
      atomic: true,
    };
    if (parsed && Bytes32Struct.is(blockHash)) {
      status.receipts = [
        {
          logs: (Array.isArray(logs) ? logs : [])
            .filter((log) => LogStruct.is(log))
            .map(({ address, data, topics }) => ({ address, data, topics })),
          status: parsed.success ? '0x1' : '0x0',
          blockHash,
          blockNumber: parsed.blockNumber,
          gasUsed: parsed.actualGasUsed,
          transactionHash: parsed.transactionHash,
        },
      ];
    }
    return status;
  }

  /**
   * `sendUserOperation` as the keyring sends it, with `account` an account id or address, one
   * waiting at a time per site.
   *
   * @param params - `{ account: <id or address>, scope, intents }` (see KeyringSnap.sendUserOperation).
   * @param origin - The site, named in the dialog.
   * @param alone - Whether the site may have only one send waiting (every site but the companion).
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws As KeyringSnap.sendUserOperation; -32002 while the site has a send waiting.
   */
  async sendUserOperation(
    params: unknown,
    origin: string,
    alone = true,
  ): Promise<Json> {
    const account = (params as { account?: unknown } | null)?.account;
    if (typeof account !== 'string' || !AddressStruct.is(account)) {
      return this.#maybeAlone(origin, alone, async () =>
        this.#keyring.sendUserOperation(params, origin),
      );
    }
    const given = !alone || this.#sites.isGiven(origin, account);
    const found = await this.#sites.anyAccount(account);
    if (!found) {
      throw given
        ? unauthorized('That address is not one of this snap’s accounts')
        : notGiven();
    }
    return this.#maybeAlone(origin, alone, async () =>
      this.#keyring
        .sendUserOperation({ ...(params as object), account: found.id }, origin)
        .catch((error: unknown) => {
          throw this.#sent(origin, account, given, error);
        }),
    );
  }

  /**
   * What a site is told of a send that failed: the error itself when the site was given the
   * address (before, or by approving this send's dialog) or the person declined (4001: the dialog
   * was shown); else the same 4100 as for an address that is not the snap's (it failed before its
   * dialog: while drafted, or checked).
   *
   * @param origin - The site.
   * @param address - The sending address.
   * @param given - Whether the site was given it before the send.
   * @param error - What the send threw.
   * @returns The error to throw.
   */
  #sent(
    origin: string,
    address: string,
    given: boolean,
    error: unknown,
  ): Error {
    const declined = (error as { code?: unknown } | null)?.code === 4001;
    return (
      given || declined || this.#sites.isGiven(origin, address)
        ? error
        : notGiven()
    ) as Error;
  }

  /**
   * Run `task`; with `alone`, only if the site has none running: a second send while the first
   * waits (on the chain, or on the person in its dialog) is refused, not queued behind it.
   *
   * @param origin - The site.
   * @param alone - Whether the rule applies.
   * @param task - The send.
   * @returns What `task` returns.
   * @throws JsonRpcError -32002 while the site has one running.
   */
  async #maybeAlone<Result>(
    origin: string,
    alone: boolean,
    task: () => Promise<Result>,
  ): Promise<Result> {
    if (!alone) {
      return task();
    }
    if (this.#waiting.has(origin)) {
      throw alreadyWaiting(
        'A request from this site is already waiting for confirmation: answer it in MetaMask first',
      );
    }
    this.#waiting.add(origin);
    try {
      return await task();
    } finally {
      this.#waiting.delete(origin);
    }
  }

  /**
   * The bundle `id` of `origin`.
   *
   * @param origin - The site.
   * @param id - The bundle id.
   * @returns The remembered bundle, or undefined.
   */
  #find(origin: string, id: string): DappCall | undefined {
    return (this.#store.current.dappCalls ?? []).find(
      (call) => call.origin === origin && call.id === id,
    );
  }
}

/**
 * The bundler's `eth_getUserOperationReceipt` reply (ERC-7769), untrusted and unparsed.
 *
 * @param bundlerUrl - The bundler that took the operation, if known.
 * @param hash - The userOpHash.
 * @returns Its reply, or null when there is no bundler or it failed.
 */
async function bundlerReply(
  bundlerUrl: string | undefined,
  hash: Hex,
): Promise<unknown> {
  return bundlerUrl
    ? serviceClient(bundlerUrl)
        .request('eth_getUserOperationReceipt', [hash])
        .catch(() => null)
    : null;
}
