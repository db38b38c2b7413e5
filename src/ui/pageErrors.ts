import { chainName, nativeAmount } from './chainNames';
import { UI } from './homeModel';
import type { ErrorData, ErrorReason } from '../utils/errors';
import { displayText, ownEntry } from '../utils/safeText';

/**
 * What the home page says about an error, in page language: what to do on this page, next to the
 * input it is about. The RPC front doors keep the domain's precise messages (`call setChainConfig
 * first`); the page translates them here, by a stable key: the JSON-RPC error code, the
 * `data.reason` the domain adds at the throw site (see ErrorReason), and the form it came from.
 * Texts are fixed, or built from what the page shows anyway (an account's name and address):
 * never from the value a person typed.
 */

/** Where an error happened: the form, its inputs, and how to name an account. */
export type PageErrorContext = {
  /** The form (or button) name, with its `:<id>` tail (`send:<account id>`). */
  form: string;
  /** Input names by the field names errors use (`{ rpcUrl: 'chain-rpcUrl' }`). */
  fields: Record<string, string>;
  /** An account's name by its address, when the page knows it (empty or undefined: unnamed). */
  accountName?: (address: string) => string | undefined;
  /** Fields whose input the form empties after this failure (a URL holding a key). */
  cleared?: readonly string[];
};

/** A translated error: cancelled (a declined dialog), or a text and the input (or form) it goes under. */
export type PageError =
  { cancelled: true } | { cancelled?: false; text: string; under: string };

/** One entry of the table: which errors it matches and what the page says. */
type Rule = {
  /** The JSON-RPC error code. */
  code: number;
  /** The `data.reason`, when the rule needs one. */
  reason?: ErrorReason;
  /** The form's name (before any `:<id>`), when the rule is for one form only. */
  form?: string;
  /** The field the text goes under (a key of the context's fields), else the form; `data.field` when `'*'`. */
  field?: string;
  /** A declined dialog: nothing changed. */
  cancelled?: true;
  /** The text, from the error's data and the context. */
  text?: (data: Partial<ErrorData>, context: PageErrorContext) => string;
};

/**
 * An account as a message names it: `Savings (0x…)`, or its address alone when unnamed.
 *
 * @param address - The account's address (from the error's data).
 * @param context - Names the account.
 * @returns The account's name and address.
 */
function named(address: string | undefined, context: PageErrorContext): string {
  if (address === undefined) {
    return 'another account';
  }
  const name = context.accountName?.(address);
  return name ? `${displayText(name)} (${address})` : address;
}

/** What the send form's inputs expect, by intent field. */
const INTENT_TEXT: Record<string, string> = {
  to: 'Enter the address to send to: 0x and 40 hex characters',
  value: 'Enter an amount of ETH, such as 0.01',
  data: 'Enter call data as 0x and hex bytes, or leave it empty',
};

/** What the chain form's inputs expect, by field, when one is missing or malformed. */
const CHAIN_FIELD_TEXT: Record<string, string> = {
  scope: 'Enter the chain: its chain id, such as 11155111, or eip155:11155111',
  rpcUrl:
    "Enter the RPC URL of a node of this chain (the provider's https://… address)",
  entryPoint:
    'Enter a contract address (0x and 40 hex characters), or leave it empty for the default',
  accountFactory:
    'Enter a contract address (0x and 40 hex characters), or leave it empty for the default',
  bundlerUrl: "Enter the bundler's URL (https://…), or leave it empty",
  paymasterUrl: "Enter the paymaster's URL (https://…), or leave it empty",
};

/** What the IPFS form's inputs expect, by field, when one is missing or malformed. */
const IPFS_FIELD_TEXT: Record<string, string> = {
  apiUrl:
    'Enter the address of an IPFS HTTP API, such as https://… or http://127.0.0.1:5001',
  apiKey: 'Enter the key as your IPFS provider gave it, or leave it empty',
  apiKeySecret:
    'Enter the secret as your IPFS provider gave it, or leave it empty',
};

/**
 * What the page says of a URL refused for what it holds, by `data.problem`, before the field's own
 * words: a user name and password, or the hidden (`***`) form of another URL.
 */
