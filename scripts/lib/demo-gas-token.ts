/**
 * The demo's gas-in-a-token flow: a v0.8 SimpleAccount holding 0 ETH and some of the devnet's test
 * token (T20) sends with `gasToken`; the chain's paymaster service is the ERC-20 one
 * (`@pimlico/mock-paymaster`). Checked on anvil: the operation succeeded, the account still holds
 * 0 ETH, its tokens went to the paymaster's treasury, and the allowance left is not unlimited.
 */
import { formatUnits, getAddress, maxUint256, parseEther } from 'viem';
import type { Address, Hex } from 'viem';

import { waitForReceipt } from './demo-entrypoints';
import { check, say } from './demo-log';
import type { DemoContext } from './demo-log';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  mintTestToken,
  readTestToken,
  TEST_TOKEN,
  TOKEN_PAYMASTERS,
  TOKEN_TREASURY,
} from '../../devnet/token-paymaster';

/**
 * Run the flow, then put the chain config back as it was.
 *
 * @param demo - The running snap and the devnet.
 * @param demo.snap - The simulated snap.
 * @param demo.devnet - The devnet, started with `tokenPaymaster: true`.
 */
export async function gasTokenFlow({
  snap,
  devnet,
}: DemoContext): Promise<void> {
  const service = devnet.tokenPaymaster;
  if (!service) {
    throw new Error('gasTokenFlow: the devnet has no ERC-20 paymaster service');
  }

  await snap.rpcConfirmed('setChainConfig', {
    ...devnet.chainConfig,
    paymasterUrl: service.url,
    gasTokens: [TEST_TOKEN],
  });
  const account = await snap.keyring('keyring_createAccount', {
    options: {
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      entryPointVersion: '0.8',
    },
  });
  const address = getAddress(account.address);
  await mintTestToken(devnet.rpcUrl, address, parseEther('100'));
  /**
   * A T20 balance, read from anvil.
   *
   * @param holder - The holder.
   * @returns Token base units.
   */
  const balanceOf = async (holder: Address): Promise<bigint> =>
    readTestToken(devnet.rpcUrl, ['balanceOf', holder]);
  const before = {
    account: await balanceOf(address),
    treasury: await balanceOf(TOKEN_TREASURY),
  };
  say(
    `Gas paid in a token: a new smart account (${address}) holds 0 ETH and ${formatUnits(before.account, 18)} T20, an ERC-20 token (${TEST_TOKEN}); it sends 0 ETH to 0x…dEaD, creating itself on the chain, and pays the gas in T20 through a paymaster`,
  );
  const { userOpHash } = (await snap.rpcConfirmed('sendUserOperation', {
    account: account.id,
    scope: devnet.scope,
    intents: [
      {
        to: '0x000000000000000000000000000000000000dEaD',
        value: '0x0',
        data: '0x',
      },
    ],
    gasToken: TEST_TOKEN,
  })) as { userOpHash: Hex };
  const receipt = await waitForReceipt(snap, devnet.scope, userOpHash);
  check('it succeeded', receipt?.success === true, userOpHash);
  const eth = BigInt(
    await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [address, 'latest']),
  );
  check('the account still holds 0 ETH', eth === 0n);
  const spent = before.account - (await balanceOf(address));
  const received = (await balanceOf(TOKEN_TREASURY)) - before.treasury;
  check(
    `it paid ${formatUnits(spent, 18)} T20, which the paymaster's treasury received`,
    spent > 0n && spent === received,
  );
  const allowance = await readTestToken(devnet.rpcUrl, [
    'allowance',
    address,
    TOKEN_PAYMASTERS['0.8'],
  ]);
  check(
    `the allowance left to the paymaster is bounded (${formatUnits(allowance, 18)} T20, never unlimited)`,
    allowance !== maxUint256,
  );
  await snap.rpcConfirmed('setChainConfig', devnet.chainConfig);
}
