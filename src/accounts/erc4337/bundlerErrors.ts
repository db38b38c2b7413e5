import { JsonRpcError } from '@metamask/rpc-errors';

import { ChainRpcError, redact, TransportError } from '../../chain';
import { MAX_MESSAGE_LENGTH, printable } from '../../utils/safeText';

/**
 * Bundler refusals in words a person understands. Sources: the ERC-4337 bundler JSON-RPC API
 * (ERC-7769, "Error Codes": -32500 to -32507) and the `FailedOp` reasons of EntryPoint v0.6
 * (eth-infinitism/account-abstraction v0.6.0 `EntryPoint.sol`, `AAxx ...`), which bundlers copy
 * into their messages.
 */

/** ERC-7769 error codes and what each means for the person sending. */
export const BUNDLER_ERROR_CODES: Readonly<Record<number, string>> = {
  [-32500]:
    'the EntryPoint rejected the operation while validating the account or deploying it',
  [-32501]: 'the paymaster rejected the operation while validating it',
  [-32502]:
    'the account, factory or paymaster uses an opcode or storage that bundlers forbid during validation',
  [-32503]:
    'the operation is outside its valid time range (expired, not yet valid, or expiring too soon)',
  [-32504]:
    'the paymaster or signature aggregator is throttled or banned by this bundler',
  [-32505]:
    'the paymaster or signature aggregator has too little stake or too short an unstake delay',
  [-32506]: 'the signature aggregator is not supported by this bundler',
  [-32507]: 'a signature is invalid (the account’s or the paymaster’s)',
};

/** EntryPoint v0.6 `FailedOp` reasons by their `AAxx` prefix. */
export const ENTRY_POINT_REASONS: Readonly<Record<string, string>> = {
  AA10: 'the account is already deployed, yet the operation would deploy it again',
  AA13: 'deploying the account failed or ran out of gas',
  AA14: 'the account factory returned an address other than the account’s',
  AA15: 'the account factory did not deploy the account',
  AA20: 'the account is not deployed and the operation does not deploy it',
  AA21: 'the account cannot pay for gas and no paymaster sponsors it',
  AA22: 'the account’s signature has expired or is not valid yet',
  AA23: 'the account’s validation reverted or ran out of gas',
  AA24: 'the account’s signature is invalid for this chain and EntryPoint',
  AA25: 'the nonce is not the account’s next one (another operation may have been sent meanwhile)',
  AA30: 'the paymaster is not deployed',
  AA31: 'the paymaster’s deposit is too low to sponsor this operation',
  AA32: 'the paymaster’s sponsorship has expired or is not valid yet',
  AA33: 'the paymaster’s validation reverted or ran out of gas',
  AA34: 'the paymaster’s signature is invalid',
  AA40: 'validation used more gas than the operation’s verification gas limit',
  AA41: 'the verification gas limit leaves too little gas for the paymaster',
  AA50: 'the paymaster’s post-operation step reverted',
  AA51: 'the prefund is below the actual gas cost',
  AA90: 'the bundler named an invalid beneficiary',
  AA91: 'the EntryPoint could not pay the bundler',
  AA92: 'an internal EntryPoint call was made from outside',
  AA93: 'the paymaster data is malformed',
  AA94: 'a gas value is too large',
  AA95: 'the bundle ran out of gas',
  AA96: 'the signature aggregator is invalid',
};

/**
 * Longest excerpt of the bundler's own message kept in an error (characters): the snap's limit on
 * any message (`MAX_MESSAGE_LENGTH`, 300); the whole message is cut to it too.
 */
export const BUNDLER_MESSAGE_LIMIT = MAX_MESSAGE_LENGTH;

/**
 * What a refusal of `eth_sendUserOperation` adds: the operation was signed and handed over, so a
 * bundler that keeps it could still submit it; a new send of the account reuses its nonce.
 */
export const SIGNED_REFUSAL_NOTE =
  'The signed operation may still be submitted until it is replaced (a new send reuses its nonce)';

/**
 * Turn what a bundler call threw into an error a person understands. A JSON-RPC error reply keeps
 * the bundler's code; its message names the `AAxx` reason (when the bundler's message has one) or
 * the ERC-7769 code's meaning, then (for `eth_sendUserOperation`, `signed`) {@link
 * SIGNED_REFUSAL_NOTE}, then an API-key-free excerpt of the bundler's message (printable
 * characters only; message and excerpt at most 300 characters each).
 * `data` is `{ reason?: "AAxx", bundlerMessage }`. Transport faults are returned unchanged, except
 * after signing, where they become -32002 (resource unavailable) with what failed (its message, with
 * the bundler URL's secrets scrubbed) and the note.
 *
 * @param error - What the bundler call threw.
 * @param bundlerUrl - The bundler's URL, whose secrets are scrubbed from the excerpt.
 * @param signed - Whether the call handed over a signed operation (`eth_sendUserOperation`).
 * @returns The error to throw.
 */
export function bundlerRefusal(
  error: unknown,
  bundlerUrl: string,
  signed = false,
): unknown {
  const note = signed ? ` ${SIGNED_REFUSAL_NOTE}.` : '';
  if (!(error instanceof ChainRpcError)) {
    return signed && error instanceof TransportError
      ? new JsonRpcError(
          -32002,
          printable(
            `The bundler did not answer the user operation clearly: ${printable(redact(error.message, bundlerUrl), BUNDLER_MESSAGE_LIMIT)}.${note}`,
          ),
        )
      : error;
  }
  const excerpt = printable(
    redact(error.message, bundlerUrl),
    BUNDLER_MESSAGE_LIMIT,
  );
  const reason = /\bAA[0-9]{2}\b/u.exec(error.message)?.[0];
  const meaning =
    (reason ? ENTRY_POINT_REASONS[reason] : undefined) ??
    BUNDLER_ERROR_CODES[error.code];
  const head = `The bundler refused the user operation${reason ? ` (${reason})` : ''}`;
  const message = meaning
    ? `${head}: ${meaning}.${note} Bundler: ${excerpt}`
    : `${head}${note ? `.${note} Bundler:` : ':'} ${excerpt}`;
  return new JsonRpcError(error.code, printable(message), {
    ...(reason ? { reason } : {}),
    bundlerMessage: excerpt,
  });
}
