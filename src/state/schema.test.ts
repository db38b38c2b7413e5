import * as fc from 'fast-check';
import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import { defaultState, migrate } from './store';
import type { KeyringState, StateSaver } from './store';
import { fuzzRuns } from '../../test/fixtures/fuzz';
import type { KeyringPlatform } from '../keyring/keyring';

const KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
];
const IMPORTED =
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const API_SECRET = 'ipfs-secret-7Qm2Vx9';

/** The keyring's platform plus saving state, as createDomain takes it. */
type Platform = KeyringPlatform & { saveState: StateSaver };

/**
 * A platform that records each state it saves, emits nothing, confirms everything and derives
 * KEYS[index].
 *
 * @param saved - Receives a copy of each state saved.
 * @returns The platform.
 */
function platform(saved: KeyringState[]): Platform {
  return {
    saveState: async (state): Promise<void> => {
      saved.push(JSON.parse(JSON.stringify(state)));
    },
    emitEvent: async () => undefined,
    confirm: async () => true,
    deriveKey: async (index) => ({
      privateKey: KEYS[index],
      address: privateKeyToAddress(KEYS[index] as `0x${string}`),
    }),
  };
}

/**
 * A state as the domain writes it: two accounts (one imported), a pending request, IPFS settings.
 *
 * @returns The last state the domain saved.
 */
async function writtenState(): Promise<KeyringState> {
  const saved: KeyringState[] = [];
  const { keyring, settings } = createDomain(
    defaultState(),
    platform(saved),
    () => ({ message: 'approve' }),
  );
  const derived = await keyring.createAccount();
  await keyring.createAccount({ privateKey: IMPORTED });
  await settings.setIpfsConfig({
    apiUrl: 'https://ipfs.example.com',
    apiKey: 'k',
    apiKeySecret: API_SECRET,
  });
  await settings.setApprovalMode({ mode: 'async' });
  await keyring.submitRequest({
    id: '6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40',
    scope: '',
    account: derived.id,
    origin: 'https://dapp.example',
    request: { method: 'personal_sign', params: ['0x00', derived.address] },
  });
  return saved.at(-1) as KeyringState;
}

/**
 * Every path in a JSON value (object keys and array indexes).
 *
 * @param value - A JSON value.
 * @param prefix - The path of `value` itself.
 * @returns The paths of every object entry and array element below `value`, each as its keys.
 */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return Object.entries(value).flatMap(([key, child]) => [
    [...prefix, key],
    ...paths(child, [...prefix, key]),
  ]);
}

/** Marks a replacement that deletes the entry (see mutate). */
const DELETE = Symbol('delete');

/**
 * A copy of `state` with the value at `path` replaced, or deleted.
 *
 * @param state - The state to damage (not changed).
 * @param path - The keys to the value (at least one).
 * @param replacement - The new value, or DELETE to remove the object entry or array element.
 * @returns The damaged copy.
 */
function mutate(
  state: KeyringState,
  path: string[],
  replacement: unknown,
): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const last = path.at(-1) as string;
  if (replacement === DELETE) {
    if (Array.isArray(parent)) {
      parent.splice(Number(last), 1);
    } else {
      delete parent[last];
    }
  } else {
    parent[last] = replacement;
  }
  return copy;
}

/** Replacements the random damage uses: deletion, wrong types, malformed values. */
const HOSTILE: unknown[] = [
  DELETE,
  null,
  5,
  -1,
  1.5,
  '',
  'x',
  true,
  [],
  {},
  { toString: 'x', valueOf: 'y' },
  ['a'],
  `0x${'zz'.repeat(32)}`,
];

/**
 * Expect the error of a refused stored state: -32603, a bounded message naming the field or the
 * schema version, and none of `secrets` in it.
 *
 * @param error - What migrate threw.
 * @param secrets - Stored secrets the message must not contain.
 */
function expectCleanRefusal(error: unknown, secrets: string[]): void {
  expect(error).toStrictEqual(
    expect.objectContaining({
      code: -32603,
      message: expect.stringMatching(
        /^Stored state (is invalid( at [^:]+)?: .{1,220}|has (no valid schema version|schema version -?\d+), this snap reads 3)$/u,
      ),
    }),
  );
  secrets.forEach((secret) =>
    expect((error as Error).message).not.toContain(secret),
  );
}

