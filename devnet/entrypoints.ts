/**
 * Deploy the ERC-4337 v0.7 and v0.8 contracts at their canonical addresses on a local chain (anvil)
 * through the deterministic deployment proxy (`0x4e59b44847b379578588920cA78FbF26c0B4956C`, in
 * anvil's genesis): a transaction to it whose data is `salt ++ creation code` CREATE2s the contract
 * at the address it has on every chain. The creation calls are pimlicolabs/alto's
 * (`devnet/aa-createcalls.ts` names the source). Alto recognises EntryPoint v0.8 by its address
 * (prefix `0x433708`), so v0.8 must sit at the canonical address; Simple7702Account v0.8 has that
 * EntryPoint compiled in.
 */
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  slice,
} from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import {
  ENTRY_POINT_V07_CREATECALL,
  ENTRY_POINT_V08_CREATECALL,
  SIMPLE_7702_ACCOUNT_IMPLEMENTATION_V08_CREATECALL,
  SIMPLE_ACCOUNT_FACTORY_V07_CREATECALL,
  SIMPLE_ACCOUNT_FACTORY_V08_CREATECALL,
} from './aa-createcalls';
import { ANVIL_KEYS } from './anvil';
import { chainOf } from './erc4337';

/** The deterministic deployment proxy (Arachnid's CREATE2 deployer), in anvil's genesis. */
export const DETERMINISTIC_DEPLOYER: Address =
  '0x4e59b44847b379578588920cA78FbF26c0B4956C';

/** The canonical v0.7 and v0.8 deployments (eth-infinitism/account-abstraction releases 0.7.0 and 0.8.0). */
export const CANONICAL = {
  '0.7': {
    entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    accountFactory: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
  },
  '0.8': {
    entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
    accountFactory: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
    simple7702Account: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
  },
} as const;

/** One creation call and the address it must yield. */
type CreateCall = {
  /** What it deploys, for errors. */
  name: string;
  /** `salt ++ creation code`. */
  data: Hex;
  /** The canonical address. */
  address: Address;
};

const CREATE_CALLS: readonly CreateCall[] = [
  {
    name: 'EntryPoint v0.7',
    data: ENTRY_POINT_V07_CREATECALL,
    address: CANONICAL['0.7'].entryPoint,
  },
  {
    name: 'SimpleAccountFactory v0.7',
    data: SIMPLE_ACCOUNT_FACTORY_V07_CREATECALL,
    address: CANONICAL['0.7'].accountFactory,
  },
  {
    name: 'EntryPoint v0.8',
    data: ENTRY_POINT_V08_CREATECALL,
    address: CANONICAL['0.8'].entryPoint,
  },
  {
    name: 'SimpleAccountFactory v0.8',
    data: SIMPLE_ACCOUNT_FACTORY_V08_CREATECALL,
    address: CANONICAL['0.8'].accountFactory,
  },
  {
    name: 'Simple7702Account v0.8',
    data: SIMPLE_7702_ACCOUNT_IMPLEMENTATION_V08_CREATECALL,
    address: CANONICAL['0.8'].simple7702Account,
  },
];

/**
 * The CREATE2 address (EIP-1014) the deterministic deployment proxy gives a creation call.
 *
 * @param data - `salt (32 bytes) ++ creation code`.
 * @returns The checksummed address.
 */
export function createCallAddress(data: Hex): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: DETERMINISTIC_DEPLOYER,
    salt: slice(data, 0, 32),
    bytecodeHash: keccak256(slice(data, 32)),
  });
}

/** What {@link deployEntryPoints} deployed (the canonical addresses). */
export type EntryPointsDeployment = {
  /** EntryPoint v0.7 and its SimpleAccountFactory. */
  '0.7': { entryPoint: Address; accountFactory: Address };
  /** EntryPoint v0.8, its SimpleAccountFactory and Simple7702Account. */
  '0.8': {
    entryPoint: Address;
    accountFactory: Address;
    simple7702Account: Address;
  };
};

/**
 * Deploy EntryPoint v0.7 + SimpleAccountFactory v0.7 and EntryPoint v0.8 + SimpleAccountFactory
 * v0.8 + Simple7702Account v0.8 at their canonical addresses. Each creation call's address is
 * computed first and must equal the canonical one; a contract already there is left as it is.
 * JSON-RPC used: `eth_getCode`, `eth_sendRawTransaction` (up to 5), `eth_getTransactionReceipt`.
 *
 * @param rpcUrl - JSON-RPC URL of the chain (a local anvil with the deterministic deployment proxy).
 * @param options - Options.
 * @param options.deployerKey - Funded key that sends the transactions (default anvil's dev key 3,
 * after `deployErc4337`, which uses the same key: run them one after the other).
 * @param options.timeoutMs - Bound of each receipt wait (default 30 s).
 * @returns The addresses.
 * @throws If a creation call yields another address, a deployment reverts or leaves no code.
 */
export async function deployEntryPoints(
  rpcUrl: string,
  options: { deployerKey?: Hex; timeoutMs?: number } = {},
): Promise<EntryPointsDeployment> {
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
  for (const call of CREATE_CALLS) {
    const address = createCallAddress(call.data);
    if (address !== getAddress(call.address)) {
      throw new Error(
        `deployEntryPoints: the ${call.name} creation call yields ${address}, not ${call.address}`,
      );
    }
    if ((await publicClient.getCode({ address })) !== undefined) {
      continue;
    }
    const hash = await walletClient.sendTransaction({
      to: DETERMINISTIC_DEPLOYER,
      data: call.data,
      gas: 15_000_000n,
    });
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      timeout,
      pollingInterval: 50,
    });
    if (
      receipt.status !== 'success' ||
      (await publicClient.getCode({ address })) === undefined
    ) {
      throw new Error(`deployEntryPoints: ${call.name} was not deployed`);
    }
  }
  return {
    '0.7': { ...CANONICAL['0.7'] },
    '0.8': { ...CANONICAL['0.8'] },
  };
}
