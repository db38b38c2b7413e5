/**
 * Model-based test of the domain's state (createDomain over a fake platform, fast-check): random
 * batches of concurrent operations (create, delete, submit, approve, reject, approval-mode change),
 * with refused keyring events and failed saves injected per operation, interleaved at random by
 * fast-check's scheduler at every save, event and key derivation. After every batch the keyring
 * equals the model, and what storage holds equals what the keyring serves.
 */
import { KeyringEvent } from '@metamask/keyring-api';
import type { KeyringAccount } from '@metamask/keyring-api';
import * as fc from 'fast-check';
import { privateKeyToAddress } from 'viem/accounts';

import { createDomain } from '../domain';
import { defaultState } from './store';
import type { KeyringState, StateSaver } from './store';
import { fuzzRuns } from '../../test/fixtures/fuzz';
import { publicAccount } from '../keyring/accountViews';
import type { KeyringPlatform } from '../keyring/keyring';

/**
 * Test private key number `seed`: 0x1000 + seed, as 32 bytes of hex (a valid secp256k1 key).
 *
 * @param seed - A small non-negative number.
 * @returns The key, 0x-prefixed hex.
 */
const key = (seed: number): `0x${string}` =>
  `0x${(0x1000n + BigInt(seed)).toString(16).padStart(64, '0')}`;
/** Keys to import (0-7) and keys snap_getEntropy derives (100+): disjoint. */
const IMPORTED = Array.from({ length: 8 }, (_, seed) => key(seed));

/**
 * The key the fake snap_getEntropy derives for an index.
 *
 * @param index - The derivation index.
 * @returns The key, 0x-prefixed hex; never one of IMPORTED.
 */
const derived = (index: number): `0x${string}` => key(100 + index);
/** The address of each IMPORTED key, in the same order (derived once: a secp256k1 multiplication each). */
const IMPORTED_ADDRESS_LIST = IMPORTED.map((k) => privateKeyToAddress(k));
const IMPORTED_ADDRESSES = new Set(IMPORTED_ADDRESS_LIST);
/** Addresses of the derived keys computed so far, by derivation index. */
const derivedAddresses = new Map<number, `0x${string}`>();

/**
 * The address of the key the fake snap_getEntropy derives for an index, computed once per index
 * (the fake platform's stand-in work, not the code under test).
 *
 * @param index - The derivation index.
 * @returns The checksummed address of `derived(index)`.
 */
const derivedAddress = (index: number): `0x${string}` => {
  let address = derivedAddresses.get(index);
  if (address === undefined) {
    address = privateKeyToAddress(derived(index));
    derivedAddresses.set(index, address);
  }
  return address;
};

/** The fault injected into an operation: none, its keyring event refused, or its save failing. */
type Fault = 'none' | 'refuse' | 'failSave';

/**
 * An operation of a batch: create an account (derived, or importing IMPORTED[imported]), delete
 * one, submit a request for one, approve or reject a pending request, change the approval mode.
 * `pick` chooses among the existing accounts or pending requests (modulo their number).
 */
type Op =
  | { kind: 'create'; imported?: number; fault: Fault }
  | { kind: 'delete'; pick: number; fault: Fault }
  | { kind: 'submit'; pick: number; fault: Fault }
  | { kind: 'approve' | 'reject'; pick: number; fault: Fault }
  | { kind: 'mode'; mode: 'sync' | 'async'; fault: Fault };

const fault = fc.constantFrom<Fault>('none', 'none', 'refuse', 'failSave');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    imported: fc.option(fc.nat(7), { nil: undefined }),
    fault,
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(), fault }),
  fc.record({
    kind: fc.constant('submit' as const),
    pick: fc.nat(),
    fault: fc.constantFrom<Fault>('none', 'failSave'),
  }),
  fc.record({
    kind: fc.constantFrom('approve' as const, 'reject' as const),
    pick: fc.nat(),
    fault,
  }),
  fc.record({
    kind: fc.constant('mode' as const),
    mode: fc.constantFrom<'sync' | 'async'>('sync', 'async'),
    fault: fc.constantFrom<Fault>('none', 'failSave'),
  }),
);

/** What the keyring should hold after each batch. */
type Model = {
  /** Addresses of the imported keys that have an account. */
  imported: Set<string>;
  /** How many accounts have a derived key. */
  derived: number;
  /** Account address by account id. */
  accounts: Map<string, string>;
  /** Owner account id by pending request id. */
  pending: Map<string, string>;
  /** The approval mode. */
  mode: 'sync' | 'async';
};

/** Counters the run reports. */
const figures = { batches: 0, operations: 0, concurrent: 0, faultsInjected: 0 };

