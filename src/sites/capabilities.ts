import type { KeyringAccount } from '@metamask/keyring-api';
import type { Json } from '@metamask/utils';

import type { ChainConfig } from '../accounts/erc4337/types';
import { readAccountsOnChains } from '../keyring/chainView';
import type { Settings } from '../settings';
import { unauthorized, walletCallsError } from '../utils/errors';

/**
 * EIP-5792 `wallet_getCapabilities` of one of the snap's accounts, on the configured chains it can
 * send on (https://eips.ethereum.org/EIPS/eip-5792, the `atomic` capability):
 *
 * - a smart account: `atomic: { status: "supported" }` on its chains (every call of a bundle runs in
 *   one user operation);
 * - an EOA: `"supported"` where it is upgraded (EIP-7702, delegated to Simple7702Account or to
 *   MetaMask's EIP7702StatelessDeleGator, both of which the snap sends from), `"ready"`
 *   where it is not yet (its first send upgrades it, after the person approves that send), read from
 *   each chain in one batch (a chain that does not answer counts as not upgraded); a chain where
 *   other code runs the EOA is left out (the snap does not send from it there);
 * - `paymasterService: { supported: true }` where the chain has a paymaster service (ERC-7677).
 *
 * @param settings - The chain settings.
 * @param account - The account.
 * @param wanted - The chain ids asked for (hex quantities, canonical), or undefined for every one.
 * @returns Capabilities keyed by chain id hex, e.g. `{ "0x7a69": { atomic: { status: "ready" } } }`.
 */
export async function accountCapabilities(
  settings: Settings,
  account: KeyringAccount,
  wanted: readonly string[] | undefined,
): Promise<Record<string, Json>> {
  const configs = Object.values(settings.allChainConfigs()).filter(
    (config) =>
      (wanted === undefined || wanted.includes(chainHex(config.scope))) &&
      servesScope(account, config.scope),
  );
  const onChains =
    account.type === 'eip155:eoa'
      ? ((await readAccountsOnChains([account], configs))[account.id] ?? [])
      : [];
  const result: Record<string, Json> = {};
  for (const config of configs) {
    const code = onChains.find((read) => read.scope === config.scope)?.code;
    if (code === 'other') {
      continue;
    }
    const status =
      account.type === 'eip155:eoa' &&
      code !== 'simple7702' &&
      code !== 'deleGator'
        ? 'ready'
        : 'supported';
    result[chainHex(config.scope)] = {
      atomic: { status },
      ...(config.paymasterUrl ? { paymasterService: { supported: true } } : {}),
    };
  }
  return result;
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
export function servesScope(
  account: { type: string; scopes: readonly string[] },
  scope: string,
): boolean {
  return account.type === 'eip155:eoa' || account.scopes.includes(scope);
}

/**
 * A CAIP-2 EVM scope's chain id as EIP-5792 writes it.
 *
 * @param scope - `eip155:<decimal>`.
 * @returns The chain id as a hex quantity (`0x7a69`).
 */
export function chainHex(scope: string): string {
  return `0x${BigInt(scope.slice('eip155:'.length)).toString(16)}`;
}

/**
 * The capabilities a `wallet_sendCalls` request requires: those of the request and of its calls
 * not marked `optional: true`.
 *
 * @param request - The validated request.
 * @param request.capabilities - The request's capabilities.
 * @param request.calls - Its calls, each with its own capabilities.
 * @returns Their names, each once.
 */
export function requiredCapabilities(request: {
  capabilities?: Record<string, unknown> | undefined;
  calls: { capabilities?: Record<string, unknown> | undefined }[];
}): string[] {
  const names = [
    request.capabilities,
    ...request.calls.map((call) => call.capabilities),
  ]
    .flatMap((capabilities) => Object.entries(capabilities ?? {}))
    .filter(
      ([, value]) =>
        (value as { optional?: unknown } | null)?.optional !== true,
    )
    .map(([name]) => name);
  return [...new Set(names)];
}

/**
 * Why a send from `account` on `scope` is refused before anything is drafted, as EIP-5792 words it
 * for a site that knows the account: 4100 when it is not the snap's, 5710 for a chain without
 * settings or that the account does not serve, 5700 for a required `paymasterService` on a chain
 * without a paymaster service.
 *
 * @param account - The snap's account with the request's `from`, if any.
 * @param scope - The request's chain.
 * @param config - The chain's settings, if any.
 * @param required - The capabilities the request requires.
 * @returns The refusal, or undefined when the send may go on.
 */
export function sendRefusal(
  account: { type: string; scopes: readonly string[] } | undefined,
  scope: string,
  config: ChainConfig | undefined,
  required: readonly string[],
): Error | undefined {
  if (!account) {
    return unauthorized('That address is not one of this snap’s accounts');
  }
  if (!config || !servesScope(account, scope)) {
    return walletCallsError(
      5710,
      'Unsupported chain: this account has no settings for it in the snap',
    );
  }
  return required.includes('paymasterService') && !config.paymasterUrl
    ? walletCallsError(
        5700,
        'Unsupported capability: paymasterService on this chain',
      )
    : undefined;
}
