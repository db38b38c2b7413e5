import { EthAccountType, KeyringEvent } from '@metamask/keyring-api';
import type { KeyringAccount } from '@metamask/keyring-api';
import type { Json } from '@metamask/utils';
import type { Hex } from 'viem';

import {
  assertNameFree,
  checkName,
  countName,
  suggestName,
} from './accountNames';
import { publicAccount } from './accountViews';
import { takeIndex } from './derivedKeys';
import type { DerivedKeys, Key } from './derivedKeys';
import { importedKeyPair } from './keys';
import type { DerivationScheme } from './keys';
import { CreateAccountOptionsStruct } from './options';
import type { CreateAccountOptions } from './options';
import type { KeyringPlatform } from './types';
import { newEoaAccount } from '../accounts';
import { phraseLabel } from './recovery/entropySources';
import type { EntropySources } from './recovery/entropySources';
import { newSmartAccount, resolveSmartAccount } from '../accounts/erc4337';
import type {
  EntryPointVersion,
  ResolvedSmartAccount,
} from '../accounts/erc4337';
import { metadataConsent } from '../consent';
import type { Requester } from '../consent';
import type { MetadataReader } from '../metadata';
import type { Settings } from '../settings';
import type { AccountRecord } from '../state/schema';
import type { StateStore } from '../state/store';
import { invalidParams, userRejected, validate } from '../utils/errors';

/**
 * keyring-api `createAccount`: options, metadata, the key (derived or imported), the smart
 * account's address and the metadata confirmation, then the saved account and its event.
 */
export class AccountCreation {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #metadata: MetadataReader;

  readonly #platform: KeyringPlatform;

  readonly #keys: DerivedKeys;

  readonly #sources: EntropySources;

