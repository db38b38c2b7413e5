import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import type { KeyringPlatform, KeyringSnap } from './keyring';
import { defaultState, migrate } from '../state/store';
import type { KeyringState, StateSaver } from '../state/store';

const KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SMART = '11111111-1111-4111-8111-111111111111';
const EOA = '22222222-2222-4222-8222-222222222222';
const SCOPE = 'eip155:31337';

/**
 * A state with one smart account and one EOA; the chain config points at a closed port.
 *
 * @param withChain - Whether the state has the chain config of SCOPE.
 * @returns The state.
 */
function state(withChain: boolean): KeyringState {
  const base = defaultState();
  if (withChain) {
    base.chains[SCOPE] = {
      scope: SCOPE,
      rpcUrl: 'http://127.0.0.1:9',
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
      bundlerUrl: 'http://127.0.0.1:9',
    };
  }
  base.accounts[SMART] = {
    account: {
      id: SMART,
      type: 'eip155:erc4337',
      address: '0x3333333333333333333333333333333333333333',
      scopes: [SCOPE],
      methods: [
        'eth_prepareUserOperation',
        'eth_patchUserOperation',
        'eth_signUserOperation',
      ],
      options: {},
    },
    privateKey: KEY,
    smartAccount: {
      owner: privateKeyToAddress(KEY),
      accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      salt: '0',
      implementations: {
        [SCOPE]: '0x4444444444444444444444444444444444444444',
      },
    },
  };
  base.accounts[EOA] = {
    account: {
      id: EOA,
      type: 'eip155:eoa',
      address: privateKeyToAddress(KEY),
      scopes: ['eip155:0'],
      methods: ['personal_sign'],
      options: {},
    },
    privateKey: KEY,
  };
  return base;
}

/**
 * A keyring over `state(withChain)` whose platform confirms everything and records each send
 * confirmation shown.
 *
 * @param withChain - Whether the state has the chain config of SCOPE.
 * @returns The keyring, and the send summaries the confirmation dialog was shown.
 */
function keyring(withChain = true): {
  keyring: KeyringSnap;
  confirmations: unknown[];
} {
  const confirmations: unknown[] = [];
  const platform: KeyringPlatform & { saveState: StateSaver } = {
    saveState: async () => undefined,
    emitEvent: async () => undefined,
    confirm: async () => true,
    confirmSend: async (summary) => {
      confirmations.push(summary);
      return true;
    },
    deriveKey: async () => ({
      privateKey: KEY,
      address: privateKeyToAddress(KEY),
    }),
  };
  return {
    keyring: createDomain(state(withChain), platform, () => ({ message: '' }))
      .keyring,
    confirmations,
  };
}

describe('sendUserOperation params (checked before any network call or dialog)', () => {
  const intent = {
    to: '0x5555555555555555555555555555555555555555',
    value: '0x1',
  };

  it.each([
    [
      'no intents',
      { account: SMART, scope: SCOPE },
      -32602,
      /^Invalid sendUserOperation params at intents: required$/u,
    ],
    [
      'an empty list',
      { account: SMART, scope: SCOPE, intents: [] },
      -32602,
      /^Invalid sendUserOperation params at intents/u,
    ],
    [
      '33 intents',
      { account: SMART, scope: SCOPE, intents: Array(33).fill(intent) },
      -32602,
      /^Invalid sendUserOperation params at intents/u,
    ],
    [
      'a hex chain id',
      { account: SMART, scope: 'eip155:0x1', intents: [intent] },
      -32602,
      /^Invalid sendUserOperation params at scope/u,
    ],
    [
      'an unknown field',
      { account: SMART, scope: SCOPE, intents: [intent], extra: 1 },
      -32602,
      /^Invalid sendUserOperation params at extra: unknown field$/u,
    ],
    [
      'a bad recipient',
      { account: SMART, scope: SCOPE, intents: [{ to: '0x12', value: '0x1' }] },
      -32602,
      /at 0\.to: expected a 20-byte address$/u,
    ],
    [
      'a foreign chain',
      { account: SMART, scope: 'eip155:1', intents: [intent] },
      -32602,
      /^Invalid scope: not one of this account's chains/u,
    ],
    [
      'an EOA on a chain without config (an EOA sends through EIP-7702 on a configured chain)',
      { account: EOA, scope: 'eip155:1', intents: [intent] },
      -32001,
      /^No chain config for eip155:1/u,
    ],
    [
      'an unknown account',
      {
        account: '99999999-9999-4999-8999-999999999999',
        scope: SCOPE,
        intents: [intent],
      },
      -32001,
      /not found/u,
    ],
  ])('refuses %s', async (_name, params, code, message) => {
    const { keyring: subject, confirmations } = keyring();
    await expect(subject.sendUserOperation(params)).rejects.toMatchObject({
      code,
      message: expect.stringMatching(message),
    });
    expect(confirmations).toHaveLength(0);
  });

  it('refuses a chain without config', async () => {
    const { keyring: subject } = keyring(false);
    await expect(
      subject.sendUserOperation({
        account: SMART,
        scope: SCOPE,
        intents: [intent],
      }),
    ).rejects.toMatchObject({
      code: -32001,
      message: expect.stringMatching(/^No chain config for eip155:31337/u),
    });
  });
});

describe('remembered operations in state', () => {
  it('a state saved before sendUserOperation existed loads with an empty list', () => {
    const old = { ...defaultState() } as Partial<KeyringState>;
    delete old.sentUserOperations;
    expect(
      migrate(JSON.parse(JSON.stringify(old))).sentUserOperations,
    ).toStrictEqual([]);
  });
});
