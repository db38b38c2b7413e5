import {
  Address,
  Box,
  Divider,
  Heading,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import { formatEther } from 'viem';

import type { SendSummary } from '../accounts/erc4337';

/**
 * The sendUserOperation confirmation (a `snap_dialog` of type `confirmation`, snaps-sdk JSX in
 * function-call form). It shows what the signature commits to and nothing secret: the smart
 * account and chain, each intent (recipient, value in ETH, the 4-byte selector called or "plain
 * transfer"), whether the operation deploys the account, the most its gas can cost in ETH and who
 * pays it (the paymaster's address, or this account).
 */

/**
 * One line of the dialog: a label and either an address or a text.
 */
export type ConfirmationRow = {
  /** The row's label, left. */
  label: string;
  /** An address shown with snaps-sdk's Address component: 20-byte hex or CAIP-10 (`eip155:<chain id>:<address>`). */
  address?: `0x${string}` | `${string}:${string}:${string}`;
  /** A text shown when there is no address. */
  text?: string;
};

/**
 * The dialog's rows, in display order (also what a text-only view would show).
 *
 * @param summary - From sendUserOperation's draft.
 * @returns Row groups: the account's, one per intent, and the cost's.
 */
export function sendConfirmationRows(summary: SendSummary): {
  account: ConfirmationRow[];
  intents: ConfirmationRow[][];
  cost: ConfirmationRow[];
} {
  return {
    account: [
      {
        label: 'Smart account',
        address:
          `${summary.scope}:${summary.account}` as `${string}:${string}:${string}`,
      },
      { label: 'Chain', text: summary.scope },
      {
        label: 'Deploys the account',
        text: summary.deploys
          ? 'Yes: this operation deploys the smart account'
          : 'No: the account is deployed already',
      },
    ],
    intents: summary.intents.map((intent, index) => [
      {
        label: `Intent ${index + 1} of ${summary.intents.length}: to`,
        address: intent.to,
      },
      { label: 'Value', text: `${formatEther(intent.value)} ETH` },
      {
        label: 'Call',
        text:
          intent.selector === null
            ? 'plain transfer'
            : `function selector ${intent.selector}`,
      },
    ]),
    cost: [
      {
        label: 'Maximum gas cost',
        text: `${formatEther(summary.maxGasCost)} ETH`,
      },
      summary.paymaster === null
        ? { label: 'Gas paid by', text: 'this account' }
        : { label: 'Gas paid by paymaster', address: summary.paymaster },
    ],
  };
}

/**
 * The dialog content.
 *
 * @param summary - From sendUserOperation's draft.
 * @returns A snaps-sdk JSX element for `snap_dialog`.
 */
export function sendConfirmation(summary: SendSummary): ReturnType<typeof Box> {
  const { account, intents, cost } = sendConfirmationRows(summary);
  return Box({
    children: [
      Heading({ children: 'Send a user operation' }),
      Text({
        children:
          'Confirm only if you expect these calls. Signing lets the bundler submit them from your smart account.',
      }),
      Section({ children: account.map(row) }),
      ...intents.map((rows) => Section({ children: rows.map(row) })),
      Divider({}),
      Section({ children: cost.map(row) }),
    ],
  });
}

/**
 * One snaps-sdk Row of the dialog.
 *
 * @param row - The row.
 * @param row.label - Its label.
 * @param row.address - Its address, shown with the Address component when present.
 * @param row.text - Its text, shown otherwise (empty when absent).
 * @returns A snaps-sdk Row element.
 */
function row({
  label,
  address,
  text,
}: ConfirmationRow): ReturnType<typeof Row> {
  return Row({
    label,
    children: address ? Address({ address }) : Text({ children: text ?? '' }),
  });
}
