/**
 * Client of the IPFS HTTP API (spec part (b), "Storage interface"), with every
 * read verified against its CID. A plain library: no snap APIs, no Node
 * built-ins, nothing runs at import. See `client.ts` for the contract.
 */
export { createIpfsClient } from './client';
export type { IpfsClient, IpfsClientOptions, IpfsLink, IpfsObject } from './client';
export {
  ContentVerificationError,
  InvalidCidError,
  InvalidContentError,
  IpfsApiError,
  IpfsError,
  IpfsTimeoutError,
  IpfsTransportError,
  ResponseTooLargeError,
} from './errors';
export type { FetchLike, Query, ResponseLike } from './http';
export { parseCid } from './verify';
