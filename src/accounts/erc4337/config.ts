import {
  array,
  exactOptional,
  object,
  size,
  unknown,
} from '@metamask/superstruct';
import { getAddress, isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import { DEFAULT_ACCOUNT_FACTORY, DEFAULT_ENTRY_POINT } from './constants';
import type {
  AccountChainOverrides,
  ChainConfig,
  ChainSettings,
} from './types';
import { CANONICAL_CONTRACTS } from './versions';
import type { EntryPointContracts, EntryPointVersion } from './versions';
import { createRpcClient, maskUrl } from '../../chain';
import { invalidParams, validate } from '../../utils/errors';
import { parseScope } from '../../utils/scope';
import {
  AddressStruct,
  ChainScopeStruct,
  HttpUrlStruct,
} from '../../utils/structs';
import {
  DelegationEnvironmentStruct,
  normalizeDelegationEnvironment,
} from '../deleGator/environment';

const EntryPointContractsStruct = object({
  entryPoint: AddressStruct,
  accountFactory: AddressStruct,
});

/** Most ERC-20 tokens a chain config lists for paying gas (`gasTokens`). */
export const MAX_GAS_TOKENS = 8;

/**
 * `setChainConfig` params: `{ scope, rpcUrl, entryPoint?, accountFactory?, bundlerUrl?,
 * paymasterUrl?, entryPoints?: { "0.7"?: { entryPoint, accountFactory }, "0.8"?: { ... } },
 * gasTokens?: [address, ...], delegationEnvironment? }` (at most {@link MAX_GAS_TOKENS} ERC-20
 * tokens the home page offers to pay gas with through the paymaster service; the Delegation
 * Framework's contracts as `DelegationEnvironmentStruct` bounds them).
 */
export const ChainConfigParamsStruct = object({
  scope: ChainScopeStruct,
  rpcUrl: HttpUrlStruct,
  entryPoint: exactOptional(AddressStruct),
  accountFactory: exactOptional(AddressStruct),
  bundlerUrl: exactOptional(HttpUrlStruct),
  paymasterUrl: exactOptional(HttpUrlStruct),
  entryPoints: exactOptional(
    object({
      '0.7': exactOptional(EntryPointContractsStruct),
      '0.8': exactOptional(EntryPointContractsStruct),
    }),
  ),
  gasTokens: exactOptional(size(array(AddressStruct), 0, MAX_GAS_TOKENS)),
  // checked on its own below, so an error names its fields (fieldName shortens longer names to <key>)
  delegationEnvironment: exactOptional(unknown()),
});

/**
 * Validate `setChainConfig` params and fill the defaults: the canonical EntryPoint v0.6 and
 * SimpleAccountFactory v0.6 deployments. Addresses are checksummed (EIP-55).
 *
 * @param params - Untrusted params.
 * @returns The config to store.
 * @throws JsonRpcError -32602 naming the bad field (never echoing its value); a URL holding a user
 * name and password is refused (`data.problem: 'credentials'`).
 */
export function parseChainConfig(params: unknown): ChainConfig {
  const input = validate(
    params,
    ChainConfigParamsStruct,
    'setChainConfig params',
  );
  for (const field of ['rpcUrl', 'bundlerUrl', 'paymasterUrl'] as const) {
    // fetch cannot send a URL's user name and password: refused here, not as an unreachable node
    if (/^[a-z]+:\/\/[^/?#]*@/iu.test(input[field] ?? '')) {
      throw invalidParams(
        `Invalid setChainConfig params at ${field}: it holds a user name and password, which are never sent; use the URL your provider gives, its key in the path or query`,
        { reason: 'invalidField', field, problem: 'credentials' },
      );
    }
  }
  return {
    scope: input.scope,
    rpcUrl: input.rpcUrl,
    entryPoint: getAddress(input.entryPoint ?? DEFAULT_ENTRY_POINT),
    accountFactory: getAddress(input.accountFactory ?? DEFAULT_ACCOUNT_FACTORY),
    ...(input.bundlerUrl ? { bundlerUrl: input.bundlerUrl } : {}),
    ...(input.paymasterUrl ? { paymasterUrl: input.paymasterUrl } : {}),
    ...entryPointOverrides(input.entryPoints),
    ...(input.gasTokens?.length
      ? {
          gasTokens: [
            ...new Set(input.gasTokens.map((token) => getAddress(token))),
          ],
        }
      : {}),
    ...(input.delegationEnvironment === undefined
      ? {}
      : {
          delegationEnvironment: normalizeDelegationEnvironment(
            validate(
              input.delegationEnvironment,
              DelegationEnvironmentStruct,
              'setChainConfig delegationEnvironment',
            ),
          ),
        }),
  };
}

/**
 * The checksummed v0.7 / v0.8 overrides of `setChainConfig`, when any is given.
 *
 * @param given - The validated `entryPoints` param.
 * @returns `{ entryPoints }` with the versions given, or nothing.
 */
function entryPointOverrides(
  given: ChainConfig['entryPoints'],
): Pick<ChainConfig, 'entryPoints'> {
  const entryPoints: NonNullable<ChainConfig['entryPoints']> = {};
  for (const version of ['0.7', '0.8'] as const) {
    const contracts = given?.[version];
    if (contracts) {
      entryPoints[version] = {
        entryPoint: getAddress(contracts.entryPoint),
        accountFactory: getAddress(contracts.accountFactory),
      };
    }
  }
  return Object.keys(entryPoints).length > 0 ? { entryPoints } : {};
}

/**
 * The EntryPoint and SimpleAccountFactory of `version` on a chain: the chain config's
 * (`entryPoint` / `accountFactory` for v0.6, `entryPoints[version]` for v0.7 and v0.8), else the
 * canonical deployment.
 *
 * @param config - The scope's chain config.
 * @param version - The EntryPoint version.
 * @returns Checksummed addresses.
 */
export function contractsOf(
  config: ChainConfig,
  version: EntryPointVersion,
): EntryPointContracts {
  const chosen =
    version === '0.6'
      ? { entryPoint: config.entryPoint, accountFactory: config.accountFactory }
      : (config.entryPoints?.[version] ?? CANONICAL_CONTRACTS[version]);
  return {
    entryPoint: getAddress(chosen.entryPoint),
    accountFactory: getAddress(chosen.accountFactory),
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
 * @param version - The account's EntryPoint version (default v0.6): which of the config's
 * EntryPoints and factories is the base (see {@link contractsOf}).
 * @returns The settings to run with, chain id included.
 */
export function resolveChainSettings(
  config: ChainConfig,
  overrides: AccountChainOverrides = {},
  version: EntryPointVersion = '0.6',
): ChainSettings {
  const bundlerUrl = overrides.bundlerUrl ?? config.bundlerUrl;
  const paymasterUrl = overrides.paymasterUrl ?? config.paymasterUrl;
  const base = contractsOf(config, version);
  return {
    scope: config.scope,
    chainId: parseScope(config.scope).chainId,
    rpcUrl: config.rpcUrl,
    entryPoint: getAddress(overrides.entryPoint ?? base.entryPoint),
    accountFactory: getAddress(overrides.accountFactory ?? base.accountFactory),
    ...(bundlerUrl ? { bundlerUrl } : {}),
    ...(paymasterUrl ? { paymasterUrl } : {}),
  };
}

/**
 * Whether an EntryPoint/factory pair is one the user already trusts: the chain config's own for
 * the version, or the canonical deployments of the version. Anything else (named by account
 * metadata) chooses the account's address, so it must be confirmed by the user first.
 *
 * @param settings - Merged settings.
 * @param config - The chain config they came from.
 * @param version - The account's EntryPoint version (default v0.6).
 * @returns True when both addresses are trusted.
 */
export function usesTrustedContracts(
  settings: ChainSettings,
  config: ChainConfig,
  version: EntryPointVersion = '0.6',
): boolean {
  const own = contractsOf(config, version);
  const known = CANONICAL_CONTRACTS[version];
  /**
   * Whether an address is the configured one or the canonical deployment.
   *
   * @param address - The address in the merged settings.
   * @param configured - The chain config's address.
   * @param canonical - The canonical deployment's address.
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
    trusted(settings.entryPoint, own.entryPoint, known.entryPoint) &&
    trusted(settings.accountFactory, own.accountFactory, known.accountFactory)
  );
}