describe('stored state is validated when loaded', () => {
  it('the state the domain writes loads back equal', async () => {
    const state = await writtenState();
    expect(migrate(state)).toStrictEqual(state);
  });

  it('an Activity list (optional) loads back equal; a state without one still loads', () => {
    const withActivity = {
      ...defaultState(),
      activity: {
        a: {
          'eip155:31337': {
            next: '0x1b',
            entries: [
              { kind: 'undo', hash: `0x${'a'.repeat(64)}`, status: 'pending' },
              {
                kind: 'upgrade',
                hash: `0x${'b'.repeat(64)}`,
                status: 'succeeded',
                block: '0x1a',
                fee: '0x12a05f200',
              },
            ],
          },
        },
      },
    } as KeyringState;
    expect(migrate(withActivity as never)).toStrictEqual(withActivity);
    expect(migrate(defaultState() as never).activity).toBeUndefined();
  });

  it('the chains’ last read heads and the addresses sites were given (optional) load back equal; a state without them still loads', () => {
    const withBoth = {
      ...defaultState(),
      activityHeads: { 'eip155:31337': { block: '0x1b', at: 1_700_000_000 } },
      siteAccounts: {
        'https://dapp.example': ['0x000000000000000000000000000000000000dead'],
      },
    } as KeyringState;
    expect(migrate(withBoth as never)).toStrictEqual(withBoth);
    const plain = migrate(defaultState());
    expect(plain.activityHeads).toBeUndefined();
    expect(plain.siteAccounts).toBeUndefined();
  });

  it.each([
    [
      'accounts is not a record',
      { accounts: 5 },
      /^Stored state is invalid at accounts: /u,
    ],
    [
      'an unknown approval mode',
      { approvalMode: 'sometimes' },
      /^Stored state is invalid at approvalMode: Expected one of/u,
    ],
    [
      'a negative derivation index',
      { nextDerivationIndex: -1 },
      /^Stored state is invalid at nextDerivationIndex: /u,
    ],
    [
      'a negative derivation index of a scheme',
      { nextDerivationIndex: { legacy: 0, eoa: -1, 'erc4337-owner': 0 } },
      /^Stored state is invalid at nextDerivationIndex\.eoa: /u,
    ],
    [
      'chains holding a string',
      { chains: { 'eip155:1': 'https://rpc.example' } },
      /^Stored state is invalid at chains\.eip155:1: /u,
    ],
    [
      'an Activity entry of an unknown kind',
      {
        activity: {
          a: {
            'eip155:1': {
              entries: [
                {
                  kind: 'mint',
                  hash: `0x${'1'.repeat(64)}`,
                  status: 'pending',
                },
              ],
            },
          },
        },
      },
      /^Stored state is invalid at activity\.a\.eip155:1\.entries\.0\.kind: /u,
    ],
    [
      'an Activity list with a block that is not a hex quantity',
      { activity: { a: { 'eip155:1': { next: '12', entries: [] } } } },
      /^Stored state is invalid at activity\.a\.eip155:1\.next: /u,
    ],
    [
      'an Activity list longer than 100 entries',
      {
        activity: {
          a: {
            'eip155:1': {
              entries: Array.from({ length: 101 }, () => ({
                kind: 'undo',
                hash: `0x${'2'.repeat(64)}`,
                status: 'pending',
              })),
            },
          },
        },
      },
      /^Stored state is invalid at activity\.a\.eip155:1\.entries: /u,
    ],
    [
      'a chain head whose block is not a hex quantity',
      { activityHeads: { 'eip155:1': { block: '27', at: 0 } } },
      /^Stored state is invalid at activityHeads\.eip155:1\.block: /u,
    ],
    [
      'a chain head read at a negative time',
      { activityHeads: { 'eip155:1': { block: '0x1', at: -1 } } },
      /^Stored state is invalid at activityHeads\.eip155:1\.at: /u,
    ],
    [
      'a site given something other than addresses',
      { siteAccounts: { 'https://dapp.example': ['me'] } },
      /^Stored state is invalid at siteAccounts\.<key>\.0: /u,
    ],
    [
      'more sites than kept',
      {
        siteAccounts: Object.fromEntries(
          Array.from({ length: 257 }, (_, at) => [
            `https://s${at}.example`,
            [],
          ]),
        ),
      },
      /^Stored state is invalid at siteAccounts: /u,
    ],
  ])('%s: a clear -32603 error naming the field', (_name, change, message) => {
    expect(() => migrate({ ...defaultState(), ...change })).toThrow(message);
  });

  it('random damage to a written state: a clear error at load, never a stored secret in it, or a state every read works on', async () => {
    const state = await writtenState();
    const secrets = [IMPORTED.slice(2), KEYS[0].slice(2), API_SECRET];
    let refused = 0;
    const runs = fuzzRuns(400);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths(state)),
        fc.constantFrom(...HOSTILE),
        async (path, replacement) => {
          const damaged = mutate(state, path, replacement);
          let loaded: KeyringState;
          try {
            loaded = migrate(damaged as never);
          } catch (error) {
            refused += 1;
            expectCleanRefusal(error, secrets);
            return;
          }
          const { keyring, settings } = createDomain(
            loaded,
            platform([]),
            () => ({ message: 'approve' }),
          );
          for (const account of await keyring.listAccounts()) {
            await keyring.getAccount(account.id);
            await keyring.filterAccountChains(account.id, ['eip155:1']);
          }
          await keyring.listRequests();
          keyring.describeAccounts();
          settings.chainConfigs();
          settings.approvalMode();
          settings.ipfsConfig();
        },
      ),
      { numRuns: runs },
    );
    // Most damage is refused (over a quarter of the runs: 100 at the full 400).
    expect(refused).toBeGreaterThan(runs / 4);
  });
});
