import {
  decodeEventLog,
  encodeEventTopics,
  getAddress,
  numberToHex,
  pad,
} from 'viem';
import type { Hex } from 'viem';

import { contractsOf } from './config';
import { entryPointAbi } from './constants';
import { readOperationDetails } from './opDetails';
import type { FoundOperation, SentDetails } from './opDetails';
import type { ActivityEntry, ChainConfig } from './types';
import { CANONICAL_CONTRACTS } from './versions';
import { readHexData, readQuantity } from '../../chain';
import type { RpcCall, RpcClient, RpcLog, Settled } from '../../chain';

/**
 * An account's history on a chain, read from the chain itself: its user operations from the
 * EntryPoints' `UserOperationEvent` logs (v0.6, v0.7 and v0.8 emit the same event: `topics[2]` is
 * the sender), the receipts of the type-4 transactions that undid an EIP-7702 upgrade, and the
 * block the account was first used in. Every reply is untrusted: a log must come from one of the
 * EntryPoints asked for and name the sender asked for, quantities are bounded, and the work is
 * bounded by the caller's block range.
 */

/** Probes per round trip of {@link firstUseBlock} (one JSON-RPC batch). */
const PROBES_PER_ROUND = 9;

/** Round trips {@link firstUseBlock} makes at most: 10^8 blocks are narrowed to one in 8. */
const SEARCH_ROUNDS = 8;

/** A nonce above this is not believed (2^64 - 1, EIP-2681). */
const MAX_NONCE = 2n ** 64n - 1n;

/** A block number above this is not believed (2^53: a JSON number's exact range). */
const MAX_BLOCK = 2n ** 53n;

/** What an account's first use is read from: an EOA's nonce, a contract account's code. */
export type HistoryKind = 'eoa' | 'contract';

/**
 * Every EntryPoint of a chain whose logs may hold an account's operations: the chain config's v0.6,
 * v0.7 and v0.8 ones (or the canonical deployments), the canonical v0.8 one (an EOA upgraded to
 * Simple7702Account), the Delegation Framework's (an EOA upgraded to the DeleGator), and the
 * account's own.
 *
 * @param config - The chain config.
 * @param own - The account's own EntryPoint, if any (a smart account's).
 * @returns Checksummed addresses, each once.
 */
export function historyEntryPoints(config: ChainConfig, own?: string): Hex[] {
  const all = [
    ...(['0.6', '0.7', '0.8'] as const).map(
      (version) => contractsOf(config, version).entryPoint,
    ),
    CANONICAL_CONTRACTS['0.8'].entryPoint,
    ...(config.delegationEnvironment
      ? [config.delegationEnvironment.EntryPoint]
      : []),
    ...(own ? [own] : []),
  ].map((address) => getAddress(address));
  return [...new Set(all)];
}

/**
 * Whether the account was used at a block: an EOA sent a transaction or took an EIP-7702
 * authorization (nonce > 0), a contract account has code, or either holds ETH (it received some).
 *
 * @param kind - What to read.
 * @param first - The eth_getTransactionCount or eth_getCode reply.
 * @param balance - The eth_getBalance reply.
 * @param origin - The endpoint's origin, for errors.
 * @returns Whether it was used; undefined when a reply is an error (the state is not served).
 */
function usedBy(
  kind: HistoryKind,
  first: Settled,
  balance: Settled,
  origin: string,
): boolean | undefined {
  if (!first.ok || !balance.ok) {
    return undefined;
  }
  const touched =
    kind === 'eoa'
      ? readQuantity(
          first.result,
          'eth_getTransactionCount',
          { max: MAX_NONCE },
          origin,
        ) > 0n
      : readHexData(first.result, 'eth_getCode', origin) !== '0x';
  return (
    touched || readQuantity(balance.result, 'eth_getBalance', {}, origin) > 0n
  );
}

