/**
 * Derived keys: snap_getEntropy (SIP-6) salts per account type, checked against an independent
 * SIP-6 derivation (test/fixtures/sip6.ts, on viem's BIP-32) over a fixed Secret Recovery Phrase;
 * test/snap/keys.test.ts checks that reference against the snaps-jest simulation's own.
 */
import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import { deriveKey } from './keys';
import { sip6Entropy } from '../../test/fixtures/sip6';
import { defaultState } from '../state/store';

const SRP = 'test test test test test test test test test test test ball';
const SNAP_ID = 'local:http://localhost:8080';

/**
 * The SIP-6 entropy MetaMask gives this snap for `salt` over SRP.
 *
 * @param salt - The snap_getEntropy salt.
 * @returns 32 bytes, 0x-prefixed hex.
 */
const entropy = (salt: string): string => sip6Entropy(SRP, SNAP_ID, salt);

describe('derived keys: one salt per account type', () => {
  beforeAll(() => {
    (globalThis as any).snap = {
      request: async ({
        method,
        params,
      }: {
        method: string;
        params: { version: number; salt: string };
      }): Promise<string> => {
        expect(method).toBe('snap_getEntropy');
        expect(params.version).toBe(1);
        return entropy(params.salt);
      },
    };
  });

  afterAll(() => {
    delete (globalThis as any).snap;
  });

  it('keeps the legacy salt of schema version 1 (existing accounts keep their keys)', async () => {
    expect((await deriveKey(3, 'legacy')).privateKey).toBe(
      entropy('keyring-snap:account:3'),
    );
  });

  it('gives an EOA and a smart-account owner at the same index different keys, each recoverable', async () => {
    const eoaKey = await deriveKey(0, 'eoa');
    const ownerKey = await deriveKey(0, 'erc4337-owner');
    expect(eoaKey.privateKey).toBe(entropy('keyring-snap:eoa:0'));
    expect(ownerKey.privateKey).toBe(entropy('keyring-snap:erc4337-owner:0'));
    expect(ownerKey.privateKey).not.toBe(eoaKey.privateKey);
    expect(eoaKey.privateKey).not.toBe(entropy('keyring-snap:account:0'));
    expect(eoaKey.address).toBe(
      privateKeyToAddress(eoaKey.privateKey as `0x${string}`),
    );
    // deriving again (a reinstall on the same Secret Recovery Phrase) gives the same keys
    expect(await deriveKey(0, 'eoa')).toStrictEqual(eoaKey);
    expect(await deriveKey(0, 'erc4337-owner')).toStrictEqual(ownerKey);
  });

  it('derives a new EOA and a new smart-account owner with their own schemes, each from index 0', async () => {
    const calls: [number, string][] = [];
    const { keyring } = createDomain(
      {
        ...defaultState(),
        chains: {
          'eip155:31337': {
            scope: 'eip155:31337',
            rpcUrl: 'http://127.0.0.1:9',
            entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
            accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
          },
        },
      },
      {
        saveState: async () => undefined,
        emitEvent: async () => undefined,
        confirm: async () => true,
        deriveKey: async (index, scheme) => {
          calls.push([index, scheme]);
          return deriveKey(index, scheme);
        },
      },
      () => ({ message: '' }),
    );
    const first = await keyring.createAccount();
    const second = await keyring.createAccount();
    // no chain answers at 127.0.0.1:9: the smart account's key is derived, then creation fails
    await expect(
      keyring.createAccount({
        type: 'eip155:erc4337',
        scopes: ['eip155:31337'],
      }),
    ).rejects.toThrow(/.*/u);
    expect(calls).toStrictEqual([
      [0, 'eoa'],
      [1, 'eoa'],
      [0, 'erc4337-owner'],
    ]);
    expect(first.address).toBe((await deriveKey(0, 'eoa')).address);
    expect(second.address).toBe((await deriveKey(1, 'eoa')).address);
    expect(
      keyring.describeAccounts().map((summary) => summary.keySource),
    ).toStrictEqual([
      { derivationIndex: 0, derivationScheme: 'eoa' },
      { derivationIndex: 1, derivationScheme: 'eoa' },
    ]);
  });
});
