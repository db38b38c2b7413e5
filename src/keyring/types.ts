import type {
  KeyringAccount,
  KeyringEvent,
  KeyringEventPayload,
} from '@metamask/keyring-api';

import type { DerivationScheme } from './keys';
import type { CallLine } from '../accounts/callData';
import type { SendSummary } from '../accounts/erc4337';
import type { ConsentAsker } from '../consent';

export type { CallLine, SendSummary };

/**
 * What the sendUserOperation dialog shows: the operation's summary (site, account, chain, full
 * nonce, intents, cost) and, for each intent in order, its call data decoded by the domain
 * (`describeCallData`: ERC-20/721/1155 calls, nested execute/executeBatch, unlimited approvals
 * flagged). The dialog only renders it.
 */
export type SendReview = SendSummary & {
  /** One list of decoded lines per intent, in the order of `intents`. */
  calls: CallLine[][];
  /** The account's name, when it has one. */
  name?: string;
  /** The EntryPoint the operation goes to (20-byte address). */
  entryPoint?: `0x${string}`;
  /** Whether `entryPoint` is the canonical EntryPoint of its version (absent: not checked). */
  canonicalEntryPoint?: boolean;
  /**
   * The sender is an EOA (EIP-7702: upgraded by this operation, or before): the dialog leaves out
   * what only a smart account has (its deployment).
   */
  eoa?: boolean;
  /**
   * For gas paid in a token: whether the chain's settings list that token in `gasTokens` (absent:
   * not checked).
   */
  gasTokenListed?: boolean;
};

/** Shows the sendUserOperation confirmation (snap_dialog); resolves true when confirmed. */
export type SendConfirmer = (confirmation: SendReview) => Promise<boolean>;

/** What the keyring needs from the snap platform; injected so Node tests can run it. */
export type KeyringPlatform = {
  /** Send a keyring-api event to MetaMask (snap_manageAccounts); rejects if MetaMask refuses it. */
  emitEvent: <EventType extends KeyringEvent>(
    event: EventType,
    data: KeyringEventPayload<EventType>,
  ) => Promise<void>;
  /** Ask the user to confirm; resolves true when confirmed. */
  confirm: (title: string, text: string) => Promise<boolean>;
  /** Ask the user to confirm a change a site asks for (snap_dialog); without it a site changes nothing. */
  confirmConsent?: ConsentAsker;
  /**
   * Derive the key of index `index` in salt scheme `scheme` (snap_getEntropy, see derivationSalt),
   * from entropy source `source` (its id; undefined: the primary Secret Recovery Phrase).
   */
  deriveKey: (
    index: number,
    scheme: DerivationScheme,
    source?: string,
  ) => Promise<{ privateKey: string; address: string }>;
  /**
   * MetaMask's answer to `snap_listEntropySources` (unchecked). Without it (or when MetaMask does
   * not know the method) only the primary Secret Recovery Phrase is used.
   */
  listEntropySources?: () => Promise<unknown>;
  /** Show the sendUserOperation confirmation (snap_dialog); resolves true when confirmed. Without it nothing is sent. */
  confirmSend?: SendConfirmer;
};

/** Where a parked request (async approval mode) is approved: a message, and a URL of an allowed origin. */
export type ApprovalRedirect = (requestId: string) => {
  message: string;
  url?: string;
};

/** An account as shown to a person (see describeAccounts). */
export type AccountSummary = {
  /** The keyring-api account. */
  account: KeyringAccount;
  /** The name shown for the account. */
  name: string;
  /** Where the key comes from: a derivation index and its salt scheme (snap_getEntropy), or an imported key. */
  keySource:
    | {
        derivationIndex: number;
        derivationScheme: DerivationScheme;
        /** The entropy source's id when it is not the primary Secret Recovery Phrase. */
        entropySource?: string;
      }
    | { imported: true };
  /** A smart account's owner (the address its key controls; the key exportAccount returns). */
  owner?: string;
  /** A smart account's EntryPoint version (SimpleAccount of that release). */
  entryPointVersion?: '0.6' | '0.7' | '0.8';
};
