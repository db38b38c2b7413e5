import { parseEther } from 'viem';

import { sendConfirmation, sendConfirmationRows } from './send-confirmation';
import type { SendSummary } from '../accounts/erc4337';

const SUMMARY: SendSummary = {
  account: '0x1111111111111111111111111111111111111111',
  scope: 'eip155:31337',
  intents: [
    {
      to: '0x2222222222222222222222222222222222222222',
      value: parseEther('1.5'),
      selector: null,
    },
    {
      to: '0x3333333333333333333333333333333333333333',
      value: 0n,
      selector: '0xa9059cbb',
    },
  ],
  deploys: true,
  maxGasCost: 123_456_789_000_000n,
  paymaster: '0x4444444444444444444444444444444444444444',
  feeSource: 'chain',
};

describe('sendUserOperation confirmation', () => {
  it('shows the account and chain, each intent in ETH with its selector or "plain transfer", deployment, the maximum cost and the paymaster', () => {
    const { account, intents, cost } = sendConfirmationRows(SUMMARY);
    expect(account).toStrictEqual([
      {
        label: 'Smart account',
        address: 'eip155:31337:0x1111111111111111111111111111111111111111',
      },
      { label: 'Chain', text: 'eip155:31337' },
      {
        label: 'Deploys the account',
        text: 'Yes: this operation deploys the smart account',
      },
    ]);
    expect(intents).toStrictEqual([
      [
        {
          label: 'Intent 1 of 2: to',
          address: '0x2222222222222222222222222222222222222222',
        },
        { label: 'Value', text: '1.5 ETH' },
        { label: 'Call', text: 'plain transfer' },
      ],
      [
        {
          label: 'Intent 2 of 2: to',
          address: '0x3333333333333333333333333333333333333333',
        },
        { label: 'Value', text: '0 ETH' },
        { label: 'Call', text: 'function selector 0xa9059cbb' },
      ],
    ]);
    expect(cost).toStrictEqual([
      { label: 'Maximum gas cost', text: '0.000123456789 ETH' },
      {
        label: 'Gas paid by paymaster',
        address: '0x4444444444444444444444444444444444444444',
      },
    ]);
  });

  it('says "this account" when no paymaster pays, and "No" for a deployed account', () => {
    const { account, cost } = sendConfirmationRows({
      ...SUMMARY,
      paymaster: null,
      deploys: false,
    });
    expect(account[2]).toStrictEqual({
      label: 'Deploys the account',
      text: 'No: the account is deployed already',
    });
    expect(cost[1]).toStrictEqual({
      label: 'Gas paid by',
      text: 'this account',
    });
  });

  it('renders a snaps-sdk Box with a section per intent', () => {
    const element = sendConfirmation(SUMMARY);
    expect(element.type).toBe('Box');
    const children = element.props.children as { type: string }[];
    expect(children.map((child) => child.type)).toStrictEqual([
      'Heading',
      'Text',
      'Section',
      'Section',
      'Section',
      'Divider',
      'Section',
    ]);
  });
});
