import { call } from './call';
import { estimateGas } from './estimateGas';
import { getLogs, getLogsPages } from './getLogs';
import type { GetLogsOptions } from './getLogs';
import { getTransactionByHash } from './getTransactionByHash';
import { maskUrl } from './mask';
import * as reads from './reads';
import { createTransport } from './transport';
import type { RpcCall, Settled, TransportOptions } from './transport';
import type {
  BlockParam,
  CallRequest,
  FeeHistory,
  Hex,
  LogFilter,
  RpcBlock,
  RpcLog,
  RpcTransaction,
  StateOverride,
} from './types';

/** Options of `createRpcClient`: the transport's, plus getLogs tuning. */
export type RpcClientOptions = TransportOptions & {
  /** getLogs caps (default: 5,000 parameters and 10,000 results per call, 10 calls per batch). */
  logs?: GetLogsOptions;
};

/** The client returned by `createRpcClient`; see each action's module for details. */
export type RpcClient = {
  /** The endpoint masked for display: `<origin>/***` when it has a path, query or credentials (safe to show or log). */
  readonly url: string;
  /** The endpoint's origin (scheme, host, port): what error messages name. */
  readonly origin: string;
  /** Any JSON-RPC method; resolves with `result`. Retried only for read-only methods. */
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
  /** Several calls in one HTTP POST; results in request order; rejects with the first call's error (in request order). */
  batch(requests: readonly RpcCall[]): Promise<unknown[]>;
  /** Like `batch`, but every call settles on its own: `{ ok: true, result }` or `{ ok: false, error }`. */
  batchSettled(requests: readonly RpcCall[]): Promise<Settled[]>;
  /** eth_getLogs over any range, in few round trips: every matching log once, ordered by (blockNumber, logIndex). */
  getLogs(filter: LogFilter): Promise<RpcLog[]>;
  /** eth_getLogs as an async iterator of ordered pages (one per block chunk). */
  getLogsPages(filter: LogFilter): AsyncGenerator<RpcLog[], void, undefined>;
  /** eth_estimateGas, in gas units. */
  estimateGas(
    call: CallRequest,
    block?: BlockParam,
    stateOverride?: StateOverride,
  ): Promise<bigint>;
  /** eth_getTransactionByHash; null when not found. */
  getTransactionByHash(hash: Hex): Promise<RpcTransaction | null>;
  /** eth_call; the return data. */
  call(
    call: CallRequest,
    block?: BlockParam,
    stateOverride?: StateOverride,
  ): Promise<Hex>;
  /** eth_getCode. */
  getCode(address: Hex, block?: BlockParam): Promise<Hex>;
  /** eth_chainId, as a number. */
  chainId(): Promise<number>;
  /** eth_blockNumber. */
  blockNumber(): Promise<bigint>;
  /** eth_getBlockByNumber; null when unknown. */
  getBlockByNumber(block: BlockParam, full?: boolean): Promise<RpcBlock | null>;
  /** eth_gasPrice, wei per gas. */
  gasPrice(): Promise<bigint>;
  /** eth_maxPriorityFeePerGas, wei per gas. */
  maxPriorityFeePerGas(): Promise<bigint>;
  /** eth_feeHistory. */
  feeHistory(
    blockCount: number,
    newestBlock?: BlockParam,
    rewardPercentiles?: number[],
  ): Promise<FeeHistory>;
  /** eth_getBalance, wei. */
  getBalance(address: Hex, block?: BlockParam): Promise<bigint>;
  /** eth_getTransactionCount (nonce). */
  getTransactionCount(address: Hex, block?: BlockParam): Promise<bigint>;
};

/**
 * The result of one settled batch call (`batchSettled`).
 *
 * @param item - The settled call.
 * @returns Its result (untrusted JSON, to be read with the `read*` helpers).
 * @throws Its error (ChainRpcError, TransportError) when the call failed.
 */
export function settledResult(item: Settled): unknown {
  if (!item.ok) {
    throw item.error;
  }
  return item.result;
}

/**
 * Create a JSON-RPC 2.0 client for one endpoint over HTTP POST (any provider
 * URL shape: `/v3/<key>`, `/<key>/`, `?apikey=<key>`, ...). Nothing is sent
 * until a method is called. Errors: InvalidParamsError (-32602, before
 * sending), ChainRpcError, LimitExceededError (-32005), ExecutionRevertedError
 * (3), RemovedLogsError, TransportError; messages name the endpoint's origin
 * only, never its path, query or credentials.
 *
 * @param options - `{ url, fetch?, timeoutMs?, retries?, retryDelayMs?, retryMaxElapsedMs?, maxReplyBytes?, logs? }`.
 * @returns The client.
 * @example
 * const client = createRpcClient({ url: 'https://mainnet.example.io/v3/KEY' });
 * const logs = await client.getLogs({ address, fromBlock: '0x0', toBlock: 'latest' });
 */
export function createRpcClient(options: RpcClientOptions): RpcClient {
  const transport = createTransport(options);
  const logOptions = options.logs ?? {};
  return {
    url: maskUrl(options.url),
    origin: transport.origin,
    /** @inheritdoc */
    request: async (method, params) => transport.request(method, params),
    /** @inheritdoc */
    batchSettled: async (requests) => transport.batchSettled(requests),
    /** @inheritdoc */
    batch: async (requests): Promise<unknown[]> =>
      (await transport.batchSettled(requests)).map(settledResult),
    /** @inheritdoc */
    getLogs: async (filter) => getLogs(transport, filter, logOptions),
    /** @inheritdoc */
    getLogsPages: (filter) => getLogsPages(transport, filter, logOptions),
    /** @inheritdoc */
    estimateGas: async (request, block, override) =>
      estimateGas(transport, request, block, override),
    /** @inheritdoc */
    getTransactionByHash: async (hash) => getTransactionByHash(transport, hash),
    /** @inheritdoc */
    call: async (request, block, override) =>
      call(transport, request, block, override),
    /** @inheritdoc */
    getCode: async (address, block) => reads.getCode(transport, address, block),
    /** @inheritdoc */
    chainId: async () => reads.chainId(transport),
    /** @inheritdoc */
    blockNumber: async () => reads.blockNumber(transport),
    /** @inheritdoc */
    getBlockByNumber: async (block, full) =>
      reads.getBlockByNumber(transport, block, full),
    /** @inheritdoc */
    gasPrice: async () => reads.gasPrice(transport),
    /** @inheritdoc */
    maxPriorityFeePerGas: async () => reads.maxPriorityFeePerGas(transport),
    /** @inheritdoc */
    feeHistory: async (count, newest, percentiles) =>
      reads.feeHistory(transport, count, newest, percentiles),
    /** @inheritdoc */
    getBalance: async (address, block) =>
      reads.getBalance(transport, address, block),
    /** @inheritdoc */
    getTransactionCount: async (address, block) =>
      reads.getTransactionCount(transport, address, block),
  };
}
