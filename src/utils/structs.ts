import { define } from '@metamask/superstruct';

/**
 * superstruct structs shared by the snap's own inputs (setChainConfig params, account metadata).
 * keyring-api's structs cover its own requests; these cover what it does not.
 */

/** A 20-byte hex address, `0x` + 40 hex digits (any letter case). */
export const AddressStruct = define<string>('address', (value) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/u.test(value)
    ? true
    : 'expected a 20-byte hex address (0x + 40 hex digits)',
);

/**
 * Whether a URL host (WHATWG `URL.hostname`, already normalised: `127.1` reads `127.0.0.1`) is
 * this machine: `localhost`, 127.0.0.0/8 or `[::1]` (RFC 6890 loopback).
 *
 * @param hostname - `URL.hostname`.
 * @returns True for a loopback host.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(hostname)
  );
}

/**
 * Whether a URL host (WHATWG `URL.hostname`: lower case, numeric IPv4 forms in dotted decimal,
 * IPv6 compressed in brackets) names this machine in any form: a `localhost` name with or without
 * a trailing dot and any name under it (RFC 6761 §6.3: `wallet.localhost`), IPv4 loopback
 * 127.0.0.0/8 and "this network" 0.0.0.0/8 (RFC 6890: `0.0.0.0` reaches the local host on common
 * systems), IPv6 loopback `::1` and unspecified `::` (RFC 4291 §2.5.2-3), and IPv4-mapped or
 * IPv4-compatible IPv6 forms of those IPv4 ranges (`[::ffff:127.0.0.1]`, RFC 4291 §2.5.5).
 *
 * @param hostname - `URL.hostname`.
 * @returns True for a loopback or unspecified host in any spelling.
 */
export function isLocalHostname(hostname: string): boolean {
  const name = hostname.replace(/\.$/u, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return true;
  }
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/u.test(name)) {
    const first = Number(name.split('.')[0]);
    return first === 127 || first === 0;
  }
  if (!name.startsWith('[') || !name.endsWith(']')) {
    return false;
  }
  const [head = '', tail] = name.slice(1, -1).split('::');
  /**
   * @param part - Colon-separated hex groups (empty for none).
   * @returns The 16-bit words.
   */
  const groups = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [
    ...left,
    ...Array<number>(8 - left.length - right.length).fill(0),
    ...right,
  ];
  if (words.length !== 8 || words.some((word) => !(word >= 0))) {
    return false;
  }
  /**
   * @param count - How many leading words.
   * @returns Whether they are all zero.
   */
  const zeros = (count: number): boolean =>
    words.slice(0, count).every((word) => word === 0);
  if (zeros(7) && (words[7] === 0 || words[7] === 1)) {
    return true; // :: and ::1
  }
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address's first octet
  const mapped = zeros(5) && (words[5] === 0xffff || words[5] === 0);
  const octet = Math.floor((words[6] ?? 0) / 256);
  return mapped && (octet === 127 || octet === 0);
}

/**
 * A service URL that may carry an API key (rpcUrl, bundlerUrl, paymasterUrl, the IPFS apiUrl):
 * `https:`, or `http:` on a loopback host only, so a key never crosses a network in clear text.
 */
export const HttpUrlStruct = define<string>('https URL', (value) => {
  if (typeof value !== 'string') {
    return 'expected a URL string';
  }
  try {
    const { protocol, hostname } = new URL(value);
    return protocol === 'https:' ||
      (protocol === 'http:' && isLoopbackHostname(hostname))
      ? true
      : 'expected an https URL (http only for 127.0.0.1, localhost or [::1])';
  } catch {
    return 'expected an https URL';
  }
});

/** A CAIP-2 EVM chain scope with a real chain id: `eip155:<decimal, no leading zero>`. */
export const ChainScopeStruct = define<string>('scope', (value) =>
  typeof value === 'string' && /^eip155:[1-9][0-9]{0,17}$/u.test(value)
    ? true
    : 'expected a chain scope eip155:<decimal chain id>',
);

/** A 32-byte hex value (a hash), `0x` + 64 hex digits. */
export const Bytes32Struct = define<string>('bytes32', (value) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/u.test(value)
    ? true
    : 'expected a 32-byte hex hash',
);
