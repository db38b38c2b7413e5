import { findMyAccounts, restoreByIndex } from './recovery';
import type { Domain } from '../../domain';
import type {
  FindAccountsOptions,
  RecoveryReport,
} from '../../keyring/recovery/recoveryTypes';
import { recoveryStatus } from '../recoveryStatus';
import { NO_CHAIN_TEXT } from '../recoveryText';

const ADDRESS = '0x1111111111111111111111111111111111111111';

/**
 * A report of a search on one chain that added `added` accounts.
 *
 * @param added - How many accounts it added.
 * @returns The report.
 */
function report(added: number): RecoveryReport {
  return {
    noChain: false,
    chains: ['eip155:31337'],
    unreachable: [],
    interrupted: [],
    sources: [{ id: 'default', name: 'Wallet', primary: true }],
    searched: [
      { source: 'default', scheme: 'eoa', indices: 21, end: 'gap' },
      { source: 'default', scheme: 'erc4337-owner', indices: 20, end: 'gap' },
    ],
    added: Array.from({ length: added }, (_, index) => ({
      id: `id-${index}`,
      name: `Keyring Account ${index + 1}`,
      address: ADDRESS,
      type: 'eip155:eoa' as const,
      index,
      scheme: 'eoa' as const,
      source: 'default',
    })),
    skipped: [],
    roundTrips: 2,
    calls: 120,
  };
}

/**
 * A domain whose keyring's findAccounts runs `search`.
 *
 * @param search - The search: given findAccounts' options, resolves to the report.
 * @returns The domain.
 */
function domainWith(
  search: (options: FindAccountsOptions) => Promise<RecoveryReport>,
): Domain {
  const keyring = {
    findAccounts: jest.fn(search),
    restoreAccount: jest.fn(async () => ({ id: 'restored', address: ADDRESS })),
    describeAccounts: (): { account: { id: string }; name: string }[] => [
      { account: { id: 'restored' }, name: 'Keyring Account 4' },
    ],
  };
  return { keyring } as unknown as Domain;
}

describe('findMyAccounts', () => {
  it('repaints with the progress, one repaint at a time, and ends with the report after the last repaint', async () => {
    const shown: string[] = [];
    let painting = 0;
    let overlapped = false;
    const domain = domainWith(async ({ onProgress }) => {
      for (const index of [20, 40, 60]) {
        await onProgress?.({
          source: 'default',
          scheme: 'eoa',
          index,
          found: 1,
        });
      }
      return report(1);
    });
    /**
     * A repaint that records the status it shows and how many ran at once.
     *
     * @returns When painted.
     */
    const repaint = async (): Promise<void> => {
      painting += 1;
      overlapped ||= painting > 1;
      const status = recoveryStatus(domain.keyring);
      shown.push(
        status?.state === 'running'
          ? `running ${status.progress?.index ?? '-'}`
          : String(status?.state),
      );
      await new Promise((resolve) => setImmediate(resolve));
      painting -= 1;
    };
    const outcome = await findMyAccounts(domain, repaint);
    expect(outcome.notice).toStrictEqual({
      severity: 'success',
      text: 'Found 1 used account on Local chain (31337): added 1',
    });
    expect(overlapped).toBe(false);
    expect(shown[0]).toBe('running -');
    expect(shown.at(-1)).toBe('running 60');
    expect(shown).not.toContain('done');
    expect(recoveryStatus(domain.keyring)).toMatchObject({ state: 'done' });
  });

  it('a repaint that fails (the page was left) stops the repaints, not the search', async () => {
    const repaint = jest.fn(async () => {
      throw new Error('Interface not found');
    });
    const domain = domainWith(async ({ onProgress }) => {
      await onProgress?.({
        source: 'default',
        scheme: 'eoa',
        index: 20,
        found: 0,
      });
      await onProgress?.({
        source: 'default',
        scheme: 'eoa',
        index: 40,
        found: 0,
      });
      return report(0);
    });
    const outcome = await findMyAccounts(domain, repaint);
    expect(outcome.notice?.text).toBe(
      'No used account found on Local chain (31337)',
    );
    expect(repaint).toHaveBeenCalledTimes(1);
  });

  it('a second press while it runs starts nothing and says it is searching', async () => {
    let finish: ((value: RecoveryReport) => void) | undefined;
    const domain = domainWith(
      async () =>
        new Promise<RecoveryReport>((resolve) => {
          finish = resolve;
        }),
    );
    const first = findMyAccounts(domain, async () => undefined);
    const second = await findMyAccounts(domain, async () => undefined);
    expect(second.notice).toStrictEqual({
      severity: 'info',
      text: 'Find my accounts is already searching: Searching…. Its result shows here when it ends.',
    });
    expect(domain.keyring.findAccounts).toHaveBeenCalledTimes(1);
    finish?.(report(0));
    expect((await first).notice?.severity).toBe('success');
  });

  it('without a chain: says what to add first, as not done', async () => {
    const domain = domainWith(async () => ({ ...report(0), noChain: true }));
    expect(await findMyAccounts(domain, async () => undefined)).toStrictEqual({
      notice: { severity: 'danger', text: NO_CHAIN_TEXT },
      errors: { 'accounts-restore': NO_CHAIN_TEXT },
    });
  });

  it('a failed search leaves no status behind and says why', async () => {
    const domain = domainWith(async () => {
      throw new Error('boom');
    });
    const outcome = await findMyAccounts(domain, async () => undefined);
    expect(outcome.notice).toStrictEqual({ severity: 'danger', text: 'boom' });
    expect(recoveryStatus(domain.keyring)).toBeUndefined();
  });
});

describe('restoreByIndex', () => {
  it.each(['', 'x', '1.5', '-1', '99999999999'])(
    'refuses the index %p under its input without asking the keyring',
    async (typed) => {
      const domain = domainWith(async () => report(0));
      const outcome = await restoreByIndex(domain, { 'restore-index': typed });
      expect(outcome.errors['restore-index']).toBe(
        "Enter the account's index: a whole number, 0 or more (the number on its card)",
      );
      expect(domain.keyring.restoreAccount).not.toHaveBeenCalled();
    },
  );

  it('restores the chosen kind from the chosen phrase and names the account', async () => {
    const domain = domainWith(async () => report(0));
    const outcome = await restoreByIndex(domain, {
      'restore-index': ' 7 ',
      'restore-type': 'eip155:erc4337',
      'restore-source': 'alternative',
      'restore-entryPointVersion': '0.7',
    });
    expect(domain.keyring.restoreAccount).toHaveBeenCalledWith({
      type: 'eip155:erc4337',
      index: 7,
      entropySource: 'alternative',
      entryPointVersion: '0.7',
    });
    expect(outcome.notice?.text).toMatch(
      `Restored Keyring Account 4 (${ADDRESS}) from index 7, a smart account on EntryPoint v0.7. Each EntryPoint version gives the same index another address`,
    );
    expect(outcome.values).toStrictEqual({
      'restore-index': '',
      'restore-entryPointVersion': '0.7',
    });
  });
});
