/**
 * The devnet's paymaster service in ERC-20 mode (Pimlico style: `pimlico_getTokenQuotes`, then
 * ERC-7677 with context `{ token }`): `@pimlico/mock-paymaster@0.0.7` run by
 * `token-paymaster-server.mjs` in a child process on 127.0.0.1, stopped by its PID. Its test token
 * (TestERC20, symbol `T20`, 18 decimals, `sudoMint(address,uint256)` open to anyone) and its
 * SingletonPaymaster v0.6 / v0.7 / v0.8 are deployed by the mock's own `setup` through the
 * deterministic deployment proxy. That setup deposits into its v0.6 paymaster, which calls the
 * canonical EntryPoint v0.6: {@link startTokenPaymaster} deploys it there first (the
 * `@account-abstraction/contracts@0.6.0` EntryPoint with salt 0 lands at the canonical address).
 * The canonical v0.7 and v0.8 EntryPoints come from devnet/entrypoints.ts.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { concat, encodeFunctionData, parseAbi, zeroHash } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { ANVIL_KEYS } from './anvil';
import { DETERMINISTIC_DEPLOYER, createCallAddress } from './entrypoints';
import { loadArtifact } from './erc4337';
import { jsonRpc, sendAndMine } from './json-rpc';
import { freePort, startService, waitFor } from './ports';

/** The mock's test token (TestERC20 `T20`, 18 decimals). */
export const TEST_TOKEN: Address = '0x68e13372AE8FAaDDaf32cC08ee44C5ef5A002c69';

/** Where the mock's SingletonPaymasters send the tokens they charge. */
export const TOKEN_TREASURY: Address =
  '0xD8Baa107006C93a030d1455A2eF43261b384F21c';

/** The mock's SingletonPaymaster per EntryPoint version (its signer is its fixed test key). */
export const TOKEN_PAYMASTERS = {
  '0.7': '0x38aef040CEB057B62E1598F5C265946A4E4BaB4C',
  '0.8': '0xe276558647476dC0f409B25a1AFCbCed730128D9',
} as const satisfies Record<string, Address>;

/** What the mock quotes for {@link TEST_TOKEN}: token base units per 10^18 wei, and post-op gas. */
export const TEST_TOKEN_QUOTE = {
  exchangeRate: 0x5cc717fbb3450c0000n,
  postOpGas: 0xc350n,
} as const;

/** The canonical EntryPoint v0.6 address. */
export const CANONICAL_ENTRY_POINT_V06: Address =
  '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';

const TOKEN_ABI = parseAbi([
  'function sudoMint(address to, uint256 amount)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
]);

/** Hostile replies the service can be switched to (see token-paymaster-server.mjs). */
export type TokenPaymasterHostility =
  'rate' | 'paymaster' | 'postOpGas' | 'oversized' | 'sponsorInToken';

/** A running ERC-20 paymaster service. */
export type TokenPaymaster = {
  /** Its JSON-RPC URL. */
  url: string;
  /** PID of its child process. */
  pid: number;
  /** Make every later reply hostile in one way, or honest again (`null`). */
  hostile: (mode: TokenPaymasterHostility | null) => Promise<void>;
  /** Stop the child process (by its PID). */
  close: () => Promise<void>;
};

/**
 * Deploy the canonical EntryPoint v0.6 (if absent) and start the ERC-20 paymaster service.
 *
 * @param rpcUrl - anvil's URL (with the canonical v0.7 / v0.8 EntryPoints deployed).
 * @param bundlerUrl - Alto's URL (the mock forwards gas estimates to it).
 * @returns The running service.
 * @throws When the EntryPoint lands elsewhere or the service does not answer within 60 s.
 */
