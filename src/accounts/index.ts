import { EthAccountType, EthMethod, EthScope } from '@metamask/keyring-api';
import type { KeyringAccount, KeyringRequest } from '@metamask/keyring-api';
import type { Json, JsonRpcRequest } from '@metamask/utils';
import { v4 as uuidv4 } from 'uuid';
import type { Hex } from 'viem';

import { EOA_METHODS, parseEoaRequest, signEoaTask } from './eoa';
import type { EoaTask } from './eoa';
import {
  parseSmartAccountRequest,
  runSmartAccountTask,
  signUserOperation,
  smartAccountChain,
} from './erc4337';
import type { ChainConfig, SmartAccountData, SmartTask } from './erc4337';
import { invalidParams } from '../utils/errors';
import { knownName } from '../utils/safeText';
import type { SmartAccountChain } from './erc4337/prepare';

/**
 * The account types behind one routing point: a request is parsed once, against its account and
 * scope, into a task that carries everything it runs with; the domain then either answers it at
 * once (nothing to sign) or signs it with the account's key.
 */

/** What routing needs of an account: its public data and, for a smart account, its ERC-4337 data. */
export type AccountView = {
  /** The keyring-api account (id, type, address, scopes, methods). */
  account: KeyringAccount;
  /** The ERC-4337 data, for an `eip155:erc4337` account only. */
  smartAccount?: SmartAccountData;
};

/** A parsed request with its context (for a smart account, the chain side built once). */
export type AccountTask =
  | { type: 'eoa'; task: EoaTask }
  | { type: 'erc4337'; task: SmartTask; chain: SmartAccountChain };

/**
 * Parse a keyring request for `view`'s account: method listed by the account, params valid,
 * scope the account's; for a smart account, its chain side resolved from `chainConfig`.
 *
 * @param view - The account.
 * @param request - keyring-api `KeyringRequest`: `{ id, scope, account, origin, request: { method, params } }`.
 * @param chainConfig - The chain config of the request's scope, if any.
 * @param own - The addresses of every account of the snap: an EOA refuses typed data that is an
 * instruction to one of them (see parseEoaRequest).
 * @param delegationManagers - The DelegationManagers of the configured chains and the canonical
 * one: an EOA refuses typed data of a `Delegation` under them (see parseEoaRequest).
 * @returns The task, ready to run or sign.
 * @throws JsonRpcError -32602 naming what is wrong, -32001 when the scope has no chain config.
 */
export function parseAccountRequest(
  view: AccountView,
  request: KeyringRequest,
  chainConfig: ChainConfig | undefined,
  own: readonly string[] = [],
  delegationManagers: readonly string[] = [],
): AccountTask {
  const { method, params } = request.request;
  if (!view.account.methods.includes(method)) {
    // Only a method name keyring-api knows is echoed (an unknown one may be anything a caller sent).
    const name = knownName(method, Object.values(EthMethod));
    throw invalidParams(
      `Account ${view.account.id} does not support ${name === 'this method' ? 'the requested method (not an Ethereum method of keyring-api)' : name}; it supports ${view.account.methods.join(', ')}`,
    );
  }
  if (view.smartAccount) {
    const chain = smartAccountChain(
      view.account,
      view.smartAccount,
      request.scope,
      chainConfig,
    );
    return {
      type: 'erc4337',
      task: parseSmartAccountRequest(
        view.account.address,
        view.smartAccount,
        method,
        params ?? [],
      ),
      chain,
    };
  }
  return {
    type: 'eoa',
    task: parseEoaRequest(
      view.account.address,
      request.scope,
      method,
      params ?? [],
      own,
      delegationManagers,
    ),
  };
}

/**
 * Whether a task signs nothing (`eth_prepareUserOperation`, `eth_patchUserOperation`): such a
 * task is answered at once, whatever the approval mode.
 *
 * @param task - A parsed task.
 * @returns True when no key is involved.
 */
export function signsNothing(
  task: AccountTask,
): task is AccountTask & { type: 'erc4337' } {
  return (
    task.type === 'erc4337' && task.task.method !== 'eth_signUserOperation'
  );
}

/**
 * Run a task that signs nothing (network only, no key).
 *
 * @param task - A prepare or patch task.
 * @returns keyring-api's `EthBaseUserOperation` or `EthUserOperationPatch`, exactly.
 */
export async function runUnsigned(
  task: AccountTask & { type: 'erc4337' },
): Promise<Json> {
  return runSmartAccountTask(task.chain, task.task);
}

/**
 * Sign a task with the account's key (no network).
 *
 * @param privateKey - 32-byte secp256k1 key, 0x-prefixed hex (for a smart account, its owner's).
 * @param task - A parsed signing task.
 * @returns The signature (65-byte hex) or `{ v, r, s }` for a transaction.
 * @throws JsonRpcError -32602 when the data cannot be signed.
 */
export async function signAccountTask(
  privateKey: string,
  task: AccountTask,
): Promise<Json> {
  if (task.type === 'eoa') {
    return signEoaTask(privateKey, task.task);
  }
  if (task.task.method !== 'eth_signUserOperation') {
    throw invalidParams(`Method '${task.task.method}' signs nothing`);
  }
  return signUserOperation(
    privateKey as Hex,
    task.task.userOp,
    task.chain.entryPoint,
    task.chain.chainId,
  );
}

/**
 * The keyring-api account of a new EOA (`eip155:eoa`, every EVM chain).
 *
 * @param address - Its address (20-byte hex).
 * @returns The account (a fresh UUID v4 id).
 */
export function newEoaAccount(address: string): KeyringAccount {
  return {
    id: uuidv4(),
    type: EthAccountType.Eoa,
    address,
    scopes: [EthScope.Eoa],
    methods: [...EOA_METHODS],
    options: { exportable: true },
  };
}

/**
 * The signer address a signing request names (keyring-api `resolveAccountAddress`).
 *
 * @param request - `{ method, params }` of a signing method.
 * @returns The address as given, or undefined when the request names none.
 */
export function signerOf(request: JsonRpcRequest): string | undefined {
  const params = Array.isArray(request.params) ? request.params : [];
  const first = params[0] as Record<string, Json> | string | undefined;
  switch (request.method) {
    case 'personal_sign':
      return typeof params[1] === 'string' ? params[1] : undefined;
    case 'eth_signTransaction':
      return typeof first === 'object' &&
        first !== null &&
        typeof first.from === 'string'
        ? first.from
        : undefined;
    case 'eth_signUserOperation':
    case 'eth_patchUserOperation':
      return typeof first === 'object' &&
        first !== null &&
        typeof first.sender === 'string'
        ? first.sender
        : undefined;
    default:
      return typeof first === 'string' ? first : undefined;
  }
}
