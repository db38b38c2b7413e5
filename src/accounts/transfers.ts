import { getAddress, numberToHex } from 'viem';
import type { Hex } from 'viem';

import { findBalanceChanges, readQuantity } from '../chain';
import type { BalanceChange, ProbeKind, RpcClient } from '../chain';
import type { ActivityEntry } from './erc4337/types';

/**
 * What an account sent and received in plain ETH, read from the chain with standard JSON-RPC only
 * (no indexer): the blocks where its balance or nonce changed (findBalanceChanges), then those
 * blocks with their transactions (`eth_getBlockByNumber`, full) and the receipts of the ones that
 * concern it. Each such block gives:
 * - a transaction the account sent (`from` is the account): kind `transaction`, its recipient,
 *   value, outcome and fee (gasUsed × effectiveGasPrice);
 * - a transaction that paid it ETH (`to` is the account, value above 0): kind `received`, from
 *   whom and how much;
 * - the rest of the block's balance change when it is a gain no transaction to the account
 *   explains (ETH a contract sent it, such as a smart account's call): kind `received`, without a
 *   sender, keyed by the block's hash. What the account's user operations spent is not counted, so
 *   such a gain in a block where it also spent through one is under-counted, never over-counted.
 * Every reply is untrusted: a block must be the one asked for, and a transaction whose fields are
 * not an address or a bounded quantity is left out.
 */

/** Changed blocks read per account and chain each time (the oldest first; the rest next time). */
const BLOCKS_PER_READ = 12;

/** Transactions of one read whose receipts are read (in one batch). */
const RECEIPTS_PER_READ = 64;

/** A nonce or gas amount above this is not believed (2^64 - 1). */
const MAX_UINT64 = 2n ** 64n - 1n;

/** What {@link readTransfers} found. */
export type Transfers = {
  /** The entries, oldest first. */
  entries: ActivityEntry[];
  /** The last block read through: every transfer up to it is in `entries`. */
  searchedTo: bigint;
};

/** The fields of a transaction the list needs, checked. */
type Transaction = {
  /**
   *
   */
  hash: string;
  /**
   *
   */
  from: string;
  /**
   *
   */
  to?: string;
  /**
   *
   */
  value: bigint;
  /**
   *
   */
  input: boolean;
  /**
   *
   */
  block: bigint;
};

/**
 * A transaction of a block reply, checked, or undefined when a field is not what it must be.
 *
 * @param tx - The transaction as received.
 * @param block - The block it came in.
 * @param origin - The endpoint's origin, for errors.
 * @returns The transaction's fields.
 */
function transactionOf(
  tx: unknown,
  block: bigint,
  origin: string,
): Transaction | undefined {
  const { hash, from, to, value, input } = (tx ?? {}) as Record<
    string,
    unknown
  >;
  const address = /^0x[0-9a-fA-F]{40}$/u;
  if (
    typeof hash !== 'string' ||
    !/^0x[0-9a-fA-F]{64}$/u.test(hash) ||
    typeof from !== 'string' ||
    !address.test(from) ||
    (to !== null && (typeof to !== 'string' || !address.test(to)))
  ) {
    return undefined;
  }
  try {
    return {
      hash: hash.toLowerCase(),
      from: getAddress(from),
      ...(typeof to === 'string' ? { to: getAddress(to) } : {}),
      value: readQuantity(value, 'transaction value', {}, origin),
      input: typeof input === 'string' && input !== '0x',
      block,
    };
  } catch {
    return undefined;
  }
}

/**
 * The account's plain-ETH history in a block range: what it sent by transaction and what it
 * received, oldest first, at most {@link BLOCKS_PER_READ} changed blocks a read.
 *
 * @param client - The chain's RPC adapter.
 * @param address - The account.
 * @param kind - `eoa` (its nonce moves when it sends) or `contract` (a smart account).
 * @param from - First block, inclusive.
 * @param to - Last block, inclusive.
 * @returns The entries, and the last block read through.
 * @throws The adapter's errors (a provider that does not serve past state: ChainRpcError).
 */
