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
  parseBundlerReceipt,
  serviceClient,
} from '../accounts/erc4337/bundler';
import type { KeyringSnap } from '../keyring/keyring';
import type { Settings } from '../settings';
import type { DappCall } from '../state/schema';
import type { StateStore } from '../state/store';
import {
  alreadyWaiting,
  unauthorized,
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
 * `wallet_invokeSnap`: `wallet_getCapabilities`, `wallet_sendCalls` (one user operation behind the
 * send confirmation, through `sendUserOperation`), `wallet_getCallsStatus` (only a site's own
 * bundles), and `sendUserOperation` with the account given by address. One send per site waits at a
 * time.
 */
export class DappCalls {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #keyring: KeyringSnap;

  /** The sites with a send waiting (its preparation or its dialog). */
  readonly #waiting = new Set<string>();

  /**
   * @param parts - What the calls work with.
   * @param parts.store - The snap's state store (the bundles sent, for their status).
   * @param parts.settings - Chain settings (which chains, which have a paymaster service).
   * @param parts.keyring - The accounts, the send path and receipts.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    keyring: KeyringSnap;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#keyring = parts.keyring;
  }

  /**
   * `wallet_getCapabilities`: for each configured chain the account serves (an EOA every one, the
   * first send upgrading it through EIP-7702; a smart account its scopes), `atomic: { status:
   * "supported" }`, and `paymasterService: { supported: true }` where the chain has a paymaster
   * service (ERC-7677).
   *
   * @param params - `[address, [chainIds]?]` (chain ids as hex quantities).
   * @returns Capabilities keyed by chain id hex, e.g. `{ "0x7a69": { atomic: { status: "supported" } } }`.
   * @throws JsonRpcError -32602 for bad params; 4100 when the address is not one of this snap's accounts.
   */
  async capabilities(params: unknown): Promise<Json> {
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
    const account = await this.#account(address as string);
    const result: Record<string, Json> = {};
    for (const [scope, config] of Object.entries(
      this.#settings.allChainConfigs(),
    )) {
      const chainId = chainHex(scope);
      if (
        (chainIds === undefined || wanted.includes(chainId)) &&
        this.#serves(account, scope)
      ) {
        result[chainId] = {
          atomic: { status: 'supported' },
          ...(config.paymasterUrl
            ? { paymasterService: { supported: true } }
            : {}),
        };
      }
    }
    return result;
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
   * @throws JsonRpcError -32602 for bad params; 4100 when `from` is not this snap's; 5700 for a
   * capability it does not support and the site did not mark optional; 5710 for a chain it has no
   * settings for (or the account does not serve); 5720 for an id the site used before; 5740 above
   * 32 calls; -32002 while the site has a send waiting; 4001 when the person declines; the send
   * path's errors.
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
    const account = await this.#account(request.from);
    const scope = `eip155:${BigInt(request.chainId)}`;
    const config = this.#settings.chainConfig(scope);
    if (!config || !this.#serves(account, scope)) {
      throw walletCallsError(
        5710,
        'Unsupported chain: this account has no settings for it in the snap',
      );
    }
    [request.capabilities, ...request.calls.map((call) => call.capabilities)]
      .flatMap((capabilities) => Object.entries(capabilities ?? {}))
      .forEach(([name, value]) => {
        const sponsored = name === 'paymasterService' && config.paymasterUrl;
        if (
          !sponsored &&
          (value as { optional?: unknown })?.optional !== true
        ) {
          throw walletCallsError(
            5700,
            `Unsupported capability: ${name === 'paymasterService' ? 'paymasterService on this chain' : 'not one this snap offers'}`,
          );
        }
      });
    if (request.id !== undefined && this.#find(origin, request.id)) {
      throw walletCallsError(5720, 'Duplicate id: this site used it already');
    }
    const { userOpHash } = await this.#maybeAlone(origin, alone, async () =>
      this.#keyring.sendUserOperation(
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
      ),
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
    const byAddress =
      typeof account === 'string' && AddressStruct.is(account)
        ? { ...(params as object), account: (await this.#account(account)).id }
        : params;
    return this.#maybeAlone(origin, alone, async () =>
      this.#keyring.sendUserOperation(byAddress, origin),
    );
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
   * The snap's account with this address.
   *
   * @param address - 20-byte hex, any letter case.
   * @returns The account.
   * @throws JsonRpcError 4100 when no account of this snap has it.
   */
  async #account(
    address: string,
  ): Promise<Awaited<ReturnType<KeyringSnap['listAccounts']>>[number]> {
    const account = (await this.#keyring.listAccounts()).find(
      (candidate) => candidate.address.toLowerCase() === address.toLowerCase(),
    );
    if (!account) {
      throw unauthorized('That address is not one of this snap’s accounts');
    }
    return account;
  }

  /**
   * Whether the account can send on `scope`: an EOA on every chain, a smart account on its scopes.
   *
   * @param account - The account.
   * @param account.type - Its keyring-api type.
   * @param account.scopes - Its CAIP-2 scopes.
   * @param scope - A configured chain.
   * @returns True when it can.
   */
  #serves(
    account: { type: string; scopes: readonly string[] },
    scope: string,
  ): boolean {
    return account.type === 'eip155:eoa' || account.scopes.includes(scope);
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
 * A CAIP-2 EVM scope's chain id as EIP-5792 writes it.
 *
 * @param scope - `eip155:<decimal>`.
 * @returns The chain id as a hex quantity (`0x7a69`).
 */
function chainHex(scope: string): string {
  return `0x${BigInt(scope.slice('eip155:'.length)).toString(16)}`;
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
