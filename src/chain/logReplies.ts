import { RemovedLogsError, TransportError } from './errors';
import type { Hex, RpcLog } from './types';
import type { CheckedFilter } from './validation';

/**
 * Checks of eth_getLogs replies, which are untrusted: every log must have the
 * Log object's shape (Ethereum JSON-RPC API, eth_getLogs), lie in the block
 * range asked for and match the filter sent; `removed: true` and two hashes for
 * one block number mean the chain reorganised while the query was split.
 */

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]{0,15})$/iu;
const BYTES32 = /^0x[0-9a-f]{64}$/iu;
const ADDRESS = /^0x[0-9a-f]{40}$/iu;
const DATA = /^0x([0-9a-f]{2})*$/iu;

/** A sub-filter compiled for matching logs against it. */
export type LogMatcher = {
  /** Lower-cased addresses accepted, or undefined for any. */
  addresses?: ReadonlySet<string>;
  /** Per topic position: lower-cased alternatives, or null for any. */
  topics: (ReadonlySet<string> | null)[];
};

/**
 * Compile a validated (sub-)filter for `checkLogs`.
 *
 * @param filter - The filter sent.
 * @returns Lower-cased sets per field.
 */
export function logMatcher(
  filter: Pick<CheckedFilter, 'addresses' | 'topics'>,
): LogMatcher {
  return {
    addresses:
      filter.addresses && new Set(filter.addresses.map((a) => a.toLowerCase())),
    topics: filter.topics.map(
      (topic) => topic && new Set(topic.map((value) => value.toLowerCase())),
    ),
  };
}

/**
 * Whether an optional log field is absent (null or undefined) or well formed.
 *
 * @param value - The field.
 * @param pattern - The shape it must have when present.
 * @returns True when absent or matching.
 */
const nullableMatches = (value: unknown, pattern: RegExp): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && pattern.test(value));

/**
 * What is wrong with one log, or undefined when it is well formed and matches.
 *
 * @param log - A log from the reply.
 * @param matcher - The filter sent.
 * @param range - The block range sent (`to` undefined for an open `pending` end).
 * @param range.from - First block asked for.
 * @param range.to - Last block asked for.
 * @returns A short description of the fault.
 */
function logFault(
  log: unknown,
  matcher: LogMatcher,
  range: {
    /** First block asked for. */
    from?: bigint;
    /** Last block asked for. */
    to?: bigint;
  },
): string | undefined {
  if (typeof log !== 'object' || log === null || Array.isArray(log)) {
    return 'a log is not an object';
  }
  const item = log as Record<string, unknown>;
  if (typeof item.address !== 'string' || !ADDRESS.test(item.address)) {
    return 'a log has no 20-byte address';
  }
  if (
    !Array.isArray(item.topics) ||
    item.topics.length > 4 ||
    !item.topics.every(
      (topic) => typeof topic === 'string' && BYTES32.test(topic),
    )
  ) {
    return 'a log has malformed topics';
  }
  if (typeof item.data !== 'string' || !DATA.test(item.data)) {
    return 'a log has malformed data';
  }
  if (
    !nullableMatches(item.blockNumber, QUANTITY) ||
    !nullableMatches(item.logIndex, QUANTITY) ||
    !nullableMatches(item.transactionIndex, QUANTITY) ||
    !nullableMatches(item.blockHash, BYTES32) ||
    !nullableMatches(item.transactionHash, BYTES32) ||
    (item.removed !== undefined && typeof item.removed !== 'boolean')
  ) {
    return 'a log has malformed block or transaction fields';
  }
  if (typeof item.blockNumber === 'string') {
    const block = BigInt(item.blockNumber);
    if (
      (range.from !== undefined && block < range.from) ||
      (range.to !== undefined && block > range.to)
    ) {
      return 'a log lies outside the block range asked for';
    }
  }
  if (matcher.addresses && !matcher.addresses.has(item.address.toLowerCase())) {
    return 'a log comes from an address not in the filter';
  }
  const topics = item.topics as string[];
  if (
    matcher.topics.some(
      (set, i) =>
        set !== null &&
        (topics[i] === undefined || !set.has(topics[i].toLowerCase())),
    )
  ) {
    return 'a log does not match the filter topics';
  }
  return undefined;
}

