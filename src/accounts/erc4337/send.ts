import type { EthUserOperation } from '@metamask/keyring-api';
import { rpcErrors } from '@metamask/rpc-errors';
import { getAddress, numberToHex, slice } from 'viem';
import type { Hex } from 'viem';

import { sendToBundler } from './bundler';
import { SIGNED_REFUSAL_NOTE } from './bundlerErrors';
import { bundlerFees, CHAIN_FEE_READS, chainFees } from './fees';
import type { Fees } from './fees';
import { patchUserOperation } from './paymaster';
import { prepareUserOperationWith } from './prepare';
import type { SmartAccountChain } from './prepare';
import { SEND_NONCE_KEY } from './sendNonces';
import type { SentUserOperation } from './types';
import { userOpHash } from './userop';
import type { Intent } from './userop';
import type { RpcCall, Settled } from '../../chain';
import { invalidParams, notFound } from '../../utils/errors';

/**
 * sendUserOperation's network side (never a key): draft the operation with the code of
 * eth_prepareUserOperation and eth_patchUserOperation, and hand the signed one to the bundler.
 * The keyring shows the confirmation and signs in between (eth_signUserOperation's code).
 */

/** What the confirmation dialog shows about an operation before it is signed. */
export type SendSummary = {
  /** Who asked: the requesting site's origin as MetaMask reported it to onRpcRequest, or the home page. */
  origin: string;
  /** The smart account (sender). */
  account: Hex;
  /** `eip155:<decimal chain id>`. */
  scope: string;
  /**
   * The full EntryPoint nonce the operation is signed with (`key << 64 | sequence`, key
   * `SEND_NONCE_KEY`): exactly the signed operation's `nonce`, shown in full.
   */
  nonce: bigint;
  /** Each intent: recipient, value in wei, and its full call data (`0x`: a plain transfer). */
  intents: { to: Hex; value: bigint; data: Hex }[];
  /** Whether this operation deploys the account (initCode is set). */
  deploys: boolean;
  /** The gas the EntryPoint v0.6 prefund counts (see {@link maxGasCost}), in gas units. */
  gas: bigint;
  /** The operation's maxFeePerGas, in wei per gas. */
  maxFeePerGas: bigint;
  /** The most the operation can cost in gas, in wei: `gas × maxFeePerGas` (see {@link maxGasCost}). */
  maxGasCost: bigint;
  /** The paymaster that pays the gas, or null when the account pays it. */
  paymaster: Hex | null;
  /** Where the fees came from. */
  feeSource: Fees['source'];
  /** The EntryPoint version, when not v0.6 (absent: v0.6; the dialog names every one). */
  entryPointVersion?: '0.7' | '0.8';
  /**
   * EIP-7702: the sender is an EOA that this operation upgrades: from it on, the account runs the
   * code of `delegate` (Simple7702Account) on this chain; its authorization carries `nonce`.
   * `undoCost`: about what undoing it costs the account (wei): the undo's gas at this fee.
   */
  upgrade?: { delegate: Hex; nonce: bigint; undoCost?: bigint };
  /** The sender's balance when drafted, in wei (read in the draft's batch). */
  balance?: bigint;
  /** Gas paid in an ERC-20 token (`paymaster` is then the token's paymaster; paymasterToken.ts). */
  tokenPayment?: TokenPaymentSummary;
};

/** What a send paid in an ERC-20 token shows: the token, its paymaster and the approve's bound. */
export type TokenPaymentSummary = {
  /** The token (checksummed). */
  token: Hex;
  /** Its `symbol()`, printable (empty when it has none). */
  symbol: string;
  /** Its `decimals()`. */
  decimals: number;
  /** The paymaster the operation approves (the spender) and that pays the gas in ETH. */
  paymaster: Hex;
  /** The approve's amount: the most the operation can cost in the token, in its base units. */
  maxCost: bigint;
};

/** An operation ready to be confirmed and signed. */
export type UserOperationDraft = {
  /** Every field final except `signature` (the dummy one). */
  userOp: EthUserOperation;
  /** Hex number of the latest block when the operation was prepared (receipt searches start there). */
  fromBlock: Hex;
  /** What the confirmation dialog shows about it (the caller adds who asked). */
  summary: Omit<SendSummary, 'origin'>;
};

/** How many sent operations the snap remembers (the oldest is dropped first). */
export const MAX_SENT_USER_OPERATIONS = 64;

const BLOCK_NUMBER_READ: RpcCall = { method: 'eth_blockNumber', params: [] };

/** The fields of a v0.6 operation its gas prefund depends on. */
type PrefundFields = Pick<
  EthUserOperation,
  | 'callGasLimit'
  | 'verificationGasLimit'
  | 'preVerificationGas'
  | 'maxFeePerGas'
  | 'paymasterAndData'
>;

/**
 * The gas a v0.6 operation's prefund counts (EntryPoint v0.6 `_getRequiredPrefund`):
 * `callGasLimit + verificationGasLimit × (paymaster ? 3 : 1) + preVerificationGas`.
 *
 * @param op - The operation (hex quantities).
 * @returns Gas units.
 */
