import { isAddress, numberToHex, parseEther } from 'viem';

import type { Domain } from '../../domain';
import { accountLabel, addressLabel } from '../accountLabel';
import { readableAmount } from '../chainNames';
import { chainName, nativeAmount } from '../chainNames';
import { PAY_GAS_DEFAULT, UI } from '../homeModel';
import type { SentOperation } from '../homeModel';
import { attempt, text } from '../outcome';
import type { FormValues, Outcome } from '../outcome';

/** How often a sent operation's receipt is asked for while the page follows it, ms. */
const FOLLOW_EVERY_MS = 1_000;

/**
 * How long the page follows a sent operation at most, ms: under the time MetaMask gives a snap
 * request (about a minute); the Activity list says when it lands later.
 */
const FOLLOW_FOR_MS = 45_000;

/**
 * Send one call from a smart account's Send form (the same domain call as the sendUserOperation
 * RPC method, so the same confirmation dialog): value in ETH, data optional. The notice says what
 * was sent, to whom (one of the snap's accounts by its name), from which account and on which
 * chain; the page then follows it (followSent).
 *
 * @param domain - The keyring and settings.
 * @param id - The account's id (the form's name is `send:<id>`).
 * @param value - The form's values by input name (`<field>:<id>`).
 * @returns The outcome: on success the sent operation (`lastSent`, followed) and cleared inputs; else the
 * error next to the field it names, or next to the form. Nothing is sent when the address is not
 * one (or its mixed case fails its EIP-55 checksum), or the value is empty, not a decimal amount
 * or has more than 18 decimals: each is said under its field.
 */
export async function sendFromForm(
  domain: Domain,
  id: string,
  value: FormValues,
): Promise<Outcome> {
  /**
   * The name of one of this account's Send form inputs.
   *
   * @param name - The input's name prefix (a `UI.send*` name).
   * @returns `<name>:<account id>`.
   */
  const field = (name: string): string => `${name}:${id}`;
  const to = text(value[field(UI.sendTo)]) ?? '';
  const amount = text(value[field(UI.sendValue)]) ?? '';
  const data = text(value[field(UI.sendData)]) ?? '0x';
  const scope = text(value[field(UI.sendScope)]) ?? '';
  const gas = text(value[field(UI.sendGas)]);
  const gasToken = gas && gas !== PAY_GAS_DEFAULT ? { gasToken: gas } : {};
  const errors: Record<string, string> = {};
  if (!isAddress(to, { strict: false })) {
    errors[field(UI.sendTo)] =
      'Enter the address to send to: 0x and 40 hex characters';
  } else if (!isAddress(to)) {
    errors[field(UI.sendTo)] =
      "This address's capital letters don't match its checksum (EIP-55): a character may be mistyped. Copy the address again";
  }
  const decimals = /^[0-9]+(?:\.([0-9]+))?$/u.exec(amount);
  if (!decimals) {
    errors[field(UI.sendValue)] =
      'Enter an amount of ETH, such as 0.01 (0 to send none)';
  } else if ((decimals[1] ?? '').length > 18) {
    errors[field(UI.sendValue)] =
      'At most 18 decimals: the smallest amount is 0.000000000000000001 ETH';
  }
  const [first] = Object.values(errors);
  if (first !== undefined) {
    return { notice: { severity: 'danger', text: first }, errors };
  }
  const wei = parseEther(amount);
  const accounts = domain.keyring.describeAccounts();
  const recipient = addressLabel(accounts, to);
  const amountText = nativeAmount(wei, scope);
  const what =
    data === '0x'
      ? `Sent ${amountText} to ${recipient}`
      : `Called ${recipient}${wei > 0n ? ` with ${amountText}` : ''}`;
  const sender = accounts.find((summary) => summary.account.id === id);
  const from = sender
    ? ` from ${accountLabel(sender.name, sender.account.address)}`
    : '';
  let sent: SentOperation | undefined;
  const outcome = await attempt(
    field(UI.send),
    async () => {
      const result = await domain.keyring.sendUserOperation({
        account: id,
        scope,
        intents: [{ to, value: numberToHex(wei), data }],
        ...gasToken,
      });
      sent = {
        scope,
        userOpHash: result.userOpHash,
        what: `${what}${from} on ${chainName(scope)}`,
        account: id,
      };
      return pendingText(sent);
    },
    {
      to: field(UI.sendTo),
      value: field(UI.sendValue),
      data: field(UI.sendData),
    },
  );
  return sent
    ? {
        ...outcome,
        lastSent: sent,
        values: {
          [field(UI.sendTo)]: '',
          [field(UI.sendValue)]: '',
          [field(UI.sendData)]: '',
        },
      }
    : outcome;
}

