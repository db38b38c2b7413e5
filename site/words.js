/**
 * What the pages say, in a person's words: chains by name, amounts in ETH, and every error the
 * wallet or the snap answers translated into what to do, by its JSON-RPC code and the `data.reason`
 * / `data.field` the snap adds (never its technical message, never a value someone typed).
 */

/**
 * Chain names by chain id (ethereum-lists/chains, https://chainid.network; 31337 is the id local
 * development nodes such as anvil and Hardhat use), as the snap's home page names them.
 */
const CHAINS = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  100: 'Gnosis',
  137: 'Polygon',
  8453: 'Base',
  17000: 'Holesky',
  42161: 'Arbitrum One',
  43114: 'Avalanche C-Chain',
  59144: 'Linea',
  84532: 'Base Sepolia',
  421614: 'Arbitrum Sepolia',
  11155111: 'Sepolia',
  11155420: 'OP Sepolia',
  31337: 'Local chain',
};

/** Native currencies other than ETH, by chain id (ethereum-lists/chains `nativeCurrency.symbol`). */
const SYMBOLS = { 56: 'BNB', 100: 'XDAI', 137: 'POL', 43114: 'AVAX' };

/**
 * The decimal chain id of a CAIP-2 scope (`eip155:31337`) or of a chain id typed as a number.
 *
 * @param {string} chain - The scope or id.
 * @returns {string | undefined} The decimal id, or undefined when it is neither.
 */
function chainNumber(chain) {
  const id = String(chain)
    .trim()
    .replace(/^eip155:/u, '');
  return /^[0-9]+$/u.test(id) ? String(BigInt(id)) : undefined;
}

/**
 * A chain as a person reads it: `Local chain (31337)`, `Ethereum (1)`, `Chain 12345`.
 *
 * @param {string} chain - A CAIP-2 scope or a decimal chain id.
 * @returns {string} Its name.
 */
export function chainName(chain) {
  const id = chainNumber(chain);
  if (id === undefined) {
    return String(chain);
  }
  return Object.hasOwn(CHAINS, id) ? `${CHAINS[id]} (${id})` : `Chain ${id}`;
}

/**
 * The chain typed into a form as the snap wants it: `31337` and `eip155:31337` both give
 * `eip155:31337`; anything else is left for the snap to refuse.
 *
 * @param {string} text - What was typed.
 * @returns {string} The CAIP-2 scope.
 */
export function scopeOf(text) {
  const id = chainNumber(text);
  return id === undefined ? text.trim() : `eip155:${id}`;
}

const WEI = 10n ** 18n;

/**
 * An amount of a chain's coin for reading: at most four decimals (rounded), and the symbol.
 *
 * @param {bigint} wei - The amount in wei.
 * @param {string} [chain] - The chain (its currency symbol), ETH when unknown.
 * @returns {{ text: string, exact: string }} `0.9896 ETH`, and the exact amount.
 */
export function coinAmount(wei, chain = '') {
  const symbol = SYMBOLS[chainNumber(chain) ?? ''] ?? 'ETH';
  const exact = `${decimal(wei, 18)} ${symbol}`;
  const rounded = (wei + 50_000_000_000_000n) / 100_000_000_000_000n;
  const text =
    wei > 0n && rounded === 0n
      ? `less than 0.0001 ${symbol}`
      : `${decimal(rounded, 4)} ${symbol}`;
  return { text, exact };
}

/**
 * An integer of smallest units as a decimal number.
 *
 * @param {bigint} units - The integer.
 * @param {number} decimals - How many of its digits are decimals.
 * @returns {string} The number, without trailing zeros.
 */
