import {
  decodeFunctionResult,
  encodeFunctionData,
  hexToBigInt,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';

import type { Settled } from '../../chain';
import {
  createRpcClient,
  readHexData,
  readQuantity,
  settledResult,
} from '../../chain';
import { invalidParams } from '../../utils/errors';
import { readDecimals, readSymbol, tokenRead } from '../erc4337/tokenQuote';

/**
 * What a grant of an execution permission (ERC-7715, MetaMask's Delegation Framework v1.3.0) reads
 * from the chain, each in one batched round trip through the snap's chain adapter: before its dialog,
 * the chain's time, the delegator's `NonceEnforcer` nonce and the token's decimals, symbol and
 * supply; on the home page, whether each grant is disabled at the DelegationManager and what is
 * left of it now (`getAvailableAmount` of the period enforcers; a stream's allowance from
 * `streamingAllowances`, unlocked as the enforcer computes it). Every reply is untrusted: a read
 * that fails or answers something else is left out, never shown as 0.
 */

const abi = parseAbi([
  'function currentNonce(address delegationManager, address delegator) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function disabledDelegations(bytes32 delegationHash) view returns (bool)',
  'function getAvailableAmount(bytes32 delegationHash, address delegationManager, bytes terms) view returns (uint256 availableAmount, bool isNewPeriod, uint256 currentPeriod)',
  'function streamingAllowances(address delegationManager, bytes32 delegationHash) view returns (uint256 initialAmount, uint256 maxAmount, uint256 amountPerSecond, uint256 startTime, uint256 spent)',
]);

/** The latest timestamp accepted from a block (year 9999). */
const MAX_BLOCK_TIME = 253402300799n;

/** A token as a grant's dialog shows it. */
export type GrantToken = {
  /** `decimals()`, 0 to 255. */
  decimals: number;
  /** `symbol()`, printable, at most 16 characters (empty when it has none). */
  symbol: string;
  /** `totalSupply()`, when it answered one. */
  totalSupply?: bigint;
};

/** What the chain says before a grant. */
export type GrantChainFacts = {
  /** The latest block's timestamp (unix seconds). */
  now: number;
  /** The delegator's nonce at `NonceEnforcer` for this DelegationManager. */
  nonce: bigint;
  /** The token, for an ERC-20 permission. */
  token?: GrantToken;
};

/**
 * Read the chain's time, the delegator's nonce and (for an ERC-20 permission) the token, checking
 * the RPC serves `chainId`.
 *
 * @param rpcUrl - The chain's RPC.
 * @param chainId - The chain the grant is for.
 * @param parts - The contracts.
 * @param parts.delegator - The granting account.
 * @param parts.delegationManager - The chain's DelegationManager.
 * @param parts.nonceEnforcer - The chain's NonceEnforcer.
 * @param parts.token - The ERC-20 token, if any.
 * @returns The facts.
 * @throws JsonRpcError -32602 when the RPC serves another chain, or the token's `decimals()` does not
 * answer (not an ERC-20 on this chain); the chain adapter's errors when the time or nonce cannot be
 * read.
 */
export async function readGrantFacts(
  rpcUrl: string,
  chainId: number,
  parts: {
    delegator: Hex;
    delegationManager: Hex;
    nonceEnforcer: Hex;
    token?: Hex;
  },
): Promise<GrantChainFacts> {
  const client = createRpcClient({ url: rpcUrl });
  const { token } = parts;
  const replies = await client.batchSettled([
    { method: 'eth_chainId' },
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    call(parts.nonceEnforcer, 'currentNonce', [
      parts.delegationManager,
      parts.delegator,
    ]),
    ...(token
      ? [
          tokenRead(token, 'decimals'),
          tokenRead(token, 'symbol'),
          call(token, 'totalSupply', []),
        ]
      : []),
  ]);
  const [served, block, nonce, decimals, symbol, supply] = replies as [
    Settled,
    Settled,
    Settled,
    ...Settled[],
  ];
  if (readQuantity(settledResult(served), 'eth_chainId') !== BigInt(chainId)) {
    throw invalidParams(
      `The chain's RPC serves another chain than eip155:${chainId}: check its settings`,
    );
  }
  return {
    now: blockTime(block),
    nonce: hexToBigInt(
      readHexData(
        settledResult(nonce),
        'NonceEnforcer.currentNonce',
        client.origin,
        32,
      ),
    ),
    ...(token && decimals && symbol
      ? {
          token: {
            decimals: readDecimals(decimals),
            symbol: readSymbol(symbol),
            ...optionalWord(supply, 'totalSupply'),
          },
        }
      : {}),
  };
}

/** One grant to read on the home page. */
export type GrantProbe = {
  /** The delegation's hash. */
  hash: Hex;
  /** Its period or streaming enforcer. */
  enforcer: Hex;
  /** That enforcer's terms. */
  terms: Hex;
  /** How to read what is left: a period enforcer's view, or a stream's allowance. */
  kind: 'periodic' | 'stream';
  /** A stream's terms, to unlock as the enforcer does. */
  stream?: {
    initialAmount: bigint;
    maxAmount: bigint;
    amountPerSecond: bigint;
    startTime: number;
  };
};

/** What the chain says of one grant now (a field is absent when its read failed). */
export type GrantOnChain = {
  /** Whether `disableDelegation` was called for it. */
  disabled?: boolean;
  /** What the session account may still move now (this period, or unlocked and unspent). */
  available?: bigint;
};

/**
 * Read the grants' state on one chain: one round trip for all of them (at most 32).
 *
 * @param rpcUrl - The chain's RPC.
 * @param delegationManager - The chain's DelegationManager.
 * @param probes - The grants.
 * @returns `now` (the latest block's time, when read) and one state per probe, in order.
 */
export async function readGrantsOnChain(
  rpcUrl: string,
  delegationManager: Hex,
  probes: readonly GrantProbe[],
): Promise<{ now?: number; states: GrantOnChain[] }> {
  const some = probes.slice(0, 32);
  const replies = await createRpcClient({ url: rpcUrl })
    .batchSettled([
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      ...some.flatMap((probe) => [
        call(delegationManager, 'disabledDelegations', [probe.hash]),
        probe.kind === 'periodic'
          ? call(probe.enforcer, 'getAvailableAmount', [
              probe.hash,
              delegationManager,
              probe.terms,
            ])
          : call(probe.enforcer, 'streamingAllowances', [
              delegationManager,
              probe.hash,
            ]),
      ]),
    ])
    .catch(() => undefined);
  if (!replies) {
    return { states: some.map(() => ({})) };
  }
  const [block, ...rest] = replies as [Settled, ...Settled[]];
  const now = attempt(() => blockTime(block));
  return {
    ...(now === undefined ? {} : { now }),
    states: some.map((probe, index) => {
      const disabled = attempt(
        () => decode(rest[2 * index], 'disabledDelegations') as boolean,
      );
      const available = attempt(() => {
        if (probe.kind === 'periodic') {
          return (
            decode(rest[2 * index + 1], 'getAvailableAmount') as [bigint]
          )[0];
        }
        const spent = (
          decode(rest[2 * index + 1], 'streamingAllowances') as bigint[]
        )[4];
        return now === undefined || !probe.stream
          ? undefined
          : streamAvailable(probe.stream, spent, BigInt(now));
      });
      return {
        ...(disabled === undefined ? {} : { disabled }),
        ...(available === undefined ? {} : { available }),
      };
    }),
  };
}

/**
 * What a stream has unlocked and not spent at `now` (the streaming enforcers' rule).
 *
 * @param stream - Its terms.
 * @param stream.initialAmount - Unlocked at the start.
 * @param stream.maxAmount - The most in all.
 * @param stream.amountPerSecond - Unlocked per second.
 * @param stream.startTime - When it starts (unix seconds).
 * @param spent - What was spent so far.
 * @param now - Unix seconds.
 * @returns Base units.
 */
export function streamAvailable(
  stream: NonNullable<GrantProbe['stream']>,
  spent: bigint,
  now: bigint,
): bigint {
  const start = BigInt(stream.startTime);
  if (now < start) {
    return 0n;
  }
  const unlocked =
    stream.initialAmount + stream.amountPerSecond * (now - start);
  const capped = unlocked > stream.maxAmount ? stream.maxAmount : unlocked;
  return spent >= capped ? 0n : capped - spent;
}

/**
 * An eth_call of one of {@link abi}'s functions.
 *
 * @param to - The contract.
 * @param functionName - The function.
 * @param args - Its arguments.
 * @returns The JSON-RPC call.
 */
function call(
  to: Hex,
  functionName:
    | 'currentNonce'
    | 'totalSupply'
    | 'disabledDelegations'
    | 'getAvailableAmount'
    | 'streamingAllowances',
  args: readonly unknown[],
): { method: string; params: unknown[] } {
  return {
    method: 'eth_call',
    params: [
      {
        to,
        data: encodeFunctionData({
          abi,
          functionName,
          args: args as never,
        }),
      },
      'latest',
    ],
  };
}

/**
 * A settled eth_call's result decoded.
 *
 * @param settled - The call's outcome.
 * @param functionName - The function called.
 * @returns viem's decoded result.
 * @throws When the call failed or answered something else.
 */
function decode(
  settled: Settled | undefined,
  functionName:
    'disabledDelegations' | 'getAvailableAmount' | 'streamingAllowances',
): unknown {
  if (!settled) {
    throw new Error('no reply');
  }
  const data = readHexData(settledResult(settled), functionName);
  if (data.length > 2 + 2 * 32 * 5) {
    throw new Error('reply too long');
  }
  return decodeFunctionResult({ abi, functionName, data });
}

/**
 * A uint256 result, when the call answered one.
 *
 * @param settled - The call's outcome.
 * @param what - What was read.
 * @returns `{ totalSupply }`, or nothing.
 */
function optionalWord(
  settled: Settled | undefined,
  what: string,
): { totalSupply?: bigint } {
  const value = attempt(() =>
    settled
      ? hexToBigInt(readHexData(settledResult(settled), what, undefined, 32))
      : undefined,
  );
  return value === undefined ? {} : { totalSupply: value };
}

/**
 * The latest block's timestamp.
 *
 * @param settled - eth_getBlockByNumber's outcome.
 * @returns Unix seconds.
 * @throws TransportError when the block or its timestamp is missing or out of range.
 */
function blockTime(settled: Settled): number {
  const block = settledResult(settled) as { timestamp?: unknown } | null;
  return Number(
    readQuantity(block?.timestamp, 'eth_getBlockByNumber timestamp', {
      max: MAX_BLOCK_TIME,
    }),
  );
}

/**
 * Run a read; undefined when it throws.
 *
 * @param read - The read.
 * @returns Its value, or undefined.
 */
function attempt<Value>(read: () => Value): Value | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
