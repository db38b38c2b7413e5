import {
  decodeFunctionData,
  encodeFunctionData,
  formatEther,
  getAddress,
  isAddressEqual,
  parseAbi,
  size,
  slice,
} from 'viem';
import type { Hex } from 'viem';

import { nativeSymbol } from '../utils/chainNames';

/**
 * The one call-data decoder of the snap's confirmations (the sendUserOperation dialog and the
 * parked requests on the home page). Pure: reads nothing from a chain. It decodes, with viem's
 * `decodeFunctionData`:
 * - ERC-20 (EIP-20) `transfer`, `approve`, `transferFrom` (the last two share their selectors
 *   with ERC-721's `approve` and `transferFrom`, so the amount is labelled for both);
 * - ERC-721 (EIP-721) `setApprovalForAll` (also ERC-1155's) and both `safeTransferFrom`
 *   overloads, and ERC-1155 (EIP-1155) `safeTransferFrom`;
 * - SimpleAccount (eth-infinitism v0.6) `execute(address,uint256,bytes)` and
 *   `executeBatch(address[],bytes[])`, v0.7's `executeBatch(address[],uint256[],bytes[])` and v0.8's
 *   (and Simple7702Account's) `executeBatch((address,uint256,bytes)[])`, whose inner calls are
 *   decoded the same way, at most
 *   {@link MAX_NESTING} levels deep and {@link MAX_INNER_CALLS} calls per batch: only when the
 *   data runs in the sending account itself (see {@link CallContext}). The same selectors sent to
 *   any other address are that contract's own code, whatever it does with them: they are shown
 *   as `a call to <address> (a contract), which runs its own code` with the full call data.
 * Anything else, and any encoding that is not exactly the standard ABI encoding of what was
 * decoded (dirty padding, trailing bytes), is shown as its selector and its FULL call data.
 * Addresses are always given in full (checksummed), never shortened.
 */

