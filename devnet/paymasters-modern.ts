/**
 * VerifyingPaymasters for EntryPoint v0.7 and v0.8 on a local chain (anvil), deposited and staked,
 * for sponsored sends through the devnet's ERC-7677 service (`devnet/paymaster-service.ts`).
 *
 * v0.7: eth-infinitism's VerifyingPaymaster 0.7.0 (`devnet/verifying-paymaster-v07.ts`), deployed
 * by plain CREATE with the v0.7 EntryPoint.
 *
 * v0.8: `@account-abstraction/contracts@0.8.0` ships no VerifyingPaymaster, and the 0.7.0 one cannot
 * be constructed against EntryPoint v0.8: BasePaymaster's constructor requires
 * `supportsInterface(type(IEntryPoint).interfaceId)`, and v0.8's IEntryPoint has one more function
 * (`senderCreator()`), so the interface ids differ and the constructor reverts (checked on anvil).
 * The contract itself works unchanged on v0.8 (PackedUserOperation, IPaymaster and the
 * paymasterAndData offsets are the same in both versions), so the devnet constructs a second copy
 * with the v0.7 EntryPoint and then replaces, in place (`anvil_setCode`), each occurrence of its
 * immutable EntryPoint word (the address left-padded to 32 bytes, pushed by the runtime code) with the
 * v0.8 EntryPoint's. Storage (the Ownable owner) and the `verifyingSigner` immutable stay as the
 * constructor set them. `entryPoint()` is read back and must name v0.8.
 */
import {
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getAddress,
  http,
  pad,
  parseAbi,
  parseEther,
} from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { ANVIL_KEYS } from './anvil';
import type { EntryPointsDeployment } from './entrypoints';
import { chainOf } from './erc4337';
import { jsonRpc } from './json-rpc';
import { VERIFYING_PAYMASTER_V07_BYTECODE } from './verifying-paymaster-v07';

/** The VerifyingPaymaster 0.7.0 functions the devnet and its tests call. */
export const VERIFYING_PAYMASTER_V07_ABI = parseAbi([
  'constructor(address entryPoint, address verifyingSigner)',
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
  'function entryPoint() view returns (address)',
  'function verifyingSigner() view returns (address)',
  'function owner() view returns (address)',
  'function deposit() payable',
  'function addStake(uint32 unstakeDelaySec) payable',
  'function getDeposit() view returns (uint256)',
]);

/** The VerifyingPaymaster of each modern EntryPoint version. */
export type ModernPaymasters = {
  /** Constructed with EntryPoint v0.7. */
  '0.7': Address;
  /** The same contract, its EntryPoint word set to v0.8 (see the file's comment). */
  '0.8': Address;
};

/**
 * Deploy, deposit and stake a VerifyingPaymaster for EntryPoint v0.7 and one for v0.8.
 * JSON-RPC used: `eth_sendRawTransaction` (2 deployments, 2 deposits, 2 stakes), `eth_getCode`,
 * `anvil_setCode`, `eth_call`, `eth_getTransactionReceipt`.
 *
 * @param rpcUrl - JSON-RPC URL of a local anvil (the deployer must be funded; `anvil_setCode` is used).
 * @param entryPoints - The deployed v0.7 / v0.8 EntryPoints.
 * @param options - Options.
 * @param options.signerAddress - The paymasters' `verifyingSigner` (the ERC-7677 service's key).
 * @param options.deployerKey - Funded key that deploys (default anvil's dev key 3; run after the
 * other deployments of that key, one after the other).
 * @param options.deposit - Each paymaster's deposit on its EntryPoint, in wei (default 100 ETH).
 * @param options.stake - Each paymaster's stake, in wei (default 1 ETH, unstake delay 1 day; 0 skips).
 * @param options.timeoutMs - Bound of each receipt wait (default 30 s).
 * @returns The two paymasters' addresses.
 * @throws If a deployment reverts, the EntryPoint word is not found in the runtime code, or the
 * v0.8 copy does not name EntryPoint v0.8.
 */
