import { isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import { delegationEnvironmentRows } from './accounts/deleGator/describe';
import type { ChainConfig } from './accounts/erc4337';
import { contractsOf } from './accounts/erc4337/config';
import { knownImplementation } from './accounts/erc4337/knownFactories';
import { CANONICAL_CONTRACTS } from './accounts/erc4337/versions';
import type { EntryPointVersion } from './accounts/erc4337/versions';
import { maskUrl } from './chain';
import { internalError, userRejected } from './utils/errors';
import { displayText } from './utils/safeText';

/** The origin MetaMask itself uses for keyring requests from the wallet. */
export const METAMASK_ORIGIN = 'metamask';

/**
 * Consent for changes a web site asks for. The front doors (onRpcRequest, onKeyringRequest) pass
 * the caller's origin to the domain as a {@link Requester}; before a site changes settings, deletes
 * an account or receives a key, the domain asks the user in a dialog (through the injected
 * platform) that names the site and the change. MetaMask's own calls need no dialog (the wallet
 * asked the user itself); the snap's home page passes no requester (the user acts in the page).
 */

/** Who asked for a change: the caller's origin as the snaps platform reports it. */
export type Requester = {
  /** `metamask`, or a site's origin such as `https://companion.example`. */
  origin: string;
};

/** A change a site asks for, as the consent dialog shows it (URLs are masked when shown). */
export type Change =
  | {
      kind: 'chainConfig';
      /** The config that will be stored (unmasked here; {@link describeConsent} masks it). */
      config: ChainConfig;
      /** Whether it replaces a stored config of the same scope. */
      replaces: boolean;
    }
  | {
      kind: 'ipfsConfig';
      /** The IPFS HTTP API URL that will be stored (normalised). */
      apiUrl: string;
      /** Whether an API key or secret comes with it (never shown). */
      credentials: boolean;
    }
  | { kind: 'approvalMode'; from: 'sync' | 'async'; to: 'sync' | 'async' }
  | {
      kind: 'deleteAccount';
      name: string;
      address: string;
      /** Whether its key was imported (no recovery phrase brings it back) rather than derived. */
      imported: boolean;
      /** How many of its requests wait for approval when the dialog opens. */
      waiting?: number;
    }
  | {
      kind: 'findAccounts';
      /** The recovery phrases searched, as MetaMask names them. */
      phrases: string[];
      /** The CAIP-2 chains asked. */
      chains: string[];
    }
  | {
      kind: 'restoreAccount';
      /** The recovery phrase its key comes from. */
      phrase: string;
      /** Its derivation index. */
      index: number;
      /** The address that comes back. */
      address: string;
      /** A smart account's EntryPoint version (absent: an EOA). */
      version?: string;
      /** A smart account's CAIP-2 chains. */
      chains?: string[];
    }
  | {
      kind: 'exportAccount';
      name: string;
      address: string;
      /** For a smart account: its owner EOA, whose key is the one sent (the account has none). */
      owner?: string;
    };

/** What the platform is asked to confirm: the site and its change. */
export type Consent = {
  /** The requesting site's origin. */
  origin: string;
  /** What it asks for. */
  change: Change;
};

/** Ask the user (snap_dialog); resolves true when the user confirmed. */
export type ConsentAsker = (consent: Consent) => Promise<boolean>;

/** One line of a consent dialog: a label and a plain-text value. */
export type ConsentRow = {
  /** What the line describes. */
  label: string;
  /** Its value: a masked URL, a full address, a word. */
  value: string;
};

/** A consent dialog in plain text, as the UI component renders it. */
export type ConsentText = {
  /** The dialog's heading: what approving does. */
  title: string;
  /** One sentence naming the site and the change. */
  intro: string;
  /** The change's details. */
  rows: ConsentRow[];
  /** Warnings (contracts other than the canonical ones, a key leaving the snap). */
  warnings: string[];
};

/**
 * Whether a change asked by `requester` needs the user's consent: it comes from a site (any
 * origin but MetaMask's own).
 *
 * @param requester - The caller, or undefined for the snap's home page.
 * @returns True for a site.
 */
export function isSite(requester: Requester | undefined): boolean {
  return requester !== undefined && requester.origin !== METAMASK_ORIGIN;
}

/**
 * Ask the user to confirm a change a site requested; nothing is asked for MetaMask or the home
 * page.
 *
 * @param ask - The platform's consent dialog, if it has one.
 * @param requester - The caller, or undefined for the snap's home page.
 * @param change - What would change.
 * @throws JsonRpcError 4001 when the user declines; -32603 when a site asks and the platform
 * cannot show the dialog (nothing changes).
 */
export async function requireConsent(
  ask: ConsentAsker | undefined,
  requester: Requester | undefined,
  change: Change,
): Promise<void> {
  if (!requester || !isSite(requester)) {
    return;
  }
  if (!ask) {
    throw internalError(
      'This platform cannot ask for the user’s consent: nothing was changed',
    );
  }
  if (!(await ask({ origin: requester.origin, change }))) {
    throw userRejected(`The user declined the ${change.kind} change`);
  }
}

/** What a dialog says of a factory whose account implementation the snap does not pin. */
const CUSTOM_FACTORY_NOTE =
  "This factory is not one the snap knows: the smart-account address is computed from the account implementation the chain's RPC reports for it, so a lying RPC could give an address no one can deploy to.";

/**
 * A contract address in full, flagged when it is not the canonical deployment of its version.
 *
 * @param address - The address (20-byte hex).
 * @param canonical - The canonical deployment's address.
 * @param what - The contract's name, for the warning.
 * @param warnings - Where a warning is added.
 * @returns The address as shown.
 */
function contract(
  address: string,
  canonical: string,
  what: string,
  warnings: string[],
): string {
  if (isAddressEqual(address as Hex, canonical as Hex)) {
    return `${address} (canonical ${what})`;
  }
  warnings.push(
    `The ${what} ${address} is NOT the canonical ${what} (${canonical}). It controls the address and funds of new smart accounts on this chain: approve only if you trust it.`,
  );
  return `${address} (NOT the canonical ${what})`;
}

/**
 * What deleting an account means for getting it back, in one or two sentences, for the deletion
 * dialogs (the home page's and a site's): an imported key comes from no recovery phrase, so only
 * a copy of the key brings it back; a derived key is found again by *Find my accounts* (the home
 * page's search of each recovery phrase's indices, BIP-44's gap limit of 20 unused indices) as
 * long as a configured chain shows it was used.
 *
 * @param imported - Whether the account's key was imported.
 * @returns The sentences.
 */
export function deletionRecovery(imported: boolean): string {
  return imported
    ? 'Its key was imported, so no recovery phrase can bring it back: deleting it without a copy of its key loses it, and whatever it holds.'
    : "Its key comes from your Secret Recovery Phrase: Find my accounts, on this snap's home page, brings it back while it holds funds or has history on a chain you have added (an account never used is not brought back).";
}

/**
 * The EntryPoint and SimpleAccountFactory rows of one EntryPoint version of a chain config: the
 * addresses smart accounts of that version will use on the chain once the config is stored
 * (v0.6: `entryPoint` / `accountFactory`; v0.7, v0.8: the `entryPoints` override, else the
 * canonical deployment), each in full and flagged when not canonical.
 *
 * @param config - The config that will be stored.
 * @param version - The EntryPoint version.
 * @param warnings - Where warnings for non-canonical contracts are added.
 * @returns Two rows: `EntryPoint v<version>` and `Account factory v<version>`.
 */
function contractRows(
  config: ChainConfig,
  version: EntryPointVersion,
  warnings: string[],
): ConsentRow[] {
  const used = contractsOf(config, version);
  const canonical = CANONICAL_CONTRACTS[version];
  return [
    {
      label: `EntryPoint v${version}`,
      value: contract(
        used.entryPoint,
        canonical.entryPoint,
        `EntryPoint v${version}`,
        warnings,
      ),
    },
    {
      label: `Account factory v${version}`,
      value: contract(
        used.accountFactory,
        canonical.accountFactory,
        `SimpleAccountFactory v${version}`,
        warnings,
      ),
    },
  ];
}

/**
 * The EntryPoints of a chain config that are not the canonical ones of their version (what the
 * home page's create form warns about, as the send confirmation does).
 *
 * @param config - A stored chain config.
 * @returns Each such version and the EntryPoint address used, v0.6 first.
 */
export function nonCanonicalEntryPoints(
  config: ChainConfig,
): { version: EntryPointVersion; entryPoint: string }[] {
  return (['0.6', '0.7', '0.8'] as const)
    .map((version) => ({
      version,
      entryPoint: contractsOf(config, version).entryPoint,
    }))
    .filter(
      ({ version, entryPoint }) =>
        !isAddressEqual(
          entryPoint as Hex,
          CANONICAL_CONTRACTS[version].entryPoint as Hex,
        ),
    );
}

/**
 * The EntryPoint and SimpleAccountFactory rows of every EntryPoint version (v0.6, v0.7, v0.8) of a
 * chain config, as the consent dialog words them (each address in full, flagged `(canonical …)` or
 * `(NOT the canonical …)`): what the home page's chain list shows, so the page and the dialog say
 * the same thing.
 *
 * @param config - A stored chain config (its URLs are not read).
 * @returns Six rows: `EntryPoint v0.6`, `Account factory v0.6`, then v0.7's and v0.8's.
 */
export function chainContractRows(config: ChainConfig): ConsentRow[] {
  // Stryker disable next-line ArrayDeclaration: equivalent: the warnings contractRows adds here are not shown (the page shows the flags in the rows), so what the list starts with is never read
  const unused: string[] = [];
  return (['0.6', '0.7', '0.8'] as const).flatMap((version) =>
    contractRows(config, version, unused),
  );
}

/**
 * The plain text of a consent dialog. URLs are masked (`maskUrl`: only scheme, host and port
 * shown, so an API key never is), addresses shown in full.
 *
 * @param consent - The site and its change.
 * @param consent.origin - The requesting site's origin.
 * @param consent.change - What it asks for.
 * @returns Title, one-sentence intro, detail rows and warnings.
 */
export function describeConsent({ origin, change }: Consent): ConsentText {
  const warnings: string[] = [];
  switch (change.kind) {
    case 'chainConfig': {
      const { config } = change;
      return {
        title: 'Change chain settings',
        intro: `${origin} asks to ${change.replaces ? 'replace' : 'set'} the settings of chain ${config.scope}. Requests, user operations and smart account addresses on this chain will use them.`,
        rows: [
          { label: 'Chain', value: config.scope },
          { label: 'RPC URL', value: maskUrl(config.rpcUrl) },
          {
            label: 'Bundler URL',
            value: config.bundlerUrl ? maskUrl(config.bundlerUrl) : 'none',
          },
          {
            label: 'Paymaster URL',
            value: config.paymasterUrl ? maskUrl(config.paymasterUrl) : 'none',
          },
          ...(['0.6', '0.7', '0.8'] as const).flatMap((version) =>
            contractRows(config, version, warnings),
          ),
          ...delegationEnvironmentRows(config, warnings),
          ...(config.gasTokens?.length
            ? [
                {
                  label: 'Tokens offered to pay gas',
                  value: config.gasTokens.join(', '),
                },
              ]
            : []),
        ],
        warnings: [
          ...warnings,
          ...(knownImplementation(config.accountFactory) === undefined
            ? [CUSTOM_FACTORY_NOTE]
            : []),
        ],
      };
    }
    case 'ipfsConfig':
      return {
        title: 'Change the IPFS API',
        intro: `${origin} asks to set the IPFS HTTP API the snap reads account metadata from.`,
        rows: [
          { label: 'IPFS API URL', value: maskUrl(change.apiUrl) },
          {
            label: 'API key',
            value: change.credentials ? 'given (not shown)' : 'none',
          },
        ],
        warnings,
      };
    case 'approvalMode':
      return {
        title: 'Change the approval mode',
        intro: `${origin} asks to change how signing requests are approved, from ${change.from} to ${change.to}.`,
        rows: [
          { label: 'Now', value: change.from },
          { label: 'After', value: change.to },
        ],
        warnings:
          change.to === 'sync'
            ? [
                'In sync mode, requests MetaMask passes to this snap are signed at once, without a second approval in the home page or the companion site.',
              ]
            : [],
      };
    case 'deleteAccount':
      return {
        title: 'Delete account',
        intro: `${origin} asks to delete the account ${change.name} (${change.address}) from this snap. Its key is erased here. ${deletionRecovery(change.imported)}`,
        rows: [
          { label: 'Account', value: change.name },
          { label: 'Address', value: change.address },
        ],
        warnings: [
          ...warnings,
          `Its waiting requests (${change.waiting ?? 0} now) will be rejected.`,
        ],
      };
    case 'findAccounts':
      return {
        title: 'Find and add your accounts',
        intro: `${origin} asks to search your recovery phrases for the accounts this snap made that were used on the chains below, and to add back each one. MetaMask asks you about each account; the site learns the addresses of those added.`,
        rows: [
          {
            label: 'Recovery phrases',
            value: change.phrases.map((name) => displayText(name)).join(', '),
          },
          { label: 'Chains', value: change.chains.join(', ') },
          {
            label: 'Kinds',
            value:
              'Accounts (EOA) and smart accounts (EntryPoint v0.6, v0.7, v0.8), indices 0 to 199',
          },
        ],
        warnings,
      };
    case 'restoreAccount':
      return {
        title: 'Restore an account',
        intro: `${origin} asks to add back the ${change.version ? 'smart account' : 'account (EOA)'} of index ${change.index} of ${displayText(change.phrase)}. MetaMask then asks you to add it; the site learns its address.`,
        rows: [
          { label: 'Recovery phrase', value: displayText(change.phrase) },
          {
            label: 'Kind',
            value: change.version
              ? `Smart account (EntryPoint v${change.version})`
              : 'Account (EOA)',
          },
          { label: 'Index', value: String(change.index) },
          { label: 'Address', value: change.address },
          {
            label: 'Chains',
            value: change.chains?.join(', ') ?? 'every EVM chain',
          },
        ],
        warnings,
      };
    // Stryker disable next-line StringLiteral: equivalent: the default below is the same branch; the label names the kind it serves
    case 'exportAccount':
    default:
      return {
        title: `Send private key to ${origin}`,
        intro:
          change.owner === undefined
            ? `The private key of account ${change.name} (${change.address}) will be sent to ${origin}. Anyone who has it controls the account.`
            : `The private key of the owner (${change.owner}) of smart account ${change.name} (${change.address}) will be sent to ${origin}. The smart account has no key of its own: anyone who has the owner's key controls the owner and this smart account.`,
        rows: [
          { label: 'Sent to', value: origin },
          { label: 'Account', value: change.name },
          { label: 'Address', value: change.address },
          ...(change.owner === undefined
            ? []
            : [{ label: "Owner (the key's address)", value: change.owner }]),
        ],
        warnings: [
          'Approve only if you asked this site for the key and trust it to keep it. It is not shown here: it is sent to the site.',
        ],
      };
  }
}

/** A smart account worked out from metadata, as {@link metadataConsent} reads it. */
type MetadataAccount = {
  /** The counterfactual address. */
  address: string;
  /** Whether its EntryPoint and factory are the chain config's or the canonical ones. */
  trusted: boolean;
  /** Its EntryPoint, factory and per-chain services from the metadata. */
  data: {
    entryPoint: string;
    accountFactory: string;
    chains?: Record<string, { bundlerUrl?: string; paymasterUrl?: string }>;
  };
};

/**
 * The confirmation a smart account created from IPFS metadata needs, if any: when the metadata
 * names contracts other than the configured or canonical ones (they choose the address), or
 * bundler or paymaster URLs (they receive the account's user operations). URLs are masked.
 *
 * @param account - The resolved account.
 * @param origin - The site that asks for the account (as MetaMask reported it), or undefined for
 * the snap's own home page.
 * @returns `{ title, text }` of the dialog, or undefined when the metadata names neither.
 */
export function metadataConsent(
  account: MetadataAccount,
  origin?: string,
): { title: string; text: string } | undefined {
  const services = Object.entries(account.data.chains ?? {}).map(
    ([scope, { bundlerUrl, paymasterUrl }]) =>
      `On ${scope} it sends user operations to the bundler ${bundlerUrl ? maskUrl(bundlerUrl) : 'of the chain config'} and uses the paymaster ${paymasterUrl ? maskUrl(paymasterUrl) : 'of the chain config'}.`,
  );
  if (account.trusted && services.length === 0) {
    return undefined;
  }
  const contracts = account.trusted
    ? []
    : [
        `The account metadata asks for the factory ${account.data.accountFactory} and EntryPoint ${account.data.entryPoint}, which are not the ones configured for this chain. They give the address ${account.address}.`,
        ...(knownImplementation(account.data.accountFactory) === undefined
          ? [CUSTOM_FACTORY_NOTE]
          : []),
      ];
  return {
    title: account.trusted
      ? 'Bundler or paymaster from account metadata'
      : 'Unknown account factory',
    text: [
      ...(origin === undefined
        ? []
        : [
            `${displayText(origin)} asks to create this smart account from account metadata.`,
          ]),
      ...contracts,
      ...(services.length > 0
        ? [
            `The account metadata chooses services for ${account.address}.`,
            ...services,
          ]
        : []),
      'Create the account only if you trust whoever published this metadata.',
    ].join(' '),
  };
}
