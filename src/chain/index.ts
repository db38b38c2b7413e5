/**
 * The embedded chain JSON-RPC adapter: a plain library, usable from Node
 * without the snap. Nothing runs at import time.
 */
export {
  createRpcClient,
  settledResult,
  type RpcClient,
  type RpcClientOptions,
} from './client';
export {
  ChainRpcError,
  InvalidParamsError,
  LimitExceededError,
  RateLimitedError,
  ExecutionRevertedError,
  RemovedLogsError,
  TransportError,
  parseRangeHint,
  classifyLimit,
  type LimitReason,
  type RangeHint,
  type TransportFault,
  INVALID_PARAMS,
  LIMIT_EXCEEDED,
  EXECUTION_REVERTED,
} from './errors';
export { isMaskedUrl, maskKeyed, maskUrl, originOf, redact } from './mask';
export { decodeRevertData, PANIC_REASONS, type DecodedRevert } from './revert';
export {
  createTransport,
  DEFAULT_MAX_REPLY_BYTES,
  READ_ONLY_METHODS,
  type BatchOptions,
  type FetchLike,
  type ResponseLike,
  type RpcCall,
  type Settled,
  type Transport,
  type TransportOptions,
  type CallBudget,
} from './transport';
export { countParams, splitByParams, MAX_LOG_PARAMS } from './logFilters';
export { sortUniqueLogs } from './logReplies';
export { MAX_LOG_CALLS_PER_BATCH, type GetLogsOptions } from './getLogs';
export {
  capGas,
  gasCapOf,
  GAS_CAP_MULTIPLIER,
  MAX_BLOCK_GAS_LIMIT,
  MIN_GAS_ESTIMATE,
  readBlockGasLimit,
  readGasEstimate,
  readHexData,
  readQuantity,
  readUintWord,
} from './untrusted';
export type * from './types';
export {
  activityCalls,
  countingFetch,
  findBalanceChanges,
  readActivity,
  CALLS_PER_PROBE,
  type ActivityProbe,
  type BalanceChange,
  type BalanceState,
  type ChangeSearch,
  type ProbeKind,
  type RequestCount,
} from './activity';
