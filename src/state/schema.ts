import {
  KeyringAccountStruct,
  KeyringRequestStruct,
} from '@metamask/keyring-api';
import type { KeyringAccount, KeyringRequest } from '@metamask/keyring-api';
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
  size,
  string,
} from '@metamask/superstruct';
import type { Describe } from '@metamask/superstruct';

import { DelegationEnvironmentStruct } from '../accounts/deleGator/environment';
import type {
  ActivityEntry,
  ChainConfig,
  SentUserOperation,
  SmartAccountData,
} from '../accounts/erc4337/types';
import type { IpfsConfig } from '../metadata';
import { GrantsStruct } from './grants';
import type { PermissionGrant } from './grants';
import {
  defang,
  expectation,
  fieldPath,
  firstFailure,
} from '../utils/safeText';
import {
  AddressStruct,
  Bytes32Struct,
  ChainScopeStruct,
} from '../utils/structs';

export type {
  ActivityEntry,
  ChainConfig,
  IpfsConfig,
  PermissionGrant,
  SentUserOperation,
  SmartAccountData,
};

/**
 * How a derived key's snap_getEntropy salt is built. `legacy`: one sequence for every account type
 * (schema version 1, `keyring-snap:account:<index>`), kept only so that accounts created then keep
 * their keys; no new account uses it, since with one sequence a reinstall that creates accounts in
 * another order gives a smart account's owner the key of another install's EOA. `eoa` and
 * `erc4337-owner`: one sequence per account type, so an EOA key can never be a smart-account owner
 * key.
 */
export type DerivationScheme = 'legacy' | 'eoa' | 'erc4337-owner';

/**
 * Version of the persisted schema; bump it and add a step to `migrate` on every change.
 * 2: derived accounts record their salt scheme (`derivationScheme`), and the next derivation index
 * is kept per scheme.
 * 3: a derived account may record the entropy source (Secret Recovery Phrase) it comes from
 * (`entropySource`; absent: the primary one), and the next derivation index of each other source is
 * kept apart (`nextIndexBySource`).
 */
export const STATE_VERSION = 3;

/** One account: its public KeyringAccount and its key (never leaves this state). */
export type AccountRecord = {
  /** The account as keyring-api describes it to MetaMask. */
  account: KeyringAccount;
  /** The name suggested to MetaMask when the account was created (the snap's own label). */
  name?: string;
  /** 32-byte secp256k1 private key, 0x-prefixed hex. */
  privateKey: string;
  /** Index used with snap_getEntropy when the key was derived, else absent (imported). */
  derivationIndex?: number;
  /** The salt scheme of that index (see derivationSalt); present exactly when derivationIndex is. */
  derivationScheme?: DerivationScheme;
  /**
   * The id of the entropy source (`snap_listEntropySources`) the key was derived from, when it is
   * not the primary Secret Recovery Phrase; absent for the primary one and for imported keys.
   */
  entropySource?: string;
  /** ERC-4337 v0.6 data (factory, EntryPoint, per-chain settings) of a smart account; absent for an EOA. */
  smartAccount?: SmartAccountData;
};

/** The next derivation index of each per-type salt scheme, for one non-primary entropy source. */
export type SourceIndexes = {
  /** Next index of the `eoa` scheme. */
  eoa: number;
  /** Next index of the `erc4337-owner` scheme. */
  'erc4337-owner': number;
};

/**
 * A call bundle a site sent (EIP-5792 `wallet_sendCalls`): the id it was given, the site that sent
 * it (only that site may ask its status), and the user operation that carries it.
 */
export type DappCall = {
  /** The bundle id (the site's own, or the userOpHash when it gave none). */
  id: string;
  /** The sending site's origin. */
  origin: string;
  /** CAIP-2 chain of the operation. */
  scope: string;
  /** The user operation's hash (lower-case hex). */
  userOpHash: string;
};

/** The newest block an Activity read accepted on one chain, and when (the bound of the next one). */
export type ChainHead = {
  /** The chain's latest block number then (hex quantity). */
  block: string;
  /** When it was read: Unix time, seconds. */
  at: number;
};

