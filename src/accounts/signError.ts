import type { JsonRpcError } from '@metamask/rpc-errors';

import { invalidParams } from '../utils/errors';

/**
 * What the signing libraries' refusals mean, as fixed text: their messages quote the request
 * (`The type "<name>" is not supported`, `missing value for field <name>`, a transaction's fields),
 * so they are never passed on.
 */
const PROBLEMS: readonly [RegExp, string][] = [
  [
    /not supported|unsupported|invalid type|no type definition|findTypeDependencies/iu,
    'a type is unknown or not supported',
  ],
  [/arrays are unimplemented/iu, 'arrays need eth_signTypedData_v4'],
  [/missing value|missing .*parameter|undefined/iu, 'a field has no value'],
  [/address/iu, 'an address is invalid'],
  [
    /exceed|too (high|large|long)|overflow|out of (range|bounds)|max_uint|cannot be (less|greater)|must be (less|greater|lower|higher)/iu,
    'a value is out of range',
  ],
  [/number|integer|bigint|numeric/iu, 'a number is invalid'],
  [/hex|bytes|length|size/iu, 'a bytes value is invalid'],
  [/access ?list/iu, 'the access list is invalid'],
  [/bool/iu, 'a bool is invalid'],
];

/**
 * The -32602 error for data a signing library refused (eth-sig-util, @ethereumjs/tx, abi encoders),
 * naming the kind of problem and never the request's content.
 *
 * @param error - What the library threw.
 * @param what - What was being signed, e.g. `typed data` or `transaction`.
 * @returns JsonRpcError -32602 `Cannot sign the <what>: <problem>`.
 */
export function signingError(
  error: unknown,
  what: string,
): JsonRpcError<never> {
  const message = error instanceof Error ? error.message : '';
  const problem =
    PROBLEMS.find(([pattern]) => pattern.test(message))?.[1] ??
    'it cannot be encoded';
  return invalidParams(`Cannot sign the ${what}: ${problem}`);
}
