import {
  encodeFunctionData,
  getAddress,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';

import { sendConfirmation } from './sendConfirmation';
import { sendConfirmationRows } from './sendConfirmationRows';
import { describeCallData } from '../../accounts/callData';
import type { SendSummary } from '../../accounts/erc4337';
import type { SendReview } from '../../keyring/types';

const SPENDER = getAddress('0xa11ce0000000000000000000000000000000beef');
const TOKEN = getAddress('0x3333333333333333333333333333333333333333');
const APPROVE_MAX = encodeFunctionData({
  abi: parseAbi(['function approve(address, uint256)']),
  functionName: 'approve',
  args: [SPENDER, maxUint256],
});

const SUMMARY_FIELDS: SendSummary = {
  origin: 'https://dapp.example',
  account: '0x1111111111111111111111111111111111111111',
  scope: 'eip155:31337',
  nonce: 7n * 2n ** 64n + 3n, // key 7, sequence 3
  intents: [
    {
      to: '0x2222222222222222222222222222222222222222',
      value: parseEther('1.5'),
      data: '0x',
    },
    { to: TOKEN, value: 0n, data: APPROVE_MAX },
  ],
  deploys: true,
  gas: 1_000_000n,
  maxFeePerGas: 123_456_789n,
  maxGasCost: 123_456_789_000_000n,
  paymaster: '0x4444444444444444444444444444444444444444',
  feeSource: 'chain',
};

/**
 * A summary as the domain hands it to the dialog: each intent's call data decoded.
 *
 * @param summary - The operation's summary.
 * @returns The summary with `calls`.
 */
const confirmation = (summary: SendSummary): SendReview => ({
  ...summary,
  calls: summary.intents.map((intent) => describeCallData(intent.data)),
});

const SUMMARY = confirmation(SUMMARY_FIELDS);

/**
 * Every string and Address prop of a JSX tree, in order, with the Address components' props.
 *
 * @param node - The tree.
 * @returns Strings, and each Address element's props.
 */
function walk(node: unknown): { strings: string[]; addresses: any[] } {
  const strings: string[] = [];
  const addresses: any[] = [];
  /**
   * @param item - A node of the tree.
   */
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      strings.push(item);
    } else if (Array.isArray(item)) {
      item.forEach(visit);
    } else if (typeof item === 'object' && item !== null) {
      const { type, props } = item as { type: string; props: any };
      if (type === 'Address') {
        addresses.push(props);
        strings.push(props.address);
      }
      visit(props?.label);
      visit(props?.title);
      visit(props?.children);
    }
  };
  visit(node);
  return { strings, addresses };
}