/** The functions decoded (human-readable ABI, viem `parseAbi`). */
export const KNOWN_CALLS_ABI = parseAbi([
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);

/** How many execute/executeBatch levels are decoded inside one another. */
export const MAX_NESTING = 4;

/** How many inner calls of one executeBatch are decoded; a longer batch is shown raw. */
export const MAX_INNER_CALLS = 32;

/** An approval amount at or above this (2^255) is flagged as unlimited. */
export const UNLIMITED_THRESHOLD = 2n ** 255n;

/** What an ERC-20/721 `approve` or `transferFrom` third argument means. */
const AMOUNT_LABEL = {
  approve: 'amount (ERC-20, token base units) or token id (ERC-721)',
  transferFrom: 'amount (ERC-20, token base units) or token id (ERC-721)',
  transfer: 'amount (token base units)',
} as const;

/** Readable names of the decoded functions. */
const TITLES: Record<string, string> = {
  transfer: 'ERC-20 transfer',
  approve: 'approve (ERC-20 allowance, or ERC-721 approval of one token)',
  transferFrom: 'transferFrom (ERC-20 or ERC-721)',
  setApprovalForAll: 'setApprovalForAll (ERC-721 / ERC-1155)',
  safeTransferFrom: 'safeTransferFrom',
  execute: 'execute (SimpleAccount): the account makes this call',
  executeBatch: 'executeBatch (SimpleAccount): the account makes these calls',
};

/** One line of a call's description. */
export type CallLine = {
  /** What the line describes (`Call`, `spender`, `Inner call 1: to`, ...). */
  label: string;
  /** The value as text: addresses in full (checksummed), amounts as full integers. */
  text: string;
  /** Set when the value is an address (the dialog shows it with snaps-sdk's Address, untruncated). */
  address?: Hex;
  /** Set on a warning line (an unlimited approval, an operator for all tokens). */
  warning?: boolean;
};

/**
 * Where call data runs: what decides whether an `execute`/`executeBatch` is the account's own.
 */
export type CallContext = {
  /**
   * The address the data is sent to; undefined when it runs in the sending account itself (a user
   * operation's callData, which the EntryPoint sends to its sender).
   */
  to?: Hex;
  /** The sending account, when known: a call to it is its own. */
  self?: Hex;
  /** True for a contract deployment (the data is creation code, run by no existing contract). */
  creation?: boolean;
  /** The chain's currency symbol, for the values of inner calls (default ETH). */
  currency?: string;
};

/** A call: recipient, value (wei) and data (hex bytes). */
export type Call = {
  /** The called address; absent when not known (a parked user operation's outer call). */
  to?: Hex;
  /** The sending account, when known (an `execute` sent to it is its own). */
  from?: Hex;
  /** Wei sent with the call; absent when not part of what is described. */
  value?: bigint;
  /** The call data (`0x` for none). */
  data: Hex;
};

/**
 * Describe each intent of a user operation where its data runs: at its `to`. Only an intent sent
 * to the account itself has its `execute` / `executeBatch` shown as the account's own; one sent
 * to another contract is that contract's code (see {@link describeCallData}'s context).
 *
 * @param summary - The operation's sending account and its intents (`to`, call data as hex bytes).
 * @param summary.account - The sending account.
 * @param summary.intents - The intents, in order.
 * @param summary.scope - The chain (its currency names the inner calls' values; default ETH).
 * @returns One list of lines per intent, in the order of `intents`.
 */
export function describeIntents(summary: {
  account: Hex;
  intents: readonly { to: Hex; data: Hex }[];
  scope?: string;
}): CallLine[][] {
  const currency = nativeSymbol(summary.scope);
  return summary.intents.map((intent) =>
    describeCallData(intent.data, {
      to: intent.to,
      self: summary.account,
      currency,
    }),
  );
}

/**
 * Describe call data for a person, as lines.
 *
 * @param data - The call data (hex bytes).
 * @param context - Where it runs (default: in the sending account itself, as a user operation's
 * callData does).
 * @param prefix - Prefix of the labels (`''` at the top, `Inner call 1` inside execute).
 * @param depth - Nesting level (0 at the top).
 * @returns `Call` (the function, or `plain transfer`), then one line per argument and warnings;
 * for the account's own execute/executeBatch each inner call's to, value and decoded data; for
 * those selectors sent to another contract, `a call to <address> (a contract), which runs its own
 * code` and the full hex; for anything not decoded, `function <selector> (not decoded)` and
 * `Call data` with the full hex.
 */
export function describeCallData(
  data: Hex,
  context: CallContext = {},
  prefix = '',
  depth = 0,
): CallLine[] {
  const label = labeller(prefix);
  if (data === '0x') {
    return [{ label: label('Call'), text: 'plain transfer' }];
  }
  const decoded = depth < MAX_NESTING ? decodeKnown(data) : undefined;
  if (!decoded) {
    return raw(data, label);
  }
  const { functionName: name, args } = decoded;
  if ((name === 'execute' || name === 'executeBatch') && !ownAccount(context)) {
    return raw(data, label, context);
  }
  const lines: CallLine[] = [{ label: label('Call'), text: TITLES[name] }];
  /**
   * @param field - The argument's name.
   * @param value - Its address.
   * @returns The line, address in full.
   */
  const address = (field: string, value: Hex): CallLine =>
    addressLine(label(field), value);
  /**
   * @param field - The argument's name.
   * @param value - Its integer.
   * @returns The line, the integer in full (decimal).
   */
  const amount = (field: string, value: bigint): CallLine => ({
    label: label(field),
    text: value.toString(),
  });
  switch (name) {
    case 'transfer':
      lines.push(
        address('recipient', args[0]),
        amount(AMOUNT_LABEL.transfer, args[1]),
      );
      break;
    case 'approve':
      lines.push(
        address('spender', args[0]),
        amount(AMOUNT_LABEL.approve, args[1]),
      );
      if (args[1] >= UNLIMITED_THRESHOLD) {
        lines.push({
          label: label('Warning'),
          text: `UNLIMITED APPROVAL${args[1] === 2n ** 256n - 1n ? ' (2^256-1)' : ''}: ${getAddress(args[0])} may take ALL of this token from this account, now and later. Reject unless you trust it.`,
          warning: true,
        });
      }
      break;
    case 'transferFrom':
      lines.push(
        address('from', args[0]),
        address('recipient', args[1]),
        amount(AMOUNT_LABEL.transferFrom, args[2]),
      );
      break;
    case 'setApprovalForAll':
      lines.push(address('operator', args[0]), {
        label: label('approved'),
        text: args[1] ? 'true' : 'false',
      });
      if (args[1]) {
        lines.push({
          label: label('Warning'),
          text: `UNLIMITED APPROVAL: ${getAddress(args[0])} may take ALL tokens of this collection from this account, now and later. Reject unless you trust it.`,
          warning: true,
        });
      }
      break;
    case 'safeTransferFrom':
      lines.push(address('from', args[0]), address('recipient', args[1]));
      if (args.length === 5) {
        lines.push(
          amount('token id (ERC-1155)', args[2]),
          amount('amount (ERC-1155)', args[3]),
          { label: label('data'), text: args[4] },
        );
      } else {
        lines.push(amount('token id (ERC-721)', args[2]));
        if (args.length === 4) {
          lines.push({ label: label('data'), text: args[3] });
        }
      }
      break;
    case 'execute':
      lines.push(
        ...inner(
          { to: args[0], value: args[1], data: args[2] },
          context,
          prefix,
          1,
          depth,
        ),
      );
      break;
    case 'executeBatch': {
      const calls = batchCalls(args);
      if (calls === undefined) {
        return raw(data, label); // the account reverts ("wrong array lengths")
      }
      calls.forEach((call, index) => {
        lines.push(...inner(call, context, prefix, index + 1, depth));
      });
      break;
    }
    // Stryker disable next-line ConditionalExpression: equivalent: never reached, decodeKnown decodes only the functions above (kept for safety)
    default:
      return raw(data, label);
  }
  return lines;
}

/**
 * Describe a call: its recipient and value when given, then its data.
 *
 * @param call - The call; its data runs at `to` (a deployment when `to` is absent), so an
 * `execute` in it is the account's own only when `to` is `from`.
 * @param prefix - Prefix of the labels.
 * @param currency - The chain's currency symbol (default ETH).
 * @returns `To` (full address), `Value` (in that currency), then {@link describeCallData}'s lines.
 */
export function describeCall(
  call: Call,
  prefix = '',
  currency = 'ETH',
): CallLine[] {
  const label = labeller(prefix);
  const lines: CallLine[] = [];
  if (call.to !== undefined) {
    lines.push(addressLine(label('To'), call.to));
  }
  if (call.value !== undefined) {
    lines.push({
      label: label('Value'),
      text: `${formatEther(call.value)} ${currency}`,
    });
  }
  return [
    ...lines,
    ...describeCallData(
      call.data,
      call.to === undefined
        ? { creation: true, currency }
        : { to: call.to, ...(call.from ? { self: call.from } : {}), currency },
      prefix,
    ),
  ];
}

/**
 * Whether any line is a warning (an unlimited approval).
 *
 * @param lines - Lines from {@link describeCall} or {@link describeCallData}.
 * @returns True when one is flagged.
 */
export function hasWarning(lines: readonly CallLine[]): boolean {
  return lines.some((line) => line.warning === true);
}

/**
 * An inner call of execute/executeBatch.
 *
 * @param call - Its to, value (wei) and data.
 * @param outer - Where the outer call runs: its sending account (`self`), when known, and the
 * chain's currency (`currency`).
 * @param prefix - The outer call's label prefix.
 * @param index - Its 1-based position.
 * @param depth - The outer call's nesting level.
 * @returns Its lines, labelled `Inner call <path>`.
 */
function inner(
  call: Required<Pick<Call, 'to' | 'value' | 'data'>>,
  outer: CallContext,
  prefix: string,
  index: number,
  depth: number,
): CallLine[] {
  const path = prefix.startsWith('Inner call ')
    ? `${prefix}.${index}`
    : `Inner call ${index}`;
  const { self, currency } = outer;
  return [
    addressLine(`${path}: to`, call.to),
    {
      label: `${path}: value`,
      text: `${formatEther(call.value)} ${currency ?? 'ETH'}`,
    },
    ...describeCallData(
      call.data,
      {
        to: call.to,
        ...(self ? { self } : {}),
        ...(currency ? { currency } : {}),
      },
      path,
      depth + 1,
    ),
  ];
}

/**
 * Decode call data with {@link KNOWN_CALLS_ABI}, only when it is exactly the standard encoding.
 *
 * @param data - The call data.
 * @returns viem's decoded `{ functionName, args }`, or undefined for an unknown selector,
 * malformed or non-standard encoding, or a batch longer than {@link MAX_INNER_CALLS}.
 */
function decodeKnown(
  data: Hex,
): ReturnType<typeof decodeFunctionData<typeof KNOWN_CALLS_ABI>> | undefined {
  try {
    const decoded = decodeFunctionData({ abi: KNOWN_CALLS_ABI, data });
    if (
      decoded.functionName === 'executeBatch' &&
      // Stryker disable next-line ConditionalExpression: equivalent: with one array over the bound and another within it, the lengths differ and describeCallData shows the batch raw anyway
      decoded.args.some((list) => list.length > MAX_INNER_CALLS)
    ) {
      return undefined;
    }
    const again = encodeFunctionData({
      abi: KNOWN_CALLS_ABI,
      functionName: decoded.functionName,
      args: decoded.args,
    });
    // Stryker disable BlockStatement: equivalent: the catch below emptied returns undefined all the same
    return again.toLowerCase() === data.toLowerCase() ? decoded : undefined;
  } catch {
    return undefined;
  }
}

// Stryker restore BlockStatement

/**
 * The inner calls of a decoded executeBatch, whichever version.
 *
 * @param args - Its arguments: v0.6 `(dest[], func[])`, v0.7 `(dest[], value[], func[])` (an empty
 * value list sends none), v0.8 `(calls[])` of `{ target, value, data }`.
 * @returns The calls (value in wei), or undefined when the lists' lengths differ.
 */
function batchCalls(
  args: readonly unknown[],
): Required<Pick<Call, 'to' | 'value' | 'data'>>[] | undefined {
  if (args.length === 1) {
    return (args[0] as { target: Hex; value: bigint; data: Hex }[]).map(
      ({ target, value, data }) => ({ to: target, value, data }),
    );
  }
  const dest = args[0] as Hex[];
  const func = args.at(-1) as Hex[];
  const values = args.length === 3 ? (args[1] as bigint[]) : [];
  if (
    dest.length !== func.length ||
    (values.length > 0 && values.length !== dest.length)
  ) {
    return undefined;
  }
  return dest.map((to, index) => ({
    to,
    value: values[index] ?? 0n,
    data: func[index],
  }));
}

/**
 * Whether call data runs in the sending account itself.
 *
 * @param context - Where it runs.
 * @returns True for a user operation's callData (no `to`) or a call to the account's own address.
 */
function ownAccount(context: CallContext): boolean {
  if (context.creation) {
    return false;
  }
  if (context.to === undefined) {
    return true;
  }
  return context.self !== undefined && isAddressEqual(context.to, context.self);
}

/** Makes a line's label from a field name. */
type Labeller = (name: string) => string;

/**
 * @param prefix - The labels' prefix (`''` at the top).
 * @returns A function labelling `name` as `<prefix>: <name>`, or `name` without a prefix.
 */
function labeller(prefix: string): Labeller {
  return (name) => (prefix ? `${prefix}: ${name}` : name);
}

/**
 * @param label - The line's label.
 * @param value - A 20-byte address.
 * @returns A line with the checksummed address in full, as text and as `address`.
 */
function addressLine(label: string, value: Hex): CallLine {
  const full = getAddress(value);
  return { label, text: full, address: full };
}

/**
 * Data that is not decoded: its selector and all of it.
 *
 * @param data - The call data.
 * @param label - Makes a label with the prefix.
 * @param foreign - Set for an account-call selector sent to another contract: where it runs.
 * @returns Two lines: the selector (or `no function selector`, or for `foreign` the contract that
 * runs it) and the full data.
 */
function raw(data: Hex, label: Labeller, foreign?: CallContext): CallLine[] {
  const bytes = size(data);
  let text =
    bytes >= 4
      ? `function ${slice(data, 0, 4).toLowerCase()} (not decoded: check the full call data)`
      : 'no function selector (not decoded)';
  if (foreign !== undefined) {
    text = `${foreign.to === undefined ? 'contract creation code' : `a call to ${getAddress(foreign.to)} (a contract), which runs its own code`}: function ${slice(data, 0, 4).toLowerCase()} (not this account's execute: check the full call data)`;
  }
  return [
    { label: label('Call'), text },
    {
      label: label(`Call data (${bytes} bytes, in full)`),
      text: data.toLowerCase(),
    },
  ];
}
