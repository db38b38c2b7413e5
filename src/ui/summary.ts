import type { KeyringRequest } from '@metamask/keyring-api';
import { formatEther, hexToString, isHex } from 'viem';

/** One line of a request summary: a label and its value, both plain text. */
export type SummaryLine = {
  /** What the line describes (`Method`, `Chain`, ...). */
  label: string;
  /** Its value, cut to 200 characters. */
  value: string;
};

/** Longest value shown, in characters; longer ones are cut with an ellipsis. */
const MAX_TEXT = 200;

/**
 * Describe a pending signing request for a person, from its params only (nothing is fetched):
 * - `eth_signTransaction`: chain, to (or contract creation), value in ETH, data's 4-byte selector;
 * - `eth_signTypedData_v*` (EIP-712): domain name, chain, primary type;
 * - `personal_sign` (EIP-191): the message as UTF-8 text when it decodes, else hex;
 * - `eth_signUserOperation` (ERC-4337): sender, nonce, whether it deploys the account.
 * Long values are cut to 200 characters. Params the snap would refuse never reach here (they are
 * validated when submitted).
 *
 * @param request - keyring-api `KeyringRequest`.
 * @returns Lines to render, the first being the method.
 */
export function summarizeRequest(request: KeyringRequest): SummaryLine[] {
  const { method, params } = request.request;
  const list = Array.isArray(params) ? params : [];
  const lines: SummaryLine[] = [
    { label: 'Method', value: method },
    { label: 'From site', value: request.origin },
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
          value: quantity(first.chainId) ?? (request.scope || 'unknown'),
        },
        {
          label: 'To',
          value: typeof first.to === 'string' ? first.to : 'new contract',
        },
        { label: 'Value', value: `${ether(first.value)} ETH` },
        { label: 'Data', value: selector(first.data) },
      );
      break;
    case 'eth_signTypedData_v1':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v4': {
      const data = typedData(list[1]);
      const domain = (data?.domain ?? {}) as Record<string, unknown>;
      lines.push(
        {
          label: 'Domain',
          value: typeof domain.name === 'string' ? cut(domain.name) : 'unnamed',
        },
        { label: 'Chain', value: quantity(domain.chainId) ?? 'any' },
        {
          label: 'Primary type',
          value:
            typeof data?.primaryType === 'string'
              ? cut(data.primaryType)
              : 'unknown',
        },
      );
      break;
    }
    case 'eth_signUserOperation':
      lines.push(
        { label: 'Chain', value: request.scope },
        {
          label: 'Sender',
          value: typeof first.sender === 'string' ? first.sender : 'unknown',
        },
        { label: 'Nonce', value: quantity(first.nonce) ?? 'unknown' },
        {
          label: 'Deploys the account',
          value:
            typeof first.initCode === 'string' && first.initCode !== '0x'
              ? 'yes'
              : 'no',
        },
      );
      break;
    default:
      break;
  }
  return lines;
}

/**
 * Cut a value to {@link MAX_TEXT} characters.
 *
 * @param text - The value.
 * @returns The value, or its first 200 characters and an ellipsis.
 */
function cut(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/**
 * A personal_sign message for display.
 *
 * @param message - The message param (hex bytes, or text as some sites send it).
 * @returns UTF-8 text when the hex decodes to printable text, else the hex (cut); `unknown` for a non-string.
 */
function messageText(message: unknown): string {
  if (typeof message !== 'string') {
    return 'unknown';
  }
  if (!isHex(message)) {
    return cut(message);
  }
  try {
    const text = hexToString(message);
    // eslint-disable-next-line no-control-regex -- deliberately matches control characters: such a message is shown as hex
    if (!/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/u.test(text)) {
      return cut(text);
    }
  } catch {
    // not UTF-8: show hex
  }
  return cut(message);
}

/**
 * A decimal rendering of a quantity.
 *
 * @param value - A safe integer, or a hex (up to 64 digits) or decimal (up to 78 digits) string.
 * @returns The decimal string, or undefined for anything else.
 */
function quantity(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
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
 * A wei quantity in ETH.
 *
 * @param value - The transaction's `value` (wei, hex or decimal).
 * @returns The amount in ETH (decimal string); `0` when absent or malformed.
 */
function ether(value: unknown): string {
  const wei = quantity(value);
  return wei === undefined ? '0' : formatEther(BigInt(wei));
}

/**
 * The 4-byte function selector of call data.
 *
 * @param data - The transaction's `data`.
 * @returns `function 0x…` with the selector, `none (plain transfer)` without data, or the (cut)
 * data when shorter than a selector.
 */
function selector(data: unknown): string {
  if (typeof data !== 'string' || data === '0x' || data === '') {
    return 'none (plain transfer)';
  }
  return data.length >= 10 ? `function ${data.slice(0, 10)}` : cut(data);
}

/**
 * The EIP-712 typed data param as an object.
 *
 * @param value - The param: an object, or its JSON text.
 * @returns The object, or undefined when it is not one or the JSON is invalid.
 */
function typedData(value: unknown): Record<string, unknown> | undefined {
  try {
    const parsed =
      typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    return typeof parsed === 'object' &&
      parsed !== null &&
      !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
