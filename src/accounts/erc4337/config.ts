import { exactOptional, object } from '@metamask/superstruct';
import { getAddress, isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import { DEFAULT_ACCOUNT_FACTORY, DEFAULT_ENTRY_POINT } from './constants';
import type {
  AccountChainOverrides,
  ChainConfig,
  ChainSettings,
} from './types';
import { createRpcClient, maskUrl } from '../../chain';
import { invalidParams, validate } from '../../utils/errors';
import { parseScope } from '../../utils/scope';
import {
  AddressStruct,
  ChainScopeStruct,
  HttpUrlStruct,
} from '../../utils/structs';

/** `setChainConfig` params: `{ scope, rpcUrl, entryPoint?, accountFactory?, bundlerUrl?, paymasterUrl? }`. */
export const ChainConfigParamsStruct = object({
  scope: ChainScopeStruct,
  rpcUrl: HttpUrlStruct,
  entryPoint: exactOptional(AddressStruct),
  accountFactory: exactOptional(AddressStruct),
  bundlerUrl: exactOptional(HttpUrlStruct),
  paymasterUrl: exactOptional(HttpUrlStruct),
});

/**
 * Validate `setChainConfig` params and fill the defaults: the canonical EntryPoint v0.6 and
 * SimpleAccountFactory v0.6 deployments. Addresses are checksummed (EIP-55).
 *
 * @param params - Untrusted params.
 * @returns The config to store.
 * @throws JsonRpcError -32602 naming the bad field (never echoing its value).
 */
export function parseChainConfig(params: unknown): ChainConfig {
  const input = validate(
    params,
    ChainConfigParamsStruct,
    'setChainConfig params',
  );
  return {
    scope: input.scope,
    rpcUrl: input.rpcUrl,
    entryPoint: getAddress(input.entryPoint ?? DEFAULT_ENTRY_POINT),
    accountFactory: getAddress(input.accountFactory ?? DEFAULT_ACCOUNT_FACTORY),
    ...(input.bundlerUrl ? { bundlerUrl: input.bundlerUrl } : {}),
    ...(input.paymasterUrl ? { paymasterUrl: input.paymasterUrl } : {}),
  };
}

/**
 * Check over the network that `config.rpcUrl` serves the chain its scope names (`eth_chainId`).
 *
 * @param config - A parsed config.
 * @throws JsonRpcError -32602 when the endpoint serves another chain; the adapter's errors
 * (-32002 unreachable, provider codes) when it cannot be asked.
 */
export async function verifyChainConfig(config: ChainConfig): Promise<void> {
  const served = await createRpcClient({ url: config.rpcUrl }).chainId();
  if (BigInt(served) !== parseScope(config.scope).chainId) {
    throw invalidParams(
      `Invalid setChainConfig params at rpcUrl: it serves chain ${served}, not ${config.scope}`,
      {
        reason: 'chainMismatch',
        field: 'rpcUrl',
        chainId: BigInt(served).toString(),
        scope: config.scope,
      },
    );
  }
}

/**
 * A chain config as it may be shown: every URL with its API key masked.
 *
 * @param config - Stored config.
 * @returns A copy safe to return, log or render.
 */
export function maskChainConfig(config: ChainConfig): ChainConfig {
  return {
    ...config,
    rpcUrl: maskUrl(config.rpcUrl),
    ...(config.bundlerUrl ? { bundlerUrl: maskUrl(config.bundlerUrl) } : {}),
    ...(config.paymasterUrl
      ? { paymasterUrl: maskUrl(config.paymasterUrl) }
      : {}),
  };
}

/**
 * The one merge of a chain config and an account's own settings, used both when a smart account
 * is created (overrides from its metadata) and for every request (overrides it was created with).
 * The RPC URL always comes from the chain config; bundler and paymaster URLs from the account
 * first; the EntryPoint and factory from the account when it names them.
 *
 * @param config - The scope's chain config.
 * @param overrides - The account's settings for that chain, if any.
 * @returns The settings to run with, chain id included.
 */
export function resolveChainSettings(
  config: ChainConfig,
  overrides: AccountChainOverrides = {},
): ChainSettings {
  const bundlerUrl = overrides.bundlerUrl ?? config.bundlerUrl;
  const paymasterUrl = overrides.paymasterUrl ?? config.paymasterUrl;
  return {
    scope: config.scope,
    chainId: parseScope(config.scope).chainId,
    rpcUrl: config.rpcUrl,
    entryPoint: getAddress(overrides.entryPoint ?? config.entryPoint),
    accountFactory: getAddress(
      overrides.accountFactory ?? config.accountFactory,
    ),
    ...(bundlerUrl ? { bundlerUrl } : {}),
    ...(paymasterUrl ? { paymasterUrl } : {}),
  };
}

/**
 * Whether an EntryPoint/factory pair is one the user already trusts: the chain config's own, or
 * the canonical v0.6 deployments. Anything else (named by account metadata) chooses the account's
 * address, so it must be confirmed by the user first.
 *
 * @param settings - Merged settings.
 * @param config - The chain config they came from.
 * @returns True when both addresses are trusted.
 */
export function usesTrustedContracts(
  settings: ChainSettings,
  config: ChainConfig,
): boolean {
  /**
   * Whether an address is the configured one or the canonical deployment.
   *
   * @param address - The address in the merged settings.
   * @param configured - The chain config's address.
   * @param canonical - The canonical v0.6 deployment's address.
   * @returns True when it equals either (case-insensitive).
   */
  const trusted = (
    address: string,
    configured: string,
    canonical: string,
  ): boolean =>
    isAddressEqual(address as Hex, configured as Hex) ||
    isAddressEqual(address as Hex, canonical as Hex);
  return (
    trusted(settings.entryPoint, config.entryPoint, DEFAULT_ENTRY_POINT) &&
    trusted(
      settings.accountFactory,
      config.accountFactory,
      DEFAULT_ACCOUNT_FACTORY,
    )
  );
}
