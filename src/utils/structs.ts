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