/**
 * The first block the account can have activity in, searched with the state at past blocks: the
 * first block where an EOA's nonce is above 0 (its upgrade or any earlier transaction raised it),
 * a smart account has code (the operation that deployed it is its first), or either holds ETH
 * (what it received is its first activity). A k-ary search:
 * {@link PROBES_PER_ROUND} blocks per round trip (one batch), at most {@link SEARCH_ROUNDS} round
 * trips. Where the provider does not serve the state of a past block (a node without archive),
 * the search stops there and answers the lowest block it could not rule out, so the history is
 * read from there (the log reader splits the range within the provider's limits).
 *
 * @param client - The chain's RPC adapter.
 * @param address - The account.
 * @param kind - `eoa` (nonce) or `contract` (code), and the balance for both.
 * @param latest - The latest block number.
 * @returns The first block to read from; `latest + 1` when the account is unused at `latest`.
 * @throws The adapter's errors when the state at `latest` cannot be read.
 */
export async function firstUseBlock(
  client: RpcClient,
  address: Hex,
  kind: HistoryKind,
  latest: bigint,
): Promise<bigint> {
  const method = kind === 'eoa' ? 'eth_getTransactionCount' : 'eth_getCode';
  /**
   * The reads that tell whether the account was used at a block.
   *
   * @param block - The block.
   * @returns Its first read (nonce or code) and its balance.
   */
  const reads = (block: bigint): RpcCall[] => [
    { method, params: [address, numberToHex(block)] },
    { method: 'eth_getBalance', params: [address, numberToHex(block)] },
  ];
  const now = await client.batch(reads(latest));
  if (
    !usedBy(
      kind,
      { ok: true, result: now[0] },
      { ok: true, result: now[1] },
      client.origin,
    )
  ) {
    return latest + 1n;
  }
  // Invariant: unused at `low` (or `low` is 0, never read), used at `high`.
  let low = 0n;
  let high = latest;
  for (let round = 0; round < SEARCH_ROUNDS && high - low > 1n; round += 1) {
    const step = (high - low) / BigInt(PROBES_PER_ROUND + 1) || 1n;
    const blocks: bigint[] = [];
    for (let block = low + step; block < high; block += step) {
      blocks.push(block);
    }
    const probed = blocks.slice(0, PROBES_PER_ROUND);
    const replies = await client.batchSettled(probed.flatMap(reads));
    let next = high;
    for (const [at, block] of probed.entries()) {
      const used = usedBy(
        kind,
        replies[2 * at],
        replies[2 * at + 1],
        client.origin,
      );
      if (used === undefined) {
        // The provider does not serve this block's state: read from the last block ruled out.
        return low;
      }
      if (used) {
        next = block;
        break;
      }
      low = block;
    }
    high = next;
  }
  return high - low <= 1n ? high : low;
}

/**
 * The account's user operations in a block range, from the EntryPoints' `UserOperationEvent`
 * logs (`topics[2]` the sender), through the adapter's eth_getLogs (split within the provider's
 * limits), with what each sent (readOperationDetails: read back from its bundle transaction,
 * except for those the caller knows already).
 *
 * @param client - The chain's RPC adapter.
 * @param entryPoints - The EntryPoints to read.
 * @param sender - The account.
 * @param fromBlock - First block, inclusive.
 * @param toBlock - Last block, inclusive.
 * @param known - The userOpHashes whose details the caller has (not read again).
 * @returns The operations, oldest first: outcome, fee (actualGasCost, wei), block, and what they
 * sent when it could be read.
 * @throws The adapter's errors; TransportError-free decoding: a log that does not decode, comes
 * from another address or names another sender is left out.
 */
export async function readOperationEvents(
  client: RpcClient,
  entryPoints: Hex[],
  sender: Hex,
  fromBlock: bigint,
  toBlock: bigint,
  known: ReadonlySet<string> = new Set(),
): Promise<ActivityEntry[]> {
  const [topic0] = encodeEventTopics({
    abi: entryPointAbi,
    eventName: 'UserOperationEvent',
  });
  const senderTopic = pad(sender.toLowerCase() as Hex);
  const logs = await client.getLogs({
    address: entryPoints,
    topics: [topic0, null, senderTopic],
    fromBlock,
    toBlock,
  });
  const allowed = new Set(entryPoints.map((address) => address.toLowerCase()));
  const found = logs.flatMap((log) =>
    operationEntry(log, allowed, senderTopic),
  );
  const details = await readOperationDetails(
    client,
    sender,
    found.flatMap(({ entry, operation }) =>
      known.has(entry.hash) ? [] : [operation],
    ),
  ).catch(() => new Map<string, SentDetails>());
  return found.map(({ entry }) => ({
    ...entry,
    ...details.get(entry.hash),
  }));
}