/**
 * Check an eth_getLogs result: an array of well-formed logs, each inside the
 * block range asked for and matching the filter sent, none `removed`.
 *
 * @param result - The reply's result.
 * @param matcher - The filter sent (see `logMatcher`).
 * @param range - The block range sent; bounds undefined when given as tags.
 * @param range.from - First block asked for.
 * @param range.to - Last block asked for.
 * @param origin - The endpoint's origin, for messages.
 * @returns The logs.
 * @throws TransportError (malformed) naming the fault; RemovedLogsError for `removed: true`.
 */
export function checkLogs(
  result: unknown,
  matcher: LogMatcher,
  range: {
    /** First block asked for. */
    from?: bigint;
    /** Last block asked for. */
    to?: bigint;
  },
  origin: string,
): RpcLog[] {
  if (!Array.isArray(result)) {
    throw new TransportError(
      'malformed',
      `eth_getLogs returned ${typeof result}, not an array (${origin})`,
      { url: origin },
    );
  }
  const removed: bigint[] = [];
  for (const log of result) {
    const fault = logFault(log, matcher, range);
    if (fault) {
      throw new TransportError(
        'malformed',
        `eth_getLogs reply: ${fault} (${origin})`,
        { url: origin },
      );
    }
    if ((log as RpcLog).removed) {
      removed.push(BigInt((log as RpcLog).blockNumber ?? -1));
    }
  }
  if (removed.length > 0) {
    throw new RemovedLogsError(removed, 'removed');
  }
  return result as RpcLog[];
}

/**
 * The identity of a mined log: its block hash and log index (unique on one
 * chain). Logs without them (pending logs: null block fields) have none and
 * are never merged with one another.
 *
 * @param log - A log.
 * @returns The key, or undefined for a pending log.
 */
export function logKey(log: RpcLog): string | undefined {
  if (
    log.blockHash === null ||
    log.blockHash === undefined ||
    log.logIndex === null ||
    log.logIndex === undefined
  ) {
    return undefined;
  }
  return `${log.blockHash.toLowerCase()}|${BigInt(log.logIndex)}`;
}

const NO_BLOCK = 2n ** 256n;
/**
 * Sort key of a log's block number or index: pending logs (null) last.
 *
 * @param value - Hex quantity, or null/undefined while pending.
 * @returns The number, or 2^256 when absent.
 */
const position = (value: Hex | null | undefined): bigint =>
  value === null || value === undefined ? NO_BLOCK : BigInt(value);

/**
 * Order logs by (blockNumber, logIndex), pending logs (null fields) last in
 * the order received, and drop repeated mined logs (same block hash and log
 * index). Throws when two logs give one block number two different hashes.
 *
 * @param logs - Logs from one or more replies.
 * @returns A new sorted, de-duplicated array.
 * @throws RemovedLogsError when one block number has two hashes.
 */
export function sortUniqueLogs(logs: RpcLog[]): RpcLog[] {
  const seen = new Set<string>();
  const hashes = new Map<string, string>();
  const inconsistent: bigint[] = [];
  const unique = logs.filter((log) => {
    if (log.blockNumber && log.blockHash) {
      const number = BigInt(log.blockNumber).toString();
      const hash = log.blockHash.toLowerCase();
      if ((hashes.get(number) ?? hash) !== hash) {
        inconsistent.push(BigInt(number));
      }
      hashes.set(number, hash);
    }
    const key = logKey(log);
    if (key === undefined) {
      return true;
    }
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
  if (inconsistent.length > 0) {
    throw new RemovedLogsError(inconsistent, 'inconsistent');
  }
  const keyed = unique.map((log, index) => ({
    log,
    index,
    block: position(log.blockNumber),
    logIndex: position(log.logIndex),
  }));
  keyed.sort((a, b) => {
    if (a.block !== b.block) {
      return a.block < b.block ? -1 : 1;
    }
    if (a.logIndex !== b.logIndex) {
      return a.logIndex < b.logIndex ? -1 : 1;
    }
    return a.index - b.index;
  });
  return keyed.map((entry) => entry.log);
}
