import { EthAccountType } from '@metamask/keyring-api';
import type { KeyringAccount } from '@metamask/keyring-api';
import { v4 as uuidv4 } from 'uuid';
import { isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import { resolveChainSettings, usesTrustedContracts } from './config';
import { ACCOUNT_SALT } from './constants';
import { computeAccountAddress } from './prepare';
import type {
  AccountChainOverrides,
  ChainConfig,
  SmartAccountData,
} from './types';
import { ERC4337_METHODS } from './userop';
import type { EntryPointVersion } from './versions';
import { createRpcClient } from '../../chain';
import { invalidParams, notFound, throwNotFound } from '../../utils/errors';

/** A smart account worked out before it is stored: where it lives and what the keyring keeps. */
export type ResolvedSmartAccount = {
  /**
   * The counterfactual address, computed by the snap (CREATE2 of the factory, its implementation
   * and the owner; the factory's `getAddress(owner, salt)` must agree), the same on every scope.
   */
  address: Hex;
  /** CAIP-2 chains of the account, `eip155:<decimal chain id>`. */
  scopes: string[];
  /** What the keyring stores for the account. */
  data: SmartAccountData;
  /**
   * False when the account's metadata named an EntryPoint or factory that is neither the chain
   * config's nor the canonical v0.6 deployment: such a factory chooses the address, so the user
   * must confirm it first.
   */
  trusted: boolean;
};

/**
 * Work out a new SimpleAccount v0.6 of `owner` on `scopes` (network only, no key): each scope's
 * chain config merged with the account's overrides (`resolveChainSettings`); the counterfactual
 * address computed locally (CREATE2, EIP-1014) from the factory's immutable implementation on every
 * scope's chain and checked against the factory's `getAddress(owner, 0)` there (one batched round
 * trip each, in parallel, see `computeAccountAddress`), required to be the same everywhere. The
 * implementation read is kept in the account's data for life (`implementations`).
 *
 * @param owner - The owner EOA's address.
 * @param scopes - CAIP-2 chains of the account (non-empty), `eip155:<decimal chain id>`.
 * @param chains - The stored chain configs, by scope.
 * @param overrides - The account's per-chain settings (from its IPFS metadata), by scope.
 * @param version - The EntryPoint version (default v0.6): the chain config's EntryPoint and
 * SimpleAccountFactory of that version (else the canonical ones) are used, and kept in the data.
 * @returns The resolved account; `trusted` tells whether its contracts need the user's confirmation.
 * @throws JsonRpcError -32001 for a chain without config, -32602 when the chains disagree or no
 * factory is deployed, -32603 when a chain's RPC answers a `getAddress` that disagrees with the
 * computed address (nothing is stored then); the chain adapter's errors when a chain cannot be read.
 */
export async function resolveSmartAccount(
  owner: Hex,
  scopes: string[],
  chains: Record<string, ChainConfig>,
  overrides: Record<string, AccountChainOverrides> = {},
  version: EntryPointVersion = '0.6',
): Promise<ResolvedSmartAccount> {
  if (scopes.length === 0) {
    throw notFound(
      'No chain is configured: call setChainConfig before creating a smart account',
      { reason: 'noChainConfig' },
    );
  }
  const settings = scopes.map((scope) => {
    const config =
      chains[scope] ??
      throwNotFound(`No chain config for ${scope}: call setChainConfig first`, {
        reason: 'noChainConfig',
      });
    return {
      config,
      merged: resolveChainSettings(config, overrides[scope], version),
    };
  });
  const [first] = settings as [(typeof settings)[number]];
  if (
    settings.some(
      ({ merged }) =>
        merged.accountFactory !== first.merged.accountFactory ||
        merged.entryPoint !== first.merged.entryPoint,
    )
  ) {
    throw invalidParams(
      'These scopes use different factories or entry points: a smart account has one address on all its chains',
    );
  }
  const resolved = await Promise.all(
    settings.map(async ({ merged }) =>
      computeAccountAddress(
        createRpcClient({ url: merged.rpcUrl }),
        merged.accountFactory as Hex,
        owner,
        version,
      ),
    ),
  );
  const { address } = resolved[0];
  if (resolved.some((entry) => !isAddressEqual(entry.address, address))) {
    throw invalidParams(
      'The factory gives different addresses on these chains: create one account per chain',
    );
  }
  const services = serviceUrls(overrides, scopes);
  return {
    address,
    scopes,
    trusted: settings.every(({ config, merged }) =>
      usesTrustedContracts(merged, config, version),
    ),
    data: {
      owner,
      ...(version === '0.6' ? {} : { entryPointVersion: version }),
      accountFactory: first.merged.accountFactory,
      entryPoint: first.merged.entryPoint,
      salt: ACCOUNT_SALT.toString(),
      implementations: Object.fromEntries(
        scopes.map((scope, index) => [
          scope,
          resolved[index]?.implementation as string,
        ]),
      ),
      ...(services ? { chains: services } : {}),
    },
  };
}

/**
 * The keyring-api account of a resolved smart account (`eip155:erc4337`). A v0.6 account lists
 * keyring-api's three user-operation methods; a v0.7 or v0.8 account lists none, since those
 * methods carry only EntryPoint v0.6 shapes (initCode, paymasterAndData) in keyring-api: it sends
 * through the snap's own `sendUserOperation` and home page.
 *
 * @param resolved - From resolveSmartAccount.
 * @returns The account (a fresh UUID v4 id).
 */
export function newSmartAccount(
  resolved: ResolvedSmartAccount,
): KeyringAccount {
  return {
    id: uuidv4(),
    type: EthAccountType.Erc4337,
    address: resolved.address,
    scopes: resolved.scopes as `${string}:${string}`[],
    methods: resolved.data.entryPointVersion ? [] : [...ERC4337_METHODS],
    options: { exportable: true },
  };
}

/**
 * The bundler and paymaster URLs the account's settings name for its own chains.
 *
 * @param overrides - The account's per-chain settings (from its IPFS metadata), by scope.
 * @param scopes - CAIP-2 chains of the account.
 * @returns The non-empty URLs by scope, or undefined when no scope has any.
 */
function serviceUrls(
  overrides: Record<string, AccountChainOverrides>,
  scopes: string[],
): SmartAccountData['chains'] {
  const chains: NonNullable<SmartAccountData['chains']> = {};
  for (const scope of scopes) {
    const { bundlerUrl, paymasterUrl } = overrides[scope] ?? {};
    if (bundlerUrl || paymasterUrl) {
      chains[scope] = {
        ...(bundlerUrl ? { bundlerUrl } : {}),
        ...(paymasterUrl ? { paymasterUrl } : {}),
      };
    }
  }
  return Object.keys(chains).length > 0 ? chains : undefined;
}
