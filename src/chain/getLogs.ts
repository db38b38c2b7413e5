import { hexOf, resolveBlockNumbers } from './blocks';
import { InvalidParamsError, LimitExceededError, TransportError } from './errors';
import { MAX_LOG_PARAMS, sortUniqueLogs, splitByParams, wireFilter } from './logFilters';
import type { Transport } from './transport';
import type { LogFilter, RpcLog } from './types';
import { checkLogFilter, type CheckedFilter } from './validation';

/** Tuning of getLogs splitting; the defaults follow the spec's limits. */
export type GetLogsOptions = {
  /** Parameter cap per request (spec: 5,000). */
  maxParams?: number;
  /** Result cap per request (spec: 10,000); sets the page target. */
  resultCap?: number;
  /** Fraction of the result cap a page aims at when adapting its block span (default 0.6). */
  fill?: number;
  /** First page's span in blocks (default: the whole range). */
  initialSpan?: bigint;
};

/**
 * One eth_getLogs request for one sub-filter.
 *
 * @param transport - The transport.
 * @param params - The wire filter.
 * @returns The logs.
 * @throws TransportError when the result is not an array.
 */
async function fetchLogs(transport: Transport, params: Record<string, unknown>): Promise<RpcLog[]> {
  const result = await transport.request('eth_getLogs', [params]);
  if (!Array.isArray(result)) {
    throw new TransportError('malformed', `eth_getLogs returned ${typeof result}, not an array (${transport.maskedUrl})`, {
      url: transport.maskedUrl,
    });
  }
  return result as RpcLog[];
}

const advice = 'narrow the topics or restrict the query to a single contract address';

/**
 * Pages of eth_getLogs results (spec part (a) "eth_getLogs", "Limits", "Errors"
 * -32005), each a block range's logs ordered by (blockNumber, logIndex) and
 * de-duplicated; pages come in ascending block order, and together hold every
 * matching log exactly once.
 *
 * How: the filter is validated; a filter above the 5,000-parameter cap is split
 * into sub-filters (address chunks / topic alternatives) that match disjoint
 * logs; block tags are resolved to numbers (one batched eth_getBlockByNumber);
 * the range is walked in chunks: a -32005 (either "query returned more than
 * 10000 results" or "query timeout exceeded") halves the chunk and retries it,
 * a success sizes the next chunk from the density just seen (aiming at `fill`
 * of the result cap, growing at most 8x), and no chunk reaches past the end of
 * a range already refused (it would be a superset of it).
 *
 * @param transport - The transport.
 * @param filter - `{ address?, fromBlock?, toBlock?, topics?, blockHash? }` (blocks default to latest).
 * @param options - Caps and tuning.
 * @yields Arrays of logs, one per block chunk (empty chunks are skipped).
 * @throws InvalidParamsError before sending for an invalid filter, or fromBlock > toBlock;
 * LimitExceededError when one block alone exceeds the provider's limit (naming the block) or a blockHash query does;
 * JsonRpcError for other node errors; TransportError for transport faults.
 */
export async function* getLogsPages(
  transport: Transport,
  filter: LogFilter,
  options: GetLogsOptions = {},
): AsyncGenerator<RpcLog[], void, undefined> {
  const checked = checkLogFilter(filter);
  const subs = splitByParams(checked, options.maxParams ?? MAX_LOG_PARAMS);
  const target = Math.max(1, Math.floor((options.resultCap ?? 10_000) * (options.fill ?? 0.6)));

  if (checked.blockHash) {
    yield await fetchBlockHash(transport, subs, checked.blockHash);
    return;
  }

  const [from, to] = await resolveBlockNumbers(transport, [checked.fromBlock, checked.toBlock]);
  if (from > to) {
    throw new InvalidParamsError(`eth_getLogs: fromBlock ${from} is after toBlock ${to}`);
  }
  let cursor = from;
  let span = options.initialSpan && options.initialSpan > 0n ? options.initialSpan : to - from + 1n;
  // End of the last range refused with -32005: any range from the cursor that
  // reaches past it is a superset of a refused range, so chunks stop there.
  let refusedEnd: bigint | undefined;
  while (cursor <= to) {
    if (refusedEnd !== undefined && refusedEnd < cursor) {
      refusedEnd = undefined;
    }
    const limit = refusedEnd !== undefined && refusedEnd < to ? refusedEnd : to;
    const end = cursor + span - 1n < limit ? cursor + span - 1n : limit;
    let parts: RpcLog[][];
    try {
      parts = await fetchAll(transport, subs, { fromBlock: hexOf(cursor), toBlock: hexOf(end) });
    } catch (error) {
      if (!(error instanceof LimitExceededError)) {
        throw error;
      }
      if (end === cursor) {
        throw new LimitExceededError(
          `eth_getLogs: block ${cursor} (${hexOf(cursor)}) alone exceeds the provider's limit ` +
            `("${error.message}"); ${advice}`,
          { block: cursor, method: 'eth_getLogs', providerMessage: error.message, data: error.data, cause: error },
        );
      }
      refusedEnd = end;
      span = (end - cursor + 1n) / 2n;
      continue;
    }
    const done = end - cursor + 1n;
    cursor = end + 1n;
    const densest = Math.max(1, ...parts.map((p) => p.length));
    const grown = (done * BigInt(target)) / BigInt(densest);
    span = grown < 1n ? 1n : grown > done * 8n ? done * 8n : grown;
    const page = sortUniqueLogs(parts.flat());
    if (page.length > 0) {
      yield page;
    }
  }
}

/**
 * Run every sub-filter over one block range (or block hash).
 *
 * @param transport - The transport.
 * @param subs - Sub-filters.
 * @param range - Hex range or block hash.
 * @returns One log array per sub-filter.
 */
async function fetchAll(
  transport: Transport,
  subs: CheckedFilter[],
  range: Parameters<typeof wireFilter>[1],
): Promise<RpcLog[][]> {
  const parts: RpcLog[][] = [];
  for (const sub of subs) {
    parts.push(await fetchLogs(transport, wireFilter(sub, range)));
  }
  return parts;
}

/**
 * The logs of one block given by hash; -32005 cannot be split further.
 *
 * @param transport - The transport.
 * @param subs - Sub-filters.
 * @param blockHash - The 32-byte block hash.
 * @returns The block's matching logs, ordered.
 */
async function fetchBlockHash(transport: Transport, subs: CheckedFilter[], blockHash: `0x${string}`): Promise<RpcLog[]> {
  try {
    return sortUniqueLogs((await fetchAll(transport, subs, { blockHash })).flat());
  } catch (error) {
    if (error instanceof LimitExceededError) {
      throw new LimitExceededError(
        `eth_getLogs: block ${blockHash} alone exceeds the provider's limit ("${error.message}"); ${advice}`,
        { method: 'eth_getLogs', providerMessage: error.message, data: error.data, cause: error },
      );
    }
    throw error;
  }
}

/**
 * eth_getLogs over a range of any size (spec part (a) "eth_getLogs"): every
 * matching log exactly once, ordered by (blockNumber, logIndex). See
 * `getLogsPages` for how the query is split and which errors are thrown.
 *
 * @param transport - The transport.
 * @param filter - The filter; blocks default to latest.
 * @param options - Caps and tuning.
 * @returns The logs (quantities as hex strings).
 */
export async function getLogs(transport: Transport, filter: LogFilter, options: GetLogsOptions = {}): Promise<RpcLog[]> {
  const all: RpcLog[] = [];
  for await (const page of getLogsPages(transport, filter, options)) {
    all.push(...page);
  }
  return all;
}