/**
 * One log as an Activity entry, or nothing when it is not a `UserOperationEvent` of the sender
 * from an EntryPoint asked for.
 *
 * @param log - The log as received.
 * @param allowed - The EntryPoints asked for, lower case.
 * @param senderTopic - The sender as a 32-byte topic, lower case.
 * @returns The entry and where to read what it sent, in a one-item list, or an empty list.
 */
function operationEntry(
  log: RpcLog,
  allowed: Set<string>,
  senderTopic: Hex,
): { entry: ActivityEntry; operation: FoundOperation }[] {
  if (
    !allowed.has(String(log.address).toLowerCase()) ||
    String(log.topics[2]).toLowerCase() !== senderTopic ||
    !log.blockNumber ||
    BigInt(log.blockNumber) > MAX_BLOCK
  ) {
    return [];
  }
  try {
    const { args } = decodeEventLog({
      abi: entryPointAbi,
      eventName: 'UserOperationEvent',
      data: log.data,
      topics: log.topics,
    });
    const hash = args.userOpHash.toLowerCase();
    return [
      {
        entry: {
          kind: 'operation',
          hash,
          status: args.success ? 'succeeded' : 'failed',
          block: numberToHex(BigInt(log.blockNumber)),
          fee: numberToHex(args.actualGasCost),
        },
        operation: {
          hash,
          transactionHash: log.transactionHash as Hex,
          entryPoint: String(log.address),
          nonce: args.nonce,
        },
      },
    ];
  } catch {
    return [];
  }
}

/**
 * The outcome of transactions the snap sent (an EIP-7702 undo), from their receipts
 * (`eth_getTransactionReceipt`, one batch): status, block, and the fee gasUsed ×
 * effectiveGasPrice (wei).
 *
 * @param client - The chain's RPC adapter.
 * @param hashes - The transaction hashes (at most a few: the caller bounds them).
 * @returns Per hash, its mined entry (kind `undo`); hashes not mined yet are absent.
 * @throws The adapter's TransportError (malformed) for a receipt of the wrong shape.
 */
export async function readUndoReceipts(
  client: RpcClient,
  hashes: string[],
): Promise<Map<string, ActivityEntry>> {
  const mined = new Map<string, ActivityEntry>();
  if (hashes.length === 0) {
    return mined;
  }
  const replies = await client.batchSettled(
    hashes.map((hash) => ({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    })),
  );
  for (const [at, reply] of replies.entries()) {
    const receipt = reply.ok ? reply.result : null;
    if (receipt === null || typeof receipt !== 'object') {
      continue;
    }
    const { status, blockNumber, gasUsed, effectiveGasPrice } =
      receipt as Record<string, unknown>;
    if (typeof blockNumber !== 'string') {
      continue;
    }
    /**
     * A receipt field, checked as a hex quantity.
     *
     * @param value - The field as received.
     * @param what - Its name, for the error.
     * @param max - The largest value believed.
     * @returns The value.
     */
    const read = (value: unknown, what: string, max?: bigint): bigint =>
      readQuantity(
        value,
        `eth_getTransactionReceipt ${what}`,
        { max },
        client.origin,
      );
    mined.set(hashes[at], {
      kind: 'undo',
      hash: hashes[at],
      status: read(status, 'status', 1n) === 1n ? 'succeeded' : 'failed',
      block: numberToHex(read(blockNumber, 'blockNumber', MAX_BLOCK)),
      fee: numberToHex(
        read(gasUsed, 'gasUsed', MAX_NONCE) *
          read(effectiveGasPrice, 'effectiveGasPrice'),
      ),
    });
  }
  return mined;
}
