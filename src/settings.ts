import { enums, object } from '@metamask/superstruct';

import { resolveDelegationEnvironment } from './accounts/deleGator/environment';
import type { DelegationEnvironment } from './accounts/deleGator/environment';
import {
  maskChainConfig,
  parseChainConfig,
  readGasTokens,
  verifyChainConfig,
} from './accounts/erc4337';
import type { ChainConfig, GasTokenView } from './accounts/erc4337';
import { isMaskedUrl, maskKeyed, maskUrl } from './chain';
import { requireConsent } from './consent';
import type { ConsentAsker, Requester } from './consent';
import { parseIpfsConfig } from './metadata';
import type { IpfsConfig } from './metadata';
import { forgetChainReads } from './state/store';
import type { StateStore } from './state/store';
import { callerError } from './utils/errorMap';
import { invalidParams, validate } from './utils/errors';
import { parseScope } from './utils/scope';
import { rememberCredentials } from './utils/secrets';
import { ChainScopeStruct } from './utils/structs';

export type { ChainConfig, DelegationEnvironment, GasTokenView };

/** How signing requests are approved: at once (`sync`) or parked until approved (`async`). */
export type ApprovalMode = 'sync' | 'async';

const ApprovalModeStruct = object({ mode: enums(['sync', 'async']) });

/**
 * The snap's settings: chain configs (per CAIP-2 scope), the IPFS HTTP API config and the approval
 * mode. Every front door (keyring dapp, snap RPC, home page) changes them through these methods,
 * so each change is validated the same way, network checks run before the state queue, and a
 * change is saved whole or not at all. A change a site asks for (a `requester` other than
 * MetaMask) is applied only after the user confirms a dialog naming the site and the change.
 */
export class Settings {
  readonly #store: StateStore;

  readonly #ask: ConsentAsker | undefined;

  /**
   * @param store - The snap's state store.
   * @param ask - Asks the user to confirm a site's change (snap_dialog); without it a site
   * changes nothing.
   */
  constructor(store: StateStore, ask?: ConsentAsker) {
    this.#store = store;
    this.#ask = ask;
    this.#rememberStored();
  }