/**
 * What a notice says of a user operation sent from the page while it is not in a block yet.
 *
 * @param sent - The operation: what it does, and its hash.
 * @returns `Sent 0.1 ETH to Bob (0x…) from Savings on Local chain (31337): waiting for it to be
 * in a block (user operation 0x…)`.
 */
export function pendingText(sent: SentOperation): string {
  return `${sent.what}: waiting for it to be in a block (user operation ${sent.userOpHash})`;
}

/**
 * What a notice says of a user operation once its receipt came, or once the page stopped waiting.
 *
 * @param sent - The operation.
 * @param receipt - Its receipt from userOperationReceipt (`success`, `blockNumber` and
 * `actualGasCost` as hex quantities), or null when the page stopped waiting.
 * @returns Its outcome, block (decimal) and fee (rounded for reading), after what it does.
 */
function settledText(sent: SentOperation, receipt: unknown): string {
  const hash = `(user operation ${sent.userOpHash})`;
  if (receipt === null || typeof receipt !== 'object') {
    return `${sent.what}: not in a block after ${FOLLOW_FOR_MS / 1000} seconds; its Activity below says when it is ${hash}`;
  }
  const { success, blockNumber, actualGasCost } = receipt as {
    success: boolean;
    blockNumber: string;
    actualGasCost: string;
  };
  return `${sent.what}: ${success ? 'succeeded' : 'failed (its calls were undone)'} in block ${BigInt(blockNumber).toString()}, fee ${readableAmount(actualGasCost, sent.scope)} ${hash}`;
}

/** How the page follows a sent operation: whether it still may, how to show it, and the timer. */
export type Follower = {
  /** Whether the page is still this action's to update (no other action of it came since). */
  active: () => boolean;
  /** Shows the page (balances read again) with this notice. */
  show: (notice: NonNullable<Outcome['notice']>) => Promise<void>;
  /** Waits so many milliseconds (default: a timer). */
  wait?: (ms: number) => Promise<void>;
};

/**
 * Follow a user operation the page just sent until it is in a block, or for at most
 * {@link FOLLOW_FOR_MS}: its receipt is asked for every {@link FOLLOW_EVERY_MS} (one bundler call
 * each; a failed call counts as not yet), and when it comes the account's Activity is read again
 * and the page shown with the outcome in the notice (or, after the bound, that it is not in a
 * block yet). Stops at once, showing nothing, when the page moved on (another action).
 *
 * @param domain - The keyring and the Activity lists.
 * @param sent - The operation sent.
 * @param follower - Whether the page is still this action's, how to show it, the timer.
 * @param follower.active - Whether the page is still this action's to update.
 * @param follower.show - Shows the page with the settled notice.
 * @param follower.wait - The timer (default: setTimeout).
 */
export async function followSent(
  domain: Domain,
  sent: SentOperation,
  {
    active,
    show,
    wait = async (ms): Promise<void> =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  }: Follower,
): Promise<void> {
  let receipt: unknown = null;
  for (
    let waited = 0;
    receipt === null && waited < FOLLOW_FOR_MS;
    waited += FOLLOW_EVERY_MS
  ) {
    await wait(FOLLOW_EVERY_MS);
    if (!active()) {
      return;
    }
    receipt = await domain.keyring
      .userOperationReceipt({ scope: sent.scope, userOpHash: sent.userOpHash })
      .catch(() => null);
  }
  if (receipt !== null) {
    await domain.activity.refresh(sent.account);
  }
  if (!active()) {
    return;
  }
  const failed = (receipt as { success?: unknown } | null)?.success === false;
  await show({
    severity: failed ? 'danger' : 'success',
    text: settledText(sent, receipt),
  });
}

/**
 * An account's *Refresh activity* button (`activity-refresh:<id>`): read its new blocks on each of
 * its chains; the page then shows its Activity list as read (a chain that did not answer says so
 * there).
 *
 * @param domain - The keyring and settings.
 * @param domain.activity - The Activity lists.
 * @param id - The account's id.
 * @returns An outcome with no notice (the list itself is the answer).
 */
export async function refreshActivity(
  { activity }: Domain,
  id: string,
): Promise<Outcome> {
  await activity.refresh(id);
  return { errors: {} };
}
