import type { Hex } from 'viem';

import type { GrantTerms } from './caveats';

/**
 * The values the grant dialog and the home page show (src/ui/dialogs/grant.tsx,
 * src/ui/components/Grants.tsx).
 */

/** A token as shown: its address, and what the chain answered for `symbol()` and `decimals()`. */
export type TokenShown = {
  /** The token contract (checksummed). */
  address: Hex;
  /** Its symbol, printable (empty when it has none). */
  symbol: string;
  /** Its decimals, 0 to 255. */
  decimals: number;
};

/**
 * Whether the granting EOA runs `EIP7702StatelessDeleGatorImpl` on the chain, and if not, what
 * approving also does: `upgrade` (a plain EOA), `switch` (it runs Simple7702Account and gets a new
 * authorization), and who pays that user operation's gas.
 */
export type DeleGatorState =
  | { ready: true }
  | {
      ready: false;
      /** What approving does to the account first. */
      change: 'upgrade' | 'switch';
      /** Whether the chain's paymaster service pays its gas (else the account does). */
      sponsored: boolean;
      /** The most the account pays for it, in wei (0 when sponsored). */
      maxCost: bigint;
    };

/** What the grant dialog shows, before anything is signed. */
export type GrantReview = {
  /** The site that asks (its origin as MetaMask reported it). */
  origin: string;
  /** The granting account. */
  account: {
    /** Its address (checksummed). */
    address: Hex;
    /** Its name, when it has one. */
    name?: string;
  };
  /** The chain, CAIP-2 (`eip155:31337`). */
  scope: string;
  /** The chain as a person reads it (`Local chain (31337)`); set by the platform. */
  chainName?: string;
  /** The session account that may spend (checksummed, shown in full). */
  delegate: Hex;
  /** What it may spend; `startTime` filled in. */
  terms: GrantTerms;
  /** The token of an ERC-20 permission. */
  token?: TokenShown;
  /** When it stops (unix seconds). */
  expiry: number;
  /** The chain's time when the dialog opened (unix seconds): what "today" is. */
  now: number;
  /** The site's own words, when it gave a justification (shown as the site's). */
  justification?: string;
  /** The account's DeleGator state: an upgrade or switch is part of what approving does. */
  deleGator: DeleGatorState;
};

/** Shows the grant dialog; resolves true when the person approves. */
export type GrantConfirmer = (review: GrantReview) => Promise<boolean>;

/** The state of a grant on the home page. */
export type GrantStatus = 'active' | 'expired' | 'revoked';

/** One grant as the home page lists it under its account. */
export type GrantView = {
  /** The delegation's hash: what *Revoke* names. */
  hash: Hex;
  /** The site it was granted to. */
  origin: string;
  /** The granting account's id. */
  accountId: string;
  /** The chain, CAIP-2. */
  scope: string;
  /** The session account (checksummed). */
  delegate: Hex;
  /** What it may spend. */
  terms: GrantTerms;
  /** The token of an ERC-20 permission (symbol and decimals as read at grant time). */
  token?: TokenShown;
  /** When it stops (unix seconds). */
  expiry: number;
  /** What is left now (this period, or unlocked and unspent), base units; absent when unread. */
  available?: bigint;
  /** Active, expired or revoked. */
  status: GrantStatus;
};
