import { encodeFunctionData, getAddress, parseAbi } from 'viem';
import type { Hex } from 'viem';

import {
  describeCall,
  describeCallData,
  MAX_INNER_CALLS,
  MAX_NESTING,
  UNLIMITED_THRESHOLD,
} from './callData';

/**
 * Every line a person is shown, compared whole, in the cases the other suites check only in part
 * (each found by mutation testing, docs/testing.md "Mutation testing"): the ETH value of a call
 * and of inner calls, the executeBatch bound and its mismatched arrays, the 3-argument
 * safeTransferFrom, the full setApprovalForAll warning, the two words of an unlimited ERC-20 approve,
 * transferFrom's title, ERC-1155's data line, the nesting bound. ABIs written here independently of
 * the decoder's (EIP-20, EIP-721, EIP-1155, SimpleAccount v0.6).
 */

const ERC20 = parseAbi([
  'function approve(address, uint256)',
  'function transferFrom(address, address, uint256)',
]);
const ERC721 = parseAbi([
  'function setApprovalForAll(address, bool)',
  'function safeTransferFrom(address, address, uint256)',
]);
const ERC1155 = parseAbi([
  'function safeTransferFrom(address, address, uint256, uint256, bytes)',
]);
const ACCOUNT = parseAbi([
  'function execute(address, uint256, bytes)',
  'function executeBatch(address[], bytes[])',
]);

const OPERATOR = getAddress('0xa11ce0000000000000000000000000000000beef');
const OWNER = getAddress('0x1234567890abcdef1234567890abcdef12345678');
const TOKEN = getAddress('0x00000000000000000000000000000000000070ce');

describe('the ETH a call sends is shown', () => {
  it('shows To and Value (in ETH) before the call', () => {
    expect(
      describeCall({
        to: TOKEN,
        value: 1_500_000_000_000_000_000n,
        data: '0x',
      }),
    ).toStrictEqual([
      { label: 'To', text: TOKEN, address: TOKEN },
      { label: 'Value', text: '1.5 ETH' },
      { label: 'Call', text: 'plain transfer' },
    ]);
  });

  it('shows a zero value as 0 ETH, and leaves out what is not given', () => {
    expect(describeCall({ to: TOKEN, value: 0n, data: '0x' })).toStrictEqual([
      { label: 'To', text: TOKEN, address: TOKEN },
      { label: 'Value', text: '0 ETH' },
      { label: 'Call', text: 'plain transfer' },
    ]);
    expect(describeCall({ data: '0x' })).toStrictEqual([
      { label: 'Call', text: 'plain transfer' },
    ]);
  });

  it('shows the value an execute sends with its inner call', () => {
    const data = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'execute',
      args: [OWNER, 250_000_000_000_000_000n, '0x'],
    });
    expect(describeCallData(data)).toStrictEqual([
      {
        label: 'Call',
        text: 'execute (SimpleAccount): the account makes this call',
      },
      { label: 'Inner call 1: to', text: OWNER, address: OWNER },
      { label: 'Inner call 1: value', text: '0.25 ETH' },
      { label: 'Inner call 1: Call', text: 'plain transfer' },
    ]);
  });
});

