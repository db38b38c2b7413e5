import { KeyringEvent } from '@metamask/keyring-api';
import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import type { KeyringPlatform, KeyringSnap } from './keyring';
import { defaultState, migrate } from '../state/store';
import type { KeyringState, StateSaver } from '../state/store';

/** The keyring's platform plus saving state, as createDomain takes it. */
type Platform = KeyringPlatform & { saveState: StateSaver };

/**
 * Where parked requests are approved, in these tests.
 *
 * @returns A fixed message, without URL.
 */
const redirect = (): { message: string } => ({
  message: 'approve on the home page',
});

/**
 * A keyring over `state`.
 *
 * @param state - The loaded state.
 * @param platform - The fake platform.
 * @returns The domain's keyring.
 */
const newKeyring = (state: KeyringState, platform: Platform): KeyringSnap =>
  createDomain(state, platform, redirect).keyring;

const KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
];

/**
 * A platform that records what it saves and emits, confirms everything and derives KEYS[index].
 *
 * @param overrides - Platform members to replace (a refusing emitEvent, a failing save...).
 * @returns The platform, the states it saved (copies) and the events it emitted.
 */
function fakePlatform(overrides: Partial<Platform> = {}): {
  platform: Platform;
  saved: KeyringState[];
  events: { event: string; data: unknown }[];
} {
  const saved: KeyringState[] = [];
  const events: { event: string; data: unknown }[] = [];
  const platform: Platform = {
    saveState: async (state) => {
      saved.push(JSON.parse(JSON.stringify(state)));
    },
    emitEvent: async (event, data) => {
      events.push({ event, data });
    },
    confirm: async () => true,
    deriveKey: async (index) => ({
      privateKey: KEYS[index],
      address: privateKeyToAddress(KEYS[index] as `0x${string}`),
    }),
    ...overrides,
  };
  return { platform, saved, events };
}

/**
 * Park a personal_sign request of `account` (the keyring must be in async approval mode).
 *
 * @param keyring - The keyring.
 * @param account - The signing account.
 * @param account.id - Its id.
 * @param account.address - Its address.
 * @param id - The request id.
 * @param message - The message, hex.
 */
async function parkPersonalSign(
  keyring: KeyringSnap,
  account: { id: string; address: string },
  id: string,
  message = '0x00',
): Promise<void> {
  await keyring.submitRequest({
    id,
    scope: '',
    account: account.id,
    origin: 'https://dapp.example',
    request: { method: 'personal_sign', params: [message, account.address] },
  });
}

describe('KeyringSnap (Node, fake platform)', () => {
  it('saves state before emitting notify:accountCreated', async () => {
    const order: string[] = [];
    const { platform } = fakePlatform({
      saveState: async () => {
        order.push('save');
      },
      emitEvent: async (event) => {
        order.push(event);
      },
    });
    await newKeyring(defaultState(), platform).createAccount();
    expect(order).toStrictEqual(['save', KeyringEvent.AccountCreated]);
  });

  it('rolls the state back when MetaMask refuses the event (user cancelled)', async () => {
    const { platform, saved } = fakePlatform({
      emitEvent: async () => {
        throw new Error('User rejected');
      },
    });
    const keyring = newKeyring(defaultState(), platform);
    await expect(keyring.createAccount()).rejects.toThrow('User rejected');
    expect(await keyring.listAccounts()).toStrictEqual([]);
    expect(saved.at(-1)).toStrictEqual(defaultState());
  });

  it('runs concurrent creations one at a time with distinct derivation indexes', async () => {
    const { platform, saved } = fakePlatform();
    const keyring = newKeyring(defaultState(), platform);
    const [a, b] = await Promise.all([
      keyring.createAccount(),
      keyring.createAccount(),
    ]);
    expect(a.address).toBe(privateKeyToAddress(KEYS[0] as `0x${string}`));
    expect(b.address).toBe(privateKeyToAddress(KEYS[1] as `0x${string}`));
    expect(saved.at(-1)?.nextDerivationIndex).toStrictEqual({
      legacy: 0,
      eoa: 2,
      'erc4337-owner': 0,
    });
  });

  it('never puts the key in the account, the events or an error', async () => {
    const { platform, events } = fakePlatform();
    const keyring = newKeyring(defaultState(), platform);
    const account = await keyring.createAccount();
    const error = await keyring
      .createAccount({ privateKey: KEYS[0] })
      .catch((caught: Error) => caught.message);
    const visible = JSON.stringify([account, events, error]);
    expect(visible).not.toContain(KEYS[0].slice(2));
  });
});