/** The snap's persisted state (snap_manageState, encrypted). */
export type KeyringState = {
  /** Schema version; see STATE_VERSION and `migrate`. */
  version: typeof STATE_VERSION;
  /** Accounts by id (a UUID). */
  accounts: Record<string, AccountRecord>;
  /**
   * Next snap_getEntropy index of each salt scheme; never reused after a delete. `legacy` is what
   * schema version 1 reached (no new account uses that scheme).
   */
  nextDerivationIndex: Record<DerivationScheme, number>;
  /**
   * Next snap_getEntropy index of each salt scheme for the entropy sources other than the primary
   * one, by source id (absent: 0). Each source counts on its own, so accounts of one source never
   * leave a gap in another's sequence (recovery stops after 20 unused indices in a row).
   */
  nextIndexBySource: Record<string, SourceIndexes>;
  /** Keyring requests parked in async approval mode, by request id. */
  pendingRequests: Record<string, KeyringRequest>;
  /** `sync`: sign when MetaMask submits; `async`: park the request for the companion dapp. */
  approvalMode: 'sync' | 'async';
  /** Chain settings (RPC, bundler, EntryPoint, factory) by CAIP-2 scope. */
  chains: Record<string, ChainConfig>;
  /** The IPFS HTTP API settings, or null before `setIpfsConfig`. */
  ipfs: IpfsConfig | null;
  /** Operations sendUserOperation sent, oldest first, bounded (absent in states saved before it existed). */
  sentUserOperations?: SentUserOperation[];
  /** Call bundles sites sent with wallet_sendCalls, oldest first, bounded (absent before it existed). */
  dappCalls?: DappCall[];
  /**
   * The highest number of a suggested name (`Keyring Account <n>`, `Smart Account <n>`) given so
   * far, by kind: never suggested again, even after a rename or a delete (absent in states saved
   * before it existed: read as 0, and the numbers of the accounts' names still count).
   */
  nameCounters?: { eoa: number; smart: number };
  /**
   * Each account's Activity list as read from the chain, by account id, then by CAIP-2 scope
   * (absent in states saved before it existed: read from the chain again).
   */
  activity?: Record<string, Record<string, ActivityLog>>;
  /** Execution permissions (ERC-7715) granted to sites, oldest first, bounded (absent before it existed). */
  grants?: PermissionGrant[];
  /**
   * The latest block each chain's Activity reads last accepted, by CAIP-2 scope: a later reading
   * must not go backwards nor jump further than time allows (absent in states saved before it
   * existed, and for a chain whose RPC URL changed: the next reading is taken as it is, bounded).
   */
  activityHeads?: Record<string, ChainHead>;
  /**
   * The addresses each site was given, by origin (lower-case, oldest first, bounded): what
   * EIP-5792 and ERC-7715 answer a site for, as wallets answer `eth_accounts` (absent in states
   * saved before it existed: no site was given any).
   */
  siteAccounts?: Record<string, string[]>;
};

/** What was read of one account's activity on one chain. */
export type ActivityLog = {
  /** The next block to read (hex quantity); absent until the account's first use is found. */
  next?: string;
  /** Newest first, bounded (pending ones first). */
  entries: ActivityEntry[];
};

/** The most sites whose given addresses are kept (the one given least recently is dropped first). */
export const MAX_SITES = 256;

/** The most addresses kept per site (the oldest given is dropped first). */
export const MAX_SITE_ACCOUNTS = 64;

/**
 * The persisted state's schema (STATE_VERSION 3), checked every time state is loaded: a state
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

/**
 * A record keyed by `key`, as superstruct's `record`, but never an array: superstruct's `record`
 * takes any object, and an array taken as a record would lose every entry added under an id when
 * the state is next written (JSON keeps only an array's items).
 *
 * @param key - The struct of the keys.
 * @param value - The struct of the values.
 * @returns The struct.
 */
function plainRecord<Key extends string, Value>(
  key: Parameters<typeof record<Key, Value>>[0],
  value: Parameters<typeof record<Key, Value>>[1],
): ReturnType<typeof record<Key, Value>> {
  return refine(record(key, value), 'plain record', (entries) =>
    Array.isArray(entries) ? 'expected an object, not an array' : true,
  );
}

const SmartAccountDataStruct = object({
  owner: AddressStruct,
  entryPointVersion: exactOptional(enums(['0.7', '0.8'])),
  accountFactory: AddressStruct,
  entryPoint: AddressStruct,
  salt: define<string>('salt', (value) =>
    typeof value === 'string' && /^[0-9]{1,78}$/u.test(value)
      ? true
      : 'expected a decimal salt',
  ),
  implementations: plainRecord(ChainScopeStruct, AddressStruct),
  chains: exactOptional(plainRecord(ChainScopeStruct, ServiceUrlsStruct)),
});

const DerivationSchemeStruct = enums(['legacy', 'eoa', 'erc4337-owner']);

/** An entropy source id as MetaMask lists it (`snap_listEntropySources`): 1 to 128 printable ASCII characters. */
export const EntropySourceIdStruct = define<string>(
  'entropy source id',
  (value) =>
    typeof value === 'string' && /^[\x21-\x7e]{1,128}$/u.test(value)
      ? true
      : 'expected an entropy source id',
);

