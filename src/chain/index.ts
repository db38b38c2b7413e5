/**
 * The embedded chain JSON-RPC adapter (spec part (a)): a plain library, usable
 * from Node without the snap. Nothing runs at import time.
 */
export { createRpcClient, type RpcClient, type RpcClientOptions } from './client';
export {
  JsonRpcError,
  InvalidParamsError,
  LimitExceededError,
  ExecutionRevertedError,
  TransportError,
  type TransportFault,
  INVALID_PARAMS,
  LIMIT_EXCEEDED,
  EXECUTION_REVERTED,
} from './errors';
export { maskUrl, redact } from './mask';
export { decodeRevertData, PANIC_REASONS, type DecodedRevert } from './revert';
export { createTransport, READ_ONLY_METHODS, type FetchLike, type RpcCall, type Settled, type Transport, type TransportOptions } from './transport';
export { countParams, splitByParams, sortUniqueLogs, MAX_LOG_PARAMS } from './logFilters';
export type { GetLogsOptions } from './getLogs';
export type * from './types';
