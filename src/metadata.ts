import {
  define,
  exactOptional,
  literal,
  object,
  record,
  refine,
  size,
  string,
  validate,
} from '@metamask/superstruct';
import type { Infer } from '@metamask/superstruct';

import { createIpfsClient, normalizeIpfsApiUrl, parseCid } from './ipfs';
import type { IpfsClient } from './ipfs';
import {
  invalidParams,
  SnapError,
  throwNotFound,
  validate as validateParams,
} from './utils/errors';
import {
  AddressStruct,
  ChainScopeStruct,
  HttpUrlStruct,
  isLocalHostname,
} from './utils/structs';

/**
 * Account metadata hosted on IPFS: a small versioned JSON document
 * whose CID `keyring_createAccount` may receive as `options.metadataCid`.
 *
 * Schema, version 1 (unknown fields are refused at every level):
 * ```
 * {
 *   "version": 1,                        // required, exactly 1
 *   "name": "Savings",                   // required, 1..64 UTF-16 code units, no control characters;
 *                                        //   the account-name suggestion
 *   "icon": "bafkrei...",                // optional, a CIDv0/CIDv1 string of an image
 *   "chains": {                          // optional, per-chain ERC-4337 settings for this account only
 *     "eip155:11155111": {               // key: CAIP-2 scope, decimal chain id (no leading zero)
 *       "entryPoint": "0x5FF1...2789",     // optional, 20-byte hex address
 *       "accountFactory": "0x9406...6976", // optional, 20-byte hex address
 *       "bundlerUrl": "https://...",       // optional, https URL of a non-loopback host
 *       "paymasterUrl": "https://..."      // optional, https URL of a non-loopback host
 *     }
 *   }
 * }
 * ```
 * An RPC URL never comes from metadata: `rpcUrl` is refused, so a document cannot
 * point the snap at a node that lies about the chain. Bundler and paymaster URLs win
 * over the chain config for the account's own chains only, never on a loopback host
 * (a published document must not reach services on the user's own machine), and the
 * user confirms them; an EntryPoint or factory other than the chain config's (or the
 * canonical v0.6 deployments) chooses the account's address, so the user must confirm
 * it too (see the keyring's createAccount).
 */

/** A CIDv0 or CIDv1 string (multiformats). */
export const CidStruct = define<string>('CID', (value) => {
  try {
    parseCid(value);
    return true;
  } catch {
    return 'expected a CID string (CIDv0 Qm... or CIDv1)';
  }
});

const NameStruct = refine(size(string(), 1, 64), 'name', (value) =>
  // eslint-disable-next-line no-control-regex -- the point: refuse C0 control characters and DEL in a name
  /[\u0000-\u001f\u007f]/u.test(value)
    ? 'must not contain control characters'
    : true,
);

/** A service URL from metadata: an {@link HttpUrlStruct} whose host is not this machine in any form (see isLocalHostname; so https). */
const RemoteUrlStruct = refine(HttpUrlStruct, 'remote URL', (value) =>
  isLocalHostname(new URL(value).hostname)
    ? 'a loopback URL (localhost, *.localhost, 127.0.0.0/8, 0.0.0.0/8, [::1], [::], IPv4-mapped forms) never comes from metadata'
    : true,
);

/** Per-chain ERC-4337 settings of one account (no `rpcUrl`, by design). */
export const ChainMetadataStruct = object({
  entryPoint: exactOptional(AddressStruct),
  accountFactory: exactOptional(AddressStruct),
  bundlerUrl: exactOptional(RemoteUrlStruct),
  paymasterUrl: exactOptional(RemoteUrlStruct),
});

/** The account-metadata document, version 1 (see the module docstring). */
export const AccountMetadataStruct = object({
  version: literal(1),
  name: NameStruct,
  icon: exactOptional(CidStruct),
  chains: exactOptional(record(ChainScopeStruct, ChainMetadataStruct)),
});

/** A validated account-metadata document. */
export type AccountMetadata = Infer<typeof AccountMetadataStruct>;

/** Per-chain settings from metadata. */
export type ChainMetadata = Infer<typeof ChainMetadataStruct>;

/** The document does not match the schema; `field` names where (e.g. `chains.eip155:1.bundlerUrl`). */
export class AccountMetadataError extends Error {
  /** Dotted path of the failing field (`(document)` for the root). */
  readonly field: string;

  /** -32602 (invalid params, EIP-1474): the document the caller named is not usable. */
  readonly code = -32602;

  /**
   * @param field - The failing field.
   * @param message - What is wrong with it.
   */
  constructor(field: string, message: string) {
    super(`invalid account metadata: ${field}: ${message}`);
    this.name = 'AccountMetadataError';
    this.field = field;
  }
}

/**
 * Validate a parsed JSON document against {@link AccountMetadataStruct}.
 *
 * @param json - The parsed document (e.g. from `ipfsClient.getJson(cid)`).
 * @returns The metadata, typed.
 * @throws AccountMetadataError naming the first failing field.
 */
