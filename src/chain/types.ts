/**
 * Shapes of the Ethereum JSON-RPC API (ethereum/execution-apis): every quantity is a 0x-prefixed hex string.
 *
 * What a node returns is typed with viem's `Rpc*` types (the wire shapes, hex quantities):
 * `RpcLog` (eth_getLogs), `RpcTransaction` (eth_getTransactionByHash), `RpcBlock`
 * (eth_getBlockByNumber), `RpcFeeHistory` (eth_feeHistory), re-exported below under the
 * names this library has always used. Only what a caller passes in is declared here, because
 * it differs from viem's request types: quantities may be bigint or number (converted to hex
 * before sending, see {@link Quantity}), and a block may be given as a bigint or number.
 */

import type { BlockTag, Hex } from 'viem';

export type {
  BlockTag,
  Hex,
  RpcBlock,
  RpcLog,
  RpcTransaction,
  RpcTransactionReceipt,
  RpcFeeHistory as FeeHistory,
} from 'viem';

/**
 * A block parameter: a tag, a hex block number, or a bigint/number block number. Ours, not
 * viem's `RpcBlockIdentifier`: callers may pass a bigint or number, converted before sending.
 */
export type BlockParam = BlockTag | Hex | bigint | number;

/**
 * One topic position: null (any), a 32-byte value, or a list of alternatives. Ours, not viem's
 * `LogTopic`: the list may be readonly (callers pass `as const` arrays).
 */
export type TopicFilter = Hex | null | readonly Hex[];

/**
 * eth_getLogs filter object. Ours: viem has no exported type for this request, and ours takes
 * bigint/number blocks and the `blockhash` spelling some clients send.
 */
export type LogFilter = {
  /** One 20-byte address or a list of them. */
  address?: Hex | readonly Hex[];
  /** Default `latest`. */
  fromBlock?: BlockParam;
  /** Default `latest`. */
  toBlock?: BlockParam;
  /** Up to 4 positions. */
  topics?: readonly TopicFilter[];
  /** A 32-byte block hash; excludes fromBlock/toBlock. */
  blockHash?: Hex;
  /** An alternative spelling of blockHash some clients send (the same value if both are given). */
  blockhash?: Hex;
};

/** A hex quantity, or a bigint/number converted to hex before sending. */
export type Quantity = Hex | bigint | number;

/**
 * Transaction call object (eth_call, eth_estimateGas): gas in gas units, prices and value in wei.
 * Ours, not viem's `RpcTransactionRequest`: quantities may be bigint or number ({@link Quantity}).
 */
export type CallRequest = {
  /** Sender address. */
  from?: Hex;
  /** Recipient address; absent or null for a contract creation. */
  to?: Hex | null;
  /** Gas limit, in gas. */
  gas?: Quantity;
  /** Legacy price, wei per gas. */
  gasPrice?: Quantity;
  /** EIP-1559 max fee, wei per gas. */
  maxFeePerGas?: Quantity;
  /** EIP-1559 priority fee, wei per gas. */
  maxPriorityFeePerGas?: Quantity;
  /** Value, in wei. */
  value?: Quantity;
  /** ABI-encoded call data. */
  data?: Hex;
};

/**
 * geth-style state override: per address, replace balance/nonce/code/state. Ours, not viem's
 * `RpcStateOverride`: balance and nonce may be bigint or number ({@link Quantity}).
 */
export type StateOverride = Record<
  Hex,
  {
    /** Balance, in wei. */
    balance?: Quantity;
    /** Account nonce. */
    nonce?: Quantity;
    /** Code, replacing the account's. */
    code?: Hex;
    /** Storage slots to values, replacing the whole storage. */
    state?: Record<Hex, Hex>;
    /** Storage slots to values, replacing only these slots. */
    stateDiff?: Record<Hex, Hex>;
  }
>;
