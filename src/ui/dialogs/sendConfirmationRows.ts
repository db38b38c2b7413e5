import { formatEther, formatUnits } from 'viem';

import type { CallLine, SendReview } from '../../keyring/types';
import { displayText } from '../../utils/safeText';

/**
 * What the sendUserOperation confirmation shows, as rows (pure; rendered by
 * src/ui/dialogs/sendConfirmation.tsx). It shows what the signature commits to and nothing secret: who
 * asked (the requesting site), the smart account, chain, EntryPoint version (v0.6, v0.7, v0.8) and
 * nonce, each intent (recipient, value
 * in ETH, its call data decoded by src/accounts/callData.ts or shown in full), unlimited approvals
 * flagged, whether the operation deploys the account, and the gas: who pays it (the paymaster's
 * address, or this account) and the most it can cost in ETH. Addresses are always in full.
 */

/**
 * One line of the dialog: a label and either an address or a text.
 */
export type ConfirmationRow = {
  /** The row's label, left. */
  label: string;
  /** An address shown in full with snaps-sdk's Address component: 20-byte hex or CAIP-10 (`eip155:<chain id>:<address>`). */
  address?: `0x${string}` | `${string}:${string}:${string}`;
  /** A text shown when there is no address. */
  text?: string;
  /** Set on a warning (an unlimited approval): shown as a critical row. */
  warning?: boolean;
};

/** The dialog's rows, grouped. */
export type SendConfirmationRows = {
  /** Who asked, the account, chain, nonce and deployment. */
  account: ConfirmationRow[];
  /** One group per intent: recipient, value, decoded call. */
  intents: ConfirmationRow[][];
  /** Who pays the gas and the most it can cost. */
  cost: ConfirmationRow[];
  /** How many intent rows are warnings (unlimited approvals). */
  warnings: number;
};

/**
 * The dialog's rows, in display order (also what a text-only view would show).
 *
 * @param summary - From sendUserOperation's draft, with the requesting origin and each intent's
 * decoded call data (`calls`, from the domain).
 * @returns Row groups: the request's and account's, one per intent, and the cost's; `warnings`
 * counts the flagged rows (unlimited approvals) of all intents.
 */
export function sendConfirmationRows(
  summary: SendReview,
): SendConfirmationRows {
  const intents = summary.intents.map((intent, index): ConfirmationRow[] => [
    {
      label: `Intent ${index + 1} of ${summary.intents.length}: to`,
      address: intent.to,
    },
    { label: 'Value', text: `${formatEther(intent.value)} ETH` },
    ...(summary.calls[index] ?? []).map(callRow),
  ]);
  return {
    account: [
      { label: 'Requested by', text: displayText(summary.origin) },
      {
        label: 'Smart account',
        address:
          `${summary.scope}:${summary.account}` as `${string}:${string}:${string}`,
      },
      { label: 'Chain', text: summary.scope },
      // every version is named: the signature, the call data and the bundler's form differ by it
      { label: 'EntryPoint', text: `v${summary.entryPointVersion ?? '0.6'}` },
      { label: 'Nonce', text: summary.nonce.toString() },
      ...(summary.upgrade ? upgradeRows(summary.upgrade, summary.scope) : []),
      {
        label: 'Deploys the account',
        text: summary.deploys
          ? 'Yes: this operation deploys the smart account'
          : 'No: the account is deployed already',
      },
    ],
    intents,
    cost: [
      ...(summary.tokenPayment ? tokenPaymentRows(summary.tokenPayment) : []),
      summary.paymaster === null
        ? { label: 'Gas paid by', text: 'this account' }
        : { label: 'Gas paid by paymaster', address: summary.paymaster },
      {
        label: 'Maximum gas cost',
        text: `${formatEther(summary.maxGasCost)} ETH`,
      },
      {
        label: 'Gas × max fee',
        text: `${summary.gas} gas × ${summary.maxFeePerGas} wei per gas`,
      },
    ],
    warnings: intents.flat().filter((row) => row.warning).length,
  };
}

/**
 * A decoded call line as a dialog row.
 *
 * @param line - From the call-data decoder.
 * @returns The row: addresses as Address rows, the rest as text.
 */
function callRow(line: CallLine): ConfirmationRow {
  return {
    label: line.label,
    ...(line.address ? { address: line.address } : { text: line.text }),
    ...(line.warning ? { warning: true } : {}),
  };
}

/**
 * What an EIP-7702 upgrade's confirmation says, in plain words: the account keeps its address and
 * key, and from this operation on runs the delegate's code on this chain; how to undo it.
 *
 * @param upgrade - The delegate and the authorization's nonce.
 * @param upgrade.delegate - Simple7702Account's address.
 * @param upgrade.nonce - The account nonce the authorization carries.
 * @param scope - The chain.
 * @returns The rows.
 */
function upgradeRows(
  upgrade: { delegate: `0x${string}`; nonce: bigint },
  scope: string,
): ConfirmationRow[] {
  return [
    {
      label: 'Upgrades this account (EIP-7702)',
      text: `Yes: with this operation your account, at the same address, will run the code of the contract below on ${scope} (Simple7702Account v0.8). Your key still controls it and signs as before; it can then send several calls at once. To undo it, use Undo upgrade on this snap's home page: it signs an authorization to the zero address, which removes the code.`,
    },
    { label: 'Code it will run', address: upgrade.delegate },
    { label: 'Authorization nonce', text: upgrade.nonce.toString() },
  ];
}

/**
 * The send confirmation's rows for gas paid in an ERC-20 token (sendUserOperation's `gasToken`):
 * who pays what. The account pays the token to the paymaster, at most the approve's amount, which
 * is the first call of the operation; the paymaster pays the gas in ETH. The token is named by its
 * symbol (read from the token, made printable) and its address in full; amounts are decimal amounts
 * of the token (its `decimals()`), with the base units beside them.
 *
 * @param payment - The summary's `tokenPayment`.
 * @returns The rows, shown before the cost's.
 */
export function tokenPaymentRows(
  payment: NonNullable<SendReview['tokenPayment']>,
): ConfirmationRow[] {
  const symbol = payment.symbol === '' ? 'tokens' : payment.symbol;
  const amount = `${formatUnits(payment.maxCost, payment.decimals)} ${symbol}`;
  return [
    {
      label: 'Gas paid in',
      text: `${symbol}, an ERC-20 token, from this account (not ETH)`,
    },
    { label: 'Token', address: payment.token },
    { label: `Maximum gas cost in ${symbol}`, text: amount },
    {
      label: 'First call: approve',
      text: `Lets the paymaster below take at most ${amount} (${payment.maxCost} base units) from this account, for this operation's gas`,
    },
    { label: 'Paymaster (spender)', address: payment.paymaster },
  ];
}
