import { EthAccountType, KeyringEvent } from '@metamask/keyring-api';
import type { KeyringAccount } from '@metamask/keyring-api';
import type { Hex } from 'viem';
import { isAddressEqual } from 'viem';

import { suggestName } from '../accountNames';
import { publicAccount } from '../accountViews';
import { takeIndex } from '../derivedKeys';
import type { DerivedKeys, Key } from '../derivedKeys';
import { phraseLabel, phraseNames } from './entropySources';
import type { EntropySources } from './entropySources';
import { RECOVERY_LIMITS } from './recoveryPlan';
import { searchAccounts } from './recoverySearch';
import type { FoundAccount } from './recoverySearch';
import type {
  EntropySource,
  FindAccountsOptions,
  RecoveredAccount,
  RecoveryReport,
  RestoreAccountParams,
  SkippedAccount,
} from './recoveryTypes';
import { RESTORE, RestoreAccountParamsStruct } from './restoreParams';
import type { Restoring } from './restoreParams';
import { newEoaAccount } from '../../accounts';
import {
  contractsOf,
  newSmartAccount,
  resolveSmartAccount,
} from '../../accounts/erc4337';
import type {
  EntryPointVersion,
  ResolvedSmartAccount,
} from '../../accounts/erc4337';
import type { Requester } from '../../consent';
import { isSite, requireConsent } from '../../consent';
import type { Settings } from '../../settings';
import type { AccountRecord, DerivationScheme } from '../../state/schema';
import type { StateStore } from '../../state/store';
import { invalidParams, validate } from '../../utils/errors';
import type { KeyringPlatform } from '../types';

/**
 * Account recovery: *Find my accounts* (search every Secret Recovery Phrase and salt scheme for
 * used accounts and add the ones missing) and restore by index. Network reads happen before the
 * state queue; each account is then added alone in the queue, on a copy of the state that is
 * saved before `notify:accountCreated` is sent (and rolled back if MetaMask refuses it), as
 * createAccount does.
 */
export class Recovery {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #platform: KeyringPlatform;

  readonly #keys: DerivedKeys;

  readonly #sources: EntropySources;

  /** The search running now, shared by every caller until it ends. */
  #running: Promise<RecoveryReport> | undefined;

  /**
   * @param parts - What recovery works with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - The chain configs.
   * @param parts.platform - Key derivation and keyring events.
   * @param parts.keys - The one-key-one-account rule.
   * @param parts.sources - The Secret Recovery Phrases MetaMask holds.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: KeyringPlatform;
    keys: DerivedKeys;
    sources: EntropySources;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#platform = parts.platform;
    this.#keys = parts.keys;
    this.#sources = parts.sources;
  }

  /** @returns The entropy sources, checked, primary first (see EntropySources.list). */
  async listSources(): Promise<EntropySource[]> {
    return this.#sources.list();
  }