const URL_PROBLEM_TEXT: Record<string, string> = {
  credentials:
    'This address holds a user name and password, which this snap never sends: use the address your provider gives, with its key in the path or query',
  masked:
    'This address is hidden (***) because it holds a key, and a hidden address only keeps the saved one: enter the full address again',
};

/**
 * The words for a refused field of the chain or IPFS form.
 *
 * @param data - The error's data (field and problem).
 * @param texts - The form's words by field.
 * @param problems - The form's words by problem (default: the chain form's, for URLs).
 * @returns The words.
 */
const fieldText = (
  data: Partial<ErrorData>,
  texts: Record<string, string>,
  problems: Record<string, string> = URL_PROBLEM_TEXT,
): string =>
  ownEntry(problems, data.problem ?? '') ??
  ownEntry(texts, data.field ?? '') ??
  'Check this field';

/**
 * What the IPFS form says of a refused API URL or key, by `data.problem`: the user name and
 * password of an IPFS API go in its key and secret inputs, which the page sends as HTTP basic
 * authentication.
 */
const IPFS_PROBLEM_TEXT: Record<string, string> = {
  ...URL_PROBLEM_TEXT,
  credentials:
    'This address holds a user name and password: enter the address without them, and the user name and password as the API key and secret below',
  insecure:
    'Use an https:// address (http:// only for an IPFS node on this computer: localhost or 127.0.0.1)',
  otherServer:
    'The stored key and secret belong to another server: enter them again for this address, or tick Remove the stored key and secret',
};

/** The table: the first rule that matches an error gives what the page says. */
const RULES: readonly Rule[] = [
  { code: 4001, cancelled: true },
  {
    code: -32001,
    reason: 'noChainConfig',
    form: UI.send,
    text: () => "This account's chain has no settings: add it under Chains",
  },
  {
    code: -32001,
    reason: 'noChainConfig',
    text: () =>
      'Add a chain under Chains first: a smart account lives on a chain',
  },
  {
    code: -32001,
    reason: 'noIpfsConfig',
    field: 'metadataCid',
    text: () =>
      'Set an IPFS API under IPFS first, or leave the metadata CID empty',
  },
  {
    code: -32001,
    reason: 'noBundlerUrl',
    text: () => 'Add a bundler URL to this chain under Chains',
  },
  {
    code: -32602,
    reason: 'keyInUse',
    field: 'privateKey',
    text: (data, context) =>
      `This key is already the account ${named(data.address, context)}`,
  },
  {
    code: -32602,
    reason: 'addressInUse',
    field: 'privateKey',
    text: (data, context) =>
      `This account exists already: ${named(data.address, context)}`,
  },
  {
    code: -32602,
    reason: 'invalidPrivateKey',
    field: 'privateKey',
    text: (data) =>
      data.problem === 'required'
        ? 'Enter a private key'
        : 'Invalid private key: paste the key, 64 hex characters (0x optional)',
  },
  {
    code: -32602,
    reason: 'invalidName',
    field: 'name',
    text: (data) =>
      data.problem === 'invisible'
        ? 'This name holds an invisible character (one that changes the text direction or shows nothing), which could make it look like another name: type it again without it'
        : 'Enter a name of 1 to 64 characters, without control or right-to-left override characters',
  },
  {
    code: -32602,
    reason: 'nameTaken',
    field: 'name',
    text: (data, context) =>
      `${named(data.address, context)} has this name already: choose another`,
  },
  {
    code: -32602,
    reason: 'nameLookalike',
    field: 'name',
    text: (data, context) =>
      `This name looks like the name of ${named(data.address, context)} (letters of another script): choose another`,
  },
  {
    code: -32602,
    reason: 'invalidIntent',
    form: UI.send,
    field: '*',
    text: (data) =>
      ownEntry(INTENT_TEXT, data.field ?? '') ?? 'Check this field',
  },
  {
    code: -32602,
    reason: 'requestsChanged',
    text: () =>
      'Its waiting requests changed while the dialog was open: nothing deleted, try again',
  },
  {
    code: -32602,
    reason: 'noFactory',
    text: (data) =>
      data.version === '0.7' || data.version === '0.8'
        ? `This chain has no account factory of EntryPoint v${data.version} at the address set for it (a local chain lacks the standard one): choose another EntryPoint version (v0.6's contracts can be entered in the chain's Advanced fields), then try again`
        : "This chain has no account factory at the address set for it (a local chain lacks the standard one): under Chains, enter the factory and EntryPoint deployed on it in the chain's Advanced fields, then try again",
  },
  {
    code: -32602,
    reason: 'chainMismatch',
    form: UI.chainForm,
    field: 'rpcUrl',
    text: (data) =>
      `This RPC URL serves ${chainName(data.chainId ?? '')}, not ${chainName(data.scope ?? '')}: check the chain and the URL`,
  },
  {
    code: -32602,
    reason: 'invalidField',
    form: UI.chainForm,
    field: '*',
    text: (data) => fieldText(data, CHAIN_FIELD_TEXT),
  },
  {
    code: -32602,
    reason: 'invalidField',
    form: UI.ipfsForm,
    field: '*',
    text: (data) => fieldText(data, IPFS_FIELD_TEXT, IPFS_PROBLEM_TEXT),
  },
  {
    code: -32003,
    reason: 'insufficientFunds',
    form: UI.accountUndoUpgrade,
    text: (data) =>
      `This account needs about ${nativeAmount(data.needed ?? '0', data.scope)} to undo the upgrade: it pays that fee itself (a paymaster never does), and it holds ${nativeAmount(data.balance ?? '0', data.scope)}. Add funds, then try again.`,
  },
  {
    code: -32003,
    reason: 'insufficientFunds',
    field: 'value',
    text: (data) =>
      `This account holds ${nativeAmount(data.balance ?? '0', data.scope)}; sending ${nativeAmount(data.value ?? '0', data.scope)} needs more (${nativeAmount(data.needed ?? '0', data.scope)} with the most the gas can cost).`,
  },
  {
    code: -32002,
    form: UI.chainForm,
    field: 'rpcUrl',
    text: (_data, context) =>
      context.cleared?.includes('rpcUrl')
        ? "Couldn't reach this RPC URL: check that the node is running, then enter the URL again (it held a key, so the form cleared it)"
        : "Couldn't reach this RPC URL: check the address, and that the node is running",
  },
];

