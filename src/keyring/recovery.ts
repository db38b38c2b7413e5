import type { KeyringAccount } from '@metamask/keyring-api';

import type { DerivedKeys } from './derivedKeys';
import type { EntropySources } from './entropySources';
import type {
  EntropySource,
  FindAccountsOptions,
  RecoveryReport,
} from './recoveryTypes';
import type { KeyringPlatform } from './types';
import type { Settings } from '../settings';
import type { StateStore } from '../state/store';
import { internalError } from '../utils/errors';

/**
 * Account recovery: *Find my accounts* (search every Secret Recovery Phrase and salt scheme for
 * used accounts and add them) and restore by index.
 */
export class Recovery {
  readonly #sources: EntropySources;

  /**
   * @param parts - What recovery works with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - The chain configs.
   * @param parts.platform - Key derivation and keyring events.
   * @param parts.keys - The one-key-one-account rule and running creations' indices.
   * @param parts.sources - The Secret Recovery Phrases MetaMask holds.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: KeyringPlatform;
    keys: DerivedKeys;
    sources: EntropySources;
  }) {
    this.#sources = parts.sources;
  }

  /** @returns The entropy sources, checked, primary first (see EntropySources.list). */
  async listSources(): Promise<EntropySource[]> {
    return this.#sources.list();
  }

  /**
   * Find my accounts* (not implemented yet).
   *
   * @param _options - `onProgress`.
   * @returns The report.
   */
  async find(_options: FindAccountsOptions): Promise<RecoveryReport> {
    throw internalError('findAccounts is not implemented yet');
  }

  /**
   * Restore by index (not implemented yet).
   *
   * @param _params - `{ type, index, entropySource?, scheme? }`.
   * @returns The account.
   */
  async restore(_params: unknown): Promise<KeyringAccount> {
    throw internalError('restoreAccount is not implemented yet');
  }
}
