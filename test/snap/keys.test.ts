/**
 * One key, one account, and per-type derivation salts, through the built snap. Smart accounts
 * resolve against a fake SimpleAccountFactory node (test/fixtures/fake-factory-rpc.ts); derived
 * keys are checked against an independent SIP-6 derivation (test/fixtures/sip6.ts) of the
 * simulation's Secret Recovery Phrase and this snap's id, so a reinstall derives them again.
 */
import { privateKeyToAddress } from 'viem/accounts';

import { COMPANION, expectError, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { startFakeFactoryRpc } from '../fixtures/fake-factory-rpc';
import { sip6Entropy } from '../fixtures/sip6';

/** The snaps-jest simulation's default Secret Recovery Phrase (@metamask/snaps-simulation). */
const DEFAULT_SRP =
  'test test test test test test test test test test test ball';
const SCOPE = 'eip155:31337';
const KEY =
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

describe('one key, one account (built snap)', () => {
  let rpc: Awaited<ReturnType<typeof startFakeFactoryRpc>>;
  let harness: KeyringHarness;

  beforeAll(async () => {
    rpc = await startFakeFactoryRpc();
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', {
      scope: SCOPE,
      rpcUrl: rpc.url,
    });
  });

  afterAll(async () => {
    await rpc.stop();
  });

  /**
   * Export an account's key, confirming the dialog.
   *
   * @param id - The account id.
   * @returns The private key.
   */
  async function exportKey(id: string): Promise<string> {
    const exported = harness.snap.onKeyringRequest({
      origin: COMPANION,
      method: 'keyring_exportAccount',
      params: { id },
    });
    await ((await exported.getInterface()) as any).ok();
    return ((await exported).response as any).result.privateKey;
  }

  /**
   * Expect a creation refused with -32602 naming `existing`, and nothing created or announced.
   *
   * @param options - The createAccount options.
   * @param existing - The address of the account the key backs.
   */
  async function expectRefused(
    options: Record<string, any>,
    existing: string,
  ): Promise<void> {
    const before = await harness.keyring('keyring_listAccounts');
    const eventCount = harness.events.length;
    await expectError(
      harness.createAccount(options),
      -32602,
      new RegExp(`this key already backs account ${existing}`, 'u'),
    );
    expect(await harness.keyring('keyring_listAccounts')).toEqual(before);
    expect(harness.events).toHaveLength(eventCount);
  }

  it('derives a new EOA and a new smart-account owner from their own salts (both index 0), recoverably', async () => {
    const eoa = await harness.createAccount();
    const smart = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [SCOPE],
    });
    const snapId = (globalThis as any).snapsEnvironment.snapId as string;
    const eoaKey = await exportKey(eoa.id);
    const ownerKey = await exportKey(smart.id);
    expect(eoaKey).toBe(sip6Entropy(DEFAULT_SRP, snapId, 'keyring-snap:eoa:0'));
    expect(ownerKey).toBe(
      sip6Entropy(DEFAULT_SRP, snapId, 'keyring-snap:erc4337-owner:0'),
    );
    expect(ownerKey).not.toBe(eoaKey);
    expect(eoa.address).toBe(privateKeyToAddress(eoaKey as `0x${string}`));

    // export, then import the other way round
    await expectRefused(
      { type: 'eip155:erc4337', scopes: [SCOPE], privateKey: eoaKey },
      eoa.address,
    );
    await expectRefused({ privateKey: ownerKey }, smart.address);
  });

  it('refuses a key imported as an EOA when it is imported again as a smart-account owner', async () => {
    const imported = await harness.createAccount({ privateKey: KEY });
    await expectRefused(
      { type: 'eip155:erc4337', scopes: [SCOPE], privateKey: KEY },
      imported.address,
    );
  });
});
