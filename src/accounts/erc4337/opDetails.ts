import { decodeFunctionData, getAddress, numberToHex, parseAbi } from 'viem';
import type { Hex } from 'viem';

import type { ActivityEntry } from './types';
import type { RpcClient } from '../../chain';
import { KNOWN_CALLS_ABI, MAX_INNER_CALLS } from '../callData';

/**
 * What a user operation sent, for its Activity entry: from the operation itself when the snap
 * sent it ({@link sentDetails} of its calls), or read back from the chain for one found in the
 * logs ({@link readOperationDetails}: the bundle transaction's `handleOps` call data, decoded
 * with the EntryPoint's ABI, the operation found by its sender and nonce, and its call data
 * decoded as SimpleAccount's or Simple7702Account's `execute` / `executeBatch`). An operation
 * whose call data is anything else keeps no details (the list shows its outcome and fee only).
 */

/** `handleOps` of EntryPoint v0.6 (UserOperation) and of v0.7 / v0.8 (PackedUserOperation). */
const HANDLE_OPS_ABI = parseAbi([
  'function handleOps((address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature)[] ops, address beneficiary)',
  'function handleOps((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature)[] ops, address beneficiary)',
]);

/** Bundle transactions read per account and chain each time (one batch): the newest operations'. */
const TRANSACTIONS_PER_READ = 16;

/** A call an operation made. */
type SentCall = {
  /** The recipient. */
  to: string;
  /** Wei sent with it. */
  value: bigint;
  /** Its call data (`0x`: a plain transfer). */
  data: string;
};

/** What an Activity entry keeps of what an operation sent. */
export type SentDetails = Pick<
  ActivityEntry,
  'to' | 'value' | 'calls' | 'call'
>;

/**
 * What a user operation sends, as its Activity entry keeps it: the calls' values in all, and the
 * recipient of a single call (with whether it carries call data), or the number of calls.
 *
 * @param calls - The operation's calls (`to`, value in wei, call data).
 * @returns The entry's `to`, `value`, `calls` and `call` fields (none for no call).
 */
export function sentDetails(calls: readonly SentCall[]): SentDetails {
  const value = numberToHex(calls.reduce((sum, call) => sum + call.value, 0n));
  if (calls.length !== 1) {
    return calls.length > 1 ? { value, calls: calls.length } : {};
  }
  const [only] = calls;
  return {
    to: getAddress(only.to),
    value,
    ...(only.data === '0x' || only.data === '' ? {} : { call: true as const }),
  };
}

/**
 * The calls of an account's user-operation call data: `execute(dest, value, func)` or one of the
 * three `executeBatch` encodings (v0.6, v0.7, v0.8 and Simple7702Account).
 *
 * @param callData - The operation's call data.
 * @returns The calls, or undefined when the call data is none of these (or over
 * MAX_INNER_CALLS calls).
 */
function accountCalls(callData: Hex): SentCall[] | undefined {
  try {
    const { functionName, args } = decodeFunctionData({
      abi: KNOWN_CALLS_ABI,
      data: callData,
    });
    const list = args as readonly unknown[];
    let calls: SentCall[] | undefined;
    if (functionName === 'execute') {
      const [to, value, data] = list as [Hex, bigint, Hex];
      calls = [{ to, value, data }];
    } else if (functionName === 'executeBatch' && list.length === 1) {
      calls = (list[0] as { target: Hex; value: bigint; data: Hex }[]).map(
        (call) => ({ to: call.target, value: call.value, data: call.data }),
      );
    } else if (functionName === 'executeBatch') {
      // v0.6: (dest[], func[]); v0.7: (dest[], value[], func[])
      const targets = list[0] as Hex[];
      const values = list.length === 3 ? (list[1] as bigint[]) : [];
      const datas = list.at(-1) as Hex[];
      calls = targets.map((to, at) => ({
        to,
        value: values[at] ?? 0n,
        data: datas[at] ?? '0x',
      }));
    }
    return calls && calls.length <= MAX_INNER_CALLS ? calls : undefined;
  } catch {
    return undefined;
  }
}

/** A user operation found in the logs, and where to read what it sent. */
export type FoundOperation = {
  /** Its userOpHash, lower case. */
  hash: string;
  /** The transaction that carried it. */
  transactionHash: Hex;
  /** The EntryPoint that emitted its event (the bundle transaction's `to`). */
  entryPoint: string;
  /** Its nonce, as its event says. */
  nonce: bigint;
};

/**
 * What operations found in the logs sent, read from their bundle transactions
 * (`eth_getTransactionByHash`, one batch, the newest {@link TRANSACTIONS_PER_READ}): a transaction
 * that is not a call of `handleOps` on the EntryPoint of the event, or does not carry an operation
 * of `sender` with the event's nonce, gives nothing; so does a reply that failed.
 *
 * @param client - The chain's RPC adapter.
 * @param sender - The account.
 * @param found - The operations, oldest first.
 * @returns What each sent, by userOpHash.
 */
export async function readOperationDetails(
  client: RpcClient,
  sender: Hex,
  found: readonly FoundOperation[],
): Promise<Map<string, SentDetails>> {
  const details = new Map<string, SentDetails>();
  const newest = found.slice(-TRANSACTIONS_PER_READ);
  if (newest.length === 0) {
    return details;
  }
  const replies = await client.batchSettled(
    newest.map((operation) => ({
      method: 'eth_getTransactionByHash',
      params: [operation.transactionHash],
    })),
  );
  for (const [at, operation] of newest.entries()) {
    const reply = replies[at];
    const tx = (reply?.ok ? reply.result : null) as {
      to?: unknown;
      input?: unknown;
    } | null;
    if (
      typeof tx?.to !== 'string' ||
      tx.to.toLowerCase() !== operation.entryPoint.toLowerCase() ||
      typeof tx.input !== 'string' ||
      !/^0x(?:[0-9a-fA-F]{2})*$/u.test(tx.input)
    ) {
      continue;
    }
    try {
      const { args } = decodeFunctionData({
        abi: HANDLE_OPS_ABI,
        data: tx.input as Hex,
      });
      const op = args[0].find(
        (candidate) =>
          candidate.sender.toLowerCase() === sender.toLowerCase() &&
          candidate.nonce === operation.nonce,
      );
      const calls = op ? accountCalls(op.callData) : undefined;
      if (calls) {
        details.set(operation.hash, sentDetails(calls));
      }
    } catch {
      // not handleOps: no details
    }
  }
  return details;
}
