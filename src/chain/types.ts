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
  removed: boolean;
  logIndex: Hex | null;
  transactionIndex: Hex | null;
  transactionHash: Hex | null;
  blockHash: Hex | null;
  blockNumber: Hex | null;
  address: Hex;
  data: Hex;
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
  from?: Hex;
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
    balance?: Quantity;
    nonce?: Quantity;
    code?: Hex;
    state?: Record<Hex, Hex>;
    stateDiff?: Record<Hex, Hex>;
  }
>;

/** Transaction object (eth_getTransactionByHash), quantities as hex strings, `chainId` spelled so. */
export type RpcTransaction = {
  blockHash: Hex | null;
  blockNumber: Hex | null;
  from: Hex;
  gas: Hex;
  gasPrice?: Hex;
  hash: Hex;
  input: Hex;
  nonce: Hex;
  to: Hex | null;
  transactionIndex: Hex | null;
  type: Hex;
  value: Hex;
  v: Hex;
  r: Hex;
  s: Hex;
  chainId?: Hex;
  maxFeePerGas?: Hex;
  maxPriorityFeePerGas?: Hex;
  accessList?: unknown[];
  [extra: string]: unknown;
};

/** Block object (eth_getBlockByNumber), hex quantities. */
export type RpcBlock = {
  number: Hex | null;
  hash: Hex | null;
  gasLimit: Hex;
  gasUsed: Hex;
  baseFeePerGas?: Hex;
  timestamp: Hex;
  transactions: unknown[];
  [extra: string]: unknown;
};

/** eth_feeHistory result, hex quantities (fees in wei). */
export type FeeHistory = {
  oldestBlock: Hex;
  baseFeePerGas: Hex[];
  gasUsedRatio: number[];
  reward?: Hex[][];
};