describe('executeBatch', () => {
  /**
   * executeBatch call data of `count` plain calls to OWNER.
   *
   * @param count - How many inner calls.
   * @returns The call data.
   */
  function batch(count: number): Hex {
    return encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'executeBatch',
      args: [new Array(count).fill(OWNER), new Array(count).fill('0x')],
    });
  }

  it(`decodes ${MAX_INNER_CALLS} inner calls, each with its value (0 ETH: v0.6 executeBatch sends none)`, () => {
    const lines = describeCallData(batch(MAX_INNER_CALLS));
    expect(lines[0]).toStrictEqual({
      label: 'Call',
      text: 'executeBatch (SimpleAccount): the account makes these calls',
    });
    expect(lines).toHaveLength(1 + 3 * MAX_INNER_CALLS);
    expect(lines.slice(-3)).toStrictEqual([
      {
        label: `Inner call ${MAX_INNER_CALLS}: to`,
        text: OWNER,
        address: OWNER,
      },
      { label: `Inner call ${MAX_INNER_CALLS}: value`, text: '0 ETH' },
      { label: `Inner call ${MAX_INNER_CALLS}: Call`, text: 'plain transfer' },
    ]);
  });

  it(`shows a batch of ${MAX_INNER_CALLS + 1} calls raw, in full`, () => {
    const data = batch(MAX_INNER_CALLS + 1);
    expect(describeCallData(data)).toStrictEqual([
      {
        label: 'Call',
        text: `function ${data.slice(0, 10)} (not decoded: check the full call data)`,
      },
      {
        label: `Call data (${(data.length - 2) / 2} bytes, in full)`,
        text: data,
      },
    ]);
  });

  it('shows raw, in full, a batch whose arrays differ in length (the account would revert)', () => {
    for (const args of [
      [[OWNER, TOKEN], ['0x']],
      [[OWNER], ['0x', '0x']],
      [[], ['0x']],
    ] as [Hex[], Hex[]][]) {
      const data = encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'executeBatch',
        args,
      });
      const lines = describeCallData(data);
      expect(lines).toHaveLength(2);
      expect(lines[0].text).toBe(
        `function ${data.slice(0, 10)} (not decoded: check the full call data)`,
      );
      expect(lines[1].text).toBe(data);
    }
  });
});

describe('ERC-721', () => {
  it('shows the 3-argument safeTransferFrom with no data line', () => {
    const data = encodeFunctionData({
      abi: ERC721,
      functionName: 'safeTransferFrom',
      args: [OWNER, OPERATOR, 7n],
    });
    expect(describeCallData(data)).toStrictEqual([
      { label: 'Call', text: 'safeTransferFrom' },
      { label: 'from', text: OWNER, address: OWNER },
      { label: 'recipient', text: OPERATOR, address: OPERATOR },
      { label: 'token id (ERC-721)', text: '7' },
    ]);
  });

  it('warns about setApprovalForAll(true) in words that name the operator and what it may take', () => {
    const data = encodeFunctionData({
      abi: ERC721,
      functionName: 'setApprovalForAll',
      args: [OPERATOR, true],
    });
    expect(describeCallData(data)).toStrictEqual([
      { label: 'Call', text: 'setApprovalForAll (ERC-721 / ERC-1155)' },
      { label: 'operator', text: OPERATOR, address: OPERATOR },
      { label: 'approved', text: 'true' },
      {
        label: 'Warning',
        text: `UNLIMITED APPROVAL: ${OPERATOR} may take ALL tokens of this collection from this account, now and later. Reject unless you trust it.`,
        warning: true,
      },
    ]);
  });

  it('shows setApprovalForAll(false) as a revocation, with no warning', () => {
    const data = encodeFunctionData({
      abi: ERC721,
      functionName: 'setApprovalForAll',
      args: [OPERATOR, false],
    });
    expect(describeCallData(data)).toStrictEqual([
      { label: 'Call', text: 'setApprovalForAll (ERC-721 / ERC-1155)' },
      { label: 'operator', text: OPERATOR, address: OPERATOR },
      { label: 'approved', text: 'false' },
    ]);
  });
});

describe('call data too short to hold a selector', () => {
  it('says so and shows the bytes', () => {
    expect(describeCallData('0x1234')).toStrictEqual([
      { label: 'Call', text: 'no function selector (not decoded)' },
      { label: 'Call data (2 bytes, in full)', text: '0x1234' },
    ]);
  });
});