export async function startTokenPaymaster(
  rpcUrl: string,
  bundlerUrl: string,
): Promise<TokenPaymaster> {
  await deployCanonicalEntryPointV06(rpcUrl);
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const url = `http://127.0.0.1:${port}`;
  const service = startService(process.execPath, [
    join(__dirname, 'token-paymaster-server.mjs'),
    ...['--anvil', rpcUrl, '--alto', bundlerUrl],
    ...['--port', String(port), '--token', token],
  ]);
  /**
   * Whether the child has exited.
   *
   * @returns True once it has.
   */
  const exited = (): boolean =>
    service.process.exitCode !== null || service.process.signalCode !== null;
  try {
    await waitFor(
      async () => exited() || (await fetch(`${url}/ping`)).ok,
      60_000,
      100,
    );
    if (exited()) {
      throw new Error('exited during start-up');
    }
  } catch (error) {
    await service.stop();
    throw new Error(
      `token paymaster did not start: ${String(error)}\n${(service as unknown as { stderr: string }).stderr}`,
    );
  }
  return {
    url,
    pid: service.pid,
    hostile: async (mode): Promise<void> => {
      const response = await fetch(`${url}/_fixture/hostile`, {
        method: 'POST',
        headers: { 'x-fixture-token': token },
        body: JSON.stringify({ mode }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) {
        throw new Error(`hostile hook: ${response.status}`);
      }
    },
    close: service.stop,
  };
}

/**
 * Deploy `@account-abstraction/contracts@0.6.0`'s EntryPoint through the deterministic deployment
 * proxy with salt 0, which puts it at the canonical address (checked), unless code is there.
 *
 * @param rpcUrl - anvil's URL.
 */
async function deployCanonicalEntryPointV06(rpcUrl: string): Promise<void> {
  const data = concat([zeroHash, loadArtifact('EntryPoint').bytecode]);
  if (createCallAddress(data) !== CANONICAL_ENTRY_POINT_V06) {
    throw new Error(
      'EntryPoint v0.6 with salt 0 is not at the canonical address',
    );
  }
  if (
    (await jsonRpc<Hex>(rpcUrl, 'eth_getCode', [
      CANONICAL_ENTRY_POINT_V06,
      'latest',
    ])) !== '0x'
  ) {
    return;
  }
  const { receipt } = await sendAndMine(rpcUrl, {
    from: privateKeyToAccount(ANVIL_KEYS[3]).address,
    to: DETERMINISTIC_DEPLOYER,
    data,
    gas: '0xe4e1c0',
  });
  if (receipt.status !== '0x1') {
    throw new Error('EntryPoint v0.6 deployment reverted');
  }
}

/**
 * Mint test tokens to `to` (`sudoMint`, sent from an unlocked anvil account) and wait until mined.
 *
 * @param rpcUrl - anvil's URL.
 * @param to - The holder.
 * @param amount - Token base units.
 */
export async function mintTestToken(
  rpcUrl: string,
  to: Address,
  amount: bigint,
): Promise<void> {
  const { receipt } = await sendAndMine(rpcUrl, {
    from: privateKeyToAccount(ANVIL_KEYS[0]).address,
    to: TEST_TOKEN,
    data: encodeFunctionData({
      abi: TOKEN_ABI,
      functionName: 'sudoMint',
      args: [to, amount],
    }),
  });
  if (receipt.status !== '0x1') {
    throw new Error('sudoMint reverted');
  }
}

/**
 * A token read straight from the node (`balanceOf` or `allowance` of {@link TEST_TOKEN}).
 *
 * @param rpcUrl - anvil's URL.
 * @param read - `['balanceOf', holder]` or `['allowance', owner, spender]`.
 * @returns Token base units.
 */
export async function readTestToken(
  rpcUrl: string,
  read: ['balanceOf', Address] | ['allowance', Address, Address],
): Promise<bigint> {
  const [functionName, ...args] = read;
  return BigInt(
    await jsonRpc<Hex>(rpcUrl, 'eth_call', [
      {
        to: TEST_TOKEN,
        data: encodeFunctionData({
          abi: TOKEN_ABI,
          functionName,
          args,
        }),
      },
      'latest',
    ]),
  );
}
