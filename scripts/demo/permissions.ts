/**
 * The demo's spending-permission flow (ERC-7715 / ERC-7710): a site asks with MetaMask's Smart
 * Accounts Kit (`erc7715ProviderActions` over a transport that calls the snap as the site), the
 * person approves one dialog (which also upgrades the EOA to MetaMask's DeleGator), and the site's
 * session key spends within the limit with the kit (`sendTransactionWithDelegation`) and is refused
 * beyond it; then the site revokes it and the session key is refused. Checked on anvil: balances,
 * the EOA's EIP-7702 code, the refusals' reasons.
 */
import type { SmartAccountsEnvironment } from '@metamask/smart-accounts-kit';
import { overrideDeployedEnvironment } from '@metamask/smart-accounts-kit/utils';
import {
  formatEther,
  getAddress,
  numberToHex,
  parseEther,
  toFunctionSelector,
} from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { deployDelegationFramework } from '../../devnet/delegation';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { kitOverSnap, redeem } from '../../devnet/permissions';
import { check, say } from '../lib/demo-log';
import type { SimulatedSnap } from '../lib/snap-sim';

const SITE = 'https://dapp.example';
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF';

/**
 * Run the flow on the devnet (its Delegation Framework, or one deployed here on its EntryPoint
 * v0.7), then leave the chain config with the framework in it.
 *
 * @param snap - The simulated snap.
 * @param devnet - The devnet (with `entryPoints`, `delegation` or `tokenPaymaster`).
 */
export async function permissionsFlow(
  snap: SimulatedSnap,
  devnet: Devnet,
): Promise<void> {
  say(
    "\n## Spending permissions (ERC-7715): a site's session key spends up to 0.01 ETH an hour, with MetaMask's Smart Accounts Kit",
  );
  const environment: SmartAccountsEnvironment =
    devnet.delegationEnvironment ??
    (await deployDelegationFramework(devnet.rpcUrl, {
      entryPoint: devnet.entryPoints?.['0.7'].entryPoint as Address,
    }));
  overrideDeployedEnvironment(devnet.chainId, '1.3.0', environment);
  await snap.rpcConfirmed('setChainConfig', {
    ...devnet.chainConfig,
    delegationEnvironment: environment as never,
  });
  const account = await snap.keyring('keyring_createAccount', {
    options: { name: 'Spender' },
  });
  const from = getAddress(account.address);
  await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
    from,
    numberToHex(parseEther('1')),
  ]);
  const sessionKey = generatePrivateKey();
  const session = privateKeyToAccount(sessionKey).address;
  await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
    session,
    numberToHex(parseEther('1')),
  ]);
  // the site's kit: every call through the snap as the site; the grant's dialog approved
  const kit = kitOverSnap(async (method, params) =>
    method === 'wallet_requestExecutionPermissions'
      ? snap.rpcConfirmed(method, params as never, SITE)
      : snap.rpc(method, params as never, SITE),
  );
  const supported = await kit.getSupportedExecutionPermissions();
  check(
    'the site sees native-token-periodic supported on the devnet, with the expiry rule',
    supported['native-token-periodic']?.chainIds.includes(devnet.chainId) ??
      false,
  );
  const block = await jsonRpc<{ timestamp: Hex }>(
    devnet.rpcUrl,
    'eth_getBlockByNumber',
    ['latest', false],
  );
  const [granted] = await kit.requestExecutionPermissions([
    {
      chainId: devnet.chainId,
      from,
      to: session,
      expiry: Number(BigInt(block.timestamp)) + 86_400,
      permission: {
        type: 'native-token-periodic',
        isAdjustmentAllowed: false,
        data: {
          periodAmount: parseEther('0.01'),
          periodDuration: 3600,
          justification: 'Pay-as-you-go credits for the demo',
        },
      },
    },
  ]);
  if (!granted) {
    throw new Error('no permission granted');
  }
  console.log(
    `    Granted: context ${granted.context.slice(0, 18)}… (${(granted.context.length - 2) / 2} bytes), DelegationManager ${granted.delegationManager}`,
  );
  const code = await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getCode', [
    from,
    'latest',
  ]);
  check(
    'approving also upgraded the EOA to EIP7702StatelessDeleGatorImpl (EIP-7702)',
    code.toLowerCase() ===
      `0xef0100${(environment.implementations.EIP7702StatelessDeleGatorImpl as string).slice(2).toLowerCase()}`,
  );
  const before = BigInt(
    await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [RECIPIENT, 'latest']),
  );
  /**
   * Spend from the granting account with the session key.
   *
   * @param wei - How much to send to the recipient.
   * @returns What redeem says.
   */
  const spend = async (wei: bigint): Promise<string> =>
    redeem(devnet.rpcUrl, sessionKey, { to: RECIPIENT, value: wei }, granted);
  check(
    'the session key moves 0.006 ETH with the kit',
    (await spend(parseEther('0.006'))) === 'success',
  );
  check(
    'a second 0.006 ETH in the same hour is refused by the period enforcer',
    (await spend(parseEther('0.006'))).includes('transfer-amount-exceeded'),
  );
  const after = BigInt(
    await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [RECIPIENT, 'latest']),
  );
  check(
    'the recipient got exactly 0.006 ETH',
    after - before === parseEther('0.006'),
    `${formatEther(after - before)} ETH`,
  );
  const listed = await kit.getGrantedExecutionPermissions();
  check(
    'the site lists its one permission',
    listed.length === 1 && listed[0]?.context === granted.context,
  );
  await snap.rpcConfirmed(
    'wallet_revokeExecutionPermission',
    { permissionContext: granted.context },
    SITE,
  );
  check(
    'after the site revoked it, the session key is refused (CannotUseADisabledDelegation)',
    (await spend(1n)).includes(
      toFunctionSelector('CannotUseADisabledDelegation()'),
    ),
  );
}
