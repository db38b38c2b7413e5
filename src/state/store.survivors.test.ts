import type { Json } from '@metamask/utils';

import {
  defaultState,
  loadState,
  migrate,
  saveState,
  STATE_VERSION,
} from './store';
import fixture from '../../test/fixtures/state-v1.json';

/**
 * What a stored state becomes when it is loaded, in the cases the other suites do not try (each
 * found by mutation testing, docs/testing.md "Mutation testing"): a first run, a state of this
 * version kept whole (its per-phrase indices too), version 1 states with parts missing or
 * malformed (refused by the schema check naming the field, never a crash), a version this code
 * does not read, and the round trip through snap_manageState.
 */

/**
 * A written version-1 state (test/fixtures/state-v1.json), as snap_manageState returns it.
 *
 * @returns A fresh copy.
 */
const v1 = (): Record<string, Json> =>
  JSON.parse(JSON.stringify(fixture.state));

/**
 * The error migrate throws, or undefined when it loads.
 *
 * @param stored - The stored state.
 * @returns The error's code and message.
 */
function refusal(
  stored: Record<string, Json>,
): { code: number; message: string } | undefined {
  try {
    migrate(stored);
    return undefined;
  } catch (error) {
    return error as { code: number; message: string };
  }
}

describe('a first run', () => {
  it('starts from the empty state when nothing or an empty object is stored', () => {
    expect(migrate(null)).toStrictEqual(defaultState());
    expect(migrate({})).toStrictEqual(defaultState());
  });
});

describe('a state of this version', () => {
  it('is kept whole, the indices of each phrase included', () => {
    const stored = {
      ...defaultState(),
      nextDerivationIndex: { legacy: 1, eoa: 4, 'erc4337-owner': 2 },
      nextIndexBySource: { 'source-b': { eoa: 5, 'erc4337-owner': 3 } },
    };
    expect(migrate(JSON.parse(JSON.stringify(stored)))).toStrictEqual(stored);
  });
});

describe('a version-1 state', () => {
  it('without accounts loads with none, keeping its next index as the legacy one', () => {
    const { accounts: _accounts, ...rest } = v1();
    const state = migrate({ ...rest, nextDerivationIndex: 7 });
    expect(state.accounts).toStrictEqual({});
    expect(state.nextDerivationIndex).toStrictEqual({
      legacy: 7,
      eoa: 0,
      'erc4337-owner': 0,
    });
    expect(state.version).toBe(STATE_VERSION);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'accounts'],
  ])(
    'with accounts that are %s is refused naming accounts, not loaded',
    (_kind, accounts) => {
      expect(refusal({ ...v1(), accounts })).toMatchObject({
        code: -32603,
        message: expect.stringMatching(
          /^Stored state is invalid at accounts: /u,
        ),
      });
    },
  );

  it.each([
    ['null', null],
    ['an array', [1]],
    ['a number', 5],
  ])(
    'with an account record that is %s is refused naming that account',
    (_kind, record) => {
      expect(refusal({ ...v1(), accounts: { broken: record } })).toMatchObject({
        code: -32603,
        message: expect.stringMatching(
          /^Stored state is invalid at accounts\.broken[.:]/u,
        ),
      });
    },
  );
});

describe('a version this code does not read', () => {
  it.each([
    [4, 'schema version 4'],
    [0, 'schema version 0'],
    [1.5, 'no valid schema version'],
    ['3', 'no valid schema version'],
    [null, 'no valid schema version'],
  ])('%j is refused with -32603, naming it', (version, named) => {
    expect(refusal({ ...defaultState(), version })).toStrictEqual(
      expect.objectContaining({
        code: -32603,
        message: `Stored state has ${named}, this snap reads ${STATE_VERSION}`,
      }),
    );
  });
});

describe('snap_manageState', () => {
  const stored: { state: Record<string, Json> | null } = { state: null };

  beforeEach(() => {
    stored.state = null;
    (globalThis as { snap?: unknown }).snap = {
      request: async ({
        method,
        params,
      }: {
        method: string;
        params: { operation: string; newState?: Record<string, Json> };
      }): Promise<Record<string, Json> | null> => {
        expect(method).toBe('snap_manageState');
        if (params.operation === 'update') {
          stored.state = JSON.parse(JSON.stringify(params.newState));
          return null;
        }
        return stored.state;
      },
    };
  });

  afterEach(() => {
    delete (globalThis as { snap?: unknown }).snap;
  });

  it('loads the empty state on a first run, and what was saved after', async () => {
    expect(await loadState()).toStrictEqual(defaultState());
    const changed = { ...defaultState(), approvalMode: 'async' as const };
    await saveState(changed);
    expect(stored.state).toStrictEqual(changed);
    expect(await loadState()).toStrictEqual(changed);
  });
});