/**
 * The `data` of an error, when it is an object (a JSON-RPC error's `data`).
 *
 * @param error - A thrown value.
 * @returns Its data's reason, field, address, chain id and scope (strings only).
 */
function errorData(error: unknown): Partial<ErrorData> {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) {
    return {};
  }
  const {
    reason,
    field,
    problem,
    address,
    chainId,
    scope,
    balance,
    value,
    needed,
  } = data as Record<string, unknown>;
  return {
    ...(typeof problem === 'string'
      ? { problem: problem as ErrorData['problem'] }
      : {}),
    ...(typeof balance === 'string' ? { balance } : {}),
    ...(typeof value === 'string' ? { value } : {}),
    ...(typeof needed === 'string' ? { needed } : {}),
    ...(typeof reason === 'string' ? { reason: reason as ErrorReason } : {}),
    ...(typeof field === 'string' ? { field } : {}),
    ...(typeof address === 'string' ? { address } : {}),
    ...(typeof chainId === 'string' ? { chainId } : {}),
    ...(typeof scope === 'string' ? { scope } : {}),
  };
}

/**
 * Translate an error for the home page with the table above.
 *
 * @param error - What an action threw (a JSON-RPC error from the domain, usually).
 * @param context - The form it came from, its inputs, and how to name accounts.
 * @returns The page's text and the input (or form) to show it under, `{ cancelled: true }` for a
 * declined dialog (code 4001), or undefined when no rule matches (the error's own message is shown).
 */
export function pageError(
  error: unknown,
  context: PageErrorContext,
): PageError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const data = errorData(error);
  const form = context.form.split(':')[0];
  const rule = RULES.find(
    (entry) =>
      entry.code === code &&
      (entry.reason === undefined || entry.reason === data.reason) &&
      (entry.form === undefined || entry.form === form),
  );
  if (!rule) {
    return undefined;
  }
  if (rule.cancelled) {
    return { cancelled: true };
  }
  const field = rule.field === '*' ? data.field : rule.field;
  return {
    text: rule.text?.(data, context) ?? 'Something went wrong',
    under:
      (field === undefined ? undefined : ownEntry(context.fields, field)) ??
      context.form,
  };
}
