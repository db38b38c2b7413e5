/**
 * What execution permissions (ERC-7715 / ERC-7710) need on a local chain, for tests, the demo and
 * the bench: an ERC-20 token to grant (the `@account-abstraction/contracts@0.6.0` TokenPaymaster, an
 * OpenZeppelin ERC-20 with 18 decimals whose owner mints), an EOA pointed to MetaMask's
 * `EIP7702StatelessDeleGatorImpl` out of band (an EIP-7702 authorization signed with its key, sent
 * by another account in a type-4 transaction), and a session key's redemption through the Smart
 * Accounts Kit (`erc7710WalletActions().sendTransactionWithDelegation`). Importing it sets
 * `DO_NOT_TRACK=1`, which turns off the kit's analytics.
 */
import {
  erc7710WalletActions,
  erc7715ProviderActions,
} from '@metamask/smart-accounts-kit/actions';
import {
  createClient,
  createPublicClient,
  createWalletClient,
  custom,
  encodeAbiParameters,
  encodeFunctionData,
  http,
  parseAbi,
} from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { ANVIL_KEYS } from './anvil';
import { devnetChain, loadArtifact } from './erc4337';
import { jsonRpc, sendAndMine } from './json-rpc';

// The kit reports each call to MetaMask's analytics unless told not to: never from tests, the demo or the bench.
process.env.DO_NOT_TRACK = '1';

const TOKEN_ABI = parseAbi([
  'function mintTokens(address recipient, uint256 amount)',
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
]);

/**
 * Deploy an ERC-20 token (18 decimals, symbol `symbol`) from anvil's first account, its owner.
 *
 * @param rpcUrl - anvil's URL.
 * @param symbol - The token's symbol.
 * @returns Its address.
 */
export async function deployTestToken(
  rpcUrl: string,
  symbol: string,
): Promise<Address> {
  const artifact = loadArtifact('TokenPaymaster');
  const args = encodeAbiParameters(
    [{ type: 'address' }, { type: 'string' }, { type: 'address' }],
    [
      '0x0000000000000000000000000000000000000001',
      symbol,
      '0x0000000000000000000000000000000000000002',
    ],
  );
  const { hash, receipt } = await sendAndMine(rpcUrl, {
    from: privateKeyToAccount(ANVIL_KEYS[0]).address,
    data: `${artifact.bytecode}${args.slice(2)}`,
    gas: '0x4c4b40',
  });
  if (receipt.status !== '0x1') {
    throw new Error(`token deployment ${hash} reverted`);
  }
  const full = await jsonRpc<{ contractAddress: Address }>(
    rpcUrl,
    'eth_getTransactionReceipt',
    [hash],
  );
  return full.contractAddress;
}

/**
 * Mint `amount` of the test token to `to`.
 *
 * @param rpcUrl - anvil's URL.
 * @param token - The token.
 * @param to - The holder.
 * @param amount - Base units.
 */
export async function mintTo(
  rpcUrl: string,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<void> {
  const { receipt } = await sendAndMine(rpcUrl, {
    from: privateKeyToAccount(ANVIL_KEYS[0]).address,
    to: token,
    data: encodeFunctionData({
      abi: TOKEN_ABI,
      functionName: 'mintTokens',
      args: [to, amount],
    }),
  });
  if (receipt.status !== '0x1') {
    throw new Error('mintTokens reverted');
  }
}

/**
 * An ERC-20 balance read from the node.
 *
 * @param rpcUrl - anvil's URL.
 * @param token - The token.
 * @param holder - The holder.
 * @returns Base units.
 */
export async function tokenBalance(
  rpcUrl: string,
  token: Address,
  holder: Address,
): Promise<bigint> {
  return BigInt(
    await jsonRpc<Hex>(rpcUrl, 'eth_call', [
      {
        to: token,
        data: encodeFunctionData({
          abi: TOKEN_ABI,
          functionName: 'balanceOf',
          args: [holder],
        }),
      },
      'latest',
    ]),
  );
}

/**
 * The call data of an ERC-20 `transfer`.
 *
 * @param to - The recipient.
 * @param amount - Base units.
 * @returns Hex.
 */
export function transferCall(to: Address, amount: bigint): Hex {
  return encodeFunctionData({
    abi: TOKEN_ABI,
    functionName: 'transfer',
    args: [to, amount],
  });
}

/**
 * Point an EOA to `implementation` with EIP-7702, out of band: its key signs the authorization,
 * anvil's third account sends the type-4 transaction (so the EOA's own nonce is the
 * authorization's).
 *
 * @param rpcUrl - anvil's URL (Prague).
 * @param key - The EOA's private key.
 * @param implementation - The contract it will run (EIP7702StatelessDeleGatorImpl).
 */
export async function delegateEoa(
  rpcUrl: string,
  key: Hex,
  implementation: Address,
): Promise<void> {
  const chainId = Number(await jsonRpc<Hex>(rpcUrl, 'eth_chainId', []));
  const chain = devnetChain(chainId, rpcUrl);
  const eoa = privateKeyToAccount(key);
  const sponsor = createWalletClient({
    account: privateKeyToAccount(ANVIL_KEYS[2]),
    chain,
    transport: http(rpcUrl),
  });
  const authorization = await eoa.signAuthorization({
    address: implementation,
    chainId,
    nonce: Number(
      await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [
        eoa.address,
        'latest',
      ]),
    ),
  });
  const hash = await sponsor.sendTransaction({
    to: eoa.address,
    data: '0x',
    authorizationList: [authorization],
  });
  await createPublicClient({
    chain,
    transport: http(rpcUrl),
  }).waitForTransactionReceipt({ hash, timeout: 15_000 });
}

