import { numberToHex } from 'viem';

import {
  INVALID_PARAMS,
  ChainRpcError,
  LimitExceededError,
  parseRangeHint,
  TransportError,
} from './errors';
import type { RangeHint } from './errors';
import { wireFilter } from './logFilters';
import type { Piece } from './logPlan';
import { checkLogs, sortUniqueLogs } from './logReplies';
import type { LogMatcher } from './logReplies';
import type { RpcCall, Settled, Transport } from './transport';
import type { RpcLog } from './types';
import type { CheckedFilter } from './validation';

/**
 * The eth_getLogs calls of one query: batches of at most 10 calls (one HTTP
 * request each), each call's reply checked and turned into an outcome that
 * says whether its range must be narrowed, asked again, or is done.
 */

const advice =
  'narrow the topics or restrict the query to a single contract address';

/** The outcome of one eth_getLogs call. */
export type Outcome =
  | {
      /** Discriminant: the call succeeded. */
      kind: 'ok';
      /** The logs, checked against the filter. */
      logs: RpcLog[];
    }
  /** Too large for one call: refused with "more than N results", "query timeout exceeded", a range hint, or a client-side timeout. */
  | {
      /** Discriminant: the range must be narrowed. */
      kind: 'narrow';
      /** The range the provider suggested, if any. */
      hint?: RangeHint;
      /** The refusal. */
      error: Error;
    }
  /** Part of a batch whose reply exceeded the byte cap: same range again, in a smaller batch. */
  | {
      /** Discriminant: the same range must be asked again. */
      kind: 'again';
      /** The refusal. */
      error: Error;
    };

/** One call of a round: a lane's block range, or a wire range given as tags (the first round). */
export type Query = Piece & {
  /** The block range as sent, when given as tags. */
  wire?: {
    /** First block: a tag or a hex number. */
    fromBlock: string;
    /** Last block: a tag or a hex number. */
    toBlock: string;
  };
};

/** How eth_getLogs splitting sees the query: the lanes and the resolved range. */
export type Run = {
  /** The transport the calls go through. */
  transport: Transport;
  /** The sub-filters, one per lane. */
  lanes: CheckedFilter[];
  /** Per lane, the matcher each returned log is checked against. */
  matchers: LogMatcher[];
  /** The open `pending` end: the last block number stands for it on the wire. */
  openEnd: boolean;
  /** Last block of the resolved range. */
  top: bigint;
};

/**
 * How a settled eth_getLogs call turns into an outcome.
 *
 * @param run - The query.
 * @param query - The call.
 * @param settled - Its reply.
 * @returns The outcome.
 * @throws The call's error when it is not a size limit (a rate limit reaches here as RateLimitedError once
 * the transport's retries are spent); TransportError for a malformed result.
 */
function outcomeOf(run: Run, query: Query, settled: Settled): Outcome {
  if (settled.ok) {
    const range = query.wire
      ? {}
      : {
          from: query.from,
          to: run.openEnd && query.to === run.top ? undefined : query.to,
        };
    return {
      kind: 'ok',
      logs: checkLogs(
        settled.result,
        run.matchers[query.lane],
        range,
        run.transport.origin,
      ),
    };
  }
  const { error } = settled;
  if (error instanceof LimitExceededError) {
    if (error.reason === 'rate') {
      throw error;
    }
    return { kind: 'narrow', hint: error.hint, error };
  }
  // Some providers refuse a too-wide range with -32602 and a suggested range in the message.
  const hint =
    error.code === INVALID_PARAMS
      ? parseRangeHint(error.message, error.data)
      : undefined;
  if (hint) {
    return { kind: 'narrow', hint, error };
  }
  throw error;
}

/**
 * Send one round of calls: batches of at most `maxBatch` eth_getLogs calls
 * (plus `extra` calls in the first batch), all batches concurrently. A batch
 * that times out gives `narrow` to each of its calls (a range that made the
 * provider too slow is narrowed, not re-sent); a reply above the byte cap gives
 * `again` (and `tooLarge`) to a batch of several calls, `narrow` to a lone call.
 *
 * @param run - The query.
 * @param queries - The calls.
 * @param maxBatch - Calls per batch.
 * @param extra - Calls sent first in the first batch (block tag reads).
 * @returns The outcomes in query order, the extra calls' replies, and whether a batch was too large.
 */