describe('sendUserOperation confirmation', () => {
  it('names what happens, the site, account and chain; decodes each intent; who pays the gas in words, the total, and the full nonce under details', () => {
    const { title, account, intents, cost, details, warnings } =
      sendConfirmationRows(
        { ...SUMMARY, name: 'Savings' },
        'Local chain (31337)',
      );
    expect(title).toBe(
      'Send 1.5 ETH from Savings (2 calls) on Local chain (31337)',
    );
    expect(account).toStrictEqual([
      { label: 'Requested by', text: 'https://dapp.example' },
      {
        label: 'From Savings',
        address: '0x1111111111111111111111111111111111111111',
      },
      { label: 'Chain', text: 'Local chain (31337)' },
      { label: 'EntryPoint', text: 'v0.6' },
      {
        label: 'Deploys the account',
        text: 'Yes: this operation deploys the smart account',
      },
    ]);
    expect(intents[0]).toStrictEqual([
      {
        label: 'Call 1 of 2: to',
        address: '0x2222222222222222222222222222222222222222',
      },
      { label: 'Value', text: '1.5 ETH' },
      { label: 'What it does', text: 'plain transfer' },
    ]);
    expect(intents[1]).toContainEqual({ label: 'spender', address: SPENDER });
    expect(intents[1]).toContainEqual(
      expect.objectContaining({
        label: 'Warning',
        warning: true,
        text: expect.stringContaining('UNLIMITED APPROVAL'),
      }),
    );
    expect(warnings).toBe(1);
    expect(cost).toStrictEqual([
      { label: 'Gas', text: 'Paid by the paymaster below (sponsored)' },
      {
        label: 'Paymaster',
        address: '0x4444444444444444444444444444444444444444',
      },
      { label: 'Total', text: '1.5 ETH (the paymaster pays the gas)' },
    ]);
    expect(JSON.stringify([account, intents, cost])).not.toMatch(
      /pay nothing|intent/iu,
    );
    expect(details).toStrictEqual([
      { label: 'Nonce', text: '129127208515966861315' },
      { label: 'Gas × max fee', text: '1000000 gas × 123456789 wei per gas' },
    ]);
  });

  it('says "this account" pays at most the gas, rounded up for reading with the exact amounts under Details, totals value and gas, and cleans the site name of bidi overrides', () => {
    const { title, account, cost, details } = sendConfirmationRows(
      confirmation({
        ...SUMMARY_FIELDS,
        intents: [SUMMARY_FIELDS.intents[0]],
        origin: 'https://evil.example\u202e/moc.knab',
        paymaster: null,
        deploys: false,
      }),
    );
    expect(title).toBe('Send 1.5 ETH from this account on Local chain (31337)');
    expect(account[0]).toStrictEqual({
      label: 'Requested by',
      text: 'https://evil.example\ufffd/moc.knab',
    });
    expect(account[4].text).toMatch(/^No/u);
    expect(cost).toStrictEqual([
      {
        label: 'Gas',
        text: 'Paid by this account: at most 0.0002 ETH',
      },
      {
        label: 'Total',
        text: 'at most 1.5002 ETH (amount plus the most the gas can cost)',
      },
    ]);
    expect(details.slice(0, 2)).toStrictEqual([
      { label: 'Exact maximum gas cost', text: '0.000123456789 ETH' },
      { label: 'Exact total, at most', text: '1.500123456789 ETH' },
    ]);
  });

  it('names a non-canonical EntryPoint by its address, as a warning', () => {
    const { account } = sendConfirmationRows({
      ...SUMMARY,
      entryPointVersion: '0.8',
      entryPoint: '0x00000000000000000000000000000000000e0008',
      canonicalEntryPoint: false,
    });
    expect(account[3]).toStrictEqual({
      label: 'EntryPoint',
      text: 'v0.8 at 0x00000000000000000000000000000000000e0008: not the canonical EntryPoint v0.8',
      warning: true,
    });
  });

  it('an upgrade: its title, and that the undo is paid by the account, never a paymaster, with its estimated cost', () => {
    const { title, account } = sendConfirmationRows(
      {
        ...SUMMARY,
        name: 'Spending',
        upgrade: {
          delegate: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
          nonce: 0n,
          undoCost: 46_000n * 2_000_000_000n,
        },
      },
      'Local chain (31337)',
    );
    expect(title).toBe(
      'Upgrade Spending and send 1.5 ETH (2 calls) on Local chain (31337)',
    );
    expect(account.find((row) => row.label === 'Undoing it')?.text).toBe(
      "A transaction this account pays itself, never a paymaster, even when this upgrade is sponsored: about 0.000092 ETH at today's fee. Keep that much on this account.",
    );
  });

  it.each(['0.7', '0.8'] as const)(
    'names EntryPoint v%s after the chain, as it names v0.6',
    (version) => {
      const { account } = sendConfirmationRows(
        confirmation({ ...SUMMARY_FIELDS, entryPointVersion: version }),
      );
      expect(account.map((row) => row.label)).toStrictEqual([
        'Requested by',
        'From',
        'Chain',
        'EntryPoint',
        'Deploys the account',
      ]);
      expect(account[3]).toStrictEqual({
        label: 'EntryPoint',
        text: `v${version}`,
      });
    },
  );

  it('with gas paid in a token, says the account pays the token (never that it pays nothing) and totals the values plus the token bound', () => {
    const paymaster = getAddress('0x5555555555555555555555555555555555555555');
    const { cost } = sendConfirmationRows(
      confirmation({
        ...SUMMARY_FIELDS,
        paymaster,
        tokenPayment: {
          token: TOKEN,
          symbol: 'T20',
          decimals: 18,
          paymaster,
          maxCost: parseEther('0.25'),
        },
      }),
    );
    expect(cost.map((row) => row.label)).toStrictEqual([
      'Gas paid in',
      'Token',
      'Maximum gas cost in T20',
      'First call: approve',
      'Paymaster (spender)',
      'Total',
    ]);
    expect(cost.some((row) => row.text?.includes('you pay nothing'))).toBe(
      false,
    );
    expect(cost.at(-1)).toStrictEqual({
      label: 'Total',
      text: '1.5 ETH plus at most 0.25 T20 (250000000000000000 base units) for gas',
    });
  });

  it('with gas paid in a token, shows the base units beside every token amount, the decimals the token reports, and whether the chain lists it (a decimals() that lies cannot hide the bound)', () => {
    const paymaster = getAddress('0x5555555555555555555555555555555555555555');
    // a 6-decimal token whose RPC says 18: 2 USDC is 2,000,000 base units
    const review = confirmation({
      ...SUMMARY_FIELDS,
      intents: [SUMMARY_FIELDS.intents[0]],
      paymaster,
      tokenPayment: {
        token: TOKEN,
        symbol: 'USDC',
        decimals: 18,
        paymaster,
        maxCost: 2_000_000n,
      },
    });
    const listed = sendConfirmationRows({ ...review, gasTokenListed: true });
    expect(listed.cost.slice(0, 4)).toStrictEqual([
      {
        label: 'Gas paid in',
        text: 'USDC, an ERC-20 token, from this account (not ETH); 18 decimals, as the token reports',
      },
      { label: 'Token', address: TOKEN },
      {
        label: "In this chain's settings",
        text: 'Yes: one of the tokens listed to pay gas with',
      },
      {
        label: 'Maximum gas cost in USDC',
        text: '0.000000000002 USDC (2000000 base units)',
      },
    ]);
    expect(listed.cost.at(-1)?.text).toBe(
      '1.5 ETH plus at most 0.000000000002 USDC (2000000 base units) for gas',
    );
    expect(
      sendConfirmationRows({ ...review, gasTokenListed: false }).cost[2],
    ).toStrictEqual({
      label: "In this chain's settings",
      text: 'No: not one of the tokens listed to pay gas with; check its address',
      warning: true,
    });
    expect(
      sendConfirmationRows(review).cost.map((row) => row.label),
    ).not.toContain("In this chain's settings");
  });

  it('names the chain’s own currency in every amount (POL on Polygon, BNB on BNB Smart Chain)', () => {
    const polygon = sendConfirmationRows(
      confirmation({
        ...SUMMARY_FIELDS,
        scope: 'eip155:137',
        intents: [SUMMARY_FIELDS.intents[0]],
        paymaster: null,
        upgrade: { delegate: TOKEN, nonce: 0n, undoCost: 10n ** 14n },
      }),
    );
    expect(polygon.title).toBe(
      'Upgrade this account and send 1.5 POL on Polygon (137)',
    );
    expect(polygon.intents[0]?.[1]).toStrictEqual({
      label: 'Value',
      text: '1.5 POL',
    });
    expect(polygon.cost.map((row) => row.text)).toStrictEqual([
      'Paid by this account: at most 0.0002 POL',
      'at most 1.5002 POL (amount plus the most the gas can cost)',
    ]);
    expect(
      polygon.account.find((row) => row.label === 'Undoing it')?.text,
    ).toContain("about 0.0001 POL at today's fee");
    expect(JSON.stringify(polygon)).not.toContain('ETH');
    expect(
      sendConfirmationRows(
        confirmation({ ...SUMMARY_FIELDS, scope: 'eip155:56' }),
      ).title,
    ).toBe('Send 1.5 BNB from this account (2 calls) on BNB Smart Chain (56)');
  });

  it('rounds a value for reading, says so, and gives the exact value under Details', () => {
    const { title, intents, cost, details } = sendConfirmationRows(
      confirmation({
        ...SUMMARY_FIELDS,
        intents: [
          { ...SUMMARY_FIELDS.intents[0], value: 989_634_217_000_000_000n },
        ],
      }),
    );
    expect(title).toBe(
      'Send about 0.9896 ETH from this account on Local chain (31337)',
    );
    expect(intents[0]?.[1]).toStrictEqual({
      label: 'Value',
      text: 'about 0.9896 ETH',
    });
    expect(cost.at(-1)?.text).toBe(
      'about 0.9896 ETH (the paymaster pays the gas)',
    );
    // one exact row for the one amount, however often it is shown
    expect(
      details.filter((row) => row.text === '0.989634217 ETH'),
    ).toStrictEqual([
      { label: 'Exact value of call 1', text: '0.989634217 ETH' },
    ]);
  });

  it('an EOA: no smart-account lines; the home page’s upgrade is not a 0 ETH transfer to itself', () => {
    const eoa = '0x1111111111111111111111111111111111111111';
    const pageUpgrade = confirmation({
      ...SUMMARY_FIELDS,
      entryPointVersion: '0.8',
      deploys: false,
      intents: [{ to: eoa, value: 0n, data: '0x' }],
      upgrade: { delegate: TOKEN, nonce: 3n },
    });
    const withEoa = sendConfirmationRows({
      ...pageUpgrade,
      name: 'Savings',
      eoa: true,
    });
    expect(withEoa.title).toBe(
      'Upgrade Savings to a smart account on Local chain (31337)',
    );
    expect(withEoa.intents).toStrictEqual([]);
    expect(withEoa.lead).toBe(
      'Confirm only if you expect this upgrade. Signing lets the bundler submit it from this account.',
    );
    expect(withEoa.account.map((row) => row.label)).not.toContain(
      'Deploys the account',
    );
    expect(withEoa.details).toContainEqual({
      label: 'Call of the upgrade',
      text: 'The account calls itself with no value and no data: the operation that upgrades it needs one call',
    });
    expect(JSON.stringify(withEoa)).not.toMatch(
      /"Value"|plain transfer|smart account\./u,
    );
    // a smart account still says whether it is deployed
    expect(
      sendConfirmationRows(pageUpgrade).account.map((row) => row.label),
    ).toContain('Deploys the account');
    // an upgraded EOA sending one call
    const upgraded = sendConfirmationRows({
      ...confirmation({
        ...SUMMARY_FIELDS,
        entryPointVersion: '0.8',
        deploys: false,
        intents: [SUMMARY_FIELDS.intents[0]],
      }),
      eoa: true,
    });
    expect(upgraded.account.map((row) => row.label)).toStrictEqual([
      'Requested by',
      'From',
      'Chain',
      'EntryPoint',
    ]);
    expect(upgraded.lead).toBe(
      'Confirm only if you expect this call. Signing lets the bundler submit it from this account.',
    );
  });

  it('shows an EIP-7702 authorization nonce only under Details, last', () => {
    expect(
      sendConfirmationRows(SUMMARY).details.map((row) => row.label),
    ).not.toContain('Authorization nonce');
    const upgrade = confirmation({
      ...SUMMARY_FIELDS,
      entryPointVersion: '0.8',
      upgrade: { delegate: TOKEN, nonce: 42n },
    });
    const rows = sendConfirmationRows(upgrade);
    expect(rows.details.at(-1)).toStrictEqual({
      label: 'Authorization nonce',
      text: '42',
    });
    expect(
      [...rows.account, ...rows.cost].some((row) => row.text === '42'),
    ).toBe(false);
    const { strings } = walk(sendConfirmation(upgrade));
    expect(strings.slice(-2)).toStrictEqual(['Authorization nonce', '42']);
  });

  it('renders a JSX Box: a danger banner first for an unlimited approval, every address untruncated', () => {
    const element = sendConfirmation(SUMMARY);
    expect(element.type).toBe('Box');
    const children = (element.props as any).children as { type: string }[];
    expect(
      children
        .flat()
        .filter(Boolean)
        .map((child) => child.type),
    ).toStrictEqual([
      'Heading',
      'Banner',
      'Text',
      'Section',
      'Section',
      'Section',
      'Divider',
      'Section',
      'Text',
      'Section',
    ]);
    const { strings, addresses } = walk(element);
    expect(strings).toContain('Unlimited approval');
    expect(strings).toContain(SPENDER);
    expect(addresses.length).toBeGreaterThanOrEqual(4);
    // the paymaster is named in words, its address in full
    expect(strings.join(' ')).toContain(
      '0x4444444444444444444444444444444444444444',
    );
    for (const props of addresses) {
      expect(props).toMatchObject({ truncate: false, displayName: false });
    }
    const plain = sendConfirmation(
      confirmation({
        ...SUMMARY_FIELDS,
        intents: [SUMMARY_FIELDS.intents[0]],
      }),
    );
    expect(walk(plain).strings).not.toContain('Unlimited approval');
  });
});
