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
    // MetaMask is told: the account with its new name in options.name (never stored there)
    expect(events.slice(emitted)).toStrictEqual([
      {
        event: KeyringEvent.AccountUpdated,
        data: { account: { ...a, options: { ...a.options, name: 'Savings' } } },
      },
    ]);
    expect(saved.at(-1)?.accounts[a.id]?.account.options.name).toBeUndefined();
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

  it("names a derived key's account by its index, an imported key's by its own count, never reusing either", async () => {
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
    const imported = await keyring.createAccount({
      privateKey: generatePrivateKey(),
    });
    await keyring.deleteAccount(imported.id);
    await keyring.createAccount({ privateKey: generatePrivateKey() });
    expect(suggestions(events)).toStrictEqual([
      'Keyring Account 1', // index 0
      'Keyring Account 2', // index 1
      'Keyring Account 7', // index 2, the name asked for
      'Keyring Account 4', // index 3, deleted
      'Keyring Account 5', // index 4: the index's name, never index 3's
      'Imported Keyring Account 1',
      'Imported Keyring Account 2', // not 1: MetaMask still shows that label
    ]);
    expect(saved.at(-1)?.nameCounters).toStrictEqual({ eoa: 2, smart: 0 });
  });

  it('a derived name another account took is never given twice: the next free number instead', async () => {
    const { keyring, events } = newKeyring();
    const first = await keyring.createAccount();
    await keyring.renameAccount(first.id, 'Keyring Account 2');
    await keyring.createAccount(); // index 1 would be Keyring Account 2
    expect(suggestions(events).at(-1)).toBe('Keyring Account 3');
    const names = keyring.describeAccounts().map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keyring_updateAccount renames with the rules of the page: options.name is the one name, given out everywhere', async () => {
    const { keyring, events, saved } = newKeyring();
    const a = await keyring.createAccount({ name: 'Savings' });
    const b = await keyring.createAccount();
    // the name given at creation is the account's options.name
    expect(a.options.name).toBe('Savings');
    expect((await keyring.getAccount(b.id)).options.name).toBe(
      'Keyring Account 2',
    );
    const emitted = events.length;
    await keyring.updateAccount({
      ...b,
      options: { ...b.options, name: '  Spending ' },
    });
    const renamed = await keyring.getAccount(b.id);
    expect(renamed.options.name).toBe('Spending');
    expect(
      keyring.describeAccounts().find(({ account }) => account.id === b.id)
        ?.name,
    ).toBe('Spending');
    expect(
      (await keyring.listAccounts()).map(({ options }) => options.name),
    ).toStrictEqual(['Savings', 'Spending']);
    expect(events.slice(emitted)).toStrictEqual([
      { event: KeyringEvent.AccountUpdated, data: { account: renamed } },
    ]);
    expect(saved.at(-1)?.accounts[b.id]?.name).toBe('Spending');
    expect(saved.at(-1)?.accounts[b.id]?.account.options.name).toBeUndefined();
    // an update without options.name keeps the name
    const { name: _name, ...rest } = renamed.options;
    await keyring.updateAccount({ ...renamed, options: rest });
    expect((await keyring.getAccount(b.id)).options.name).toBe('Spending');

    const before = JSON.stringify(saved.at(-1));
    const count = events.length;
    for (const [name, reason] of [
      ['SAVINGS', 'nameTaken'],
      ['S\u0430vings', 'nameLookalike'],
      ['   ', 'invalidName'],
      ['Sav\u202Egnivas', 'invalidName'],
      [42, 'invalidName'],
    ] as const) {
      const error = await keyring
        .updateAccount({ ...renamed, options: { ...renamed.options, name } })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32602, data: { reason } });
      expect((error as Error).message).toMatch(
        /^Invalid account at options\.name: /u,
      );
      expect((error as Error).message.toLowerCase()).not.toContain('savings');
    }
    expect(JSON.stringify(saved.at(-1))).toBe(before);
    expect(events).toHaveLength(count);
    expect((await keyring.getAccount(b.id)).options.name).toBe('Spending');
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