export async function sendRound(
  run: Run,
  queries: Query[],
  maxBatch: number,
  extra: RpcCall[] = [],
): Promise<{
  /** One outcome per query, in query order. */
  outcomes: Outcome[];
  /** The replies to the extra calls. */
  extras: Settled[];
  /** Whether a batch reply was above the byte cap. */
  tooLarge: boolean;
  /** The timeout of a batch, when one timed out. */
  timedOut?: TransportError;
}> {
  const groups: Query[][] = [];
  for (let i = 0; i < queries.length; i += maxBatch) {
    groups.push(queries.slice(i, i + maxBatch));
  }
  if (groups.length === 0) {
    groups.push([]);
  }
  let extras: Settled[] = [];
  let tooLarge = false;
  let timedOut: TransportError | undefined;
  const results = await Promise.all(
    groups.map(async (group, index) => {
      const head = index === 0 ? extra : [];
      const calls = [
        ...head,
        ...group.map((query) => ({
          method: 'eth_getLogs',
          params: [
            wireFilter(
              run.lanes[query.lane],
              query.wire ?? wireRange(run, query),
            ),
          ],
        })),
      ];
      try {
        const settled = await run.transport.batchSettled(calls, {
          retryTimeouts: false,
        });
        if (index === 0) {
          extras = settled.slice(0, head.length);
        }
        return group.map((query, i) =>
          outcomeOf(run, query, settled[head.length + i]),
        );
      } catch (error) {
        const lone = group.length === 1;
        if (
          error instanceof TransportError &&
          error.kind === 'timeout' &&
          group.length > 0 &&
          head.length === 0
        ) {
          timedOut = error;
          return group.map((): Outcome => ({ kind: 'narrow', error }));
        }
        if (
          error instanceof TransportError &&
          error.kind === 'tooLarge' &&
          group.length > 0 &&
          head.length === 0
        ) {
          tooLarge = !lone;
          return group.map((): Outcome =>
            lone ? { kind: 'narrow', error } : { kind: 'again', error },
          );
        }
        throw error;
      }
    }),
  );
  return { outcomes: results.flat(), extras, tooLarge, timedOut };
}

/**
 * The wire block range of a piece: hex numbers, `pending` for the open end.
 *
 * @param run - The query.
 * @param piece - The piece.
 * @returns `{ fromBlock, toBlock }`.
 */
function wireRange(
  run: Run,
  piece: Piece,
): {
  /** First block, hex number. */
  fromBlock: string;
  /** Last block, hex number or `pending`. */
  toBlock: string;
} {
  return {
    fromBlock: numberToHex(piece.from),
    toBlock:
      run.openEnd && piece.to === run.top ? 'pending' : numberToHex(piece.to),
  };
}

/**
 * The error for a single block the provider will not return.
 *
 * @param run - The query.
 * @param block - The block number.
 * @param error - The provider's refusal (or the client-side timeout).
 * @returns The error to throw.
 */
export function singleBlockError(run: Run, block: bigint, error: Error): Error {
  if (!(error instanceof ChainRpcError)) {
    return error;
  }
  const name =
    run.openEnd && block === run.top
      ? `block ${block} (${numberToHex(block)}) with the pending block`
      : `block ${block} (${numberToHex(block)})`;
  return new LimitExceededError(
    `eth_getLogs: ${name} alone exceeds the provider's limit ("${error.message.slice(0, 200)}"); ${advice}`,
    {
      block,
      method: 'eth_getLogs',
      providerMessage: error.message,
      reason: error instanceof LimitExceededError ? error.reason : 'results',
      data: error.data,
      cause: error,
    },
  );
}

/**
 * Logs of a query that cannot be split (a block hash, or `pending` as the
 * first block): one call per lane, in batches.
 *
 * @param run - The query.
 * @param wire - The block hash or tag range.
 * @param maxBatch - Calls per batch.
 * @returns The logs, ordered.
 */
export async function fetchWhole(
  run: Run,
  wire: Parameters<typeof wireFilter>[1],
  maxBatch: number,
): Promise<RpcLog[]> {
  const logs: RpcLog[] = [];
  for (let i = 0; i < run.lanes.length; i += maxBatch) {
    const lanes = run.lanes.slice(i, i + maxBatch);
    const settled = await run.transport.batchSettled(
      lanes.map((lane) => ({
        method: 'eth_getLogs',
        params: [wireFilter(lane, wire)],
      })),
    );
    settled.forEach((item, j) => {
      if (!item.ok) {
        const where = wire.blockHash
          ? `block ${wire.blockHash}`
          : 'the pending block';
        throw item.error instanceof LimitExceededError &&
          item.error.reason !== 'rate'
          ? new LimitExceededError(
              `eth_getLogs: ${where} alone exceeds the provider's limit ("${item.error.message.slice(0, 200)}"); ${advice}`,
              {
                method: 'eth_getLogs',
                providerMessage: item.error.message,
                reason: item.error.reason,
                data: item.error.data,
                cause: item.error,
              },
            )
          : item.error;
      }
      logs.push(
        ...checkLogs(
          item.result,
          run.matchers[i + j],
          {},
          run.transport.origin,
        ),
      );
    });
  }
  return sortUniqueLogs(logs);
}