export async function deployModernPaymasters(
  rpcUrl: string,
  entryPoints: EntryPointsDeployment,
  options: {
    signerAddress: Address;
    deployerKey?: Hex;
    deposit?: bigint;
    stake?: bigint;
    timeoutMs?: number;
  },
): Promise<ModernPaymasters> {
  const timeout = options.timeoutMs ?? 30_000;
  const chain = await chainOf(rpcUrl);
  const transport = http(rpcUrl, { timeout });
  const publicClient = createPublicClient({
    chain,
    transport,
    pollingInterval: 50,
  });
  const walletClient = createWalletClient({
    chain,
    transport,
    account: privateKeyToAccount(options.deployerKey ?? ANVIL_KEYS[3]),
    pollingInterval: 50,
  });
  /**
   * Wait for a transaction and require success.
   *
   * @param hash - The transaction hash.
   * @returns The created contract's address, if any.
   */
  const mined = async (hash: Hex): Promise<Address | undefined> => {
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      timeout,
      pollingInterval: 50,
    });
    if (receipt.status !== 'success') {
      throw new Error(`deployModernPaymasters: transaction ${hash} reverted`);
    }
    return receipt.contractAddress
      ? getAddress(receipt.contractAddress)
      : undefined;
  };
  /**
   * Construct a VerifyingPaymaster 0.7.0 with the v0.7 EntryPoint.
   *
   * @returns Its address.
   */
  const construct = async (): Promise<Address> => {
    const address = await mined(
      await walletClient.sendTransaction({
        data: encodeDeployData({
          abi: VERIFYING_PAYMASTER_V07_ABI,
          bytecode: VERIFYING_PAYMASTER_V07_BYTECODE,
          args: [entryPoints['0.7'].entryPoint, options.signerAddress],
        }),
      }),
    );
    if (!address) {
      throw new Error('deployModernPaymasters: no contract was created');
    }
    return address;
  };

  const v07 = await construct();
  const v08 = await construct();
  /**
   * An address as the 32-byte word a PUSH32 of an immutable carries.
   *
   * @param address - The address.
   * @returns 64 lower-case hex digits, no 0x.
   */
  const word = (address: Address): string =>
    pad(address, { size: 32 }).slice(2).toLowerCase();
  const code = (await publicClient.getCode({ address: v08 })) ?? '0x';
  const from = word(entryPoints['0.7'].entryPoint);
  if (!code.toLowerCase().includes(from)) {
    throw new Error(
      'deployModernPaymasters: the EntryPoint word is not in the runtime code',
    );
  }
  await jsonRpc(rpcUrl, 'anvil_setCode', [
    v08,
    code.toLowerCase().split(from).join(word(entryPoints['0.8'].entryPoint)),
  ]);

  for (const [version, paymaster] of [
    ['0.7', v07],
    ['0.8', v08],
  ] as const) {
    const named = await publicClient.readContract({
      address: paymaster,
      abi: VERIFYING_PAYMASTER_V07_ABI,
      functionName: 'entryPoint',
    });
    if (getAddress(named) !== getAddress(entryPoints[version].entryPoint)) {
      throw new Error(
        `deployModernPaymasters: the v${version} paymaster names EntryPoint ${named}`,
      );
    }
    // deposit() and addStake() forward to the paymaster's own EntryPoint
    await mined(
      await walletClient.writeContract({
        address: paymaster,
        abi: VERIFYING_PAYMASTER_V07_ABI,
        functionName: 'deposit',
        value: options.deposit ?? parseEther('100'),
      }),
    );
    const stake = options.stake ?? parseEther('1');
    if (stake > 0n) {
      await mined(
        await walletClient.writeContract({
          address: paymaster,
          abi: VERIFYING_PAYMASTER_V07_ABI,
          functionName: 'addStake',
          args: [86_400],
          value: stake,
        }),
      );
    }
  }
  return { '0.7': v07, '0.8': v08 };
}
