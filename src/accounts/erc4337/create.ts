import { getAddress, isAddressEqual, type Hex } from 'viem';

import { createRpcClient } from '../../chain';
import { invalidParams, notFound } from '../../errors';
import type { AccountMetadata } from '../../metadata';
import { parseScope } from '../../scope';
import type { ChainConfig, SmartAccountData } from '../../state';
import { ACCOUNT_SALT } from './constants';
import { computeAccountAddress } from './prepare';

/**
 * Work out a new SimpleAccount v0.6 of `owner` on `scopes` (network only, no key): each scope's
 * chain config, with the account metadata's `accountFactory` / `entryPoint` winning for this
 * account (never an RPC URL); the counterfactual address from the factory's own CREATE2
 * `getAddress(owner, 0)` on every scope's chain (one batched round trip each, in parallel),
 * required to be the same everywhere; the metadata's bundler and paymaster URLs.
 *
 * @param owner - The owner EOA's address.
 * @param scopes - CAIP-2 chains of the account (non-empty).
 * @param chains - The stored chain configs, by scope.
 * @param metadata - The account's IPFS metadata, if any.
 * @returns `{ address, scopes, data }`, data being what the keyring keeps (SmartAccountData).
 * @throws JsonRpcError -32001 for a chain without config, -32602 when the chains disagree.
 */
export async function resolveSmartAccount(
  owner: Hex,
  scopes: string[],
  chains: Record<string, ChainConfig>,
  metadata?: AccountMetadata,
): Promise<{ address: Hex; scopes: string[]; data: SmartAccountData }> {
  if (scopes.length === 0) {
    throw notFound('No chain is configured: call setChainConfig before creating a smart account');
  }
  const configs = scopes.map((scope) => {
    parseScope(scope);
    const config = chains[scope];
    if (!config) {
      throw notFound(`No chain config for ${scope}: call setChainConfig first`);
    }
    const own = metadata?.chains?.[scope] ?? {};
    return {
      rpcUrl: config.rpcUrl,
      accountFactory: getAddress(own.accountFactory ?? config.accountFactory),
      entryPoint: getAddress(own.entryPoint ?? config.entryPoint),
    };
  });
  const [first] = configs as [(typeof configs)[number]];
  if (configs.some((config) => config.accountFactory !== first.accountFactory || config.entryPoint !== first.entryPoint)) {
    throw invalidParams('These scopes use different factories or entry points: a smart account has one address on all its chains');
  }
  const resolved = await Promise.all(configs.map(async (config) => computeAccountAddress(createRpcClient({ url: config.rpcUrl }), config.accountFactory, owner)));
  const address = (resolved[0] as (typeof resolved)[number]).address;
  if (resolved.some((entry) => !isAddressEqual(entry.address, address))) {
    throw invalidParams('The factory gives different addresses on these chains: create one account per chain');
  }
  const services = serviceUrls(metadata, scopes);
  return {
    address,
    scopes,
    data: {
      owner,
      accountFactory: first.accountFactory,
      entryPoint: first.entryPoint,
      salt: ACCOUNT_SALT.toString(),
      implementations: Object.fromEntries(scopes.map((scope, index) => [scope, resolved[index]?.implementation as string])),
      ...(services ? { chains: services } : {}),
    },
  };
}

/** The bundler and paymaster URLs the metadata sets for the account's own chains. */
function serviceUrls(metadata: AccountMetadata | undefined, scopes: string[]): SmartAccountData['chains'] {
  const chains: NonNullable<SmartAccountData['chains']> = {};
  for (const scope of scopes) {
    const { bundlerUrl, paymasterUrl } = metadata?.chains?.[scope] ?? {};
    if (bundlerUrl || paymasterUrl) {
      chains[scope] = { ...(bundlerUrl ? { bundlerUrl } : {}), ...(paymasterUrl ? { paymasterUrl } : {}) };
    }
  }
  return Object.keys(chains).length > 0 ? chains : undefined;
}
