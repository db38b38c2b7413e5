import { ownEntry } from '../utils/safeText';

/**
 * What each signing request does, in words (keyring-api's `EthMethod`s): the page names a request
 * by these, never by its method.
 */
const REQUEST_WORDS: Readonly<Record<string, string>> = {
  personal_sign: 'signing a message',
  eth_signTransaction: 'signing a transaction',
  eth_signTypedData_v1: 'signing typed data',
  eth_signTypedData_v3: 'signing typed data',
  eth_signTypedData_v4: 'signing typed data',
  eth_signUserOperation: 'signing a user operation',
  eth_prepareUserOperation: 'preparing a user operation',
  eth_patchUserOperation: 'adding paymaster data to a user operation',
};

/**
 * What a signing request does, in words.
 *
 * @param method - The request's method.
 * @returns `signing a message`, or `a signing request` for a method not in the table.
 */
export function requestWords(method: string): string {
  return ownEntry(REQUEST_WORDS, method) ?? 'a signing request';
}
