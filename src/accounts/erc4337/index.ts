import { EthMethod, EthUserOperationStruct } from '@metamask/keyring-api';
import type { EthUserOperation } from '@metamask/keyring-api';
import { array, size } from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import { getAddress, isAddress, isAddressEqual, isHex } from 'viem';
import type { Hex } from 'viem';

import { resolveChainSettings } from './config';
import { assertUserOperationBounds } from './opBounds';
import { patchUserOperation } from './paymaster';
import { prepareUserOperation } from './prepare';
import type { SmartAccountChain } from './prepare';
import type { ChainConfig, SmartAccountData } from './types';
import type { Intent } from './userop';
import { createRpcClient } from '../../chain';
import { invalidParams, notFound, validate } from '../../utils/errors';

export { signUserOperation } from './userop';
export { newSmartAccount, resolveSmartAccount } from './create';
export { assertFunds } from './funds';
export { lookupUserOperationReceipt } from './receipt';
export {
  DeployingSends,
  draftUserOperation,
  rememberSent,
  submitUserOperation,
} from './send';
export type { SendSummary } from './send';
export { sendNoncesOf } from './sendNonces';
export { readSendNonce } from './nonce';
export type { SendNonces } from './sendNonces';
export {
  draftModernUserOperation,
  signModernUserOperation,
  submitModernUserOperation,
} from './modern';
export {
  assertUpgradable,
  delegationOf,
  draftUndoTransaction,
  eip7702Chain,
  readEoaChainState,
  sendUndoTransaction,
  signEip7702Authorization,
  SIMPLE_7702_ACCOUNT,
  stubAuthorization,
  UNDO_MIN_GAS,
} from './eip7702';
export type { ResolvedSmartAccount } from './create';
export {
  contractsOf,
  maskChainConfig,
  parseChainConfig,
  verifyChainConfig,
} from './config';
export type { ChainConfig, SmartAccountData } from './types';
export type { EntryPointVersion } from './versions';

/** A validated ERC-4337 request. */
export type SmartTask =
  | { method: 'eth_prepareUserOperation'; intents: Intent[] }
  | { method: 'eth_patchUserOperation'; userOp: EthUserOperation }
  | { method: 'eth_signUserOperation'; userOp: EthUserOperation };

const IntentsStruct = size(array(), 1, 32);

/**
 * Check an ERC-4337 request for the smart account `address` (sender) before anything runs.
 * eth_prepareUserOperation params are the intents themselves, flat (`[intent, ...]`, as MetaMask
 * sends them); eth_signUserOperation accepts `[userOp]` (MetaMask) and `[userOp, entryPoint]` (keyring-api's documented form).
 *
 * @param address - The smart account's address.
 * @param data - Its ERC-4337 data (entry point).
 * @param method - One of ERC4337_METHODS.
 * @param params - The request params.
 * @returns The task.
 * @throws JsonRpcError -32602 naming the bad field, a foreign sender or entry point.
 */
export function parseSmartAccountRequest(
  address: string,
  data: SmartAccountData,
  method: string,
  params: unknown,
): SmartTask {
  switch (method) {
    case EthMethod.PrepareUserOperation: {
      const list = validate(
        params,
        IntentsStruct,
        'eth_prepareUserOperation params',
      );
      return {
        method,
        intents: list.map((intent, index) => parseIntent(intent, index)),
      };
    }
    case EthMethod.PatchUserOperation:
    case EthMethod.SignUserOperation: {
      if (
        !Array.isArray(params) ||
        params.length < 1 ||
        params.length > (method === EthMethod.SignUserOperation ? 2 : 1)
      ) {
        throw invalidParams(
          `Invalid ${method} params: expected [userOp]${method === EthMethod.SignUserOperation ? ' or [userOp, entryPoint]' : ''}`,
        );
      }
      const userOp = validate(
        params[0],
        EthUserOperationStruct,
        `${method} params[0]`,
      );
      assertUserOperationBounds(userOp, `${method} params[0]`);
      if (!isAddressEqual(userOp.sender as Hex, address as Hex)) {
        throw invalidParams(
          `Invalid ${method} params[0].sender: not this account`,
        );
      }
      const entryPoint = params[1];
      if (
        entryPoint !== undefined &&
        (typeof entryPoint !== 'string' ||
          !isAddress(entryPoint, { strict: false }) ||
          !isAddressEqual(entryPoint, data.entryPoint as Hex))
      ) {
        throw invalidParams(
          `Invalid ${method} params[1]: not this account's EntryPoint ${data.entryPoint}`,
        );
      }
      return { method, userOp };
    }
    default:
      throw invalidParams(
        `Method '${method}' is not supported by ERC-4337 accounts`,
      );
  }
}

/**
 * Check sendUserOperation's intents as eth_prepareUserOperation checks its params.
 *
 * @param params - 1 to 32 intents `{ to, value?, data? }`.
 * @returns The intents (checksummed `to`, value in wei, data hex).
 * @throws JsonRpcError -32602 naming the bad intent and field.
 */
