/**
 * Shapes of the Ethereum JSON-RPC API (ethereum/execution-apis): every quantity is a 0x-prefixed hex string.
 */

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/** A block tag (latest, earliest, pending, safe, finalized) or a hex block number. */
export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/** A block parameter: a tag, a hex block number, or a bigint/number block number. */
export type BlockParam = BlockTag | Hex | bigint | number;

/** Log object (eth_getLogs result); hex quantities, null fields for pending logs. */
export type RpcLog = {
  /** True when the log was removed by a chain reorganisation. */
  removed: boolean;
  /** Index of the log in the block, hex quantity; null while pending. */
  logIndex: Hex | null;
  /**
   * Index of the transaction in the block, hex quantity; null while pending.
   */
  transactionIndex: Hex | null;
  /** Hash of the transaction that emitted the log; null while pending. */
  transactionHash: Hex | null;
  /** Hash of the block; null while pending. */
  blockHash: Hex | null;
  /** Block number, hex quantity; null while pending. */
  blockNumber: Hex | null;
  /** The 20-byte address of the contract that emitted the log. */
  address: Hex;
  /** Non-indexed data of the log. */
  data: Hex;
  /**
   * Indexed topics: up to 4 32-byte values, the first the event signature for a
   * non-anonymous event.
   */
  topics: Hex[];
  [extra: string]: unknown;
};

/** One topic position: null (any), a 32-byte value, or a list of alternatives. */
export type TopicFilter = Hex | null | readonly Hex[];

/** eth_getLogs filter object. */
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

/** Transaction call object (eth_call, eth_estimateGas): gas in gas units, prices and value in wei. */
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

/** geth-style state override: per address, replace balance/nonce/code/state. */
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

/** Transaction object (eth_getTransactionByHash), quantities as hex strings, `chainId` spelled so. */
export type RpcTransaction = {
  /** Hash of the block; null while pending. */
  blockHash: Hex | null;
  /** Block number, hex quantity; null while pending. */
  blockNumber: Hex | null;
  /** Sender address. */
  from: Hex;
  /** Gas limit, hex quantity in gas. */
  gas: Hex;
  /**
   * Gas price, hex quantity in wei per gas (the effective price for EIP-1559
   * transactions once mined).
   */
  gasPrice?: Hex;
  /** Transaction hash. */
  hash: Hex;
  /** Call data. */
  input: Hex;
  /** Sender nonce, hex quantity. */
  nonce: Hex;
  /** Recipient address; null for a contract creation. */
  to: Hex | null;
  /** Index in the block, hex quantity; null while pending. */
  transactionIndex: Hex | null;
  /**
   * Transaction type (EIP-2718), hex quantity: 0x0 legacy, 0x1 EIP-2930, 0x2
   * EIP-1559.
   */
  type: Hex;
  /** Value, hex quantity in wei. */
  value: Hex;
  /** Signature `v` (or `yParity` for typed transactions). */
  v: Hex;
  /** Signature `r`. */
  r: Hex;
  /** Signature `s`. */
  s: Hex;
  /** Chain id, hex quantity (absent for pre-EIP-155 legacy transactions). */
  chainId?: Hex;
  /** EIP-1559 max fee, hex quantity in wei per gas. */
  maxFeePerGas?: Hex;
  /** EIP-1559 priority fee, hex quantity in wei per gas. */
  maxPriorityFeePerGas?: Hex;
  /** EIP-2930 access list. */
  accessList?: unknown[];
  [extra: string]: unknown;
};

/** Block object (eth_getBlockByNumber), hex quantities. */
export type RpcBlock = {
  /** Block number, hex quantity; null while pending. */
  number: Hex | null;
  /** Block hash; null while pending. */
  hash: Hex | null;
  /** Gas limit of the block, hex quantity in gas. */
  gasLimit: Hex;
  /** Gas used by the block, hex quantity in gas. */
  gasUsed: Hex;
  /** EIP-1559 base fee, hex quantity in wei per gas (absent before London). */
  baseFeePerGas?: Hex;
  /** Block timestamp, hex quantity in seconds since the Unix epoch. */
  timestamp: Hex;
  /** Transaction hashes, or full transaction objects when asked for. */
  transactions: unknown[];
  [extra: string]: unknown;
};

/** eth_feeHistory result, hex quantities (fees in wei). */
export type FeeHistory = {
  /** Number of the oldest block of the range, hex quantity. */
  oldestBlock: Hex;
  /**
   * Base fee per block, hex quantities in wei per gas, one more than the blocks
   * (the next block's).
   */
  baseFeePerGas: Hex[];
  /** Per block, the ratio of gas used to the gas limit. */
  gasUsedRatio: number[];
  /**
   * Per block, the priority fees at the requested percentiles, hex quantities
   * in wei per gas.
   */
  reward?: Hex[][];
};
