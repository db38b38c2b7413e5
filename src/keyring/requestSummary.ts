import type { EthUserOperation, KeyringRequest } from '@metamask/keyring-api';
import { getAddress, hexToString, isHex, size, slice } from 'viem';
import type { Hex } from 'viem';

import { requestWords } from './requestWords';
import { flagTypedData, typedUserOperationLines } from './typedDataFlags';
import { describeCall, describeCallData } from '../accounts/callData';
import type { CallLine } from '../accounts/callData';
import { maxGasCost } from '../accounts/erc4337/send';
import { normaliseTypedData } from '../accounts/typedData';
import type {
  NormalisedTypedData,
  TypedDataVersion,
} from '../accounts/typedData';
import { normaliseTypedDataV1 } from '../accounts/typedDataV1';
import type { TypedDataV1Field } from '../accounts/typedDataV1';
import { nativeAmount, nativeSymbol } from '../utils/chainNames';
import { displayText } from '../utils/safeText';

/** One line of a request summary: a label and its value, both plain text. */
export type SummaryLine = {
  /** What the line describes (`Method`, `Chain`, `message.spender`, ...). */
  label: string;
  /** Its value: addresses in full, text from outside cleaned of hidden characters (see displayText). */
  value: string;
  /** Set on a warning (an unlimited approval). */
  warning?: boolean;
};

/** Longest text shown whole, in characters; a longer one shows its first and last halves of this. */
export const MAX_TEXT = 8000;

/** How many typed-data fields are listed (domain and message together); the rest are counted. */
export const MAX_TYPED_FIELDS = 200;

/** How deep typed-data structs are listed; deeper values are summarised. */
const MAX_TYPED_DEPTH = 8;

/** Longest typed-data field label, in characters. */
const MAX_LABEL = 120;

/**
 * A text with its first letter capitalised.
 *
 * @param text - The text.
 * @returns `Signing a message`.
 */
