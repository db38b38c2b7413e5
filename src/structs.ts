import { define } from '@metamask/superstruct';

/**
 * superstruct structs shared by the snap's own inputs (setChainConfig params, account metadata).
 * keyring-api's structs cover its own requests; these cover what it does not.
 */

/** A 20-byte hex address, `0x` + 40 hex digits (any letter case). */
export const AddressStruct = define<string>('address', (value) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/u.test(value) ? true : 'expected a 20-byte hex address (0x + 40 hex digits)',
);

/** An `http:` or `https:` URL. */
export const HttpUrlStruct = define<string>('http(s) URL', (value) => {
  if (typeof value !== 'string') {
    return 'expected a URL string';
  }
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? true : 'expected an http(s) URL';
  } catch {
    return 'expected an http(s) URL';
  }
});

/** A CAIP-2 EVM chain scope with a real chain id: `eip155:<decimal, no leading zero>`. */
export const ChainScopeStruct = define<string>('scope', (value) =>
  typeof value === 'string' && /^eip155:[1-9][0-9]{0,17}$/u.test(value) ? true : 'expected a chain scope eip155:<decimal chain id>',
);

/** A 32-byte hex value (a hash), `0x` + 64 hex digits. */
export const Bytes32Struct = define<string>('bytes32', (value) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/u.test(value) ? true : 'expected a 32-byte hex hash',
);