describe('ERC-20 approve and transferFrom, every line', () => {
  /**
   * The lines of an approve of `amount` to OPERATOR.
   *
   * @param amount - The allowance (token base units).
   * @returns What the person is shown.
   */
  const approve = (amount: bigint): ReturnType<typeof describeCallData> =>
    describeCallData(
      encodeFunctionData({
        abi: ERC20,
        functionName: 'approve',
        args: [OPERATOR, amount],
      }),
    );
  /**
   * The lines before any warning.
   *
   * @param amount - The allowance (token base units).
   * @returns Call, spender and amount.
   */
  const head = (amount: bigint): ReturnType<typeof describeCallData> => [
    {
      label: 'Call',
      text: 'approve (ERC-20 allowance, or ERC-721 approval of one token)',
    },
    { label: 'spender', text: OPERATOR, address: OPERATOR },
    {
      label: 'amount (ERC-20, token base units) or token id (ERC-721)',
      text: amount.toString(),
    },
  ];

  it('names 2^256-1, the usual unlimited allowance, in its warning', () => {
    const max = 2n ** 256n - 1n;
    expect(approve(max)).toStrictEqual([
      ...head(max),
      {
        label: 'Warning',
        text: `UNLIMITED APPROVAL (2^256-1): ${OPERATOR} may take ALL of this token from this account, now and later. Reject unless you trust it.`,
        warning: true,
      },
    ]);
  });

  it('warns without that name for any other amount from 2^255 up, and not below', () => {
    for (const amount of [UNLIMITED_THRESHOLD, 2n ** 256n - 2n]) {
      expect(approve(amount)).toStrictEqual([
        ...head(amount),
        {
          label: 'Warning',
          text: `UNLIMITED APPROVAL: ${OPERATOR} may take ALL of this token from this account, now and later. Reject unless you trust it.`,
          warning: true,
        },
      ]);
    }
    expect(approve(UNLIMITED_THRESHOLD - 1n)).toStrictEqual(
      head(UNLIMITED_THRESHOLD - 1n),
    );
  });

  it('shows transferFrom with its title, both addresses and the amount', () => {
    const data = encodeFunctionData({
      abi: ERC20,
      functionName: 'transferFrom',
      args: [OWNER, OPERATOR, 12n],
    });
    expect(describeCallData(data)).toStrictEqual([
      { label: 'Call', text: 'transferFrom (ERC-20 or ERC-721)' },
      { label: 'from', text: OWNER, address: OWNER },
      { label: 'recipient', text: OPERATOR, address: OPERATOR },
      {
        label: 'amount (ERC-20, token base units) or token id (ERC-721)',
        text: '12',
      },
    ]);
  });
});

describe('ERC-1155', () => {
  it('shows safeTransferFrom with token id, amount and its data', () => {
    const data = encodeFunctionData({
      abi: ERC1155,
      functionName: 'safeTransferFrom',
      args: [OWNER, OPERATOR, 9n, 100n, '0xc0ffee'],
    });
    expect(describeCallData(data)).toStrictEqual([
      { label: 'Call', text: 'safeTransferFrom' },
      { label: 'from', text: OWNER, address: OWNER },
      { label: 'recipient', text: OPERATOR, address: OPERATOR },
      { label: 'token id (ERC-1155)', text: '9' },
      { label: 'amount (ERC-1155)', text: '100' },
      { label: 'data', text: '0xc0ffee' },
    ]);
  });
});

describe('execute inside execute', () => {
  it(`is decoded ${MAX_NESTING} levels deep, and shown raw below that`, () => {
    let data: Hex = '0x';
    for (let level = 0; level <= MAX_NESTING; level += 1) {
      data = encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'execute',
        args: [OWNER, 0n, data],
      });
    }
    const lines = describeCallData(data, { self: OWNER });
    const calls = lines.filter(({ label }) => label.endsWith('Call'));
    const paths = ['', 'Inner call 1', 'Inner call 1.1', 'Inner call 1.1.1'];
    expect(calls.slice(0, MAX_NESTING)).toStrictEqual(
      paths.map((path) => ({
        label: path === '' ? 'Call' : `${path}: Call`,
        text: 'execute (SimpleAccount): the account makes this call',
      })),
    );
    const deepest = `${paths[MAX_NESTING - 1]}.1`;
    expect(lines.slice(-2)).toStrictEqual([
      {
        label: `${deepest}: Call`,
        text: `function ${data.slice(0, 10)} (not decoded: check the full call data)`,
      },
      {
        label: expect.stringMatching(
          /^Inner call 1\.1\.1\.1: Call data \(\d+ bytes, in full\)$/u,
        ),
        text: expect.stringMatching(/^0x[0-9a-f]+$/u),
      },
    ]);
    expect(calls).toHaveLength(MAX_NESTING + 1);
  });
});