  /**
   * @param parts - What account creation works with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - Chain and IPFS settings.
   * @param parts.metadata - Reads account metadata from IPFS.
   * @param parts.platform - Events and dialogs.
   * @param parts.keys - Derivation-index reservation and the one-key-one-account rule.
   * @param parts.sources - The Secret Recovery Phrases MetaMask holds (`entropySource`).
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    metadata: MetadataReader;
    platform: KeyringPlatform;
    keys: DerivedKeys;
    sources: EntropySources;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#metadata = parts.metadata;
    this.#platform = parts.platform;
    this.#keys = parts.keys;
    this.#sources = parts.sources;
  }

  /**
   * Create an account. Options: `{ type?: "eip155:eoa" | "eip155:erc4337", privateKey?, scopes?, metadataCid?, entryPointVersion?: "0.6" | "0.7" | "0.8", name?, entropySource? }`
   * (`entryPointVersion` for smart accounts only, default `"0.6"`).
   * Without `privateKey` the key is derived from snap_getEntropy with the next free index of the
   * account type's own salt scheme (`eoa` or `erc4337-owner`) in the Secret Recovery Phrase
   * `entropySource` names (an id of `snap_listEntropySources`; default the primary one, which the
   * account then records by leaving `entropySource` out); `privateKey` (32-byte hex) imports
   * a key and is never kept in the account's options. One key, one account: a key that backs an
   * account already (an EOA's key or a smart account's owner key) is refused, whatever the type
   * of either account.
   * Metadata and the smart account's address are read before the state queue, so a slow server
   * delays only this creation. A smart account whose metadata names an EntryPoint or factory other
   * than the chain config's (or the canonical ones), or bundler or paymaster URLs, is created only
   * after the user confirms a dialog naming them (URLs masked) and the address they give.
   * The account's name (offered to MetaMask as `accountNameSuggestion`, given out in
   * `options.name`) is `options.name` (trimmed; refused when another account has it,
   * case-insensitively, or a look-alike, or when it holds control or bidirectional characters),
   * else the metadata's name when free, else the derived key's own name (`Keyring Account <index +
   * 1>` / `Smart Account <index + 1>`, the name *Find my accounts* gives it again) or, for an
   * imported key, `Imported Keyring Account <n>` / `Imported Smart Account <n>` (see suggestName).
   *
   * @param options - Creation options.
   * @param requester - The caller (from the front door); undefined for the snap's home page (no site is named).
   * @returns The new account, after state is saved and `notify:accountCreated` accepted.
   * @throws JsonRpcError -32602 on malformed options (`privateKey` empty or blank: `... at
   * privateKey: enter a private key`, `data.problem: 'required'`), an entropy source MetaMask does not list
   * (`unknownEntropySource`), `entropySource` with `privateKey`, a duplicate address or name, or a key that backs an
   * account already (`this key already backs account <address>`), 4001 when the user
   * declines, -32001 when a chain or IPFS config is missing.
   */
  async create(
    options: Record<string, Json> = {},
    requester?: Requester,
  ): Promise<KeyringAccount> {
    const parsed = validate<CreateAccountOptions>(
      options,
      CreateAccountOptionsStruct,
      'createAccount options',
    );
    if (parsed.privateKey?.trim() === '') {
      // a form sent with its key input empty: never a derived account instead
      throw invalidParams(
        'Invalid createAccount options at privateKey: enter a private key',
        {
          reason: 'invalidPrivateKey',
          field: 'privateKey',
          problem: 'required',
        },
      );
    }
    const smart = parsed.type === EthAccountType.Erc4337;
    if (parsed.scopes !== undefined && !smart) {
      throw invalidParams(
        'Invalid createAccount options at scopes: EOA accounts serve every EVM chain (eip155:0); scopes are for eip155:erc4337',
      );
    }
    if (parsed.entropySource !== undefined && parsed.privateKey !== undefined) {
      throw invalidParams(
        'Invalid createAccount options at entropySource: an imported key (privateKey) comes from no Secret Recovery Phrase',
      );
    }
    if (parsed.entryPointVersion !== undefined && !smart) {
      throw invalidParams(
        'Invalid createAccount options at entryPointVersion: it is for eip155:erc4337 accounts',
      );
    }
    const NAME = 'createAccount options at name';
    const chosen =
      parsed.name === undefined ? undefined : checkName(parsed.name, NAME);
    if (chosen !== undefined) {
      // before any network call or dialog; checked again in the state queue
      assertNameFree(this.#store.current.accounts, chosen, NAME);
    }
    const metadata =
      parsed.metadataCid === undefined
        ? undefined
        : await this.#metadata.read(parsed.metadataCid);
    const scheme: DerivationScheme = smart ? 'erc4337-owner' : 'eoa';
    const source = await this.#sources.resolve(
      parsed.entropySource,
      'createAccount options at entropySource',
    );
    const { key, derivationIndex } =
      parsed.privateKey === undefined
        ? await this.#keys.reserve(scheme, source)
        : {
            key: importedKeyPair(parsed.privateKey),
            derivationIndex: undefined,
          };
    const phrase =
      source === undefined
        ? undefined
        : phraseLabel(await this.#sources.list(), source);
    try {
      // before any network call or dialog; checked again in the state queue
      this.#keys.assertUnique(key);
      const resolved = smart
        ? await this.#resolveSmartAccount(
            key,
            parsed.scopes,
            metadata?.overrides,
            requester,
            parsed.entryPointVersion,
          )
        : undefined;
      const account = resolved
        ? newSmartAccount(resolved)
        : newEoaAccount(key.address);
      // keyring-api account options: where the key comes from (imported, or the snap's own
      // snap_getEntropy derivation, which has no BIP-44 path), so MetaMask can show it.
      account.options.entropy = {
        type: derivationIndex === undefined ? 'private-key' : 'custom',
      };
      if (parsed.metadataCid !== undefined) {
        account.options.metadataCid = parsed.metadataCid;
      }
      const record: AccountRecord = {
        account,
        name: '',
        privateKey: key.privateKey,
        ...(derivationIndex === undefined
          ? {}
          : { derivationIndex, derivationScheme: scheme }),
        ...(derivationIndex === undefined || source === undefined
          ? {}
          : { entropySource: source }),
        ...(resolved ? { smartAccount: resolved.data } : {}),
      };
      return await this.#store.run(async () => {
        this.#keys.assertUnique(key, account.address);
        const draft = this.#store.draft();
        if (derivationIndex !== undefined) {
          takeIndex(draft, scheme, source, derivationIndex);
        }
        if (chosen !== undefined) {
          assertNameFree(draft.accounts, chosen, NAME);
        }
        const name =
          chosen ??
          suggestName(
            draft.accounts,
            { smart, index: derivationIndex, phrase },
            metadata?.name,
            draft.nameCounters?.[smart ? 'smart' : 'eoa'],
          );
        countName(draft, smart, name);
        draft.accounts[account.id] = { ...record, name };
        const created = publicAccount(draft.accounts[account.id]);
        await this.#store.commit(draft, async () =>
          this.#platform.emitEvent(KeyringEvent.AccountCreated, {
            account: created,
            accountNameSuggestion: name,
          }),
        );
        return created;
      });
    } finally {
      if (derivationIndex !== undefined) {
        this.#keys.release(scheme, derivationIndex, source);
      }
    }
  }

  /**
   * Resolve a smart account on `scopes` (default: every configured chain); confirm contracts
   * metadata chose.
   *
   * @param key - The owner key of the smart account.
   * @param scopes - CAIP-2 chain ids to resolve it on; `undefined` for every configured chain.
   * @param overrides - Factory and EntryPoint from the account metadata, if any.
   * @param requester - The site that asks (named in the metadata confirmation); undefined for the
   * home page.
   * @param version - The EntryPoint version (default v0.6).
   * @returns The resolved smart account (address, ERC-4337 data, whether the contracts are the
   * configured ones).
   * @throws JsonRpcError 4001 if the user declines a factory, bundler or paymaster the metadata named.
   */
  async #resolveSmartAccount(
    key: Key,
    scopes: string[] | undefined,
    overrides: ResolvedOverrides,
    requester?: Requester,
    version: EntryPointVersion = '0.6',
  ): Promise<ResolvedSmartAccount> {
    const chains = this.#settings.allChainConfigs();
    const resolved = await resolveSmartAccount(
      key.address as Hex,
      scopes ? [...new Set(scopes)] : Object.keys(chains),
      { ...chains },
      overrides,
      version,
    );
    const consent = metadataConsent(resolved, requester?.origin);
    if (consent) {
      const confirmed = await this.#platform.confirm(
        consent.title,
        consent.text,
      );
      if (!confirmed) {
        throw userRejected(
          'The user declined the factory or services named by the metadata',
        );
      }
    }
    return resolved;
  }
}

/** Factory and EntryPoint chosen by account metadata, as resolveSmartAccount takes them. */
type ResolvedOverrides = Parameters<typeof resolveSmartAccount>[3];