  /**
   * Remember the stored credentials for the session (`rememberCredentials`): errors stay scrubbed
   * of a key after a concurrent change replaces it.
   */
  #rememberStored(): void {
    const { chains, ipfs } = this.#store.current;
    rememberCredentials(
      Object.values(chains).flatMap((config) => [
        config.rpcUrl,
        config.bundlerUrl,
        config.paymasterUrl,
      ]),
      [ipfs?.apiKey, ipfs?.apiKeySecret],
    );
  }

  /**
   * Validate, check (`eth_chainId` of the rpcUrl must be the scope's chain: verifyChainConfig,
   * seconds at most), confirm (a site's change, only once the check passed: URLs masked, the
   * EntryPoint and factory of each version v0.6, v0.7, v0.8 in full, flagged when not canonical)
   * and store the chain config of one scope, replacing the previous one. A
   * URL sent back exactly as it was shown (masked) keeps the stored URL of the same scope and
   * field, so an edit form can leave a keyed URL untouched; a masked URL anywhere else (another scope, no stored config, another field) is
   * refused before any network request or dialog, since it is only a placeholder.
   *
   * @param params - `{ scope: "eip155:<decimal>", rpcUrl, entryPoint?, accountFactory?, bundlerUrl?, paymasterUrl?, entryPoints?, gasTokens?, delegationEnvironment? }`
   * (`delegationEnvironment`: the kit's `SmartAccountsEnvironment`, as `deploySmartAccountsEnvironment` returns it; a site's dialog lists its contracts, flagged when not canonical).
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @returns The stored config with every URL's API key masked.
   * @throws JsonRpcError -32602 naming the bad field, a masked URL that stands for nothing stored
   * (`... at rpcUrl: it is masked ...`) or a chain mismatch (`chainMismatch`); -32002
   * (`rpcUnreachable`, `Couldn't reach this node: ...`) when the rpcUrl does not answer as a node;
   * both before any dialog; 4001 when the user declines.
   */
  async setChainConfig(
    params: unknown,
    requester?: Requester,
  ): Promise<ChainConfig> {
    const config = keepMaskedUrls(
      parseChainConfig(params),
      this.#store.current.chains,
    );
    rememberCredentials([
      config.rpcUrl,
      config.bundlerUrl,
      config.paymasterUrl,
    ]);
    // before the dialog: a URL that does not serve the chain is refused before anyone is asked
    // (the home page, which asks no one, goes through the same check). Not stored yet, so the
    // front door's scrub does not list its URL: map and mask here, through the same callerError
    // the front doors use.
    await verifyChainConfig(config).catch((error: unknown) => {
      // Stryker disable next-line ArrayDeclaration: equivalent: rememberCredentials above already holds this URL, and callerError scrubs every remembered one
      throw callerError(error, [config.rpcUrl]);
    });
    await requireConsent(this.#ask, requester, {
      kind: 'chainConfig',
      config,
      replaces: this.#store.current.chains[config.scope] !== undefined,
    });
    await this.#store.run(async () => {
      const draft = this.#store.draft();
      if (draft.chains[config.scope]?.rpcUrl !== config.rpcUrl) {
        forgetChainReads(draft, config.scope); // another node: its block numbers start afresh
      }
      draft.chains[config.scope] = config;
      await this.#store.commit(draft);
    });
    // Stryker disable next-line CallExpression: equivalent: only this class writes chain configs, and each was remembered when loaded or set
    this.#rememberStored();
    return maskChainConfig(config);
  }

  /** @returns Every stored chain config, URLs' API keys masked. */
  chainConfigs(): ChainConfig[] {
    return Object.values(this.#store.current.chains).map(maskChainConfig);
  }

  /**
   * @param scope - CAIP-2 chain id.
   * @returns The stored config, unmasked: for the snap's own calls, never to show.
   */
  chainConfig(scope: string): ChainConfig | undefined {
    return this.#store.current.chains[scope];
  }

  /**
   * The Delegation Framework grants and DeleGator accounts use on a chain: the chain config's
   * `delegationEnvironment`, else MetaMask's canonical v1.3.0 deployment where the chain has it
   * (`@metamask/delegation-deployments`).
   *
   * @param scope - CAIP-2 chain id, `eip155:<decimal chain id>`.
   * @returns A copy of the environment (the kit's `SmartAccountsEnvironment` shape, checksummed
   * addresses), or undefined when the chain has no config or no environment.
   */
  delegationEnvironment(scope: string): DelegationEnvironment | undefined {
    const config = this.#store.current.chains[scope];
    return config
      ? resolveDelegationEnvironment(
          config.delegationEnvironment,
          parseScope(scope).chainId,
        )
      : undefined;
  }

  /**
   * The home page's view of the chains' `gasTokens`: each token's symbol and each account's
   * balance (tokenHoldings.ts; one batched round trip per chain that lists tokens).
   *
   * @param holders - The accounts: id, address and chains.
   * @returns The symbols and balances; a chain that fails is left out.
   */
  async gasTokens(
    holders: { id: string; address: string; scopes: string[] }[],
  ): Promise<GasTokenView> {
    return readGasTokens(Object.values(this.#store.current.chains), holders);
  }

  /** @returns Every stored chain config by scope, unmasked (for the snap's own calls). */
  allChainConfigs(): Readonly<Record<string, ChainConfig>> {
    return this.#store.current.chains;
  }

  /**
   * Remove the chain config of one scope. Accounts on that scope keep their address; sending on
   * it needs the chain configured again. Only the snap's own callers use it (the home page, after
   * its own confirmation dialog): no RPC method exposes it.
   *
   * @param scope - CAIP-2 chain id, `eip155:<decimal chain id>`.
   * @returns The removed config, URLs' API keys masked.
   * @throws JsonRpcError -32602 when scope is not a chain scope or has no config.
   */
  async removeChainConfig(scope: unknown): Promise<ChainConfig> {
    const valid = validate(scope, ChainScopeStruct, 'removeChainConfig scope');
    return this.#store.run(async () => {
      const draft = this.#store.draft();
      const removed = draft.chains[valid];
      if (removed === undefined) {
        throw invalidParams(
          'Invalid removeChainConfig params at scope: no chain config for it',
        );
      }
      delete draft.chains[valid];
      await this.#store.commit(draft);
      return maskChainConfig(removed);
    });
  }

  /**
   * Validate and store the IPFS HTTP API config; the credentials stay in encrypted state.
   *
   * The whole config is replaced: credentials left out are removed. An apiUrl sent back as shown
   * (masked, `<origin>/***`) keeps the stored URL; any other masked apiUrl is refused.
   * A site's change is confirmed first (the URL masked, the credentials never shown).
   *
   * @param params - `{ apiUrl, apiKey?, apiKeySecret? }`.
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @returns `{ apiUrl }`, masked (`<origin>/***`) when it holds a path or key, credentials never
   * echoed.
   * @throws JsonRpcError -32602 naming the bad field (a masked apiUrl that stands for nothing
   * stored included); 4001 when the user declines.
   */
  async setIpfsConfig(
    params: unknown,
    requester?: Requester,
  ): Promise<{ apiUrl: string }> {
    const config = keepMaskedIpfsUrl(
      parseIpfsConfig(params),
      this.#store.current.ipfs,
    );
    await requireConsent(this.#ask, requester, {
      kind: 'ipfsConfig',
      apiUrl: config.apiUrl,
      credentials:
        config.apiKey !== undefined || config.apiKeySecret !== undefined,
    });
    // Stryker disable next-line ArrayDeclaration: equivalent: no URL to remember; a list holding a text (`['Stryker was here']`) is remembered as a URL and shows only in an error quoting that very text
    rememberCredentials([], [config.apiKey, config.apiKeySecret]);
    await this.#store.run(async () => {
      const draft = this.#store.draft();
      draft.ipfs = config;
      await this.#store.commit(draft);
    });
    return { apiUrl: maskKeyed(config.apiUrl) };
  }

  /** @returns The IPFS config, credentials included (for the IPFS client only), or null. */
  ipfsConfig(): IpfsConfig | null {
    return this.#store.current.ipfs;
  }

  /**
   * @returns The IPFS config as it may be shown: the API URL masked when keyed (`<origin>/***`)
   * and whether a key or secret is set (never their values), or null when unset.
   */
  ipfsSummary(): { apiUrl: string; hasCredentials: boolean } | null {
    const { ipfs } = this.#store.current;
    return ipfs
      ? {
          apiUrl: maskKeyed(ipfs.apiUrl),
          hasCredentials:
            ipfs.apiKey !== undefined || ipfs.apiKeySecret !== undefined,
        }
      : null;
  }

  /**
   * Change the IPFS config from a form whose key and secret inputs are write-only (the home
   * page): a key or secret left out keeps the stored one, unless `clearCredentials` is set (then
   * only the given ones are stored). Stored credentials are kept only for the same API origin
   * (scheme, host, port): they are never sent to another server unless given again.
   *
   * @param edit - The form's values.
   * @param edit.apiUrl - The IPFS HTTP API URL (required, as in `setIpfsConfig`).
   * @param edit.apiKey - A new API key; undefined keeps the stored one.
   * @param edit.apiKeySecret - A new API key secret; undefined keeps the stored one.
   * @param edit.clearCredentials - True: store only the key and secret given, dropping the stored ones.
   * @returns As {@link Settings.setIpfsConfig}.
   * @throws JsonRpcError -32602 naming the bad field; `... at apiKey: ...` when the origin changes
   * while stored credentials would be kept.
   */
  async editIpfsConfig(edit: {
    apiUrl?: string;
    apiKey?: string;
    apiKeySecret?: string;
    clearCredentials?: boolean;
  }): Promise<{ apiUrl: string }> {
    const { clearCredentials = false, ...given } = edit;
    const { apiUrl } = parseIpfsConfig(given); // a bad URL is named as such, before the credentials' checks
    const stored = this.#store.current.ipfs;
    const kept = clearCredentials
      ? {}
      : {
          ...(stored?.apiKey === undefined ? {} : { apiKey: stored.apiKey }),
          ...(stored?.apiKeySecret === undefined
            ? {}
            : { apiKeySecret: stored.apiKeySecret }),
        };
    const keeps =
      (kept.apiKey !== undefined && given.apiKey === undefined) ||
      (kept.apiKeySecret !== undefined && given.apiKeySecret === undefined);
    if (
      keeps &&
      stored &&
      !isMaskedUrl(apiUrl) &&
      !sameServer(apiUrl, stored.apiUrl)
    ) {
      throw invalidParams(
        'Invalid IPFS settings at apiKey: the stored key and secret belong to another server; enter them again for this URL, or clear them',
        { reason: 'invalidField', field: 'apiKey', problem: 'otherServer' },
      );
    }
    return this.setIpfsConfig({ ...kept, ...given });
  }

  /** @returns The approval mode. */
  approvalMode(): ApprovalMode {
    return this.#store.current.approvalMode;
  }

  /**
   * Set the approval mode; a site's change is confirmed first.
   *
   * @param params - `{ mode: "sync" | "async" }`.
   * @param requester - The caller (from the front door); undefined for the snap's home page.
   * @returns `{ mode }` as stored.
   * @throws JsonRpcError -32602 when mode is neither; 4001 when the user declines.
   */
  async setApprovalMode(
    params: unknown,
    requester?: Requester,
  ): Promise<{ mode: ApprovalMode }> {
    const { mode } = validate(
      params,
      ApprovalModeStruct,
      'setApprovalMode params',
    );
    await requireConsent(this.#ask, requester, {
      kind: 'approvalMode',
      from: this.approvalMode(),
      to: mode,
    });
    await this.#store.run(async () => {
      const draft = this.#store.draft();
      draft.approvalMode = mode;
      await this.#store.commit(draft);
    });
    return { mode };
  }
}