export function parseAccountMetadata(json: unknown): AccountMetadata {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new AccountMetadataError('(document)', 'expected a JSON object');
  }
  const [error, value] = validate(json, AccountMetadataStruct);
  if (!error) {
    return value;
  }
  const failure = error.failures()[0] ?? error;
  const field = failure.path.length > 0 ? failure.path.join('.') : '(document)';
  const key = failure.path[failure.path.length - 1];
  if (failure.type === 'never') {
    const hint =
      key === 'rpcUrl' ? ' (an RPC URL never comes from metadata)' : '';
    throw new AccountMetadataError(field, `unknown field${hint}`);
  }
  if (key === 'version' && failure.value !== undefined) {
    throw new AccountMetadataError(
      field,
      `unsupported version ${JSON.stringify(failure.value)} (expected 1)`,
    );
  }
  const message =
    failure.value === undefined ? 'required field missing' : failure.message;
  throw new AccountMetadataError(field, message.slice(0, 200));
}

/**
 * Fetch an account's metadata document from IPFS, verified against its CID by the client
 * (src/ipfs), and validate it.
 *
 * @param client - An IPFS HTTP API client (`createIpfsClient`).
 * @param cid - The document's CID (v0 or v1).
 * @returns The validated metadata.
 * @throws SnapError `Account metadata <cid>: ...` whose cause is the IPFS client's error or an
 * AccountMetadataError; the front door (src/utils/errorMap.ts) makes it -32602 naming what failed (bad
 * CID, missing object, not JSON, schema, verification, size, credentials), or -32002 when the IPFS
 * API cannot be reached in time.
 */
export async function fetchAccountMetadata(
  client: IpfsClient,
  cid: string,
): Promise<AccountMetadata> {
  try {
    return parseAccountMetadata(await client.getJson(cid));
  } catch (error) {
    throw new SnapError(
      `Account metadata ${cid}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** IPFS HTTP API settings (`setIpfsConfig`); the credentials stay in encrypted state. */
export type IpfsConfig = {
  /** Base URL of the IPFS HTTP API (Kubo RPC `/api/v0`); may carry credentials of its own. */
  apiUrl: string;
  /** API key (HTTP basic auth user, e.g. Infura's project id). */
  apiKey?: string;
  /** API key secret (HTTP basic auth password). */
  apiKeySecret?: string;
};

/** `setIpfsConfig` params: `{ apiUrl, apiKey?, apiKeySecret? }`. */
export const IpfsConfigParamsStruct = object({
  apiUrl: HttpUrlStruct,
  apiKey: exactOptional(string()),
  apiKeySecret: exactOptional(string()),
});

/**
 * Validate `setIpfsConfig` params and normalise the API URL once, at set time: https (http only on
 * a loopback host), no credentials, query or fragment in it (keys go in apiKey/apiKeySecret, kept
 * in encrypted state and never shown), and without a trailing slash or `/api/v0`. The IPFS
 * client normalises the same way when it is created.
 *
 * @param params - Untrusted params.
 * @returns The config to store (credentials included; never echoed).
 * @throws JsonRpcError -32602 naming the bad field, never echoing its value.
 */
export function parseIpfsConfig(params: unknown): IpfsConfig {
  const input = validateParams(
    params,
    IpfsConfigParamsStruct,
    'setIpfsConfig params',
  );
  let apiUrl: string;
  try {
    apiUrl = normalizeIpfsApiUrl(input.apiUrl);
  } catch (error) {
    const { problem } = error as { problem?: string };
    let kind: 'credentials' | 'insecure' | 'invalid' = 'invalid';
    if (problem === 'userinfo') {
      kind = 'credentials';
    } else if (problem === 'insecure') {
      kind = problem;
    }
    throw invalidParams(
      `Invalid setIpfsConfig params at apiUrl: ${(error as Error).message}`,
      {
        reason: 'invalidField',
        field: 'apiUrl',
        problem: kind,
      },
    );
  }
  return {
    apiUrl,
    ...(input.apiKey === undefined ? {} : { apiKey: input.apiKey }),
    ...(input.apiKeySecret === undefined
      ? {}
      : { apiKeySecret: input.apiKeySecret }),
  };
}

/** What an account takes from its metadata: a name suggestion and per-chain settings. */
export type AccountMetadataSettings = {
  /** The account name the metadata suggests. */
  name: string;
  /** By CAIP-2 scope: `{ entryPoint?, accountFactory?, bundlerUrl?, paymasterUrl? }`. */
  overrides: Record<string, ChainMetadata>;
};

/**
 * Reads account metadata through the IPFS HTTP API configured with `setIpfsConfig`. It owns its
 * IPFS client: one per configuration, so the client's CID-keyed cache lives as long as the snap
 * instance and a new configuration gets a new client.
 */
export class MetadataReader {
  readonly #config: () => IpfsConfig | null;

  #client: { key: string; client: IpfsClient } | undefined;

  /**
   * @param config - Returns the current IPFS config (null when none is set).
   */
  constructor(config: () => IpfsConfig | null) {
    this.#config = config;
  }

  /**
   * Fetch, verify and validate the metadata document `cid`.
   *
   * @param cid - CIDv0 or CIDv1 string.
   * @returns `{ name, overrides }`.
   * @throws JsonRpcError -32001 when no IPFS API is configured; see fetchAccountMetadata for the rest.
   */
  async read(cid: string): Promise<AccountMetadataSettings> {
    const config =
      this.#config() ??
      throwNotFound(
        'No IPFS API is configured: call setIpfsConfig before using metadataCid',
        { reason: 'noIpfsConfig' },
      );
    const key = JSON.stringify(config);
    if (this.#client?.key !== key) {
      this.#client = { key, client: createIpfsClient(config) };
    }
    const metadata = await fetchAccountMetadata(this.#client.client, cid);
    return { name: metadata.name, overrides: metadata.chains ?? {} };
  }
}
