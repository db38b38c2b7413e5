import { numberToHex, parseEther } from 'viem';

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
 * error next to the field it names, or next to the form.
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
  const amount = text(value[field(UI.sendValue)]) ?? '0';
  const data = text(value[field(UI.sendData)]) ?? '0x';
  const scope = text(value[field(UI.sendScope)]) ?? '';
  const gas = text(value[field(UI.sendGas)]);
  const gasToken = gas && gas !== PAY_GAS_DEFAULT ? { gasToken: gas } : {};
  let wei: bigint;
  try {
    wei = parseEther(amount);
    if (wei < 0n) {
      throw new Error('negative');
    }
  } catch {
    const message = 'Invalid value: expected an amount of ETH such as 0.01';
    return {
      notice: { severity: 'danger', text: message },
      errors: { [field(UI.sendValue)]: message },
    };
  }
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
 * @returns Its outcome, block (decimal) and gas cost (wei, decimal), or that it is pending.
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
  return `${success ? 'succeeded' : 'reverted'} in block ${BigInt(blockNumber).toString()}, gas cost ${BigInt(actualGasCost).toString()} wei`;
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