export function parseIntents(params: unknown): Intent[] {
  const list = validate(
    params,
    IntentsStruct,
    'eth_prepareUserOperation params',
  );
  return list.map((intent, index) => parseIntent(intent, index));
}

/**
 * Check one eth_prepareUserOperation intent (a transaction `{ to, value?, data? }`).
 *
 * @param raw - The intent as received.
 * @param index - Its position in the params, for the error.
 * @returns The intent: checksummed `to`, `value` in wei (default 0), `data` hex bytes (default `0x`).
 * @throws JsonRpcError -32602 naming the field: a missing or null `to` (contract creation, which
 * SimpleAccount v0.6 `execute` cannot do), a malformed address, a value that is not a quantity
 * below 2^256, or data that is not hex bytes.
 */
function parseIntent(raw: unknown, index: number): Intent {
  const where = `Invalid eth_prepareUserOperation params at ${index}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidParams(`${where}: expected an intent { to, value, data }`);
  }
  const { to, value = '0x0', data = '0x' } = raw as Record<string, unknown>;
  if (to === null || to === undefined) {
    throw invalidParams(
      `${where}.to: contract creation (to: null) is not supported: SimpleAccount v0.6 execute cannot deploy`,
      { reason: 'invalidIntent', field: 'to' },
    );
  }
  if (typeof to !== 'string' || !isAddress(to, { strict: false })) {
    throw invalidParams(`${where}.to: expected a 20-byte address`, {
      reason: 'invalidIntent',
      field: 'to',
    });
  }
  if (
    typeof value !== 'string' ||
    !/^(0x[0-9a-fA-F]+|[0-9]+)$/u.test(value) ||
    value.length > 80 ||
    BigInt(value) >= 2n ** 256n
  ) {
    throw invalidParams(
      `${where}.value: expected a hex or decimal quantity in wei, at most 2^256 - 1`,
      { reason: 'invalidIntent', field: 'value' },
    );
  }
  if (typeof data !== 'string' || !isHex(data) || data.length % 2 !== 0) {
    throw invalidParams(`${where}.data: expected hex bytes`, {
      reason: 'invalidIntent',
      field: 'data',
    });
  }
  return { to: getAddress(to), value: BigInt(value), data };
}

/**
 * The chain side of a smart account for the request's scope, built once per request: the chain
 * config merged with the account's own EntryPoint, factory and service URLs
 * (`resolveChainSettings`), and an RPC client for the chain config's rpcUrl (never from metadata).
 * No I/O happens here.
 *
 * @param account - The account.
 * @param account.address - Its address, the operations' sender.
 * @param account.scopes - Its CAIP-2 chains.
 * @param data - Its ERC-4337 data.
 * @param scope - The request's scope, `eip155:<decimal chain id>`.
 * @param config - The chain config of that scope, if any.
 * @returns The chain side.
 * @throws JsonRpcError -32602 when the scope is not the account's, -32001 when the chain has no config.
 */
export function smartAccountChain(
  account: { address: string; scopes: string[] },
  data: SmartAccountData,
  scope: string,
  config: ChainConfig | undefined,
): SmartAccountChain {
  if (!account.scopes.includes(scope)) {
    throw invalidParams(
      `Invalid scope: not one of this account's chains (${account.scopes.join(', ')})`,
    );
  }
  if (!config) {
    throw notFound(`No chain config for ${scope}: call setChainConfig first`, {
      reason: 'noChainConfig',
    });
  }
  const settings = resolveChainSettings(config, {
    entryPoint: data.entryPoint,
    accountFactory: data.accountFactory,
    ...data.chains?.[scope],
  });
  return {
    client: createRpcClient({ url: settings.rpcUrl }),
    chainId: settings.chainId,
    entryPointVersion: data.entryPointVersion ?? '0.6',
    entryPoint: settings.entryPoint as Hex,
    accountFactory: settings.accountFactory as Hex,
    implementation: (data.implementations[scope] ?? '0x') as Hex,
    owner: data.owner as Hex,
    sender: account.address as Hex,
    ...(settings.bundlerUrl ? { bundlerUrl: settings.bundlerUrl } : {}),
    ...(settings.paymasterUrl ? { paymasterUrl: settings.paymasterUrl } : {}),
  };
}

/**
 * Run a prepare or patch task (no key involved). Signing stays with the keyring.
 *
 * @param chain - The chain side.
 * @param task - A prepare or patch task.
 * @returns The keyring-api reply: `EthBaseUserOperation` or `EthUserOperationPatch`, exactly.
 */
export async function runSmartAccountTask(
  chain: SmartAccountChain,
  task: SmartTask,
): Promise<Json> {
  switch (task.method) {
    case 'eth_prepareUserOperation':
      return prepareUserOperation(chain, task.intents);
    case 'eth_patchUserOperation':
      return patchUserOperation(
        chain.paymasterUrl,
        task.userOp,
        chain.entryPoint,
        chain.chainId,
      );
    default:
      throw invalidParams(`Method '${task.method}' needs the owner's key`);
  }
}
export {
  ownerAccountAddress,
  readAccountImplementations,
} from './counterfactual';
export { readGasTokens } from './tokenHoldings';
export type { GasTokenView } from './tokenHoldings';
