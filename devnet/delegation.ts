/**
 * MetaMask's Delegation Framework v1.3.0 on a local chain, deployed offline with the Smart
 * Accounts Kit's own `deploySmartAccountsEnvironment` (`@metamask/smart-accounts-kit/utils`; the
 * bytecode ships in `@metamask/delegation-abis`): the DelegationManager, the DeleGator
 * implementations (EIP7702StatelessDeleGatorImpl among them) and the caveat enforcers, by plain
 * CREATE from their own deployer, so not at the canonical addresses. Its EntryPoint is the
 * canonical EntryPoint v0.7 the devnet already runs (passed in as deployed), so Alto, the
 * VerifyingPaymaster and the token paymaster of v0.7 serve DeleGator accounts too.
 */
import type { SmartAccountsEnvironment } from '@metamask/smart-accounts-kit';
import { deploySmartAccountsEnvironment } from '@metamask/smart-accounts-kit/utils';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { chainOf } from './erc4337';

/**
 * Anvil's dev key 4 (the test mnemonic's fifth account): the framework's own deployer, so no other
 * devnet contract's CREATE address moves when the framework is added.
 */
export const DELEGATION_DEPLOYER_KEY: Hex =
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a';

/**
 * Deploy the Delegation Framework with the kit (about 40 contracts, a few seconds on anvil).
 *
 * @param rpcUrl - JSON-RPC URL of the chain (a local anvil).
 * @param options - Options.
 * @param options.entryPoint - An EntryPoint v0.7 already on the chain for the DeleGators to use
 * (default: the kit deploys one of its own).
 * @param options.deployerKey - Funded key that sends the transactions (default
 * {@link DELEGATION_DEPLOYER_KEY}).
 * @param options.timeoutMs - Bound of each request (default 30 s).
 * @returns The environment exactly as `deploySmartAccountsEnvironment` returns it: what
 * `setChainConfig` takes as `delegationEnvironment`.
 */
export async function deployDelegationFramework(
  rpcUrl: string,
  options: { entryPoint?: Address; deployerKey?: Hex; timeoutMs?: number } = {},
): Promise<SmartAccountsEnvironment> {
  const chain = await chainOf(rpcUrl);
  const transport = http(rpcUrl, { timeout: options.timeoutMs ?? 30_000 });
  const publicClient = createPublicClient({
    chain,
    transport,
    pollingInterval: 50,
  });
  const walletClient = createWalletClient({
    chain,
    transport,
    account: privateKeyToAccount(
      options.deployerKey ?? DELEGATION_DEPLOYER_KEY,
    ),
    pollingInterval: 50,
  });
  return deploySmartAccountsEnvironment(
    walletClient,
    publicClient,
    chain,
    options.entryPoint ? { EntryPoint: options.entryPoint } : {},
  );
}
