import { formatEther, isAddress, numberToHex, parseEther } from 'viem';

import type { Domain } from '../../domain';
import { PAY_GAS_DEFAULT, UI } from '../homeModel';
import { attempt, text } from '../outcome';
import type { FormValues, Outcome } from '../outcome';

/**
 * Send one intent from a smart account's Send form (the same domain call as the sendUserOperation
 * RPC method, so the same confirmation dialog): value in ETH, data optional.
 *
 * @param domain - The keyring and settings.
 * @param id - The account's id (the form's name is `send:<id>`).
 * @param value - The form's values by input name (`<field>:<id>`).
 * @returns The outcome: on success the sent operation (`lastSent`) and cleared inputs; else the
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
  let sent: { scope: string; userOpHash: string } | undefined;
  const outcome = await attempt(
    field(UI.send),
    async () => {
      const result = await domain.keyring.sendUserOperation({
        account: id,
        scope,
        intents: [{ to, value: numberToHex(wei), data }],
        ...gasToken,
      });
      sent = { scope, userOpHash: result.userOpHash };
      return `Sent user operation ${result.userOpHash} from ${result.sender}`;
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
 * A user-operation receipt as one line of text.
 *
 * @param receipt - The receipt from userOperationReceipt (`success`, `blockNumber` and
 * `actualGasCost` as hex quantities), or null while the operation is pending.
 * @returns Its outcome, block (decimal) and fee (ETH, decimal), or that it is pending.
 */
function receiptText(receipt: unknown): string {
  if (receipt === null || typeof receipt !== 'object') {
    return 'pending: not in a block yet';
  }
  const { success, blockNumber, actualGasCost } = receipt as {
    success: boolean;
    blockNumber: string;
    actualGasCost: string;
  };
  return `${success ? 'succeeded' : 'failed'} in block ${BigInt(blockNumber).toString()}, fee ${formatEther(BigInt(actualGasCost))} ETH`;
}

/**
 * Ask for the receipt of the user operation sent last (its *Refresh status* button).
 *
 * @param domain - The keyring and settings.
 * @param domain.keyring - The keyring.
 * @param scope - The chain's CAIP-2 id.
 * @param userOpHash - The operation's hash (32-byte hex).
 * @returns The outcome, with `lastSent` carrying the status line.
 */
export async function refreshSendStatus(
  { keyring }: Domain,
  scope: string,
  userOpHash: string,
): Promise<Outcome> {
  const outcome = await attempt(UI.sendStatus, async () =>
    receiptText(await keyring.userOperationReceipt({ scope, userOpHash })),
  );
  return {
    ...outcome,
    lastSent: { scope, userOpHash, status: outcome.notice?.text },
  };
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