/**
 * Whether two URLs name the same server: their exact origins (scheme, host, port, as the WHATWG
 * URL standard serialises them: https://url.spec.whatwg.org/#concept-url-origin) are equal. Masked
 * origins are not enough: `https://ipfs2024x.io` and `https://attack777.io` both show as
 * `https://***.io`.
 *
 * @param a - A URL.
 * @param b - Another URL.
 * @returns True when both parse and their origins are equal.
 */
function sameServer(a: string, b: string): boolean {
  try {
    // Stryker disable BlockStatement: equivalent: the catch below is never reached (both URLs were parsed before); emptied, it returns undefined, as falsy as its false
    return new URL(a).origin === new URL(b).origin;
  } catch {
    // Stryker disable next-line BooleanLiteral: equivalent: never reached, both URLs were parsed before (the given one by parseIpfsConfig, the stored one when set); kept for safety
    return false;
  }
}

// Stryker restore BlockStatement

/**
 * Whether a URL holds something that is shown masked (a path, query, userinfo or key-like host
 * label: see `maskUrl`), so a form must not keep it in an input.
 *
 * @param url - A URL or any text typed as one (text that is not a URL counts as keyed).
 * @returns True when its display form hides part of it.
 */
export function isKeyedUrl(url: string): boolean {
  return isMaskedUrl(maskUrl(url));
}

