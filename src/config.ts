import { exactOptional, object, string } from '@metamask/superstruct';

import { DEFAULT_ACCOUNT_FACTORY, DEFAULT_ENTRY_POINT } from './accounts/erc4337/constants';
import { maskUrl } from './chain';
import { getAddress } from 'viem';
import { validate } from './errors';
import { parseScope } from './scope';
import type { ChainConfig, IpfsConfig } from './state';
import { AddressStruct, ChainScopeStruct, HttpUrlStruct } from './structs';

/** `setChainConfig` params (DESIGN.md): `{ scope, rpcUrl, entryPoint?, accountFactory?, bundlerUrl?, paymasterUrl? }`. */
export const ChainConfigParamsStruct = object({
  scope: ChainScopeStruct,
  rpcUrl: HttpUrlStruct,
  entryPoint: exactOptional(AddressStruct),
  accountFactory: exactOptional(AddressStruct),
  bundlerUrl: exactOptional(HttpUrlStruct),
  paymasterUrl: exactOptional(HttpUrlStruct),
});

/** `setIpfsConfig` params: `{ apiUrl, apiKey?, apiKeySecret? }`. */
export const IpfsConfigParamsStruct = object({
  apiUrl: HttpUrlStruct,
  apiKey: exactOptional(string()),
  apiKeySecret: exactOptional(string()),
});

/**
 * Validate `setChainConfig` params and fill the defaults: the canonical EntryPoint v0.6
 * and SimpleAccountFactory v0.6 deployments. Addresses are checksummed.
 *
 * @param params - Untrusted params.
 * @returns The config to store.
 * @throws JsonRpcError -32602 naming the bad field.
 */
export function parseChainConfig(params: unknown): ChainConfig {
  const input = validate(params, ChainConfigParamsStruct, 'setChainConfig params');
  parseScope(input.scope);
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
 * A chain config as it may be shown: every URL with its API key masked.
 *
 * @param config - Stored config.
 * @returns A copy safe to return or log.
 */
export function maskChainConfig(config: ChainConfig): ChainConfig {
  return {
    ...config,
    rpcUrl: maskUrl(config.rpcUrl),
    ...(config.bundlerUrl ? { bundlerUrl: maskUrl(config.bundlerUrl) } : {}),
    ...(config.paymasterUrl ? { paymasterUrl: maskUrl(config.paymasterUrl) } : {}),
  };
}

/**
 * Validate `setIpfsConfig` params.
 *
 * @param params - Untrusted params.
 * @returns The config to store (credentials included; never echoed).
 * @throws JsonRpcError -32602 naming the bad field.
 */
export function parseIpfsConfig(params: unknown): IpfsConfig {
  const input = validate(params, IpfsConfigParamsStruct, 'setIpfsConfig params');
  return {
    apiUrl: input.apiUrl,
    ...(input.apiKey === undefined ? {} : { apiKey: input.apiKey }),
    ...(input.apiKeySecret === undefined ? {} : { apiKeySecret: input.apiKeySecret }),
  };
}