const AccountRecordStruct = refine(
  object({
    account: KeyringAccountStruct,
    name: exactOptional(string()),
    privateKey: PrivateKeyStruct,
    derivationIndex: exactOptional(min(integer(), 0)),
    derivationScheme: exactOptional(DerivationSchemeStruct),
    entropySource: exactOptional(EntropySourceIdStruct),
    smartAccount: exactOptional(SmartAccountDataStruct),
  }),
  'derivation',
  (entry) => {
    if (
      (entry.derivationIndex === undefined) !==
      (entry.derivationScheme === undefined)
    ) {
      return 'expected derivationIndex and derivationScheme together';
    }
    return entry.entropySource !== undefined &&
      entry.derivationIndex === undefined
      ? 'expected entropySource only on a derived account'
      : true;
  },
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

const HexQuantityStruct = define<string>('hex quantity', (value) =>
  typeof value === 'string' && /^0x(0|[1-9a-f][0-9a-f]{0,63})$/u.test(value)
    ? true
    : 'expected a hex quantity',
);

const ActivityLogStruct = object({
  next: exactOptional(HexQuantityStruct),
  entries: size(
    array(
      object({
        kind: enums([
          'operation',
          'upgrade',
          'undo',
          'transaction',
          'received',
        ]),
        hash: define<string>('hash', (value) =>
          typeof value === 'string' && /^0x[0-9a-f]{64}$/u.test(value)
            ? true
            : 'expected a 32-byte lower-case hex hash',
        ),
        status: enums(['pending', 'succeeded', 'failed']),
        block: exactOptional(HexQuantityStruct),
        fee: exactOptional(HexQuantityStruct),
        to: exactOptional(AddressStruct),
        from: exactOptional(AddressStruct),
        value: exactOptional(HexQuantityStruct),
        calls: exactOptional(size(integer(), 2, 32)),
        call: exactOptional(literal(true)),
      }),
    ),
    0,
    100,
  ),
});

const EntryPointContractsStruct = object({
  entryPoint: AddressStruct,
  accountFactory: AddressStruct,
});

const ChainConfigStruct = object({
  scope: ChainScopeStruct,
  rpcUrl: StoredUrlStruct,
  entryPoint: AddressStruct,
  accountFactory: AddressStruct,
  bundlerUrl: exactOptional(StoredUrlStruct),
  paymasterUrl: exactOptional(StoredUrlStruct),
  entryPoints: exactOptional(
    object({
      '0.7': exactOptional(EntryPointContractsStruct),
      '0.8': exactOptional(EntryPointContractsStruct),
    }),
  ),
  gasTokens: exactOptional(size(array(AddressStruct), 0, 8)),
  delegationEnvironment: exactOptional(DelegationEnvironmentStruct),
});

/**
 * Each entry of a record keyed by id (or scope) must carry that id.
 *
 * @param struct - The struct of the record, `plainRecord(string(), <entry struct>)`.
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
  version: literal(3),
  accounts: keyedBy(
    plainRecord(string(), AccountRecordStruct),
    (entry) => entry.account.id,
  ),
  nextDerivationIndex: object({
    legacy: DerivationIndexStruct,
    eoa: DerivationIndexStruct,
    'erc4337-owner': DerivationIndexStruct,
  }),
  nextIndexBySource: plainRecord(
    EntropySourceIdStruct,
    object({
      eoa: DerivationIndexStruct,
      'erc4337-owner': DerivationIndexStruct,
    }),
  ),
  pendingRequests: keyedBy(
    plainRecord(string(), KeyringRequestStruct),
    (request) => request.id,
  ),
  approvalMode: enums(['sync', 'async']),
  chains: keyedBy(
    plainRecord(ChainScopeStruct, ChainConfigStruct),
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
  dappCalls: exactOptional(
    array(
      object({
        id: size(string(), 1, 4096),
        origin: size(string(), 1, 2048),
        scope: ChainScopeStruct,
        userOpHash: Bytes32Struct,
      }),
    ),
  ),
  nameCounters: exactOptional(
    object({ eoa: DerivationIndexStruct, smart: DerivationIndexStruct }),
  ),
  activity: exactOptional(
    plainRecord(string(), plainRecord(ChainScopeStruct, ActivityLogStruct)),
  ),
  grants: exactOptional(GrantsStruct),
  activityHeads: exactOptional(
    plainRecord(
      ChainScopeStruct,
      object({ block: HexQuantityStruct, at: min(integer(), 0) }),
    ),
  ),
  siteAccounts: exactOptional(
    refine(
      plainRecord(
        size(string(), 1, 2048),
        size(array(AddressStruct), 0, MAX_SITE_ACCOUNTS),
      ),
      'bounded',
      (sites) =>
        Object.keys(sites).length <= MAX_SITES
          ? true
          : `expected at most ${MAX_SITES} sites`,
    ),
  ),
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
