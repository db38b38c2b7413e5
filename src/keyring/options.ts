import { EthAccountType } from '@metamask/keyring-api';
import {
  array,
  enums,
  exactOptional,
  object,
  optional,
  record,
  size,
  string,
  any,
} from '@metamask/superstruct';
import type { Infer } from '@metamask/superstruct';

import { CidStruct } from '../metadata';
import { EntropySourceIdStruct } from '../state/schema';
import { ChainScopeStruct } from '../utils/structs';

/**
 * Options of `keyring_createAccount`:
 * - `type`: `eip155:eoa` (default) or `eip155:erc4337` (SimpleAccount v0.6);
 * - `privateKey`: 32-byte hex to import (never stored in the account's options);
 * - `scopes`: CAIP-2 chains of a smart account (default: every configured chain);
 * - `metadataCid`: CID (v0 or v1) of the account's IPFS metadata document;
 * - `entryPointVersion`: `"0.6"` (default), `"0.7"` or `"0.8"`, the EntryPoint of an `eip155:erc4337` account;
 * - `name`: the account's name (the snap's, given out in `options.name`, and MetaMask's suggestion);
 * - `entropySource`: the id of the Secret Recovery Phrase a derived key comes from
 *   (`snap_listEntropySources`; default: the primary one); refused with `privateKey`;
 * - `metamask`: what the wallet itself adds (e.g. a correlation id), ignored.
 */
export const CreateAccountOptionsStruct = object({
  type: exactOptional(enums([EthAccountType.Eoa, EthAccountType.Erc4337])),
  privateKey: exactOptional(string()),
  scopes: exactOptional(size(array(ChainScopeStruct), 1, 32)),
  metadataCid: exactOptional(CidStruct),
  entryPointVersion: exactOptional(enums(['0.6', '0.7', '0.8'])),
  name: exactOptional(size(string(), 1, 64)),
  entropySource: exactOptional(EntropySourceIdStruct),
  metamask: optional(record(string(), any())),
});

/** createAccount options as validated by CreateAccountOptionsStruct. */
export type CreateAccountOptions = Infer<typeof CreateAccountOptionsStruct>;
