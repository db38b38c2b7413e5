import type { Outcome } from './homeModel';
import { pageError } from './pageErrors';

export type { Outcome } from './homeModel';

/**
 * What the page says, everywhere, when the person declines one of its dialogs: nothing happened.
 * Every home-page flow that opens a dialog answers a decline with this text.
 */
export const CANCELLED_TEXT = 'Cancelled: nothing changed';

/**
 * The outcome of a declined dialog: an `info` notice with {@link CANCELLED_TEXT}, no error.
 *
 * @returns The outcome to render.
 */
export function cancelled(): Outcome {
  return { notice: { severity: 'info', text: CANCELLED_TEXT }, errors: {} };
}

/** A submitted form's values by input name, as snaps hands them to `onUserInput`. */
export type FormValues = Record<string, string | boolean | null>;

/**
 * Run an action and describe its outcome: a success notice; or the error in page language (see
 * pageError: what to do on this page, under the input it is about); or, for an error the table
 * does not know, its own message next to the field it names (`... at <field>: ...`) or else next
 * to the form. A declined dialog (4001) is only a notice, {@link CANCELLED_TEXT}.
 *
 * @param form - The form (or button) name the error falls back to.
 * @param action - The action; resolves to the success notice's text.
 * @param fields - Input names by the field names errors use (`{ rpcUrl: 'chain-rpcUrl' }`).
 * @param accountName - An account's name by its address, to name it in an error (`This key is
 * already the account Savings (0x…)`).
 * @param cleared - Fields whose input the form empties after a failure (so the text says so).
 * @returns The outcome; never throws.
 */
export async function attempt(
  form: string,
  action: () => Promise<string>,
  fields: Record<string, string> = {},
  accountName?: (address: string) => string | undefined,
  cleared: readonly string[] = [],
): Promise<Outcome> {
  try {
    return {
      notice: { severity: 'success', text: await action() },
      errors: {},
    };
  } catch (error) {
    const translated = pageError(error, {
      form,
      fields,
      accountName,
      cleared,
    });
    if (translated?.cancelled) {
      return cancelled();
    }
    if (translated) {
      return {
        notice: { severity: 'danger', text: translated.text },
        errors: { [translated.under]: translated.text },
      };
    }
    const message =
      error instanceof Error ? error.message : 'Something went wrong';
    const field = Object.keys(fields).find((name) =>
      new RegExp(`\\bat ${name}\\b|\\b${name}:`, 'iu').test(message),
    );
    const shown = withoutMethod(message);
    return {
      notice: { severity: 'danger', text: shown },
      errors: { [field ? fields[field] : form]: shown },
    };
  }
}

/**
 * An error message the page table does not know, without the RPC method and field it names
 * (`Invalid setIpfsConfig params at apiUrl: ` and the like): the page shows it under the field
 * instead, and keeps what follows, the domain's words for what is wrong.
 *
 * @param message - The error's message.
 * @returns The message without such a prefix (what is left capitalised), or as it is.
 */
function withoutMethod(message: string): string {
  const rest = message.replace(
    /^Invalid [A-Za-z_ ]+?(?: params| options| settings)(?: at [A-Za-z_.[\]0-9]+)?: (?:[A-Za-z_]+: )?/u,
    '',
  );
  return rest === '' || rest === message
    ? message
    : `${rest[0].toUpperCase()}${rest.slice(1)}`;
}

/**
 * The input names of a form's fields, for {@link attempt}.
 *
 * @param prefix - The form's input prefix (`chain`, `ipfs`).
 * @param fields - The form's field list (CHAIN_FIELDS, IPFS_FIELDS), the field name first in each entry.
 * @returns `{ field: 'prefix-field' }` for each field.
 */
export function fieldMap(
  prefix: string,
  fields: readonly (readonly [string, ...string[]])[],
): Record<string, string> {
  return Object.fromEntries(
    fields.map(([field]) => [field, `${prefix}-${field}`]),
  );
}

/**
 * An input's value as text.
 *
 * @param value - A form value (string, boolean or null).
 * @returns The trimmed string when it is a non-empty string, else undefined.
 */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : undefined;
}

/**
 * Keep an outcome's input values only when it succeeded.
 *
 * @param outcome - The action's outcome.
 * @param values - Input values to show after a success (an empty string clears an input).
 * @returns The outcome, with `values` when its notice is a success.
 */
export function onSuccess(
  outcome: Outcome,
  values: Record<string, string>,
): Outcome {
  return outcome.notice?.severity === 'success'
    ? { ...outcome, values }
    : outcome;
}
