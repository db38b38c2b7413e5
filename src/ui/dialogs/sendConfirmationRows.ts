import { formatEther, formatUnits } from 'viem';

import type { CallLine, SendReview } from '../../keyring/types';
import { displayText } from '../../utils/safeText';

/**
 * What the sendUserOperation confirmation shows, as rows (pure; rendered by
 * src/ui/dialogs/sendConfirmation.tsx). It shows what the signature commits to and nothing secret: who
 * asked (the requesting site), a title saying what happens, the account (its name and address),
 * the chain by name, the EntryPoint version (v0.6, v0.7, v0.8; its address and a warning when it is
 * not the canonical one of its version), each intent (recipient, value in ETH, its call data
 * decoded by src/accounts/callData.ts or shown in full), unlimited approvals flagged, whether the
 * operation deploys the account, the gas in words (paid by the paymaster, or by this account, at
 * most so much ETH) and the total; the full nonce and gas × fee under Details. Addresses are always
 * in full.
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
  /** What happens, as the dialog's title (`Send 1.5 ETH from Savings`, `Upgrade Savings to a smart account`). */
  title: string;
  /** Who asked, the account, chain, EntryPoint and deployment. */
  account: ConfirmationRow[];
  /** One group per intent: recipient, value, decoded call. */
  intents: ConfirmationRow[][];
  /** Who pays the gas, the most it can cost, and the total. */
  cost: ConfirmationRow[];
  /** Details for the curious (the full nonce, gas × fee): shown last, under *Details*. */
  details: ConfirmationRow[];
  /** How many intent rows are warnings (unlimited approvals). */
  warnings: number;
};

/**
 * An amount of ETH as the dialog shows it.
 *
 * @param wei - The amount, in wei.
 * @returns `1.5 ETH`.
 */
const eth = (wei: bigint): string => `${formatEther(wei)} ETH`;

/**
 * The dialog's rows, in display order (also what a text-only view would show).
 *
 * @param summary - From sendUserOperation's draft, with the requesting origin, each intent's
 * decoded call data (`calls`, from the domain), the account's name and its EntryPoint.
 * @param chain - The chain as a person knows it (`Local chain (31337)`); default the CAIP-2 scope.
 * @returns The title; row groups: the request's and account's, one per intent, the cost's and the
 * details; `warnings` counts the flagged rows (unlimited approvals) of all intents.
 */
export function sendConfirmationRows(
  summary: SendReview,
  chain: string = summary.scope,
): SendConfirmationRows {
  const intents = summary.intents.map((intent, index): ConfirmationRow[] => [
    {
      label: `Intent ${index + 1} of ${summary.intents.length}: to`,
      address: intent.to,
    },
    { label: 'Value', text: eth(intent.value) },
    ...(summary.calls[index] ?? []).map(callRow),
  ]);
  const value = summary.intents.reduce((sum, intent) => sum + intent.value, 0n);
  const selfPaid = summary.paymaster === null;
  const who = summary.name ? displayText(summary.name) : 'this account';
  const version = summary.entryPointVersion ?? '0.6';
  let title = `Send ${eth(value)} from ${who}`;
  if (summary.upgrade) {
    title = `Upgrade ${who} to a smart account`;
  } else if (summary.intents.length > 1) {
    title = `Send ${summary.intents.length} calls at once from ${who}`;
  }
  return {
    title: `${title} on ${chain}`,
    account: [
      { label: 'Requested by', text: displayText(summary.origin) },
      {
        label: summary.name ? `From ${displayText(summary.name)}` : 'From',
        address: summary.account,
      },
      { label: 'Chain', text: chain },
      // every version is named: the signature, the call data and the bundler's form differ by it
      summary.canonicalEntryPoint === false && summary.entryPoint
        ? {
            label: 'EntryPoint',
            text: `v${version} at ${summary.entryPoint}: not the canonical EntryPoint v${version}`,
            warning: true,
          }
        : { label: 'EntryPoint', text: `v${version}` },
      ...(summary.upgrade ? upgradeRows(summary.upgrade, chain) : []),
      {
        label: 'Deploys the account',
        text: summary.deploys
          ? 'Yes: this operation deploys the smart account'
          : 'No: the account is deployed already',
      },
    ],
    intents,
    cost: [
      ...(summary.tokenPayment
        ? tokenPaymentRows(summary.tokenPayment)
        : [
            selfPaid
              ? {
                  label: 'Gas',
                  text: `Paid by this account: at most ${eth(summary.maxGasCost)}`,
                }
              : {
                  label: 'Gas',
                  text: `Paid by the paymaster ${summary.paymaster}, you pay nothing for gas`,
                },
          ]),
      {
        label: 'Total',
        text: totalText(summary, value, selfPaid),
      },
    ],
    details: [
      { label: 'Nonce', text: summary.nonce.toString() },
      {
        label: 'Gas × max fee',
        text: `${summary.gas} gas × ${summary.maxFeePerGas} wei per gas`,
      },
      ...(summary.upgrade
        ? [
            {
              label: 'Authorization nonce',
              text: summary.upgrade.nonce.toString(),
            },
          ]
        : []),
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
 * key, and from this operation on runs the delegate's code on this chain; how to undo it, that the
 * undo is a transaction the account pays itself (never a paymaster) and about what it costs.
 *
 * @param upgrade - The delegate, the authorization's nonce and the undo's estimated cost (wei).
 * @param upgrade.delegate - Simple7702Account's address.
 * @param upgrade.undoCost - About what undoing it costs at today's fee, in wei.
 * @param chain - The chain, named.
 * @returns The rows.
 */
function upgradeRows(
  upgrade: { delegate: `0x${string}`; undoCost?: bigint },
  chain: string,
): ConfirmationRow[] {
  return [
    {
      label: 'Upgrades this account (EIP-7702)',
      text: `Yes: with this operation your account, at the same address, will run the code of the contract below on ${chain} (Simple7702Account v0.8). Your key still controls it and signs as before; it can then send several calls at once. To undo it, use Undo upgrade on this snap's home page: it signs an authorization to the zero address, which removes the code.`,
    },
    { label: 'Code it will run', address: upgrade.delegate },
    {
      label: 'Undoing it',
      text: `A transaction this account pays itself, never a paymaster, even when this upgrade is sponsored${upgrade.undoCost === undefined ? '' : `: about ${eth(upgrade.undoCost)} at today's fee`}. Keep that much on this account.`,
    },
  ];
}

/**
 * The dialog's total: the values, plus what the gas can cost the account (in ETH when it pays
 * itself, in the token when it pays the paymaster in one; nothing when a paymaster sponsors it).
 *
 * @param summary - The send's summary.
 * @param value - The intents' values added up, in wei.
 * @param selfPaid - Whether the account pays the gas in ETH.
 * @returns The total's text.
 */
function totalText(
  summary: SendReview,
  value: bigint,
  selfPaid: boolean,
): string {
  if (summary.tokenPayment) {
    const { maxCost, decimals, symbol } = summary.tokenPayment;
    return `${eth(value)} plus at most ${formatUnits(maxCost, decimals)} ${symbol === '' ? 'tokens' : symbol} for gas`;
  }
  return selfPaid
    ? `at most ${eth(value + summary.maxGasCost)} (amount plus the most the gas can cost)`
    : eth(value);
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
