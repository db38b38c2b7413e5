import { decodeEventLog, encodeEventTopics, type Hex } from 'viem';

import { createRpcClient, type RpcClient } from '../../chain';
import { entryPointAbi } from './constants';
import type { ChainConfig } from './types';

/** What `getUserOperationReceipt` returns (hex quantities). */
export type UserOperationReceipt = {
  userOpHash: Hex;
  sender: Hex;
  nonce: Hex;
  success: boolean;
  /** Wei paid by the account or paymaster. */
  actualGasCost: Hex;
  actualGasUsed: Hex;
  transactionHash: Hex;
  blockNumber: Hex;
};

/**
 * Find a user operation's outcome on chain: the EntryPoint v0.6 `UserOperationEvent` by its
 * indexed userOpHash (`eth_getLogs` over the whole chain, split by the adapter as the provider
 * requires), then the bundle transaction (`eth_getTransactionByHash`) to confirm it is mined.
 *
 * @param client - The chain's RPC adapter.
 * @param entryPoints - EntryPoint addresses to search (the chain config's and the accounts' own).
 * @param userOpHash - 32-byte hash.
 * @returns The receipt, or null while the operation is unknown or its bundle is pending.
 */
export async function getUserOperationReceipt(client: RpcClient, entryPoints: Hex[], userOpHash: Hex): Promise<UserOperationReceipt | null> {
  const topics = encodeEventTopics({ abi: entryPointAbi, eventName: 'UserOperationEvent', args: { userOpHash } });
  const logs = await client.getLogs({ address: entryPoints, topics, fromBlock: 'earliest', toBlock: 'latest' });
  const log = logs.at(-1);
  if (!log?.transactionHash) {
    return null;
  }
  const transaction = await client.getTransactionByHash(log.transactionHash as Hex);
  if (!transaction?.blockNumber) {
    return null;
  }
  const { args } = decodeEventLog({ abi: entryPointAbi, eventName: 'UserOperationEvent', data: log.data as Hex, topics: log.topics as [Hex, ...Hex[]] });
  return {
    userOpHash,
    sender: args.sender,
    nonce: `0x${args.nonce.toString(16)}`,
    success: args.success,
    actualGasCost: `0x${args.actualGasCost.toString(16)}`,
    actualGasUsed: `0x${args.actualGasUsed.toString(16)}`,
    transactionHash: log.transactionHash as Hex,
    blockNumber: transaction.blockNumber,
  };
}

/**
 * {@link getUserOperationReceipt} on the chain of `config`, through its rpcUrl.
 *
 * @param config - The chain config of the operation's scope.
 * @param entryPoints - EntryPoint addresses to search.
 * @param userOpHash - 32-byte hash.
 * @returns The receipt, or null while unknown.
 */
export async function findUserOperationReceipt(config: ChainConfig, entryPoints: Hex[], userOpHash: Hex): Promise<UserOperationReceipt | null> {
  return getUserOperationReceipt(createRpcClient({ url: config.rpcUrl }), entryPoints, userOpHash);
}
