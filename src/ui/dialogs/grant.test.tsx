import { formatEther, getAddress, parseEther, parseUnits } from 'viem';

import { grantDialog, grantRows } from './grant';
import { limitWords, periodWords, timeWords } from './grantWords';
import type { GrantReview } from '../../sites/permissions/types';

/** 29 November 2025, 14:00 UTC. */
const NOW = Date.UTC(2025, 10, 29, 14, 0) / 1000;
/** 1 December 2025, 00:00 UTC. */
const DECEMBER_1 = Date.UTC(2025, 11, 1) / 1000;
const SESSION = getAddress('0x000000000000000000000000000000000000beef');
const ACCOUNT = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906');
const TOKEN = getAddress('0x68e13372ae8faaddaf32cc08ee44c5ef5a002c69');

/**
 * @param wei - An amount.
 * @returns It in ETH.
 */
const eth = (wei: bigint): string => `${formatEther(wei)} ETH`;

const NATIVE: GrantReview = {
  origin: 'https://dapp.example',
  account: { address: ACCOUNT, name: 'Savings' },
  scope: 'eip155:31337',
  delegate: SESSION,
  terms: {
    type: 'native-token-periodic',
    periodAmount: parseEther('0.5'),
    periodDuration: 3600,
    startTime: NOW,
  },
  expiry: DECEMBER_1,
  now: NOW,
  justification: 'Top up your game credits',
  deleGator: { ready: true },
};

describe('a permission in words', () => {
  it.each([
    [1, 'every second'],
    [60, 'every minute'],
    [90, 'every 90 seconds'],
    [5400, 'every 90 minutes'],
    [3600, 'every hour'],
    [7200, 'every 2 hours'],
    [86_400, 'every day'],
    [604_800, 'every week'],
    [30 * 86_400, 'every 30 days'],
  ])('a period of %i seconds is "%s"', (seconds, words) => {
    expect(periodWords(seconds)).toBe(words);
  });

  it('times are today, tomorrow, or a date, in UTC', () => {
    expect(timeWords(NOW, NOW)).toBe('14:00 UTC today');
    expect(timeWords(NOW + 86_400 - 1800, NOW)).toBe('13:30 UTC tomorrow');
    expect(timeWords(DECEMBER_1, NOW)).toBe('1 December 2025 at 00:00 UTC');
  });

  it('an ERC-20 amount is in its decimals and named by its symbol; a stream says its rate and total', () => {
    const token = { address: TOKEN, symbol: 'USDC', decimals: 6 };
    expect(
      limitWords(
        {
          type: 'erc20-token-periodic',
          tokenAddress: TOKEN,
          periodAmount: parseUnits('10', 6),
          periodDuration: 86_400,
          startTime: NOW,
        },
        eth,
        token,
      ),
    ).toBe('up to 10 USDC every day');
    expect(
      limitWords(
        {
          type: 'native-token-stream',
          initialAmount: parseEther('0.1'),
          maxAmount: parseEther('1'),
          amountPerSecond: parseEther('0.001'),
          startTime: NOW,
        },
        eth,
      ),
    ).toBe('0.001 ETH per second (0.1 ETH at once), up to 1 ETH in all');
  });
});

describe('the grant dialog', () => {
  it('names the site, the account, the chain and the session account in full, and what it may spend from when until when', () => {
    const { title, intro, rows, justification, upgrade } = grantRows(
      NATIVE,
      'Local chain (31337)',
      eth,
    );
    expect(title).toBe('Allow a site to spend from your account');
    expect(intro).toBe(
      "https://dapp.example asks that the session account below may spend up to 0.5 ETH every hour from Savings on Local chain (31337), from 14:00 UTC today until 1 December 2025 at 00:00 UTC, without asking you each time. You can revoke it on this snap's home page.",
    );
    expect(rows).toStrictEqual([
      { label: 'Site', text: 'https://dapp.example' },
      { label: 'Account', text: 'Savings' },
      { label: 'Address', address: ACCOUNT },
      { label: 'Chain', text: 'Local chain (31337)' },
      { label: 'Who may spend (session account)', address: SESSION },
      { label: 'What it may spend', text: 'up to 0.5 ETH every hour' },
      { label: 'From', text: '14:00 UTC today' },
      { label: 'Until', text: '1 December 2025 at 00:00 UTC' },
    ]);
    expect(justification).toBe('“Top up your game credits”');
    expect(upgrade).toBeUndefined();
  });

  it("shows the site's justification as its own words, its hidden characters made visible", () => {
    const { justification } = grantRows(
      { ...NATIVE, justification: 'safe\u202Eexe.txt\nline' },
      'Local chain (31337)',
      eth,
    );
    expect(justification).toBe('“safe\ufffdexe.txt\nline”');
    const text = JSON.stringify(
      grantDialog(NATIVE, 'Local chain (31337)', eth),
    );
    expect(text).toContain("The site's reason, in its own words:");
  });

  it('a token by its symbol, decimals and contract', () => {
    const { rows } = grantRows(
      {
        ...NATIVE,
        terms: {
          type: 'erc20-token-periodic',
          tokenAddress: TOKEN,
          periodAmount: parseUnits('2.5', 6),
          periodDuration: 604_800,
          startTime: NOW,
        },
        token: { address: TOKEN, symbol: 'USDC', decimals: 6 },
      },
      'Local chain (31337)',
      eth,
    );
    expect(rows).toContainEqual({
      label: 'What it may spend',
      text: 'up to 2.5 USDC every week',
    });
    expect(rows).toContainEqual({
      label: 'Token',
      text: 'USDC (6 decimals)',
    });
    expect(rows).toContainEqual({ label: 'Token contract', address: TOKEN });
  });

  it('says that approving also upgrades (or switches) the account, and who pays', () => {
    const { upgrade } = grantRows(
      {
        ...NATIVE,
        deleGator: {
          ready: false,
          change: 'upgrade',
          sponsored: false,
          maxCost: parseEther('0.001'),
        },
      },
      'Local chain (31337)',
      eth,
    );
    expect(upgrade).toBe(
      "Approving also upgrades this account to MetaMask's smart account (EIP7702StatelessDeleGatorImpl, EIP-7702) on Local chain (31337), at the same address and with the same key: only such an account can grant this permission. It is one user operation, sent before the permission is signed: this account pays its gas itself, at most 0.001 ETH.",
    );
    const { upgrade: switched } = grantRows(
      {
        ...NATIVE,
        deleGator: {
          ready: false,
          change: 'switch',
          sponsored: true,
          maxCost: 0n,
        },
      },
      'Local chain (31337)',
      eth,
    );
    expect(switched).toMatch(
      /^Approving also switches this account from the smart-account code it runs now.*the chain's paymaster service pays its gas, so it costs you nothing\.$/u,
    );
    const text = JSON.stringify(
      grantDialog(
        {
          ...NATIVE,
          deleGator: {
            ready: false,
            change: 'switch',
            sponsored: true,
            maxCost: 0n,
          },
        },
        'Local chain (31337)',
        eth,
      ),
    );
    expect(text).toContain('This also upgrades your account');
  });
});
