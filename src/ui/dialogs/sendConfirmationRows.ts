import { formatUnits, isAddressEqual } from 'viem';

import type { CallLine, SendReview } from '../../keyring/types';
import {
  chainName,
  nativeAmount,
  nativeSymbol,
  readableAmount,
} from '../../utils/chainNames';
import { displayText } from '../../utils/safeText';

/**
 * What the sendUserOperation confirmation shows, as rows (pure; rendered by
 * src/ui/dialogs/sendConfirmation.tsx). It shows what the signature commits to and nothing secret: who
 * asked (the requesting site), a title saying what happens and what leaves the account, the account
 * (its name and address), the chain by name, the EntryPoint version (v0.6, v0.7, v0.8; its address
 * and a warning when it is not the canonical one of its version), each call (recipient, value in the
 * chain's currency, its call data decoded by src/accounts/callData.ts or shown in full), unlimited
 * approvals flagged, whether the operation deploys a smart account (never said of an EOA), the gas
 * in words (paid by the paymaster, or by this account, at most so much) and the total. Amounts read
 * rounded (4 decimals; a bound rounded up) and the exact ones are under Details, with the full
 * nonce and gas × fee. Addresses are always in full.
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
  /** What happens, as the dialog's title (`Send 1.5 ETH from Savings`, `Upgrade Savings and send 5 ETH (2 calls)`). */
  title: string;
  /** The sentence under the title: what signing does. */
  lead: string;
  /** Who asked, the account, chain, EntryPoint and deployment. */
  account: ConfirmationRow[];
  /** One group per call: recipient, value, decoded call. */
  intents: ConfirmationRow[][];
  /** Who pays the gas, the most it can cost, and the total. */
  cost: ConfirmationRow[];
  /** Details (the exact amounts, the full nonce, gas × fee): shown last, under *Details*. */
  details: ConfirmationRow[];
  /** How many call rows are warnings (unlimited approvals). */
  warnings: number;
};

/**
 * The dialog's rows, in display order (also what a text-only view would show).
 *
 * @param summary - From sendUserOperation's draft, with the requesting origin, each intent's
 * decoded call data (`calls`, from the domain), the account's name and its EntryPoint.
 * @param chain - The chain as a person knows it; default `chainName` of the scope (`Local chain (31337)`).
 * @returns The title and lead; row groups: the request's and account's, one per call shown (an
 * upgrade's call of the account to itself with no value and no data is said under Details, not as
 * a transfer), the cost's and the details; `warnings` counts the flagged rows of all calls.
 */
