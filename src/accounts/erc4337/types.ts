import type { Hex } from 'viem';

import type { DelegationEnvironment } from '../deleGator/canonical';

/**
 * The persisted shapes of the ERC-4337 side: a chain's settings (`setChainConfig`) and a smart
 * account's own data. Plain JSON, kept in the snap's encrypted state by the domain; the account
 * code receives them as arguments and never reads state itself.
 */

/**
 * Chain settings of one CAIP-2 scope (`setChainConfig`). Addresses are checksummed 20-byte hex;
 * URLs are http(s) and may carry an API key (never shown back unmasked).
 */
export type ChainConfig = {
  /** `eip155:<decimal chain id>`. */
  scope: string;
  /** The chain's JSON-RPC endpoint (EIP-1474). */
  rpcUrl: string;
  /** EntryPoint v0.6 address. */
  entryPoint: string;
  /** SimpleAccountFactory v0.6 address. */
  accountFactory: string;
  /** ERC-4337 bundler JSON-RPC endpoint (`eth_sendUserOperation`, ...). */
  bundlerUrl?: string;
  /** ERC-7677 paymaster web service. */
  paymasterUrl?: string;
  /**
   * EntryPoint v0.7 / v0.8 and their SimpleAccountFactory replacing the canonical deployments on
   * this chain (v0.6 keeps the top-level `entryPoint` / `accountFactory`).
   */
  entryPoints?: {
    '0.7'?: { entryPoint: string; accountFactory: string };
    '0.8'?: { entryPoint: string; accountFactory: string };
  };
  /** ERC-20 tokens (checksummed, at most 8) the home page offers to pay gas with through `paymasterUrl`. */
  gasTokens?: string[];
  /**
   * MetaMask's Delegation Framework on this chain (the kit's `SmartAccountsEnvironment`,
   * checksummed), replacing the canonical v1.3.0 deployment (or giving one to a chain without it).
   */
  delegationEnvironment?: DelegationEnvironment;
};

/** What an account may set for one chain on top of the chain config (from its IPFS metadata). */
export type AccountChainOverrides = {
  /** EntryPoint v0.6 address replacing the chain config's. */
  entryPoint?: string;
  /** SimpleAccountFactory v0.6 address replacing the chain config's. */
  accountFactory?: string;
  /** ERC-4337 bundler JSON-RPC endpoint replacing the chain config's. */
  bundlerUrl?: string;
  /** ERC-7677 paymaster web service replacing the chain config's. */
  paymasterUrl?: string;
};

/** A chain config merged with an account's own settings: what every ERC-4337 call runs with. */
export type ChainSettings = Required<
  Pick<ChainConfig, 'scope' | 'rpcUrl' | 'entryPoint' | 'accountFactory'>
> &
  Pick<ChainConfig, 'bundlerUrl' | 'paymasterUrl'> & { chainId: bigint };

/**
 * ERC-4337 data of a smart account: the owner EOA, and the factory, salt and EntryPoint its
 * counterfactual address was computed with (kept for life).
 */
export type SmartAccountData = {
  /** Owner EOA address. */
  owner: string;
  /** The EntryPoint version the account runs on; absent for v0.6 (accounts created before v0.7 existed here). */
  entryPointVersion?: '0.7' | '0.8';
  /** SimpleAccountFactory address (of its version) the account's address was computed with. */
  accountFactory: string;
  /** EntryPoint address (of its version) the account was created for. */
  entryPoint: string;
  /** SimpleAccountFactory `createAccount(owner, salt)` salt, a decimal string. */
  salt: string;
  /** The factory's SimpleAccount implementation per chain scope (for gas estimation). */
  implementations: Record<string, string>;
  /** Per-chain bundler and paymaster URLs from the account's IPFS metadata. */
  chains?: Record<string, { bundlerUrl?: string; paymasterUrl?: string }>;
};

/**
 * A user operation this snap sent itself (`sendUserOperation`), remembered so its receipt is
 * looked up where it went: the bundler first, then the EntryPoint's logs from `fromBlock` on.
 */
export type SentUserOperation = {
  /** 32-byte hash, EntryPoint v0.6 `getUserOpHash`. */
  userOpHash: string;
  /** `eip155:<decimal chain id>`. */
  scope: string;
  /** EntryPoint address the operation was sent for. */
  entryPoint: string;
  /** The bundler it was sent to (may carry an API key: kept in encrypted state, never shown). */
  bundlerUrl: string;
  /** Hex block number read just before sending: the operation cannot be in an earlier block. */
  fromBlock: string;
};

/** What `getUserOperationReceipt` returns (hex quantities). */
export type UserOperationReceipt = {
  /** 32-byte hash, EntryPoint v0.6 `getUserOpHash`. */
  userOpHash: Hex;
  /** The smart account that sent the operation (20-byte address). */
  sender: Hex;
  /** The operation's nonce (hex quantity). */
  nonce: Hex;
  /** Whether the operation's call succeeded (`UserOperationEvent.success`). */
  success: boolean;
  /** Wei paid by the account or paymaster. */
  actualGasCost: Hex;
  /** Gas used by the operation, verification and execution together (hex quantity). */
  actualGasUsed: Hex;
  /** 32-byte hash of the bundle transaction that included the operation. */
  transactionHash: Hex;
  /** Block of the bundle transaction (hex quantity). */
  blockNumber: Hex;
};

/** One entry of an account's Activity list. */
export type ActivityEntry = {
  /**
   * `operation`: a user operation; `upgrade`: the EIP-7702 upgrade (a user operation); `undo`: its
   * undo (a type-4 transaction); `transaction`: a transaction the account sent itself;
   * `received`: ETH it received (by a transaction to it, or from a contract).
   */
  kind: 'operation' | 'upgrade' | 'undo' | 'transaction' | 'received';
  /**
   * The userOpHash (operation, upgrade), the transaction hash (undo, transaction, ETH received by
   * a transaction), or the block hash (ETH received from a contract: one entry a block), 32-byte
   * lower-case hex.
   */
  hash: string;
  /** `pending` until seen in a block. */
  status: 'pending' | 'succeeded' | 'failed';
  /** Block number (hex quantity), once mined. */
  block?: string;
  /** Fee paid, wei (hex quantity), once mined: actualGasCost, or gasUsed × effectiveGasPrice. */
  fee?: string;
  /** The recipient of the one call or transaction sent, when known (checksummed). */
  to?: string;
  /** Who sent the ETH received, when a transaction to the account did (checksummed). */
  from?: string;
  /** Wei moved (hex quantity): the value of what was sent (every call's, in all), or received. */
  value?: string;
  /** How many calls a user operation made, when more than one. */
  calls?: number;
  /** The one call or transaction sent carried call data (a contract call, not a plain transfer). */
  call?: true;
};