describe('KeyringSnap requests and key collisions', () => {
  it('drops an approved request even when MetaMask no longer knows it (event refused)', async () => {
    const { platform } = fakePlatform({
      emitEvent: async (event) => {
        if (event === KeyringEvent.RequestApproved) {
          throw new Error("Request '1' not found");
        }
      },
    });
    const keyring = newKeyring(
      { ...defaultState(), approvalMode: 'async' },
      platform,
    );
    const account = await keyring.createAccount();
    const id = '6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40';
    await parkPersonalSign(keyring, account, id, '0x68656c6c6f');
    expect(await keyring.listRequests()).toHaveLength(1);
    await expect(keyring.approveRequest(id)).rejects.toThrow('not found');
    expect(await keyring.listRequests()).toStrictEqual([]);
  });

  it('rejects the pending requests of a deleted account after notify:accountDeleted', async () => {
    const { platform, events } = fakePlatform();
    const keyring = newKeyring(
      { ...defaultState(), approvalMode: 'async' },
      platform,
    );
    const account = await keyring.createAccount();
    const id = '7b2e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f41';
    await parkPersonalSign(keyring, account, id);
    await keyring.deleteAccount(account.id);
    expect(events.slice(-2)).toStrictEqual([
      { event: KeyringEvent.AccountDeleted, data: { id: account.id } },
      { event: KeyringEvent.RequestRejected, data: { id } },
    ]);
    expect(await keyring.listRequests()).toStrictEqual([]);
  });

  it('deletes nothing when the requests a dialog named are not exactly those still waiting', async () => {
    const { platform, events } = fakePlatform();
    const keyring = newKeyring(
      { ...defaultState(), approvalMode: 'async' },
      platform,
    );
    const account = await keyring.createAccount();
    const first = '1c0a9a52-6a7e-4f5e-8f3e-2a4f0d1b6c01';
    const second = '1c0a9a52-6a7e-4f5e-8f3e-2a4f0d1b6c02';
    await parkPersonalSign(keyring, account, first);
    await parkPersonalSign(keyring, account, second); // arrived after the dialog counted one
    const emitted = events.length;
    await expect(
      keyring.deleteAccount(account.id, undefined, { waiting: [first] }),
    ).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'requestsChanged' },
    });
    expect(events).toHaveLength(emitted);
    expect(await keyring.getAccount(account.id)).toStrictEqual(account);
    expect(
      (await keyring.listRequests()).map(({ id }) => id).sort(),
    ).toStrictEqual([first, second].sort());
    await keyring.deleteAccount(account.id, undefined, {
      waiting: [second, first],
    });
    expect(await keyring.listRequests()).toStrictEqual([]);
  });

  it('skips a derivation index whose key was imported already', async () => {
    const { platform } = fakePlatform();
    const keyring = newKeyring(defaultState(), platform);
    const imported = await keyring.createAccount({
      privateKey: KEYS[0],
    });
    const derived = await keyring.createAccount();
    expect(derived.address).not.toBe(imported.address);
    expect(derived.address).toBe(privateKeyToAddress(KEYS[1] as `0x${string}`));
  });
});

describe('state schema', () => {
  it('starts empty and reads its own version', () => {
    expect(migrate(null)).toStrictEqual(defaultState());
    expect(
      migrate({ ...defaultState(), approvalMode: 'async' }).approvalMode,
    ).toBe('async');
  });

  it('refuses a newer schema instead of misreading it', () => {
    expect(() => migrate({ version: 99 })).toThrow('schema version 99');
  });
});
