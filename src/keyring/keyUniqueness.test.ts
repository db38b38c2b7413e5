/**
 * One key, one account: a private key backs at most one account (an EOA's key, or a smart
 * account's owner key), whichever way round it arrives (imported, derived, exported and imported
 * again), and concurrent creations cannot both pass. Node keyring over a fake platform; smart
 * accounts resolve against a fake SimpleAccountFactory node (test/fixtures/fake-factory-rpc.ts).
 */
import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import type { KeyringPlatform, KeyringSnap } from './keyring';
import { startFakeFactoryRpc } from '../../test/fixtures/fake-factory-rpc';
import { defaultState } from '../state/store';
import type { KeyringState, StateSaver } from '../state/store';

const KEY =
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const DERIVED = [
  '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  '0x2e3ac7a2d1bd2b8b4b1ae4e4d5a2e6e45f0e1a1a3e6a1f1f6a8b0b3e2f6c4d1a',
];
const SCOPE_A = 'eip155:31337';
const SCOPE_B = 'eip155:31338';
const ENTRY_POINT = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';

let rpc: Awaited<ReturnType<typeof startFakeFactoryRpc>>;

/**
 * A keyring with two chains whose factories differ (so one owner gets two smart-account
 * addresses), a platform that confirms everything, and derived keys DERIVED[index] (whatever the
 * scheme: these tests are about uniqueness, not salts).
 *
 * @returns The keyring.
 */
function keyring(): KeyringSnap {
  const state: KeyringState = defaultState();
  state.chains[SCOPE_A] = {
    scope: SCOPE_A,
    rpcUrl: rpc.url,
    entryPoint: ENTRY_POINT,
    accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
  };
  state.chains[SCOPE_B] = {
    scope: SCOPE_B,
    rpcUrl: rpc.url,
    entryPoint: ENTRY_POINT,
    accountFactory: '0x1111111111111111111111111111111111111111',
  };
  const platform: KeyringPlatform & { saveState: StateSaver } = {
    saveState: async () => undefined,
    emitEvent: async () => undefined,
    confirm: async () => true,
    deriveKey: async (index) => ({
      privateKey: DERIVED[index],
      address: privateKeyToAddress(DERIVED[index] as `0x${string}`),
    }),
  };
  return createDomain(state, platform, () => ({ message: '' })).keyring;
}

/**
 * createAccount options importing `privateKey` as an EOA.
 *
 * @param privateKey - The key.
 * @returns The options.
 */
const eoa = (privateKey: string): Record<string, string> => ({ privateKey });
/**
 * createAccount options importing `privateKey` as the owner of a smart account on `scope`.
 *
 * @param privateKey - The key.
 * @param scope - The chain (its config names the factory).
 * @returns The options.
 */
const smart = (
  privateKey: string,
  scope = SCOPE_A,
): Record<string, string | string[]> => ({
  type: 'eip155:erc4337',
  scopes: [scope],
  privateKey,
});

/**
 * Expect a creation refused because its key backs `existing` already, without the key in the error.
 *
 * @param creation - The createAccount call.
 * @param existing - The address of the account the key backs.
 * @param key - The key, which the error must not contain.
 */
async function expectRefused(
  creation: Promise<unknown>,
  existing: string,
  key: string,
): Promise<void> {
  const error = await creation.then(
    () => undefined,
    (caught: { code?: number; message: string }) => caught,
  );
  expect(error).toStrictEqual(
    expect.objectContaining({
      code: -32602,
      message: expect.stringContaining(
        `this key already backs account ${existing}`,
      ),
    }),
  );
  expect(error?.message.toLowerCase()).not.toContain(key.slice(2));
}

describe('one key, one account', () => {
  beforeAll(async () => {
    rpc = await startFakeFactoryRpc();
  });

  afterAll(async () => {
    await rpc.stop();
  });

  it('refuses an EOA key imported again as a smart-account owner', async () => {
    const snap = keyring();
    const first = await snap.createAccount(eoa(KEY));
    await expectRefused(snap.createAccount(smart(KEY)), first.address, KEY);
    expect(await snap.listAccounts()).toHaveLength(1);
  });

  it('refuses a smart-account owner key imported again as an EOA', async () => {
    const snap = keyring();
    const first = await snap.createAccount(smart(KEY));
    await expectRefused(snap.createAccount(eoa(KEY)), first.address, KEY);
    expect(await snap.listAccounts()).toHaveLength(1);
  });

  it('refuses an owner key as the owner of a second smart account (another factory, another address)', async () => {
    const snap = keyring();
    const first = await snap.createAccount(smart(KEY, SCOPE_A));
    await expectRefused(
      snap.createAccount(smart(KEY, SCOPE_B)),
      first.address,
      KEY,
    );
    expect(await snap.listAccounts()).toHaveLength(1);
  });

  it('refuses an exported derived key imported the other way round', async () => {
    const snap = keyring();
    const derivedEoa = await snap.createAccount();
    const eoaKey = (await snap.exportAccount(derivedEoa.id))
      .privateKey as string;
    await expectRefused(
      snap.createAccount(smart(eoaKey)),
      derivedEoa.address,
      eoaKey,
    );
    const derivedSmart = await snap.createAccount({
      type: 'eip155:erc4337',
      scopes: [SCOPE_A],
    });
    const ownerKey = (await snap.exportAccount(derivedSmart.id))
      .privateKey as string;
    await expectRefused(
      snap.createAccount(eoa(ownerKey)),
      derivedSmart.address,
      ownerKey,
    );
    expect(await snap.listAccounts()).toHaveLength(2);
  });

  it('skips, per scheme, a derivation index whose key backs an account of the other type', async () => {
    // this platform derives DERIVED[index] whatever the scheme: owner index 0 repeats the EOA's key
    const snap = keyring();
    await snap.createAccount();
    await snap.createAccount({ type: 'eip155:erc4337', scopes: [SCOPE_A] });
    await snap.createAccount();
    expect(
      snap.describeAccounts().map((summary) => summary.keySource),
    ).toStrictEqual([
      { derivationIndex: 0, derivationScheme: 'eoa' },
      { derivationIndex: 1, derivationScheme: 'erc4337-owner' },
      { derivationIndex: 2, derivationScheme: 'eoa' },
    ]);
    const keys = await Promise.all(
      (await snap.listAccounts()).map(
        async (account) => (await snap.exportAccount(account.id)).privateKey,
      ),
    );
    expect(keys).toStrictEqual(DERIVED);
  });

  it('lets only one of two concurrent creations with one key through (checked in the state queue)', async () => {
    const snap = keyring();
    const outcomes = await Promise.allSettled([
      snap.createAccount(eoa(KEY)),
      snap.createAccount(smart(KEY)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toStrictEqual([
      'fulfilled',
      'rejected',
    ]);
    const refused = outcomes.find(
      (outcome): outcome is PromiseRejectedResult =>
        outcome.status === 'rejected',
    );
    expect(refused?.reason).toStrictEqual(
      expect.objectContaining({
        code: -32602,
        message: expect.stringContaining('this key already backs account'),
      }),
    );
    expect(await snap.listAccounts()).toHaveLength(1);
  });
});