export function sendConfirmationRows(
  summary: SendReview,
  chain: string = chainName(summary.scope),
): SendConfirmationRows {
  const { scope } = summary;
  const exact: ConfirmationRow[] = [];
  /**
   * An amount of the chain's currency for reading; when rounded, its exact value goes under Details.
   *
   * @param wei - The amount.
   * @param label - The Details row's label for its exact value.
   * @param kind - `value` (rounded: `about`), `bound` (a maximum: rounded up, no `about`) or
   * `estimate` (always `about`).
   * @returns `1.5 ETH`, `about 0.9896 ETH`, or (a bound) `0.0002 ETH`.
   */
  const amount = (
    wei: bigint,
    label: string,
    kind: 'value' | 'bound' | 'estimate' = 'value',
  ): string => {
    const full = nativeAmount(wei, scope);
    const shown = readableAmount(wei, scope, kind === 'bound');
    if (shown !== full && !exact.some((row) => row.text === full)) {
      exact.push({ label, text: full });
    }
    if (kind === 'estimate' || (kind === 'value' && shown !== full)) {
      return `about ${shown}`;
    }
    return shown;
  };
  const shownCalls = summary.intents
    .map((intent, index) => ({ intent, index }))
    .filter(
      ({ intent }) =>
        !(summary.upgrade && carriesOnly(intent, summary.account)),
    );
  const intents = shownCalls.map(({ intent, index }, position) => [
    {
      label: `Call ${position + 1} of ${shownCalls.length}: to`,
      address: intent.to,
    },
    {
      label: 'Value',
      text: amount(intent.value, `Exact value of call ${position + 1}`),
    },
    ...(summary.calls[index] ?? []).map(callRow),
  ]);
  const value = summary.intents.reduce((sum, intent) => sum + intent.value, 0n);
  const selfPaid = summary.paymaster === null;
  const who = summary.name ? displayText(summary.name) : 'this account';
  const version = summary.entryPointVersion ?? '0.6';
  const sent = amount(value, 'Exact amount sent');
  const calls = shownCalls.length > 1 ? ` (${shownCalls.length} calls)` : '';
  let title = `Send ${sent} from ${who}${calls}`;
  if (summary.upgrade) {
    title =
      shownCalls.length === 0
        ? `Upgrade ${who} to a smart account`
        : `Upgrade ${who} and send ${sent}${calls}`;
  }
  const account: ConfirmationRow[] = [
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
    ...(summary.upgrade
      ? upgradeRows(summary.upgrade, chain, (wei) =>
          amount(wei, "Undoing it, at today's fee", 'estimate'),
        )
      : []),
    ...(summary.eoa
      ? []
      : [
          {
            label: 'Deploys the account',
            text: summary.deploys
              ? 'Yes: this operation deploys the smart account'
              : 'No: the account is deployed already',
          },
        ]),
  ];
  const cost = costRows(summary, selfPaid, (wei) =>
    amount(wei, 'Exact maximum gas cost', 'bound'),
  );
  cost.push({
    label: 'Total',
    text: totalText(summary, selfPaid, () =>
      selfPaid
        ? amount(value + summary.maxGasCost, 'Exact total, at most', 'bound')
        : sent,
    ),
  });
  return {
    title: `${title} on ${chain}`,
    lead: leadText(shownCalls.length, summary.eoa === true),
    account,
    intents,
    cost,
    details: [
      ...exact,
      { label: 'Nonce', text: summary.nonce.toString() },
      {
        label: 'Gas × max fee',
        text: `${summary.gas} gas × ${summary.maxFeePerGas} wei per gas`,
      },
      ...(shownCalls.length < summary.intents.length
        ? [
            {
              label: 'Call of the upgrade',
              text: 'The account calls itself with no value and no data: the operation that upgrades it needs one call',
            },
          ]
        : []),
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
 * The sentence under the title: what to expect, and that signing lets the bundler submit it.
 *
 * @param calls - How many calls the dialog shows (0: an upgrade alone).
 * @param eoa - Whether the sender is an EOA.
 * @returns The sentence.
 */
function leadText(calls: number, eoa: boolean): string {
  const from = eoa ? 'this account' : 'your smart account';
  if (calls === 0) {
    return `Confirm only if you expect this upgrade. Signing lets the bundler submit it from ${from}.`;
  }
  return calls === 1
    ? `Confirm only if you expect this call. Signing lets the bundler submit it from ${from}.`
    : `Confirm only if you expect these calls. Signing lets the bundler submit them from ${from}.`;
}

/**
 * Whether a call does nothing but carry the operation: to the account itself, no value, no data
 * (the home page's upgrade sends one).
 *
 * @param intent - The call.
 * @param intent.to - Its recipient.
 * @param intent.value - Its value, wei.
 * @param intent.data - Its call data.
 * @param account - The sending account.
 * @returns True for such a call.
 */
function carriesOnly(
  intent: { to: `0x${string}`; value: bigint; data: `0x${string}` },
  account: `0x${string}`,
): boolean {
  return (
    intent.value === 0n &&
    intent.data === '0x' &&
    isAddressEqual(intent.to, account)
  );
}

/**
 * A decoded call line as a dialog row (the top line, `Call`, reads *What it does*).
 *
 * @param line - From the call-data decoder.
 * @returns The row: addresses as Address rows, the rest as text.
 */
function callRow(line: CallLine): ConfirmationRow {
  return {
    label: line.label === 'Call' ? 'What it does' : line.label,
    ...(line.address ? { address: line.address } : { text: line.text }),
    ...(line.warning ? { warning: true } : {}),
  };
}

/**
 * Who pays the gas: the token's rows, this account (at most so much), or the paymaster (named by
 * its address in full: it pays the gas, which says nothing of what else the operation spends).
 *
 * @param summary - The send's summary.
 * @param selfPaid - Whether the account pays the gas in the chain's currency.
 * @param bound - The most the gas can cost, for reading.
 * @returns The rows, before the total.
 */
function costRows(
  summary: SendReview,
  selfPaid: boolean,
  bound: (wei: bigint) => string,
): ConfirmationRow[] {
  if (summary.tokenPayment) {
    return tokenPaymentRows(
      summary.tokenPayment,
      nativeSymbol(summary.scope),
      summary.gasTokenListed,
    );
  }
  if (selfPaid) {
    return [
      {
        label: 'Gas',
        text: `Paid by this account: at most ${bound(summary.maxGasCost)}`,
      },
    ];
  }
  return [
    { label: 'Gas', text: 'Paid by the paymaster below (sponsored)' },
    { label: 'Paymaster', address: summary.paymaster as `0x${string}` },
  ];
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
 * @param about - The undo's cost for reading (`about 0.0001 ETH`).
 * @returns The rows.
 */
function upgradeRows(
  upgrade: { delegate: `0x${string}`; undoCost?: bigint },
  chain: string,
  about: (wei: bigint) => string,
): ConfirmationRow[] {
  const cost =
    upgrade.undoCost === undefined
      ? ''
      : `: ${about(upgrade.undoCost)} at today's fee`;
  return [
    {
      label: 'Upgrades this account (EIP-7702)',
      text: `Yes: with this operation your account, at the same address, will run the code of the contract below on ${chain} (Simple7702Account v0.8). Your key still controls it and signs as before; it can then send several calls at once. To undo it, use Undo upgrade on this snap's home page: it signs an authorization to the zero address, which removes the code.`,
    },
    { label: 'Code it will run', address: upgrade.delegate },
    {
      label: 'Undoing it',
      text: `A transaction this account pays itself, never a paymaster, even when this upgrade is sponsored${cost}. Keep that much on this account.`,
    },
  ];
}

/**
 * The dialog's total: the values, plus what the gas can cost the account (in the chain's currency
 * when it pays itself, in the token when it pays the paymaster in one; the paymaster's when it
 * sponsors it).
 *
 * @param summary - The send's summary.
 * @param selfPaid - Whether the account pays the gas in the chain's currency.
 * @param values - The values sent (self-paid: with the most the gas can cost), for reading.
 * @returns The total's text.
 */
function totalText(
  summary: SendReview,
  selfPaid: boolean,
  values: () => string,
): string {
  if (summary.tokenPayment) {
    return `${values()} plus at most ${tokenAmount(summary.tokenPayment)} for gas`;
  }
  return selfPaid
    ? `at most ${values()} (amount plus the most the gas can cost)`
    : `${values()} (the paymaster pays the gas)`;
}

/**
 * A token-paid operation's bound as the dialog shows it: the decimal amount by the token's own
 * `decimals()` and, beside it, the base units the approve carries (which no `decimals()` can
 * misstate).
 *
 * @param payment - The summary's `tokenPayment`.
 * @returns `0.25 T20 (250000000000000000 base units)`.
 */
function tokenAmount(payment: NonNullable<SendReview['tokenPayment']>): string {
  const symbol = payment.symbol === '' ? 'tokens' : payment.symbol;
  return `${formatUnits(payment.maxCost, payment.decimals)} ${symbol} (${payment.maxCost} base units)`;
}

/**
 * The send confirmation's rows for gas paid in an ERC-20 token (sendUserOperation's `gasToken`):
 * who pays what. The account pays the token to the paymaster, at most the approve's amount, which
 * is the first call of the operation; the paymaster pays the gas in the chain's currency. The token
 * is named by its symbol (read from the token, made printable), its decimals as it reports them,
 * its address in full, and whether the chain's settings list it; amounts are decimal amounts of
 * the token with the base units beside them.
 *
 * @param payment - The summary's `tokenPayment`.
 * @param native - The chain's currency symbol (`ETH`).
 * @param listed - Whether the chain's settings list the token (absent: not checked).
 * @returns The rows, shown before the total.
 */
export function tokenPaymentRows(
  payment: NonNullable<SendReview['tokenPayment']>,
  native = 'ETH',
  listed?: boolean,
): ConfirmationRow[] {
  const symbol = payment.symbol === '' ? 'tokens' : payment.symbol;
  const amount = tokenAmount(payment);
  return [
    {
      label: 'Gas paid in',
      text: `${symbol}, an ERC-20 token, from this account (not ${native}); ${payment.decimals} decimals, as the token reports`,
    },
    { label: 'Token', address: payment.token },
    ...(listed === undefined
      ? []
      : [
          listed
            ? {
                label: "In this chain's settings",
                text: 'Yes: one of the tokens listed to pay gas with',
              }
            : {
                label: "In this chain's settings",
                text: 'No: not one of the tokens listed to pay gas with; check its address',
                warning: true,
              },
        ]),
    { label: `Maximum gas cost in ${symbol}`, text: amount },
    {
      label: 'First call: approve',
      text: `Lets the paymaster below take at most ${amount} from this account, for this operation's gas`,
    },
    { label: 'Paymaster (spender)', address: payment.paymaster },
  ];
}
