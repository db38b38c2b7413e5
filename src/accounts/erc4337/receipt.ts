import { decodeEventLog, encodeEventTopics, numberToHex } from 'viem';
import type { Hex } from 'viem';

import { bundlerReceipt } from './bundler';
import { entryPointAbi } from './constants';
import type { SentUserOperation, UserOperationReceipt } from './types';
import type { RpcClient } from '../../chain';
import { createRpcClient } from '../../chain';

/**
 * How many blocks back from the latest one the EntryPoint logs are searched for an operation this
 * snap did not send and no bundler knows: 10,000 blocks (about 33 hours at 12-second blocks, 5.5
 * hours at 2 seconds). Older operations are reported unknown (null) rather than scanned for from
 * the chain's first block.
 */
export const RECENT_RECEIPT_BLOCKS = 10_000n;

/**
 * Find a user operation's outcome in the chain's logs: the EntryPoint v0.6 `UserOperationEvent` by
 * its indexed userOpHash (`eth_getLogs` from `fromBlock` to the latest block, split by the adapter
 * as the provider requires), then the bundle transaction (`eth_getTransactionByHash`) to confirm it
 * is mined.
 *
 * @param client - The chain's RPC adapter.
 * @param entryPoints - EntryPoint addresses to search (the chain config's and the accounts' own).
 * @param userOpHash - 32-byte hash.
 * @param fromBlock - First block searched (never the chain's first block by default).
 * @param toBlock - Last block searched (default the latest).
 * @returns The receipt, or null while the operation is unknown or its bundle is pending.
 */
export async function getUserOperationReceipt(
  client: RpcClient,
  entryPoints: Hex[],
  userOpHash: Hex,
  fromBlock: bigint,
  toBlock: bigint | 'latest' = 'latest',
): Promise<UserOperationReceipt | null> {
  const topics = encodeEventTopics({
    abi: entryPointAbi,
    eventName: 'UserOperationEvent',
    args: { userOpHash },
  });
  const logs = await client.getLogs({
    address: entryPoints,
    topics,
    fromBlock,
    toBlock,
  });
  const log = logs.at(-1);
  if (!log?.transactionHash) {
    return null;
  }
  const transaction = await client.getTransactionByHash(log.transactionHash);
  if (!transaction?.blockNumber) {
    return null;
  }
  const { args } = decodeEventLog({
    abi: entryPointAbi,
    eventName: 'UserOperationEvent',
    data: log.data,
    topics: log.topics,
  });
  return {
    userOpHash,
    sender: args.sender,
    nonce: numberToHex(args.nonce),
    success: args.success,
    actualGasCost: numberToHex(args.actualGasCost),
    actualGasUsed: numberToHex(args.actualGasUsed),
    transactionHash: log.transactionHash,
    blockNumber: transaction.blockNumber,
  };
}

/** Where to look for a receipt: the chain, its EntryPoints, and what the snap knows of the operation. */
export type ReceiptSources = {
  /** The chain's JSON-RPC URL (from the chain config). */
  rpcUrl: string;
  /** EntryPoint addresses whose logs may hold the operation. */
  entryPoints: Hex[];
  /** Present when this snap sent the operation: its bundler and the block read before sending. */
  sent?: Pick<SentUserOperation, 'bundlerUrl' | 'fromBlock' | 'entryPoint'>;
  /** Bundlers of the chain's accounts, asked when the snap did not send the operation. */
  bundlerUrls: string[];
};

/**
 * A user operation's receipt, looked up where it is cheapest first. Sent by this snap: its bundler's
 * `eth_getUserOperationReceipt`, else the EntryPoint logs from the block remembered at send time.
 * Not sent by this snap: every bundler of the chain's accounts in parallel (the first valid
 * receipt wins), else the EntryPoint logs of the last {@link RECENT_RECEIPT_BLOCKS} blocks. Never
 * a scan from the chain's first block.
 *
 * @param sources - See {@link ReceiptSources}.
 * @param userOpHash - 32-byte hash.
 * @param recentBlocks - The window for an operation the snap did not send (default {@link RECENT_RECEIPT_BLOCKS}).
 * @returns The receipt, or null while unknown.
 * @throws The chain adapter's errors when the logs cannot be read.
 */
export async function lookupUserOperationReceipt(
  sources: ReceiptSources,
  userOpHash: Hex,
  recentBlocks: bigint = RECENT_RECEIPT_BLOCKS,
): Promise<UserOperationReceipt | null> {
  const client = createRpcClient({ url: sources.rpcUrl });
  if (sources.sent) {
    const { bundlerUrl, fromBlock, entryPoint } = sources.sent;
    const fromBundler = await bundlerReceipt(bundlerUrl, userOpHash);
    if (fromBundler) {
      return fromBundler;
    }
    const entryPoints = [
      ...new Set([entryPoint as Hex, ...sources.entryPoints]),
    ];
    return getUserOperationReceipt(
      client,
      entryPoints,
      userOpHash,
      BigInt(fromBlock),
    );
  }
  const answers = await Promise.all(
    [...new Set(sources.bundlerUrls)].map(async (url) =>
      bundlerReceipt(url, userOpHash),
    ),
  );
  const known = answers.find((answer) => answer !== null);
  if (known) {
    return known;
  }
  const latest = await client.blockNumber();
  const fromBlock = latest >= recentBlocks ? latest - recentBlocks + 1n : 0n;
  return getUserOperationReceipt(
    client,
    sources.entryPoints,
    userOpHash,
    fromBlock,
    latest,
  );
}

/** How often {@link awaitUserOperationReceipt} asks, in milliseconds. */
export const RECEIPT_POLL_MS = 500;

/** How many times {@link awaitUserOperationReceipt} asks at most (with {@link RECEIPT_POLL_MS}: 90 s). */
export const RECEIPT_POLL_ATTEMPTS = 180;

/**
 * Wait, bounded, for the receipt of an operation this snap sent: {@link lookupUserOperationReceipt}
 * every `intervalMs` milliseconds, at most `attempts` times. A failed lookup counts as not yet
 * (the bundler or the node may be briefly unreachable); the last attempt's error is thrown.
 *
 * @param sources - Where to look (`sent` set: the bundler, then the EntryPoint's logs).
 * @param userOpHash - 32-byte hash.
 * @param options - Bounds.
 * @param options.attempts - Lookups at most (default {@link RECEIPT_POLL_ATTEMPTS}).
 * @param options.intervalMs - Milliseconds between lookups (default {@link RECEIPT_POLL_MS}).
 * @returns The receipt, or null when it was not found in time.
 * @throws The last lookup's error when every lookup failed.
 */
export async function awaitUserOperationReceipt(
  sources: ReceiptSources,
  userOpHash: Hex,
  options: { attempts?: number; intervalMs?: number } = {},
): Promise<UserOperationReceipt | null> {
  const attempts = options.attempts ?? RECEIPT_POLL_ATTEMPTS;
  let failure: Error | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const receipt = await lookupUserOperationReceipt(sources, userOpHash);
      if (receipt) {
        return receipt;
      }
      failure = undefined;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (attempt < attempts) {
      await new Promise((resolve) =>
        setTimeout(resolve, options.intervalMs ?? RECEIPT_POLL_MS),
      );
    }
  }
  if (failure !== undefined) {
    throw failure;
  }
  return null;
}