export async function readTransfers(
  client: RpcClient,
  address: Hex,
  kind: ProbeKind,
  from: bigint,
  to: bigint,
): Promise<Transfers> {
  const search = await findBalanceChanges(
    client,
    address,
    kind,
    from,
    to,
    BLOCKS_PER_READ,
  );
  if (search.changes.length === 0) {
    return { entries: [], searchedTo: search.searchedTo };
  }
  const blocks = await client.batch(
    search.changes.map((change) => ({
      method: 'eth_getBlockByNumber',
      params: [numberToHex(change.block), true],
    })),
  );
  const own = address.toLowerCase();
  const byBlock = search.changes.map((change, at) => {
    const reply = (blocks[at] ?? {}) as Record<string, unknown>;
    const number =
      typeof reply.number === 'string' &&
      /^0x[0-9a-fA-F]{1,16}$/u.test(reply.number)
        ? BigInt(reply.number)
        : undefined;
    const hash =
      typeof reply.hash === 'string' && /^0x[0-9a-fA-F]{64}$/u.test(reply.hash)
        ? reply.hash.toLowerCase()
        : undefined;
    const transactions =
      number === change.block && Array.isArray(reply.transactions)
        ? reply.transactions
            .map((tx) => transactionOf(tx, change.block, client.origin))
            .filter(
              (tx): tx is Transaction =>
                tx !== undefined &&
                (tx.from.toLowerCase() === own ||
                  (tx.to?.toLowerCase() === own && tx.value > 0n)),
            )
        : [];
    return { change, hash, transactions };
  });
  const concerned = byBlock
    .flatMap((block) => block.transactions)
    .slice(0, RECEIPTS_PER_READ);
  const receipts = await client.batchSettled(
    concerned.map((tx) => ({
      method: 'eth_getTransactionReceipt',
      params: [tx.hash],
    })),
  );
  const outcome = new Map(
    concerned.map((tx, at) => [tx.hash, receiptOf(receipts[at], client)]),
  );
  return {
    entries: byBlock.flatMap((block) =>
      blockEntries(block, own, outcome, kind),
    ),
    searchedTo: search.searchedTo,
  };
}

/**
 * A receipt's outcome and fee, or undefined when it is missing or malformed.
 *
 * @param reply - The settled eth_getTransactionReceipt reply.
 * @param client - The adapter (its origin, for errors).
 * @returns `{ ok, fee }`.
 */
function receiptOf(
  reply: { ok: boolean; result?: unknown } | undefined,
  client: RpcClient,
): { ok: boolean; fee: bigint } | undefined {
  const receipt = reply?.ok ? reply.result : undefined;
  if (receipt === null || typeof receipt !== 'object') {
    return undefined;
  }
  const { status, gasUsed, effectiveGasPrice } = receipt as Record<
    string,
    unknown
  >;
  try {
    /**
     * A receipt field, checked as a bounded hex quantity.
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
    return {
      ok: read(status, 'status', 1n) === 1n,
      fee:
        read(gasUsed, 'gasUsed', MAX_UINT64) *
        read(effectiveGasPrice, 'effectiveGasPrice'),
    };
  } catch {
    return undefined;
  }
}

/**
 * The entries of one changed block: the account's transactions, the ETH transactions paid it,
 * and what else it gained.
 *
 * @param block - The change, the block's hash and the transactions that concern the account.
 * @param block.change - The change (balances before and after).
 * @param block.hash - The block's hash (the key of what a contract sent it).
 * @param block.transactions - The transactions from or to the account.
 * @param own - The account, lower case.
 * @param outcome - Each transaction's receipt (absent: not read).
 * @param kind - `contract` accounts send no transactions of their own.
 * @returns The entries, in block order.
 */
function blockEntries(
  block: { change: BalanceChange; hash?: string; transactions: Transaction[] },
  own: string,
  outcome: Map<string, { ok: boolean; fee: bigint } | undefined>,
  kind: ProbeKind,
): ActivityEntry[] {
  const number = numberToHex(block.change.block);
  const entries: ActivityEntry[] = [];
  let explained = 0n;
  for (const tx of block.transactions) {
    const receipt = outcome.get(tx.hash);
    if (receipt === undefined) {
      continue;
    }
    if (tx.from.toLowerCase() === own && kind === 'eoa') {
      explained -= receipt.fee + (receipt.ok ? tx.value : 0n);
      entries.push({
        kind: 'transaction',
        hash: tx.hash,
        status: receipt.ok ? 'succeeded' : 'failed',
        block: number,
        fee: numberToHex(receipt.fee),
        ...(tx.to ? { to: tx.to } : {}),
        value: numberToHex(tx.value),
        ...(tx.input ? { call: true as const } : {}),
      });
    } else if (tx.from.toLowerCase() !== own && receipt.ok) {
      explained += tx.value;
      entries.push({
        kind: 'received',
        hash: tx.hash,
        status: 'succeeded',
        block: number,
        from: tx.from,
        value: numberToHex(tx.value),
      });
    }
  }
  const gained =
    block.change.after.balance - block.change.before.balance - explained;
  if (gained > 0n && block.hash !== undefined) {
    entries.push({
      kind: 'received',
      hash: block.hash,
      status: 'succeeded',
      block: number,
      value: numberToHex(gained),
    });
  }
  return entries;
}
