import type { Hex } from './types';
import type { CheckedFilter } from './validation';

/**
 * Helpers of eth_getLogs splitting (provider limits as Infura documents them: at most 5,000
 * parameters per request, counting every address and every topic value).
 */

/** The provider's cap on eth_getLogs parameters. */
export const MAX_LOG_PARAMS = 5000;

/**
 * Count a filter's parameters as the provider does: every address plus every
 * topic value (3 addresses and a topic position with 2 alternatives = 5).
 *
 * @param filter - A validated filter.
 * @returns The number of parameters.
 */
export function countParams(
  filter: Pick<CheckedFilter, 'addresses' | 'topics'>,
): number {
  return (
    (filter.addresses?.length ?? 0) +
    filter.topics.reduce((sum, topic) => sum + (topic?.length ?? 0), 0)
  );
}

/**
 * Cut a list into consecutive chunks.
 *
 * @param list - The list.
 * @param size - Items per chunk (the last may hold fewer).
 * @returns The chunks, in order.
 */
const chunk = <Item>(list: Item[], size: number): Item[][] => {
  const out: Item[][] = [];
  for (let i = 0; i < list.length; i += size) {
    out.push(list.slice(i, i + size));
  }
  return out;
};

/**
 * Split a filter whose parameter count exceeds `max` into sub-filters that each
 * fit, by cutting the largest list (addresses, or one topic position's
 * alternatives) into chunks. The sub-filters match disjoint sets of logs (a log
 * has one address and one value per topic position), so their union is exactly
 * the original query.
 *
 * @param filter - A validated filter (lists deduplicated).
 * @param max - Parameter cap (default 5,000).
 * @returns One or more sub-filters, each with at most `max` parameters.
 */
export function splitByParams(
  filter: CheckedFilter,
  max = MAX_LOG_PARAMS,
): CheckedFilter[] {
  const total = countParams(filter);
  if (total <= max) {
    return [filter];
  }
  const dims: {
    /** Which field: `addresses` or a topic position. */
    key: 'addresses' | number;
    /** The alternatives of that field. */
    list: Hex[];
  }[] = [];
  if (filter.addresses) {
    dims.push({ key: 'addresses', list: filter.addresses });
  }
  filter.topics.forEach(
    (topic, i) => topic && dims.push({ key: i, list: topic }),
  );
  dims.sort((a, b) => b.list.length - a.list.length);
  const [largest] = dims;
  if (!largest || largest.list.length < 2) {
    return [filter];
  }
  const rest = total - largest.list.length;
  const size = rest < max ? max - rest : Math.ceil(largest.list.length / 2);
  return chunk(largest.list, size).flatMap((part) => {
    const sub: CheckedFilter =
      largest.key === 'addresses'
        ? { ...filter, addresses: part }
        : {
            ...filter,
            topics: filter.topics.map((topic, i) =>
              i === largest.key ? part : topic,
            ),
          };
    return splitByParams(sub, max);
  });
}

/**
 * The JSON filter object sent for a sub-filter over one block range (or blockHash).
 *
 * @param filter - A validated (sub-)filter.
 * @param range - Hex block numbers, or a block hash.
 * @param range.fromBlock - First block, hex.
 * @param range.toBlock - Last block, hex.
 * @param range.blockHash - Block hash instead of a range.
 * @returns The eth_getLogs parameter object.
 */
export function wireFilter(
  filter: CheckedFilter,
  range: {
    /** First block, as sent. */
    fromBlock?: string;
    /** Last block, as sent. */
    toBlock?: string;
    /** A block hash, instead of the range. */
    blockHash?: Hex;
  },
): Record<string, unknown> {
  const out: Record<string, unknown> = range.blockHash
    ? { blockHash: range.blockHash }
    : { fromBlock: range.fromBlock, toBlock: range.toBlock };
  if (filter.addresses) {
    out.address =
      filter.addresses.length === 1 ? filter.addresses[0] : filter.addresses;
  }
  if (filter.topics.length > 0) {
    out.topics = filter.topics.map((topic) =>
      topic?.length === 1 ? topic[0] : topic,
    );
  }
  return out;
}
