import { KeyringEvent } from '@metamask/keyring-api';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import type { KeyringPlatform, KeyringSnap } from './keyring';
import { defaultState } from '../state/store';
import type { KeyringState, StateSaver } from '../state/store';

/** The keyring's platform plus saving state, as createDomain takes it. */
type Platform = KeyringPlatform & { saveState: StateSaver };

/**
 * A keyring over a fresh state whose platform records saved states and events and derives a new
 * random key for each index.
 *
 * @returns The keyring, the saved states and the events.
 */
function newKeyring(): {
  keyring: KeyringSnap;
  saved: KeyringState[];
  events: { event: string; data: any }[];
} {
  const saved: KeyringState[] = [];
  const events: { event: string; data: any }[] = [];
  const platform: Platform = {
    saveState: async (state) => {
      saved.push(JSON.parse(JSON.stringify(state)));
    },
    emitEvent: async (event, data) => {
      events.push({ event, data });
    },
    confirm: async () => true,
    deriveKey: async () => {
      const privateKey = generatePrivateKey();
      return { privateKey, address: privateKeyToAddress(privateKey) };
    },
  };
  const { keyring } = createDomain(defaultState(), platform, () => ({
    message: 'approve on the home page',
  }));
  return { keyring, saved, events };
}

/**
 * The name each keyring event suggested to MetaMask.
 *
 * @param events - The recorded events.
 * @returns The suggestions of the notify:accountCreated events, in order.
 */
const suggestions = (events: { event: string; data: any }[]): string[] =>
  events
    .filter(({ event }) => event === KeyringEvent.AccountCreated)
    .map(({ data }) => data.accountNameSuggestion);

describe('account names', () => {
  it('suggests a name no account has: create two, delete the first, create again', async () => {
    const { keyring, events } = newKeyring();
    const first = await keyring.createAccount();
    await keyring.createAccount();
    await keyring.deleteAccount(first.id);
    await keyring.createAccount();
    expect(suggestions(events)).toStrictEqual([
      'Keyring Account 1',
      'Keyring Account 2',
      'Keyring Account 3',
    ]);
    const names = keyring.describeAccounts().map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('skips a number a renamed account took, whatever its case', async () => {
    const { keyring, events } = newKeyring();
    const first = await keyring.createAccount();
    await keyring.renameAccount(first.id, 'keyring account 2');
    await keyring.createAccount();
    expect(suggestions(events)).toStrictEqual([
      'Keyring Account 1',
      'Keyring Account 3',
    ]);
  });

  it('refuses options.name another account has (case-insensitive), naming `name` and not the value', async () => {
    const { keyring } = newKeyring();
    await keyring.createAccount({ name: 'Savings' });
    const error = await keyring
      .createAccount({ name: '  SAVINGS ' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: -32602,
      data: { reason: 'nameTaken' },
    });
    expect((error as Error).message).toMatch(
      /^Invalid createAccount options at name: account 0x[0-9a-fA-F]{40} has this name already$/u,
    );
    expect(await keyring.listAccounts()).toHaveLength(1);
  });

  it('renames: trimmed, saved, unique, refusing empty, long and bidi names without echoing them', async () => {
    const { keyring, saved, events } = newKeyring();
    const a = await keyring.createAccount();
    const b = await keyring.createAccount();
    const emitted = events.length;
    expect(await keyring.renameAccount(a.id, '  Savings  ')).toBe('Savings');
    expect(saved.at(-1)?.accounts[a.id]?.name).toBe('Savings');
    expect(events).toHaveLength(emitted); // keyring-api accounts carry no name: no event
    // renaming to its own name, in another case, is allowed
    expect(await keyring.renameAccount(a.id, 'SAVINGS')).toBe('SAVINGS');
    for (const [name, reason] of [
      ['savings', 'nameTaken'],
      ['   ', 'invalidName'],
      ['x'.repeat(65), 'invalidName'],
      ['Sav\u202Egnivas', 'invalidName'],
      ['line\nbreak', 'invalidName'],
      [42, 'invalidName'],
    ] as const) {
      const error = await keyring
        .renameAccount(b.id, name)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32602, data: { reason } });
      expect((error as Error).message).toMatch(/^Invalid name: /u);
      const typed = String(name).trim();
      expect(typed !== '' && (error as Error).message.includes(typed)).toBe(
        false,
      );
    }
    expect(
      keyring.describeAccounts().find(({ account }) => account.id === b.id)
        ?.name,
    ).toBe('Keyring Account 2');
    await expect(
      keyring.renameAccount('6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40', 'x'),
    ).rejects.toMatchObject({ code: -32001 });
  });

  it('never suggests a number again after a rename, nor after a reload of the saved state', async () => {
    const { keyring, events, saved } = newKeyring();
    const first = await keyring.createAccount();
    await keyring.renameAccount(first.id, 'Savings');
    await keyring.createAccount();
    await keyring.createAccount({
      type: 'eip155:eoa',
      name: 'Keyring Account 7',
    });
    const last = await keyring.createAccount();
    await keyring.deleteAccount(last.id);
    await keyring.createAccount();
    expect(suggestions(events)).toStrictEqual([
      'Keyring Account 1',
      'Keyring Account 2',
      'Keyring Account 7',
      'Keyring Account 8',
      'Keyring Account 9',
    ]);
    expect(saved.at(-1)?.nameCounters).toStrictEqual({ eoa: 9, smart: 0 });
  });

  it('refuses a look-alike of another name (the same confusable skeleton), naming the other account', async () => {
    const { keyring } = newKeyring();
    const savings = await keyring.createAccount({ name: 'Savings' });
    const other = await keyring.createAccount();
    for (const lookalike of [
      'S\u0430vings',
      '\u0405avings',
      'SAV\u0399NGS',
      'Savlngs',
    ]) {
      await expect(
        keyring.renameAccount(other.id, lookalike),
      ).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'nameLookalike', address: savings.address },
      });
    }
    await expect(
      keyring.createAccount({ name: 'S\u0430vings' }),
    ).rejects.toMatchObject({ data: { reason: 'nameLookalike' } });
    expect(await keyring.renameAccount(other.id, 'Savings 2')).toBe(
      'Savings 2',
    );
  });
});