const capitalised = (text: string): string =>
  `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** What the page says when MetaMask forwarded the request as its own. */
const METAMASK_ORIGIN =
  'metamask (MetaMask did not tell this snap which site asked: check the site in MetaMask before approving)';

/**
 * Describe a pending signing request for a person, from its params only (nothing is fetched):
 * - `eth_signTransaction`: chain, to, value in ETH, its call data decoded (src/accounts/callData.ts);
 * - `eth_signTypedData_v*` (EIP-712): every domain field, the primary type, and every message
 *   field, nested (labelled by path), at most {@link MAX_TYPED_FIELDS} fields and 8 levels;
 *   unlimited Permit / DAI / Permit2 allowances flagged and deadlines shown as dates
 *   (src/keyring/typedDataFlags.ts);
 * - `personal_sign` (EIP-191): the whole message as UTF-8 text when it decodes, else hex (up to
 *   {@link MAX_TEXT} characters; a longer one shows its start and its end, saying how much is between);
 * - `eth_signUserOperation` (ERC-4337): chain, sender, nonce, deployment, paymaster, the maximum
 *   gas cost, and its call data decoded (SimpleAccount execute/executeBatch and the inner calls).
 * The requesting site is named (`From site`); text from outside is cleaned (displayText). Params
 * the snap would refuse never reach here (they are validated when submitted).
 *
 * @param request - keyring-api `KeyringRequest`.
 * @returns Lines to render, the first being what the request does, in words (requestWords).
 */
export function summarizeRequest(request: KeyringRequest): SummaryLine[] {
  const { method, params } = request.request;
  const list = Array.isArray(params) ? params : [];
  const lines: SummaryLine[] = [
    { label: 'Request', value: capitalised(requestWords(method)) },
    {
      label: 'From site',
      value:
        request.origin === 'metamask'
          ? METAMASK_ORIGIN
          : whole(displayText(request.origin)),
    },
  ];
  const first = (list[0] ?? {}) as Record<string, unknown>;
  switch (method) {
    case 'personal_sign':
      lines.push({ label: 'Message', value: messageText(list[0]) });
      break;
    case 'eth_signTransaction':
      lines.push(
        {
          label: 'Chain',
          value: shownQuantity(first.chainId) ?? (request.scope || 'unknown'),
        },
        ...(typeof first.to === 'string' && isAddress20(first.to)
          ? []
          : [{ label: 'To', value: 'new contract (deployment)' }]),
        ...callLines(
          {
            to:
              typeof first.to === 'string' && isAddress20(first.to)
                ? first.to
                : undefined,
            value: BigInt(shownQuantity(first.value) ?? '0'),
            data: hexData(first.data ?? first.input),
            ...(typeof first.from === 'string' && isAddress20(first.from)
              ? { from: first.from }
              : {}),
          },
          nativeSymbol(shownQuantity(first.chainId) ?? request.scope),
        ),
      );
      break;
    case 'eth_signTypedData_v1':
      lines.push(...typedDataV1Lines(list[1]));
      break;
    case 'eth_signTypedData_v3':
      lines.push(...typedDataLines(list[1], 'V3'));
      break;
    case 'eth_signTypedData_v4':
      lines.push(...typedDataLines(list[1], 'V4'));
      break;
    case 'eth_signUserOperation':
      lines.push(...userOperationLines(first, request.scope));
      break;
    default:
      break;
  }
  return lines;
}

/**
 * Text shown whole up to {@link MAX_TEXT} characters; longer, its first and last halves with
 * the count of characters between (so the end of a long message is always seen).
 *
 * @param text - The text.
 * @returns The text, or `<start>\n[… N characters not shown …]\n<end>`.
 */
function whole(text: string): string {
  if (text.length <= MAX_TEXT) {
    return text;
  }
  const half = MAX_TEXT / 2;
  return `${text.slice(0, half)}\n[… ${text.length - MAX_TEXT} characters not shown …]\n${text.slice(-half)}`;
}

/**
 * A personal_sign message for display.
 *
 * @param message - The message param (hex bytes, or text as some sites send it).
 * @returns The whole UTF-8 text when the hex decodes to printable text, else the hex; cleaned
 * and bounded by {@link whole}; `unknown` for a non-string.
 */
function messageText(message: unknown): string {
  if (typeof message !== 'string') {
    return 'unknown';
  }
  if (!isHex(message)) {
    return whole(displayText(message));
  }
  try {
    const text = hexToString(message);
    // eslint-disable-next-line no-control-regex -- deliberately matches control characters: such a message is shown as hex
    if (!/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/u.test(text)) {
      return whole(displayText(text));
    }
  } catch {
    // not UTF-8: show hex
  }
  return whole(message);
}

/**
 * The lines of an EIP-712 typed-data param. v3/v4 data is shown as it is signed: normalised by
 * normaliseTypedData (booleans, integers in decimal, undeclared fields left out, as the signer
 * leaves them out), so the page never shows `"false"` where `false` is signed or a field that is
 * not signed at all.
 *
 * @param value - The param: an object, or its JSON text (v3/v4), or v1's array of `{ type, name, value }`.
 * @param version - `V3` or `V4` for typed structs; undefined for v1.
 * @returns For a user operation, first what it is (typedUserOperationLines); then domain fields
 * (`domain.<name>`), the primary type, and message fields (`message.<path>`).
 */
function typedDataLines(
  value: unknown,
  version?: TypedDataVersion,
): SummaryLine[] {
  const parsed = typedData(value);
  let data = parsed;
  if (version !== undefined && parsed !== undefined && !Array.isArray(parsed)) {
    try {
      data = normaliseTypedData(
        parsed as Parameters<typeof normaliseTypedData>[0],
        version,
      );
    } catch {
      data = undefined;
    }
  }
  if (data === undefined) {
    return [{ label: 'Typed data', value: 'unreadable' }];
  }
  const budget = { left: MAX_TYPED_FIELDS };
  if (Array.isArray(data)) {
    return fieldLines(data, 'data', 0, budget);
  }
  return [
    ...(version === undefined
      ? []
      : typedUserOperationLines(data as NormalisedTypedData)),
    ...flagTypedData(typedStructLines(data, budget), data),
  ];
}

/**
 * The lines of v3/v4 typed data: domain fields, the primary type, message fields.
 *
 * @param data - The typed data as signed.
 * @param budget - Lines left (shared).
 * @param budget.left - How many.
 * @returns The lines.
 */
function typedStructLines(
  data: Record<string, unknown>,
  budget: { left: number },
): SummaryLine[] {
  return [
    ...fieldLines(data.domain ?? {}, 'domain', 0, budget),
    {
      label: 'Primary type',
      value:
        typeof data.primaryType === 'string'
          ? whole(displayText(data.primaryType))
          : 'unknown',
    },
    ...fieldLines(data.message ?? {}, 'message', 0, budget),
  ];
}

/**
 * The lines of a legacy typed-data param (eth_signTypedData_v1, `[address, data]`), shown as it
 * is signed: each field checked and normalised by normaliseTypedDataV1.
 *
 * @param value - The param: the `[{ type, name, value }, ...]` array, or its JSON text.
 * @returns One line per field (`<name> (<type>)`; an array's items by index), or `unreadable`.
 */
function typedDataV1Lines(value: unknown): SummaryLine[] {
  const parsed = typedData(value);
  let fields: TypedDataV1Field[];
  try {
    fields = normaliseTypedDataV1(
      parsed as Parameters<typeof normaliseTypedDataV1>[0],
    );
  } catch {
    return [{ label: 'Typed data', value: 'unreadable' }];
  }
  const budget = { left: MAX_TYPED_FIELDS };
  return fields.flatMap(({ name, type, value: field }) =>
    fieldLines(field, `${name} (${type})`, 0, budget),
  );
}

/**
 * Every leaf of a JSON value, labelled by its path.
 *
 * @param value - The value.
 * @param path - Its path label.
 * @param depth - Its depth.
 * @param budget - Lines left (shared, decremented).
 * @param budget.left - How many.
 * @returns One line per leaf (strings cleaned and shown whole up to MAX_TEXT), and a last line
 * counting what the bounds left out.
 */
function fieldLines(
  value: unknown,
  path: string,
  depth: number,
  budget: { left: number },
): SummaryLine[] {
  const label = displayText(path).slice(0, MAX_LABEL);
  if (typeof value !== 'object' || value === null) {
    if (budget.left <= 0) {
      return [];
    }
    budget.left -= 1;
    return [{ label, value: leafText(value) }];
  }
  const entries = Array.isArray(value)
    ? value.map((item, index): [string, unknown] => [String(index), item])
    : Object.entries(value);
  if (depth >= MAX_TYPED_DEPTH) {
    budget.left -= 1;
    return budget.left >= 0
      ? [{ label, value: `${entries.length} more fields, too deep to list` }]
      : [];
  }
  const lines: SummaryLine[] = [];
  for (const [key, item] of entries) {
    if (budget.left <= 0) {
      lines.push({
        label: 'More fields',
        value: `this request has more than ${MAX_TYPED_FIELDS} fields: not all are shown. Reject unless you trust the site.`,
        warning: true,
      });
      budget.left = -1;
      break;
    }
    lines.push(...fieldLines(item, `${path}.${key}`, depth + 1, budget));
  }
  return lines;
}

/**
 * @param value - A JSON leaf.
 * @returns Strings cleaned and bounded, numbers and booleans as JSON, null as `null`.
 */
function leafText(value: unknown): string {
  return typeof value === 'string'
    ? whole(displayText(value))
    : String(JSON.stringify(value));
}

/**
 * The lines of an ERC-4337 v0.6 user operation.
 *
 * @param op - The operation (hex fields).
 * @param scope - The request's scope.
 * @returns Chain, sender, nonce, deployment, paymaster, maximum cost, and the decoded callData.
 */
function userOperationLines(
  op: Record<string, unknown>,
  scope: string,
): SummaryLine[] {
  const paymasterAndData = hexData(op.paymasterAndData);
  const lines: SummaryLine[] = [
    { label: 'Chain', value: scope },
    {
      label: 'Sender',
      value:
        typeof op.sender === 'string' && isAddress20(op.sender)
          ? getAddress(op.sender)
          : 'unknown',
    },
    { label: 'Nonce', value: shownQuantity(op.nonce) ?? 'unknown' },
    {
      label: 'Deploys the account',
      value: hexData(op.initCode) === '0x' ? 'no' : 'yes',
    },
    {
      label: 'Gas paid by',
      value:
        size(paymasterAndData) >= 20
          ? `paymaster ${getAddress(slice(paymasterAndData, 0, 20))}`
          : 'this account',
    },
    // SingletonPaymaster's mode byte (paymasterReply.ts assertSponsorshipData): above 1 is not sponsorship
    ...(size(paymasterAndData) > 20 &&
    Number.parseInt(paymasterAndData.slice(42, 44), 16) > 1
      ? [
          {
            label: 'Paymaster data',
            value:
              'Not plain sponsorship: in the mode its first byte asks for, a paymaster such as Pimlico’s takes an ERC-20 token from this account for the gas',
            warning: true,
          },
        ]
      : []),
  ];
  try {
    lines.push({
      label: 'Maximum gas cost',
      value: nativeAmount(maxGasCost(op as unknown as EthUserOperation), scope),
    });
  } catch {
    // fields that are not quantities: validated when the request is approved
  }
  return [
    ...lines,
    ...callLines(
      {
        data: hexData(op.callData),
        ...(typeof op.sender === 'string' && isAddress20(op.sender)
          ? { from: op.sender }
          : {}),
      },
      nativeSymbol(scope),
    ),
  ];
}

/**
 * A call's decoded lines, as summary lines.
 *
 * @param call - `{ to?, value?, data, from? }`.
 * @param call.to - The called address, when known.
 * @param call.value - Wei sent, when part of the request.
 * @param call.data - The call data.
 * @param call.from - The sending account (a user operation's sender), when known.
 * @param currency - The chain's currency symbol, for values (default ETH).
 * @returns The decoder's lines (addresses in full; unknown data in full).
 */
function callLines(
  call: {
    to?: Hex;
    value?: bigint;
    data: Hex;
    from?: Hex;
  },
  currency = 'ETH',
): SummaryLine[] {
  const lines: CallLine[] =
    call.to === undefined && call.value === undefined
      ? describeCallData(call.data, {
          ...(call.from ? { self: call.from } : {}),
          currency,
        })
      : describeCall(call, '', currency);
  return lines.map(({ label, text, warning }) => ({
    label,
    value: text,
    ...(warning ? { warning } : {}),
  }));
}

/**
 * @param value - A param that should be hex bytes.
 * @returns It, or `0x` when absent or not hex bytes.
 */
function hexData(value: unknown): Hex {
  return typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/u.test(value)
    ? (value as Hex)
    : '0x';
}

/**
 * @param value - A string.
 * @returns Whether it is a 20-byte hex address (any case).
 */
function isAddress20(value: string): value is Hex {
  return /^0x[0-9a-fA-F]{40}$/u.test(value);
}

/**
 * A decimal rendering of a quantity.
 *
 * @param value - A safe integer, or a hex (up to 64 digits) or decimal (up to 78 digits) string.
 * @returns The decimal string, or undefined for anything else.
 */
function shownQuantity(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return String(value);
  }
  if (
    typeof value === 'string' &&
    /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/u.test(value)
  ) {
    return BigInt(value).toString();
  }
  return undefined;
}

/**
 * The EIP-712 typed data param as an object (v3/v4) or array (v1).
 *
 * @param value - The param: an object or array, or its JSON text.
 * @returns It, or undefined when it is neither or the JSON is invalid.
 */
function typedData(
  value: unknown,
): Record<string, unknown> | unknown[] | undefined {
  try {
    const parsed =
      typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown> | unknown[])
      : undefined;
  } catch {
    return undefined;
  }
}