export function prefundGas(op: PrefundFields): bigint {
  const multiplier = op.paymasterAndData === '0x' ? 1n : 3n;
  return (
    BigInt(op.callGasLimit) +
    BigInt(op.verificationGasLimit) * multiplier +
    BigInt(op.preVerificationGas)
  );
}

/**
 * The most a v0.6 operation can cost in gas, the prefund EntryPoint v0.6 requires
 * (`_getRequiredPrefund`): {@link prefundGas} × `maxFeePerGas`.
 *
 * @param op - The operation (hex quantities).
 * @returns Wei.
 */
export function maxGasCost(op: PrefundFields): bigint {
  return prefundGas(op) * BigInt(op.maxFeePerGas);
}

/** How long a sent operation that deploys an account blocks another deploying send of it (ms). */
export const DEPLOYING_SEND_TTL_MS = 5 * 60_000;

/**
 * The smart accounts with an operation that deploys them (initCode set) in flight: drafted and not
 * failed, and not yet seen deployed on the chain, for at most {@link DEPLOYING_SEND_TTL_MS} (after
 * that an operation the bundler dropped no longer blocks the account). In memory only: the snap's
 * concurrent requests share it; after a restart a duplicate deploying operation is no longer caught
 * here (the bundler refuses it, or drops it from the bundle: AA10 sender already constructed).
 */
export class DeployingSends {
  readonly #until = new Map<string, number>();

  readonly #now: () => number;