function decimal(units, decimals) {
  const scale = 10n ** BigInt(decimals);
  const fraction = (units % scale)
    .toString()
    .padStart(decimals, '0')
    .replace(/0+$/u, '');
  return `${units / scale}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount of ETH typed by a person (`0.01`, `1`, `.5`), in wei.
 *
 * @param {string} text - What was typed.
 * @returns {bigint | undefined} The wei, or undefined when it is not an amount (at most 18 decimals).
 */
export function parseEth(text) {
  const match = /^([0-9]*)(?:\.([0-9]{0,18}))?$/u.exec(text.trim());
  if (!match || (match[1] === '' && !match[2])) {
    return undefined;
  }
  return (
    BigInt(match[1] || '0') * WEI + BigInt((match[2] ?? '').padEnd(18, '0'))
  );
}

/** What each form's fields expect, by the field name errors give (`data.field`). */
const FIELD_WORDS = {
  scope: 'Enter the chain: its number, such as 31337, or eip155:31337',
  rpcUrl: "Enter the node's address (https://…)",
  bundlerUrl: "Enter the bundler's address (https://…), or leave it empty",
  paymasterUrl: "Enter the paymaster's address (https://…), or leave it empty",
  entryPoint:
    'Enter a contract address (0x and 40 hex characters), or leave it empty',
  accountFactory:
    'Enter a contract address (0x and 40 hex characters), or leave it empty',
  apiUrl:
    "Enter the IPFS server's address, such as https://… or http://127.0.0.1:5001, without a user name or password (the key and secret have their own fields)",
  apiKey: 'Enter the key as your IPFS provider gave it, or leave it empty',
  apiKeySecret:
    'Enter the secret as your IPFS provider gave it, or leave it empty',
  to: 'Enter the address to send to: 0x and 40 hex characters',
  value: 'Enter an amount of ETH, such as 0.01',
  data: 'Enter call data as 0x and hex bytes, or leave it empty',
};

/** What a refused address says of what it holds, by `data.problem`. */
const URL_PROBLEMS = {
  credentials:
    'This address holds a user name and password, which the snap never sends: use the address your provider gives, with its key in the path',
  masked:
    'This address is hidden (***) because it holds a key: enter the full address again',
};

/** Where an unreachable server's words go, and what they say, by form. */
const UNREACHABLE = {
  chain: [
    'rpcUrl',
    "Couldn't reach this node: check the address, and that the node is running",
  ],
  ipfs: [
    'apiUrl',
    "Couldn't reach this IPFS server: check the address, and that it is running",
  ],
};

/** The words of the errors the snap marks with a reason (`data.reason`), and the field they go under. */
const REASONS = {
  noChainConfig: [
    undefined,
    'Add a chain under Chains first: a smart account lives on a chain',
  ],
  noIpfsConfig: [undefined, 'Set an IPFS server under IPFS first'],
  noBundlerUrl: [
    undefined,
    "Add a bundler to this chain's settings under Chains",
  ],
  keyInUse: ['privateKey', 'This key is already one of your accounts'],
  addressInUse: ['privateKey', 'This account is already here'],
  invalidPrivateKey: [
    'privateKey',
    'This is not a private key: paste 64 hex characters (0x optional)',
  ],
  invalidName: [
    'name',
    'Enter a name of 1 to 64 characters, without invisible or right-to-left characters',
  ],
  nameTaken: ['name', 'Another account has this name: choose another'],
  nameLookalike: [
    'name',
    "This name looks like another account's (letters of another script): choose another",
  ],
  requestsChanged: [
    undefined,
    'Its waiting requests changed while MetaMask asked: nothing removed, try again',
  ],
  chainMismatch: [
    'rpcUrl',
    'This node serves another chain: check the chain and the address',
  ],
  insufficientFunds: [
    'value',
    'This account does not hold enough for this and its fee: add funds, then try again',
  ],
  noFactory: [
    undefined,
    'This chain has no account factory for this version: choose another version, or set the contracts under Chains',
  ],
};

/** The field a refusal naming none is about, by form: the IPFS form's address (its URL checks name no field). */
const ONLY_FIELD = { ipfs: 'apiUrl' };

/** EIP-5792 and EIP-1193 codes, as the example app says them. */
const CODES = {
  4001: 'Cancelled in MetaMask: nothing was done',
  4100: 'MetaMask did not allow this: connect, and check that the account and chain are yours',
  4200: 'Your wallet does not offer this: use MetaMask Flask',
  5700: 'The wallet does not support what this app asked',
  5710: "This account can't send on this chain: add the chain to the snap's settings",
  5720: 'This send was already made',
  5730: 'The wallet does not know this send',
  5740: 'Too many calls at once for this account',
  5750: 'The account was not upgraded: nothing was sent',
  5760: 'This account cannot make these calls all-or-nothing',
  '-32002':
    "Couldn't reach the chain's node or bundler: check the chain's settings under Chains, then try again",
  '-32001': 'Not found: it may have been removed meanwhile. Reload the page',
  '-32602': 'Check what you entered',
};

/**
 * What the page says about an error, and where: the field (by the snap's field name) or the form.
 *
 * @param {any} error - What a wallet call threw.
 * @param {string} form - The form it came from (`chain`, `ipfs`, `create`, `import`, `rename`, `send`, …).
 * @returns {{ cancelled?: boolean, field?: string, text: string }} The words, and the field they go under.
 */
export function explain(error, form) {
  const code = error?.code;
  const data = typeof error?.data === 'object' && error.data ? error.data : {};
  if (code === 'noWallet') {
    return {
      text: 'No wallet found: install MetaMask Flask, then reload this page',
    };
  }
  if (code === 4001) {
    return { cancelled: true, text: CODES[4001] };
  }
  if (code === -32002 && Object.hasOwn(UNREACHABLE, form)) {
    const [field, text] = UNREACHABLE[form];
    return { field, text };
  }
  if (Object.hasOwn(URL_PROBLEMS, data.problem ?? '')) {
    return { field: data.field, text: URL_PROBLEMS[data.problem] };
  }
  if (data.reason === 'invalidField' || data.reason === 'invalidIntent') {
    return {
      field: data.field,
      text: FIELD_WORDS[data.field] ?? CODES['-32602'],
    };
  }
  if (Object.hasOwn(REASONS, data.reason ?? '')) {
    const [field, text] = REASONS[data.reason];
    return { field, text };
  }
  if (code === -32602 && Object.hasOwn(ONLY_FIELD, form)) {
    // a refusal that names no field, from a form where one field can be wrong
    const field = ONLY_FIELD[form];
    return { field, text: FIELD_WORDS[field] };
  }
  return {
    text:
      CODES[String(code)] ??
      'Something went wrong in the wallet or the snap: try again',
  };
}
