/**
 * Client of the IPFS HTTP API (Kubo RPC API, https://docs.ipfs.tech/reference/kubo/rpc/),
 * with every read verified against its CID. A plain library: no snap APIs, no
 * Node built-ins, nothing runs at import. See `client.ts` for the contract.
 */
export { createIpfsClient, DEFAULT_DEADLINE_MS } from './client';
export type {
  IpfsClient,
  IpfsClientOptions,
  IpfsLink,
  IpfsObject,
} from './client';
export {
  ContentVerificationError,
  DagLimitError,
  InvalidApiUrlError,
  InvalidCidError,
  InvalidContentError,
  IpfsApiError,
  IpfsDeadlineError,
  IpfsError,
  IpfsTimeoutError,
  IpfsTransportError,
  ResponseTooLargeError,
} from './errors';
export type { FetchLike, Query, ResponseLike } from './http';
export { MAX_JSON_DEPTH } from './json';
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES } from './unixfs';
export { isLoopbackHost, normalizeIpfsApiUrl } from './url';
export { parseCid } from './verify';
