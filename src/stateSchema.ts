import {
  KeyringAccountStruct,
  KeyringRequestStruct,
} from '@metamask/keyring-api';
import { rpcErrors } from '@metamask/rpc-errors';
import {
  array,
  define,
  enums,
  exactOptional,
  integer,
  literal,
  min,
  nullable,
  object,
  record,
  refine,
  string,
} from '@metamask/superstruct';
import type { Describe } from '@metamask/superstruct';

import { defang, expectation, fieldPath, firstFailure } from './safeText';
import type { KeyringState } from './state';
import { AddressStruct, ChainScopeStruct } from './structs';

/**
 * The persisted state's schema (STATE_VERSION 2), checked every time state is loaded: a state
 * written by another build, edited or damaged is refused with one clear error instead of failing
 * later, on every request, with a TypeError.
 */

/** A URL the snap stored (http(s); the https rule applies to new settings, not to loading old ones). */
const StoredUrlStruct = define<string>('stored URL', (value) => {
  try {
    return typeof value === 'string' &&
      /^https?:$/u.test(new URL(value).protocol)
      ? true
      : 'expected an http(s) URL';
  } catch {
    return 'expected an http(s) URL';
  }
});

const PrivateKeyStruct = define<string>('private key', (value) =>
  typeof value === 'string' && /^0x[0-9a-f]{64}$/u.test(value)
    ? true
    : 'expected a 32-byte lower-case hex key',
);

const ServiceUrlsStruct = object({
  bundlerUrl: exactOptional(StoredUrlStruct),
  paymasterUrl: exactOptional(StoredUrlStruct),
});

const SmartAccountDataStruct = object({
  owner: AddressStruct,
  accountFactory: AddressStruct,
  entryPoint: AddressStruct,
  salt: define<string>('salt', (value) =>
    typeof value === 'string' && /^[0-9]{1,78}$/u.test(value)
      ? true
      : 'expected a decimal salt',
  ),
  implementations: record(ChainScopeStruct, AddressStruct),
  chains: exactOptional(record(ChainScopeStruct, ServiceUrlsStruct)),
});

const DerivationSchemeStruct = enums(['legacy', 'eoa', 'erc4337-owner']);

const AccountRecordStruct = refine(
  object({
    account: KeyringAccountStruct,
    name: exactOptional(string()),
    privateKey: PrivateKeyStruct,
    derivationIndex: exactOptional(min(integer(), 0)),
    derivationScheme: exactOptional(DerivationSchemeStruct),
    smartAccount: exactOptional(SmartAccountDataStruct),
  }),
  'derivation',
  (entry) =>
    (entry.derivationIndex === undefined) ===
    (entry.derivationScheme === undefined)
      ? true
      : 'expected derivationIndex and derivationScheme together',
);

const DerivationIndexStruct = min(integer(), 0);

const SentUserOperationStruct = object({
  userOpHash: define<string>('userOpHash', (value) =>
    typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/u.test(value)
      ? true
      : 'expected a 32-byte hex hash',
  ),
  scope: ChainScopeStruct,
  entryPoint: AddressStruct,
  bundlerUrl: StoredUrlStruct,
  fromBlock: define<string>('fromBlock', (value) =>
    typeof value === 'string' && /^0x[0-9a-fA-F]{1,16}$/u.test(value)
      ? true
      : 'expected a hex block number',
  ),
});

const ChainConfigStruct = object({
  scope: ChainScopeStruct,
  rpcUrl: StoredUrlStruct,
  entryPoint: AddressStruct,
  accountFactory: AddressStruct,
  bundlerUrl: exactOptional(StoredUrlStruct),
  paymasterUrl: exactOptional(StoredUrlStruct),
});

/**
 * Each entry of a record keyed by id (or scope) must carry that id.
 *
 * @param struct - The struct of the record, `record(string(), <entry struct>)`.
 * @param key - Reads the id (or scope) an entry carries.
 * @returns The same struct, refined (`keyed`) to refuse an entry under another key.
 */
function keyedBy<Entry>(
  struct: ReturnType<typeof record<string, Entry>>,
  key: (value: Entry) => string,
): ReturnType<typeof record<string, Entry>> {
  return refine(struct, 'keyed', (entries) =>
    Object.entries(entries).every(([id, value]) => key(value) === id)
      ? true
      : 'expected every entry under its own id',
  );
}

/** The whole persisted state. */
export const KeyringStateStruct = object({
  version: literal(2),
  accounts: keyedBy(
    record(string(), AccountRecordStruct),
    (entry) => entry.account.id,
  ),
  nextDerivationIndex: object({
    legacy: DerivationIndexStruct,
    eoa: DerivationIndexStruct,
    'erc4337-owner': DerivationIndexStruct,
  }),
  pendingRequests: keyedBy(
    record(string(), KeyringRequestStruct),
    (request) => request.id,
  ),
  approvalMode: enums(['sync', 'async']),
  chains: keyedBy(
    record(ChainScopeStruct, ChainConfigStruct),
    (config) => config.scope,
  ),
  ipfs: nullable(
    object({
      apiUrl: StoredUrlStruct,
      apiKey: exactOptional(string()),
      apiKeySecret: exactOptional(string()),
    }),
  ),
  sentUserOperations: exactOptional(array(SentUserOperationStruct)),
}) as unknown as Describe<KeyringState>;

/**
 * Check a loaded state against the schema.
 *
 * @param state - The stored state, migrated to STATE_VERSION and filled with defaults.
 * @returns It, typed.
 * @throws JsonRpcError -32603 `Stored state is invalid at <path>: <expectation>`; never a stored value
 * (the state holds private keys and API keys).
 */
export function assertKeyringState(state: unknown): KeyringState {
  let outcome: ReturnType<typeof KeyringStateStruct.validate>;
  try {
    outcome = KeyringStateStruct.validate(state);
  } catch {
    // superstruct threw while printing a refused value: describe the same state, defanged
    outcome = KeyringStateStruct.validate(defang(state));
  }
  const failure = outcome[0] ? firstFailure(outcome[0]) : undefined;
  if (outcome[0] || !outcome[1]) {
    const at =
      failure && failure.path.length > 0
        ? ` at ${fieldPath(failure.path)}`
        : '';
    let what = 'malformed JSON';
    if (failure) {
      what =
        failure.value === undefined ? 'required' : expectation(failure.message);
    }
    throw rpcErrors.internal({
      message: `Stored state is invalid${at}: ${what}; the snap will not use it`,
    });
  }
  return state as KeyringState;
}
