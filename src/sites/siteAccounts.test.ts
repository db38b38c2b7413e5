import type { KeyringAccount } from '@metamask/keyring-api';

import { notGiven, SiteAccounts } from './siteAccounts';
import { MAX_SITE_ACCOUNTS, MAX_SITES } from '../state/schema';
import { defaultState, StateStore } from '../state/store';

const MINE = '0x000000000000000000000000000000000000bEEF';
const NOT_MINE = '0x000000000000000000000000000000000000dEaD';

/**
 * Site accounts over an empty state with one account of the snap (MINE), answering its question
 * dialogs from `answers`.
 *
 * @param answers - The person's answers, in order.
 * @returns The record, its store and the dialogs shown.
 */
function siteAccounts(answers: boolean[] = []): {
  sites: SiteAccounts;
  store: StateStore;
  shown: string[];
} {
  const store = new StateStore(defaultState(), async () => undefined);
  const shown: string[] = [];
  const sites = new SiteAccounts({
    store,
    confirm: async (title, text): Promise<boolean> => {
      shown.push(`${title} ${text}`);
      return answers.shift() ?? false;
    },
    listAccounts: async (): Promise<KeyringAccount[]> => [
      { id: 'mine', address: MINE, type: 'eip155:eoa' } as KeyringAccount,
    ],
  });
  return { sites, store, shown };
}

describe('the addresses each site was given', () => {
  it('asks once per site, the same question for any address; an address given only when it is the snap’s and the person agrees', async () => {
    const { sites, shown } = siteAccounts([true, true, false]);
    expect(await sites.askOnce('https://a.example', NOT_MINE)).toBe(false);
    expect(await sites.askOnce('https://a.example', MINE)).toBe(false); // asked already
    expect(await sites.askOnce('https://b.example', MINE)).toBe(true);
    expect(await sites.askOnce('https://c.example', MINE)).toBe(false); // declined
    expect(shown).toHaveLength(3);
    expect(shown[0]?.replace(NOT_MINE, '<address>')).toBe(
      shown[1]?.replace(MINE, '<address>').replace('b.example', 'a.example'),
    );
    expect(sites.isGiven('https://b.example', MINE.toLowerCase())).toBe(true);
    expect(sites.isGiven('https://a.example', MINE)).toBe(false);
    expect(await sites.account('https://b.example', MINE, false)).toMatchObject(
      { id: 'mine' },
    );
    expect(
      await sites.account('https://c.example', MINE, false),
    ).toBeUndefined();
    expect(await sites.account('https://c.example', MINE, true)).toMatchObject({
      id: 'mine',
    });
  });

  it('an approved send gives a web site its account; the home page is not a site', async () => {
    const { sites, store } = siteAccounts();
    await sites.approved('https://dapp.example', MINE);
    await sites.approved('this snap’s home page (Send form)', MINE);
    expect(store.current.siteAccounts).toStrictEqual({
      'https://dapp.example': [MINE.toLowerCase()],
    });
  });

  it('keeps at most MAX_SITE_ACCOUNTS addresses a site and MAX_SITES sites, dropping the oldest', async () => {
    const { sites, store } = siteAccounts();
    for (let index = 0; index <= MAX_SITE_ACCOUNTS; index += 1) {
      await sites.give(
        'https://many.example',
        `0x${index.toString(16).padStart(40, '0')}`,
      );
    }
    const kept = store.current.siteAccounts?.['https://many.example'] ?? [];
    expect(kept).toHaveLength(MAX_SITE_ACCOUNTS);
    expect(kept[0]).toBe(`0x${'1'.padStart(40, '0')}`);
    for (let index = 0; index < MAX_SITES; index += 1) {
      await sites.give(`https://s${index}.example`, MINE);
    }
    const origins = Object.keys(store.current.siteAccounts ?? {});
    expect(origins).toHaveLength(MAX_SITES);
    expect(origins).not.toContain('https://many.example');
    // given again, a site moves to the end (kept longest)
    await sites.give('https://s0.example', MINE);
    expect(Object.keys(store.current.siteAccounts ?? {}).at(-1)).toBe(
      'https://s0.example',
    );
  });

  it('one refusal for an address not given: 4100, naming no address', () => {
    expect(notGiven()).toMatchObject({
      code: 4100,
      message: expect.stringMatching(/^That address is not an account/u),
    });
  });
});