  /**
   * Find my accounts*. For each entropy source and salt scheme (`eoa`, `erc4337-owner`, and for
   * the primary phrase `legacy`), derive indices 0, 1, 2, … and ask every configured chain
   * whether each was used: an EOA when its nonce or balance is above 0, a smart account (the
   * owner's counterfactual address with the chain's factory) when it has code or a balance.
   * A scheme ends after 20 unused indices in a row; the whole search is bounded by
   * RECOVERY_LIMITS (indices, calls, time). Each used account this snap does not hold is then
   * added at its index, with the same address and type (a smart account on every configured chain
   * that shares the factory and EntryPoint of a chain where it was found, resolved exactly as
   * createAccount resolves it), named as createAccount names its index (`Smart Account 2` for the
   * owner index 1: the name it was created with unless it was renamed), and the next index of its scheme moves
   * past it. Nothing is added twice: a second run adds nothing. A call while a search runs waits
   * for that search and gets its report. MetaMask asks the person about each account added
   * (`notify:accountCreated`); once she declines one, the rest are not asked (`declined`), so one
   * call prompts at most once after a refusal. A site is first asked for in a dialog naming it, the
   * phrases, the chains and the kinds searched (snap_dialog); its reply lists only the accounts
   * added (`skipped` is empty), never those she declined or already holds.
   *
   * @param options - `onProgress`, called after each window of indices.
   * @param requester - The calling site; undefined for the home page (no dialog).
   * @returns The report; with no chain configured, `noChain: true` and nothing searched.
   * @throws JsonRpcError 4001 when the person declines a site's search (nothing searched or
   * added); whatever saving the state throws (accounts added before stay added).
   */
  async find(
    options: FindAccountsOptions = {},
    requester?: Requester,
  ): Promise<RecoveryReport> {
    const chains = Object.keys(this.#settings.allChainConfigs());
    const site = isSite(requester);
    if (site && chains.length > 0) {
      await requireConsent(this.#platform.confirmConsent, requester, {
        kind: 'findAccounts',
        phrases: phraseNames(await this.#sources.list()),
        chains,
      });
    }
    this.#running ??= this.#find(options).finally(() => {
      this.#running = undefined;
    });
    const report = await this.#running;
    return site ? { ...report, skipped: [] } : report;
  }

  /**
   * Restore the account of one derivation index (see KeyringSnap.restoreAccount).
   *
   * @param params - `{ type, index, entropySource?, scheme?, entryPointVersion? }`.
   * @param requester - The calling site (asked first in a dialog naming the phrase, kind, index,
   * address and chains); undefined for the home page.
   * @returns The restored account.
   * @throws JsonRpcError -32602 for bad params or a key or address held already; -32001 for a
   * smart account without a chain; 4001 when the person declines a site's dialog or MetaMask's.
   */
  async restore(
    params: unknown,
    requester?: Requester,
  ): Promise<KeyringAccount> {
    const parsed = validate<RestoreAccountParams>(
      params,
      RestoreAccountParamsStruct,
      'restoreAccount params',
    );
    const smart = parsed.type === EthAccountType.Erc4337;
    const scheme: DerivationScheme =
      parsed.scheme ?? (smart ? 'erc4337-owner' : 'eoa');
    if ((scheme === 'eoa' && smart) || (scheme === 'erc4337-owner' && !smart)) {
      throw invalidParams(
        `Invalid restoreAccount params at scheme: the ${scheme} scheme derives no ${parsed.type} account`,
      );
    }
    if (parsed.entryPointVersion && !smart) {
      throw invalidParams(
        'Invalid restoreAccount params at entryPointVersion: only a smart account has one',
      );
    }
    const sourceArg = await this.#sources.resolve(
      parsed.entropySource,
      'restoreAccount params at entropySource',
    );
    if (scheme === 'legacy' && sourceArg !== undefined) {
      throw invalidParams(
        'Invalid restoreAccount params at scheme: legacy accounts come from the primary Secret Recovery Phrase only',
      );
    }
    const key = await this.#platform.deriveKey(parsed.index, scheme, sourceArg);
    this.#keys.assertUnique(key, smart ? undefined : key.address, RESTORE);
    const resolved = smart
      ? await this.#resolve(key, [], parsed.entryPointVersion)
      : undefined;
    this.#keys.assertUnique(key, resolved?.address ?? key.address, RESTORE);
    const sources = await this.#sources.list();
    const at = sources.findIndex(
      (source) => source.id === (sourceArg ?? sources[0].id),
    );
    await requireConsent(this.#platform.confirmConsent, requester, {
      kind: 'restoreAccount',
      phrase: phraseNames(sources)[Math.max(at, 0)],
      index: parsed.index,
      address: resolved?.address ?? key.address,
      ...(resolved
        ? {
            version: resolved.data.entryPointVersion ?? '0.6',
            chains: resolved.scopes,
          }
        : {}),
    });
    const { account } = await this.#add({
      key,
      kind: smart ? 'smart' : 'eoa',
      index: parsed.index,
      scheme,
      sourceArg,
      phrase: phraseLabel(sources, sourceArg),
      resolved,
    });
    return account;
  }

  /**
   * The search and the additions of `find`.
   *
   * @param options - The options.
   * @param options.onProgress - Called after each window of indices.
   * @returns The report.
   */
  async #find({ onProgress }: FindAccountsOptions): Promise<RecoveryReport> {
    const chains = Object.values(this.#settings.allChainConfigs());
    const sources = await this.#sources.list();
    const count = { roundTrips: 0, calls: 0 };
    const report: RecoveryReport = {
      noChain: chains.length === 0,
      chains: chains.map((chain) => chain.scope),
      unreachable: [],
      interrupted: [],
      sources,
      searched: [],
      added: [],
      skipped: [],
      roundTrips: 0,
      calls: 0,
    };
    if (report.noChain) {
      return report;
    }
    const outcome = await searchAccounts({
      sources,
      chains,
      deriveKey: async (index, scheme, source) =>
        this.#platform.deriveKey(index, scheme, source),
      count,
      onProgress,
      limits: RECOVERY_LIMITS,
    });
    report.searched = outcome.searched;
    report.unreachable = outcome.unreachable;
    report.interrupted = outcome.interrupted;
    for (const found of outcome.found) {
      // after one refusal the rest are not asked: one call prompts no further
      const declined = report.skipped.some(
        ({ reason }) => reason === 'declined',
      );
      const added = await this.#addFound(
        found,
        declined,
        phraseLabel(sources, found.sourceArg),
      );
      if ('reason' in added) {
        report.skipped.push(added);
      } else {
        report.added.push(added);
      }
    }
    report.roundTrips = count.roundTrips;
    report.calls = count.calls;
    return report;
  }

  /**
   * Add one found account, or say why not.
   *
   * @param found - The found account.
   * @param declined - Whether the person declined one already (then she is not asked again).
   * @param phrase - The name of its phrase when not the primary one (in its suggested name).
   * @returns The added account, or the skipped one with its reason.
   */
  async #addFound(
    found: FoundAccount,
    declined: boolean,
    phrase: string | undefined,
  ): Promise<RecoveredAccount | SkippedAccount> {
    const type =
      found.kind === 'smart' ? EthAccountType.Erc4337 : EthAccountType.Eoa;
    const base = {
      address: found.address,
      type,
      index: found.index,
      scheme: found.scheme,
      source: found.source.id,
      // named for v0.7 / v0.8 smart accounts; a v0.6 account's entry is as it was
      ...(found.entryPointVersion && found.entryPointVersion !== '0.6'
        ? { entryPointVersion: found.entryPointVersion }
        : {}),
    } as const;
    const held = this.#heldBy(found.key, found.address);
    if (held) {
      return { ...base, ...held };
    }
    if (declined) {
      return { ...base, reason: 'declined' };
    }
    let resolved: ResolvedSmartAccount | undefined;
    if (found.kind === 'smart') {
      resolved = await this.#resolve(
        found.key,
        found.usedOn,
        found.entryPointVersion,
      ).catch(() => undefined);
      if (!resolved || !isAddressEqual(resolved.address, found.address)) {
        return { ...base, reason: 'failed' };
      }
    }
    let refused = false;
    try {
      const { account, name } = await this.#add(
        {
          key: found.key,
          kind: found.kind,
          index: found.index,
          scheme: found.scheme,
          sourceArg: found.sourceArg,
          phrase,
          resolved,
        },
        () => {
          refused = true;
        },
      );
      return {
        ...base,
        id: account.id,
        name,
        ...(resolved ? { scopes: resolved.scopes } : {}),
      };
    } catch (error) {
      if (refused) {
        return { ...base, reason: 'declined' };
      }
      const held2 = this.#heldBy(found.key, found.address);
      if (held2) {
        return { ...base, ...held2 }; // taken meanwhile by a creation
      }
      throw error;
    }
  }

  /**
   * Whether an account holds the found address, or its key backs another account.
   *
   * @param key - The key.
   * @param address - The address found.
   * @returns `{ reason, existing }`, or undefined when neither.
   */
  #heldBy(
    key: Key,
    address: string,
  ): Pick<SkippedAccount, 'reason' | 'existing'> | undefined {
    const holder = this.#keys.holder(key, address);
    if (!holder) {
      return undefined;
    }
    return {
      reason: isAddressEqual(holder.account.address as Hex, address as Hex)
        ? 'exists'
        : 'keyInUse',
      existing: holder.account.id,
    };
  }

  /**
   * Resolve the smart account of `key` as createAccount does (resolveSmartAccount: address
   * computed and checked against the factory's getAddress on each chain), on the configured chains
   * that share the factory and EntryPoint of `version` (contractsOf) with the first chain in `near`
   * (default: every configured chain, as createAccount's default).
   *
   * @param key - The owner key.
   * @param near - Chains where the account was seen used, if any.
   * @param version - Its EntryPoint version (default v0.6, as createAccount's default).
   * @returns The resolved account.
   * @throws As resolveSmartAccount (-32001 `noChainConfig` without a chain).
   */
  async #resolve(
    key: Key,
    near: string[] = [],
    version: EntryPointVersion = '0.6',
  ): Promise<ResolvedSmartAccount> {
    const chains = this.#settings.allChainConfigs();
    const first = near.length > 0 ? chains[near[0]] : undefined;
    const wanted = first ? contractsOf(first, version) : undefined;
    const scopes = Object.values(chains)
      .filter((config) => {
        if (!wanted) {
          return true;
        }
        const own = contractsOf(config, version);
        return (
          isAddressEqual(
            own.accountFactory as Hex,
            wanted.accountFactory as Hex,
          ) && isAddressEqual(own.entryPoint as Hex, wanted.entryPoint as Hex)
        );
      })
      .map((config) => config.scope);
    return resolveSmartAccount(
      key.address as Hex,
      scopes,
      { ...chains },
      {},
      version,
    );
  }

  /**
   * Save one account in the state queue and announce it (`notify:accountCreated`), as
   * createAccount does: the key and address checked again there, the index's own name given there
   * (suggestName; another when an account has it), the
   * next index of its scheme moved past it while that stays within the search's reach
   * (RECOVERY_LIMITS.maxIndex): an index restored beyond it leaves the next index where it is, so
   * later accounts stay where *Find my accounts* looks (creation skips a key held already).
   *
   * @param restoring - The key, kind, index, scheme, source and resolved smart account.
   * @param onRefused - Called when MetaMask refuses the event (the change is rolled back).
   * @returns The account and its name.
   * @throws JsonRpcError -32602 when the key or address is held meanwhile; the refusal.
   */
  async #add(
    restoring: Restoring,
    onRefused?: () => void,
  ): Promise<{ account: KeyringAccount; name: string }> {
    const { key, kind, index, scheme, sourceArg, phrase, resolved } = restoring;
    const account = resolved
      ? newSmartAccount(resolved)
      : newEoaAccount(key.address);
    // as createAccount: the key comes from the snap's own snap_getEntropy derivation
    account.options.entropy = { type: 'custom' };
    const record: AccountRecord = {
      account,
      name: '',
      privateKey: key.privateKey,
      derivationIndex: index,
      derivationScheme: scheme,
      ...(sourceArg === undefined ? {} : { entropySource: sourceArg }),
      ...(resolved ? { smartAccount: resolved.data } : {}),
    };
    return this.#store.run(async () => {
      this.#keys.assertUnique(key, account.address, RESTORE);
      const draft = this.#store.draft();
      if (index + 1 < RECOVERY_LIMITS.maxIndex) {
        takeIndex(draft, scheme, sourceArg, index);
      }
      const name = suggestName(draft.accounts, {
        smart: kind === 'smart',
        index,
        phrase,
      });
      draft.accounts[account.id] = { ...record, name };
      const added = publicAccount(draft.accounts[account.id]);
      await this.#store.commit(draft, async () =>
        this.#platform
          .emitEvent(KeyringEvent.AccountCreated, {
            account: added,
            accountNameSuggestion: name,
          })
          .catch((error: unknown) => {
            onRefused?.();
            throw error;
          }),
      );
      return { account: added, name };
    });
  }
}