describe('state model: concurrent operations with refused events and failed saves', () => {
  it('the keyring and its storage always equal the model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (scheduler, batches) => {
          /** What storage holds: the last state saved. */
          const storage: { saved: KeyringState } = { saved: defaultState() };
          /** Per-operation faults: a predicate on a state being saved, or on an event being emitted. */
          const failSaves: ((draft: KeyringState) => boolean)[] = [];
          const refusals: ((event: string, data: any) => boolean)[] = [];
          const platform: KeyringPlatform & { saveState: StateSaver } = {
            saveState: async (state) => {
              await scheduler.schedule(Promise.resolve(), 'save');
              if (failSaves.some((matches) => matches(state))) {
                figures.faultsInjected += 1;
                throw new Error('storage failure');
              }
              storage.saved = JSON.parse(JSON.stringify(state));
            },
            emitEvent: async (event, data) => {
              await scheduler.schedule(Promise.resolve(), event);
              if (refusals.some((matches) => matches(event, data))) {
                figures.faultsInjected += 1;
                throw new Error('The user refused');
              }
            },
            confirm: async () => true,
            deriveKey: async (index) => {
              await scheduler.schedule(Promise.resolve(), 'derive');
              return {
                privateKey: derived(index),
                address: derivedAddress(index),
              };
            },
          };
          const { keyring, settings } = createDomain(
            defaultState(),
            platform,
            () => ({ message: 'approve' }),
          );
          const model: Model = {
            imported: new Set(),
            derived: 0,
            accounts: new Map(),
            pending: new Map(),
            mode: 'sync',
          };
          let requests = 0;

          for (const batch of batches) {
            failSaves.length = 0;
            refusals.length = 0;
            // one operation per target: distinct accounts and requests, one derived creation, one mode change, no submit beside it
            const accounts = [...model.accounts.keys()];
            const pendingIds = [...model.pending.keys()];
            const touched = new Set<string>();
            const planned: {
              op: Op;
              run: () => Promise<unknown>;
              expect: 'ok' | 'fail';
              apply: () => void;
            }[] = [];
            const hasMode = batch.some((item) => item.kind === 'mode');
            for (const item of batch) {
              /**
               * Take `target` for this operation unless another operation of the batch has it.
               *
               * @param target - An account id, address, request id, `derived` or `mode`.
               * @returns True if it was free (it is now taken).
               */
              const claim = (target: string): boolean =>
                !touched.has(target) && touched.add(target) !== undefined;
              if (item.kind === 'create') {
                const address =
                  item.imported === undefined
                    ? undefined
                    : IMPORTED_ADDRESS_LIST[item.imported];
                if (
                  !claim(address ?? 'derived') ||
                  (address && model.imported.has(address))
                ) {
                  continue;
                }
                const known = new Set(model.accounts.values());
                /**
                 * Whether `state` has the account this creation makes (an account no batch
                 * before had, for a derived key).
                 *
                 * @param state - A state being saved, or the one saved.
                 * @returns True if the account is in it.
                 */
                const isNew = (state: KeyringState): boolean =>
                  Object.values(state.accounts).some((record) =>
                    address
                      ? record.account.address === address
                      : !IMPORTED_ADDRESSES.has(
                          record.account.address as `0x${string}`,
                        ) && !known.has(record.account.address),
                  );
                if (item.fault === 'failSave') {
                  failSaves.push(
                    (draft) => isNew(draft) && !isNew(storage.saved),
                  );
                }
                if (item.fault === 'refuse') {
                  refusals.push(
                    (event, data) =>
                      event === KeyringEvent.AccountCreated &&
                      (address
                        ? data.account.address === address
                        : !IMPORTED_ADDRESSES.has(data.account.address)),
                  );
                }
                planned.push({
                  op: item,
                  run: async () =>
                    keyring.createAccount(
                      address
                        ? {
                            privateKey: IMPORTED[
                              item.imported as number
                            ] as string,
                          }
                        : {},
                    ),
                  expect: item.fault === 'none' ? 'ok' : 'fail',
                  apply: () =>
                    address
                      ? model.imported.add(address)
                      : (model.derived += 1),
                });
              } else if (item.kind === 'delete' && accounts.length > 0) {
                const id = accounts[item.pick % accounts.length];
                if (
                  !claim(id) ||
                  [...model.pending.entries()].some(
                    ([request, owner]) => owner === id && touched.has(request),
                  )
                ) {
                  continue;
                }
                if (item.fault === 'failSave') {
                  failSaves.push(
                    (draft) =>
                      !draft.accounts[id] &&
                      Boolean(storage.saved.accounts[id]),
                  );
                }
                if (item.fault === 'refuse') {
                  refusals.push(
                    (event, data) =>
                      event === KeyringEvent.AccountDeleted && data.id === id,
                  );
                }
                [...model.pending.entries()]
                  .filter(([, owner]) => owner === id)
                  .forEach(([request]) => touched.add(request));
                planned.push({
                  op: item,
                  run: async () => keyring.deleteAccount(id),
                  expect: item.fault === 'none' ? 'ok' : 'fail',
                  apply: () => {
                    const address = model.accounts.get(id) as string;
                    model.accounts.delete(id);
                    model.imported.delete(address);
                    if (!IMPORTED_ADDRESSES.has(address as `0x${string}`)) {
                      model.derived -= 1;
                    }
                    [...model.pending.entries()]
                      .filter(([, owner]) => owner === id)
                      .forEach(([request]) => model.pending.delete(request));
                  },
                });
              } else if (
                item.kind === 'submit' &&
                accounts.length > 0 &&
                !hasMode
              ) {
                const owner = accounts[item.pick % accounts.length];
                if (touched.has(owner)) {
                  continue;
                }
                requests += 1;
                const id = `00000000-0000-4000-8000-${String(requests).padStart(12, '0')}`;
                touched.add(id);
                if (item.fault === 'failSave') {
                  failSaves.push(
                    (draft) =>
                      Boolean(draft.pendingRequests[id]) &&
                      !storage.saved.pendingRequests[id],
                  );
                }
                const parks = model.mode === 'async';
                planned.push({
                  op: item,
                  run: async () =>
                    keyring.submitRequest({
                      id,
                      scope: '',
                      account: owner,
                      origin: 'https://dapp.example',
                      request: {
                        method: 'personal_sign',
                        params: ['0x00', model.accounts.get(owner) as string],
                      },
                    }),
                  expect: parks && item.fault === 'failSave' ? 'fail' : 'ok',
                  apply: () => parks && model.pending.set(id, owner),
                });
              } else if (
                (item.kind === 'approve' || item.kind === 'reject') &&
                pendingIds.length > 0
              ) {
                const id = pendingIds[item.pick % pendingIds.length];
                if (
                  !claim(id) ||
                  touched.has(model.pending.get(id) as string)
                ) {
                  continue;
                }
                touched.add(model.pending.get(id) as string);
                if (item.fault === 'failSave') {
                  failSaves.push(
                    (draft) =>
                      !draft.pendingRequests[id] &&
                      Boolean(storage.saved.pendingRequests[id]),
                  );
                }
                const event =
                  item.kind === 'approve'
                    ? KeyringEvent.RequestApproved
                    : KeyringEvent.RequestRejected;
                if (item.fault === 'refuse') {
                  refusals.push(
                    (name, data) => name === event && data.id === id,
                  );
                }
                planned.push({
                  op: item,
                  run: async () =>
                    item.kind === 'approve'
                      ? keyring.approveRequest(id)
                      : keyring.rejectRequest(id),
                  expect: item.fault === 'none' ? 'ok' : 'fail',
                  // a refused approval still resolves the request (the wallet may have forgotten it)
                  apply: () => model.pending.delete(id),
                });
              } else if (
                item.kind === 'mode' &&
                item.mode !== model.mode &&
                claim('mode')
              ) {
                if (item.fault === 'failSave') {
                  failSaves.push(
                    (draft) =>
                      draft.approvalMode !== storage.saved.approvalMode,
                  );
                }
                planned.push({
                  op: item,
                  run: async () =>
                    settings.setApprovalMode({ mode: item.mode }),
                  expect: item.fault === 'none' ? 'ok' : 'fail',
                  apply: () => (model.mode = item.mode),
                });
              }
            }
            figures.batches += 1;
            figures.operations += planned.length;
            figures.concurrent += planned.length > 1 ? planned.length : 0;
            const outcomes = await scheduler.waitFor(
              Promise.allSettled(planned.map(async ({ run }) => run())),
            );
            outcomes.forEach((outcome, index) => {
              const { op: item, expect: expected, apply } = planned[index];
              expect({
                op: item,
                outcome: outcome.status === 'fulfilled' ? 'ok' : 'fail',
              }).toStrictEqual({ op: item, outcome: expected });
              const resolvesAnyway =
                item.fault === 'refuse' &&
                (item.kind === 'approve' || item.kind === 'reject');
              if (outcome.status === 'fulfilled' || resolvesAnyway) {
                if (outcome.status === 'fulfilled' && item.kind === 'create') {
                  model.accounts.set(
                    (outcome.value as KeyringAccount).id,
                    (outcome.value as KeyringAccount).address,
                  );
                }
                apply();
              }
            });

            const listed = await keyring.listAccounts();
            expect(new Set(listed.map((account) => account.id))).toStrictEqual(
              new Set(model.accounts.keys()),
            );
            expect(
              listed
                .filter((account) =>
                  IMPORTED_ADDRESSES.has(account.address as `0x${string}`),
                )
                .map((account) => account.address)
                .sort(),
            ).toStrictEqual([...model.imported].sort());
            expect(
              listed.filter(
                (account) =>
                  !IMPORTED_ADDRESSES.has(account.address as `0x${string}`),
              ),
            ).toHaveLength(model.derived);
            expect(
              new Set(
                (await keyring.listRequests()).map((request) => request.id),
              ),
            ).toStrictEqual(new Set(model.pending.keys()));
            expect(settings.approvalMode()).toBe(model.mode);
            // storage holds exactly what the keyring serves (the name given out in options.name)
            expect(
              Object.values(storage.saved.accounts).map(publicAccount),
            ).toStrictEqual(listed);
            expect(
              Object.keys(storage.saved.pendingRequests).sort(),
            ).toStrictEqual([...model.pending.keys()].sort());
            expect(storage.saved.approvalMode).toBe(model.mode);
          }
        },
      ),
      { numRuns: Number(process.env.STATE_MODEL_RUNS ?? fuzzRuns(400)) },
    );
    console.log(`state-model figures: ${JSON.stringify(figures)}`);
  });
});