  /**
   * @param now - The clock, in milliseconds (tests inject one).
   */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Note a drafted operation of `sender`: one that deploys it claims the account, one that does
   * not (the account is deployed) clears any claim.
   *
   * @param sender - The smart account.
   * @param deploys - Whether the drafted operation carries initCode.
   * @throws JsonRpcError -32002 (resource unavailable) when it deploys and another operation that
   * deploys the account is in flight: nothing is signed or sent.
   */
  note(sender: Hex, deploys: boolean): void {
    const key = sender.toLowerCase();
    if (!deploys) {
      this.#until.delete(key);
      return;
    }
    if ((this.#until.get(key) ?? 0) > this.#now()) {
      throw rpcErrors.resourceUnavailable({
        message:
          'Another operation that deploys this smart account is pending: wait for its receipt, then send again (nothing was signed)',
      });
    }
    this.#until.set(key, this.#now() + DEPLOYING_SEND_TTL_MS);
  }

  /**
   * Drop the claim of `sender` (its deploying operation was declined or refused).
   *
   * @param sender - The smart account.
   */
  release(sender: Hex): void {
    this.#until.delete(sender.toLowerCase());
  }
}

/**
 * Draft an operation for `intents`, in this order: prepare (eth_prepareUserOperation's code) with
 * the fee reads and `eth_blockNumber` in the same batched chain round trip, the bundler's fee
 * method asked in parallel; then the paymaster (eth_patchUserOperation's code,
 * `pm_getPaymasterData`) with the final gas limits and fees. The nonce is
 * `EntryPoint.getNonce(sender, SEND_NONCE_KEY)`, raised to `floor` when the snap knows of an
 * accepted operation of the account that has not landed yet (see `SendNonces`).
 *
 * @param chain - The account's chain side (from routing).
 * @param scope - The request's scope.
 * @param intents - Parsed intents (`to`, `value` in wei, `data`).
 * @param floor - The least nonce to use (default 0: the EntryPoint's).
 * @returns The draft: the unsigned operation, the starting block for receipts, and the summary
 * (with the operation's full nonce).
 * @throws prepare's and patch's errors; the chain's fee read errors when the bundler has no fee method.
 */
export async function draftUserOperation(
  chain: SmartAccountChain,
  scope: string,
  intents: Intent[],
  floor = 0n,
): Promise<UserOperationDraft> {
  const [{ prepared, extra, balance }, fromBundler] = await Promise.all([
    prepareUserOperationWith(
      chain,
      intents,
      [...CHAIN_FEE_READS, BLOCK_NUMBER_READ],
      SEND_NONCE_KEY,
    ),
    chain.bundlerUrl
      ? bundlerFees(chain.bundlerUrl)
      : Promise.resolve(undefined),
  ]);
  const [priority, history, block] = extra as [Settled, Settled, Settled];
  const fees = fromBundler ?? chainFees(priority, history);
  const gasLimits = prepared.gasLimits as NonNullable<
    typeof prepared.gasLimits
  >;
  const unpatched: EthUserOperation = {
    sender: chain.sender,
    nonce: numberToHex(
      BigInt(prepared.nonce) > floor ? BigInt(prepared.nonce) : floor,
    ),
    initCode: prepared.initCode,
    callData: prepared.callData,
    callGasLimit: gasLimits.callGasLimit,
    verificationGasLimit: gasLimits.verificationGasLimit,
    preVerificationGas: gasLimits.preVerificationGas,
    maxFeePerGas: numberToHex(fees.maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(fees.maxPriorityFeePerGas),
    paymasterAndData: prepared.dummyPaymasterAndData,
    signature: prepared.dummySignature,
  };
  const patch = await patchUserOperation(
    chain.paymasterUrl,
    unpatched,
    chain.entryPoint,
    chain.chainId,
  );
  const userOp: EthUserOperation = { ...unpatched, ...patch };
  return {
    userOp,
    fromBlock: blockNumberOf(block),
    summary: { ...summarize(userOp, scope, intents, fees.source), balance },
  };
}

/**
 * Send a signed operation to the account's bundler (`eth_sendUserOperation`).
 *
 * @param chain - The account's chain side.
 * @param userOp - The signed operation.
 * @returns The userOpHash, computed as EntryPoint v0.6 `getUserOpHash` and equal to the bundler's answer.
 * @throws JsonRpcError with the bundler's code for a refusal (see `bundlerRefusal`); -32603 when the
 * bundler answers another hash (it serves another chain or EntryPoint); -32001 without a bundlerUrl.
 */
export async function submitUserOperation(
  chain: SmartAccountChain,
  userOp: EthUserOperation,
): Promise<Hex> {
  if (!chain.bundlerUrl) {
    throw notFound(
      `No bundlerUrl for eip155:${chain.chainId}: set it with setChainConfig or in the account metadata`,
      { reason: 'noBundlerUrl' },
    );
  }
  const expected = userOpHash(userOp, chain.entryPoint, chain.chainId);
  const answered = await sendToBundler(
    chain.bundlerUrl,
    userOp,
    chain.entryPoint,
  );
  if (answered !== expected.toLowerCase()) {
    throw rpcErrors.internal({
      message: `The bundler answered userOpHash ${answered}, but EntryPoint v0.6 gives ${expected} for this operation: the bundler may serve another chain or EntryPoint. ${SIGNED_REFUSAL_NOTE}`,
    });
  }
  return expected;
}

/**
 * Add a sent operation to the remembered list, newest last, keeping at most `limit` (oldest dropped).
 *
 * @param list - The remembered operations, oldest first.
 * @param entry - The new one (replaces an entry with the same hash).
 * @param limit - Bound of the list.
 * @returns The new list.
 */
export function rememberSent(
  list: readonly SentUserOperation[],
  entry: SentUserOperation,
  limit = MAX_SENT_USER_OPERATIONS,
): SentUserOperation[] {
  const others = list.filter(
    (item) => item.userOpHash.toLowerCase() !== entry.userOpHash.toLowerCase(),
  );
  return [...others, entry].slice(-limit);
}

/**
 * The confirmation dialog's summary of a drafted operation.
 *
 * @param userOp - The drafted operation (final fields, dummy signature).
 * @param scope - The request's scope, `eip155:<decimal chain id>`.
 * @param intents - The intents it executes.
 * @param feeSource - Where its fees came from.
 * @returns The summary: checksummed addresses, the nonce, each intent's full data, the gas and
 * fee, and the most the operation can cost (wei).
 * @throws JsonRpcError -32602 when paymasterAndData is shorter than an address.
 */
function summarize(
  userOp: EthUserOperation,
  scope: string,
  intents: Intent[],
  feeSource: Fees['source'],
): Omit<SendSummary, 'origin'> {
  return {
    account: getAddress(userOp.sender),
    scope,
    nonce: BigInt(userOp.nonce),
    intents: intents.map(({ to, value, data }) => ({
      to: getAddress(to),
      value,
      data,
    })),
    deploys: userOp.initCode !== '0x',
    gas: prefundGas(userOp),
    maxFeePerGas: BigInt(userOp.maxFeePerGas),
    maxGasCost: maxGasCost(userOp),
    paymaster: paymasterOf(userOp.paymasterAndData as Hex),
    feeSource,
  };
}

/**
 * The paymaster named by paymasterAndData (its first 20 bytes).
 *
 * @param paymasterAndData - The operation's paymasterAndData (hex bytes).
 * @returns The paymaster's checksummed address, or null when the account pays (`0x`).
 * @throws JsonRpcError -32602 when it is shorter than an address.
 */
function paymasterOf(paymasterAndData: Hex): Hex | null {
  if (paymasterAndData === '0x') {
    return null;
  }
  if (paymasterAndData.length < 42) {
    throw invalidParams(
      'The paymaster service’s paymasterAndData is shorter than an address',
    );
  }
  return getAddress(slice(paymasterAndData, 0, 20));
}

/**
 * The latest block number from the settled `eth_blockNumber` read.
 *
 * @param block - The settled read.
 * @returns The block number (hex quantity, canonical form).
 * @throws The read's JsonRpcError when it failed; JsonRpcError -32603 when the reply is not a
 * hex quantity of at most 64 bits.
 */
export function blockNumberOf(block: Settled): Hex {
  if (!block.ok) {
    throw block.error;
  }
  if (
    typeof block.result !== 'string' ||
    !/^0x[0-9a-fA-F]{1,16}$/u.test(block.result)
  ) {
    throw rpcErrors.internal({
      message: 'The chain’s eth_blockNumber reply is not a block number',
    });
  }
  return numberToHex(BigInt(block.result));
}