/** The chain config's URL fields, with the words a person knows them by. */
const URL_FIELDS = [
  ['rpcUrl', 'RPC URL'],
  ['bundlerUrl', 'bundler URL'],
  ['paymasterUrl', 'paymaster URL'],
] as const;

/**
 * Resolve masked URLs: a URL of `config` that equals the masked form of the stored config's URL
 * of the same scope and field is replaced by the stored one; any other masked URL (`***`, see
 * `maskUrl`) is refused, so a placeholder never reaches the network or the state.
 *
 * @param config - The parsed new config.
 * @param stored - The stored configs, by scope.
 * @returns The config to store.
 * @throws JsonRpcError -32602 `Invalid setChainConfig params at <field>: it is masked ...` naming
 * the field, never its value.
 */
function keepMaskedUrls(
  config: ChainConfig,
  stored: Readonly<Record<string, ChainConfig>>,
): ChainConfig {
  const previous = stored[config.scope];
  const kept = { ...config };
  for (const [field, words] of URL_FIELDS) {
    const value = kept[field];
    if (value === undefined || !isMaskedUrl(value)) {
      continue;
    }
    const original = previous?.[field];
    // Stryker disable next-line ConditionalExpression: equivalent: with no stored URL, `maskUrl(undefined)` is `***`, never equal to a masked URL, so the same refusal follows
    if (original === undefined || value !== maskUrl(original)) {
      throw invalidParams(
        `Invalid setChainConfig params at ${field}: it is masked (***), which only keeps the stored URL of the same chain; enter the ${words} again`,
        { reason: 'invalidField', field, problem: 'masked' },
      );
    }
    kept[field] = original;
  }
  return kept;
}

/**
 * Resolve a masked IPFS API URL the same way: the stored URL's masked form as it is shown
 * (`maskKeyed`, the form `ipfsSummary` and `setIpfsConfig` return) keeps it, any other masked URL
 * is refused.
 *
 * @param config - The parsed new IPFS config.
 * @param stored - The stored IPFS config, or null.
 * @returns The config to store.
 * @throws JsonRpcError -32602 `Invalid setIpfsConfig params at apiUrl: it is masked ...`.
 */
function keepMaskedIpfsUrl(
  config: IpfsConfig,
  stored: IpfsConfig | null,
): IpfsConfig {
  if (!isMaskedUrl(config.apiUrl)) {
    return config;
  }
  if (stored === null || maskKeyed(stored.apiUrl) !== config.apiUrl) {
    throw invalidParams(
      'Invalid setIpfsConfig params at apiUrl: it is masked (***), which only keeps the stored URL; enter the IPFS API URL again',
      { reason: 'invalidField', field: 'apiUrl', problem: 'masked' },
    );
  }
  return { ...config, apiUrl: stored.apiUrl };
}
