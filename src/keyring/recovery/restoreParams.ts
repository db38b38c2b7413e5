import { EthAccountType } from '@metamask/keyring-api';
import {
  enums,
  exactOptional,
  integer,
  max,
  min,
  object,
} from '@metamask/superstruct';

import type { FoundKind } from './recoveryReads';
import type { ResolvedSmartAccount } from '../../accounts/erc4337';
import { EntropySourceIdStruct } from '../../state/schema';
import type { DerivationScheme } from '../../state/schema';
import type { Key } from '../derivedKeys';

/** The largest derivation index restoreAccount takes (2^31 - 1); what its refusals name. */
const MAX_RESTORE_INDEX = 2 ** 31 - 1;

/** What restoreAccount's refusals call its params. */
export const RESTORE = 'restoreAccount params';

/** restoreAccount's params. */
export const RestoreAccountParamsStruct = object({
  type: enums([EthAccountType.Eoa, EthAccountType.Erc4337]),
  index: max(min(integer(), 0), MAX_RESTORE_INDEX),
  entropySource: exactOptional(EntropySourceIdStruct),
  scheme: exactOptional(enums(['legacy', 'eoa', 'erc4337-owner'])),
  entryPointVersion: exactOptional(enums(['0.6', '0.7', '0.8'])),
});

/** What a new account is built from: its key, kind, index, scheme, source and resolved smart account. */
export type Restoring = {
  /** The derived key. */
  key: Key;
  /** EOA or smart account. */
  kind: FoundKind;
  /** Its derivation index. */
  index: number;
  /** Its salt scheme. */
  scheme: DerivationScheme;
  /** Its entropy source (undefined: the primary phrase). */
  sourceArg: string | undefined;
  /** The name of that phrase when it is not the primary one (see phraseLabel). */
  phrase?: string;
  /** A smart account, resolved. */
  resolved?: ResolvedSmartAccount;
};