/** A call the session key makes from the granting account, and the permission it uses. */
type Redemption = {
  /** anvil's URL. */
  rpcUrl: string;
  /** The session account's key (the delegate). */
  sessionKey: Hex;
  /** What to do from the granting account. */
  call: { to: Address; value?: bigint; data?: Hex };
  /** From the grant's response. */
  permission: { context: Hex; delegationManager: Address };
};

/**
 * Redeem a permission from a session key with the Smart Accounts Kit (the kit must know the chain's
 * environment: `overrideDeployedEnvironment` first), and wait for the transaction.
 *
 * @param redemption - The call and the permission.
 * @returns The transaction's receipt (`status`, `gasUsed`).
 * @throws The kit's or the node's error when the estimate refuses it (an enforcer's revert).
 */
async function sendRedemption(
  redemption: Redemption,
): Promise<{ status: 'success' | 'reverted'; gasUsed: bigint }> {
  const { rpcUrl, sessionKey, call, permission } = redemption;
  const chainId = Number(await jsonRpc<Hex>(rpcUrl, 'eth_chainId', []));
  const chain = devnetChain(chainId, rpcUrl);
  const session = createWalletClient({
    account: privateKeyToAccount(sessionKey),
    chain,
    transport: http(rpcUrl),
  }).extend(erc7710WalletActions());
  const hash = await session.sendTransactionWithDelegation({
    to: call.to,
    value: call.value ?? 0n,
    data: call.data ?? '0x',
    permissionContext: permission.context,
    delegationManager: permission.delegationManager,
  } as never);
  return createPublicClient({
    chain,
    transport: http(rpcUrl),
  }).waitForTransactionReceipt({ hash, timeout: 15_000 });
}

/**
 * Redeem a permission from a session key with the Smart Accounts Kit (see sendRedemption).
 *
 * @param rpcUrl - anvil's URL.
 * @param sessionKey - The session account's key (the delegate).
 * @param call - What to do from the granting account.
 * @param call.to - The target.
 * @param call.value - Wei.
 * @param call.data - Call data.
 * @param permission - From the grant's response.
 * @param permission.context - The permission context.
 * @param permission.delegationManager - The DelegationManager.
 * @returns `success`, or why it was refused: the node's message (an enforcer's revert reason when
 * the estimate reverted, `reverted` when a mined transaction did).
 */
export async function redeem(
  rpcUrl: string,
  sessionKey: Hex,
  call: Redemption['call'],
  permission: Redemption['permission'],
): Promise<string> {
  try {
    return (await sendRedemption({ rpcUrl, sessionKey, call, permission }))
      .status;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The gas of one successful redemption (see sendRedemption), from its receipt.
 *
 * @param redemption - The call and the permission.
 * @returns The transaction's gas used.
 * @throws When it is refused or reverts.
 */
export async function redemptionGas(redemption: Redemption): Promise<number> {
  const receipt = await sendRedemption(redemption);
  if (receipt.status !== 'success') {
    throw new Error('the redemption reverted');
  }
  return Number(receipt.gasUsed);
}

/**
 * The Smart Accounts Kit's ERC-7715 client as a dapp uses it against this snap: a viem client whose
 * transport hands each call to `invoke`, which wraps it in `wallet_invokeSnap` (or calls the snap
 * in a simulation as a site does).
 *
 * @param invoke - Sends one snap RPC call as the site; resolves its result.
 * @returns The client with `requestExecutionPermissions`, `getSupportedExecutionPermissions` and
 * `getGrantedExecutionPermissions`.
 */
export function kitOverSnap(
  invoke: (method: string, params: unknown) => Promise<unknown>,
): ReturnType<ReturnType<typeof erc7715ProviderActions>> {
  return createClient({
    transport: custom({
      request: async ({ method, params }) => invoke(method, params),
    }),
  }).extend(erc7715ProviderActions());
}
