import { encodeFunctionData, getAddress, maxUint256, parseAbi } from 'viem';
import type { Hex } from 'viem';

import {
  describeCall,
  describeCallData,
  describeIntents,
  hasWarning,
} from './callData';

// The reference ABIs, written here independently of the decoder's (EIP-20, EIP-721, EIP-1155, SimpleAccount v0.6).
const ERC20 = parseAbi([
  'function transfer(address, uint256)',
  'function approve(address, uint256)',
  'function transferFrom(address, address, uint256)',
]);
const ERC721 = parseAbi([
  'function setApprovalForAll(address, bool)',
  'function safeTransferFrom(address, address, uint256)',
  'function safeTransferFrom(address, address, uint256, bytes)',
]);
const ERC1155 = parseAbi([
  'function safeTransferFrom(address, address, uint256, uint256, bytes)',
]);
const ACCOUNT = parseAbi([
  'function execute(address, uint256, bytes)',
  'function executeBatch(address[], bytes[])',
]);

const ATTACKER = getAddress('0xa11ce0000000000000000000000000000000beef');
const OWNER = getAddress('0x1234567890abcdef1234567890abcdef12345678');
const TOKEN = getAddress('0x00000000000000000000000000000000000070ce');

/**
 * The value of the line with a label.
 *
 * @param lines - Described lines.
 * @param label - The label.
 * @returns The text.
 */
function value(
  lines: { label: string; text: string }[],
  label: string,
): string | undefined {
  return lines.find((line) => line.label === label)?.text;
}

describe('call-data decoder', () => {
  it('decodes an ERC-20 transfer with the recipient in full', () => {
    const data = encodeFunctionData({
      abi: ERC20,
      functionName: 'transfer',
      args: [ATTACKER, 10n ** 24n],
    });
    const lines = describeCallData(data);
    expect(value(lines, 'Call')).toBe('ERC-20 transfer');
    expect(lines).toContainEqual({
      label: 'recipient',
      text: ATTACKER,
      address: ATTACKER,
    });
    expect(value(lines, 'amount (token base units)')).toBe(
      '1000000000000000000000000',
    );
    expect(hasWarning(lines)).toBe(false);
  });

  it('flags an approve of 2^256-1 and of anything >= 2^255 as unlimited, not a bounded one', () => {
    for (const amount of [maxUint256, 2n ** 255n]) {
      const lines = describeCallData(
        encodeFunctionData({
          abi: ERC20,
          functionName: 'approve',
          args: [ATTACKER, amount],
        }),
      );
      expect(value(lines, 'spender')).toBe(ATTACKER);
      expect(hasWarning(lines)).toBe(true);
      expect(value(lines, 'Warning')).toContain('UNLIMITED APPROVAL');
      expect(value(lines, 'Warning')).toContain(ATTACKER);
    }
    const bounded = describeCallData(
      encodeFunctionData({
        abi: ERC20,
        functionName: 'approve',
        args: [ATTACKER, 2n ** 255n - 1n],
      }),
    );
    expect(hasWarning(bounded)).toBe(false);
    expect(
      value(bounded, 'amount (ERC-20, token base units) or token id (ERC-721)'),
    ).toBe((2n ** 255n - 1n).toString());
  });

  it('decodes transferFrom', () => {
    const lines = describeCallData(
      encodeFunctionData({
        abi: ERC20,
        functionName: 'transferFrom',
        args: [OWNER, ATTACKER, 5n],
      }),
    );
    expect(value(lines, 'from')).toBe(OWNER);
    expect(value(lines, 'recipient')).toBe(ATTACKER);
    expect(
      value(lines, 'amount (ERC-20, token base units) or token id (ERC-721)'),
    ).toBe('5');
  });

  it('flags setApprovalForAll(true), not setApprovalForAll(false)', () => {
    const on = describeCallData(
      encodeFunctionData({
        abi: ERC721,
        functionName: 'setApprovalForAll',
        args: [ATTACKER, true],
      }),
    );
    expect(value(on, 'operator')).toBe(ATTACKER);
    expect(value(on, 'approved')).toBe('true');
    expect(hasWarning(on)).toBe(true);
    const off = describeCallData(
      encodeFunctionData({
        abi: ERC721,
        functionName: 'setApprovalForAll',
        args: [ATTACKER, false],
      }),
    );
    expect(hasWarning(off)).toBe(false);
  });

  it('decodes the three safeTransferFrom overloads (ERC-721 ×2, ERC-1155)', () => {
    const three = describeCallData(
      encodeFunctionData({
        abi: ERC721,
        functionName: 'safeTransferFrom',
        args: [OWNER, ATTACKER, 7n],
      }),
    );
    expect(value(three, 'recipient')).toBe(ATTACKER);
    expect(value(three, 'token id (ERC-721)')).toBe('7');
    expect(value(three, 'data')).toBeUndefined();

    const four = describeCallData(
      encodeFunctionData({
        abi: ERC721,
        functionName: 'safeTransferFrom',
        args: [OWNER, ATTACKER, 8n, '0xc0ffee'],
      }),
    );
    expect(value(four, 'token id (ERC-721)')).toBe('8');
    expect(value(four, 'data')).toBe('0xc0ffee');

    const multi = describeCallData(
      encodeFunctionData({
        abi: ERC1155,
        functionName: 'safeTransferFrom',
        args: [OWNER, ATTACKER, 9n, 100n, '0x'],
      }),
    );
    expect(value(multi, 'from')).toBe(OWNER);
    expect(value(multi, 'token id (ERC-1155)')).toBe('9');
    expect(value(multi, 'amount (ERC-1155)')).toBe('100');
  });

  it('decodes an approve inside executeBatch inside execute, and flags it', () => {
    const approve = encodeFunctionData({
      abi: ERC20,
      functionName: 'approve',
      args: [ATTACKER, maxUint256],
    });
    const batch = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'executeBatch',
      args: [[TOKEN], [approve]],
    });
    const data = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'execute',
      args: [OWNER, 0n, batch],
    });
    const lines = describeCall({ to: OWNER, from: OWNER, value: 0n, data });
    expect(value(lines, 'To')).toBe(OWNER);
    expect(value(lines, 'Call')).toMatch(/^execute/u);
    expect(value(lines, 'Inner call 1: to')).toBe(OWNER);
    expect(value(lines, 'Inner call 1: Call')).toMatch(/^executeBatch/u);
    expect(value(lines, 'Inner call 1.1: to')).toBe(TOKEN);
    expect(value(lines, 'Inner call 1.1: Call')).toMatch(/^approve/u);
    expect(value(lines, 'Inner call 1.1: spender')).toBe(ATTACKER);
    expect(value(lines, 'Inner call 1.1: Warning')).toContain(
      'UNLIMITED APPROVAL',
    );
    expect(hasWarning(lines)).toBe(true);
  });

  it('decodes the v0.7 and v0.8 (Simple7702Account) executeBatch with each call’s value; lists of different lengths stay raw', () => {
    const transfer = encodeFunctionData({
      abi: ERC20,
      functionName: 'transfer',
      args: [ATTACKER, 5n],
    });
    const v08 = encodeFunctionData({
      abi: parseAbi([
        'function executeBatch((address target, uint256 value, bytes data)[])',
      ]),
      args: [
        [
          { target: ATTACKER, value: 10n ** 18n, data: '0x' },
          { target: TOKEN, value: 0n, data: transfer },
        ],
      ],
    });
    const V07 = parseAbi([
      'function executeBatch(address[], uint256[], bytes[])',
    ]);
    const v07 = encodeFunctionData({
      abi: V07,
      args: [
        [ATTACKER, TOKEN],
        [2n * 10n ** 18n, 0n],
        ['0x', transfer],
      ],
    });
    for (const [data, first] of [
      [v08, '1 ETH'],
      [v07, '2 ETH'],
    ] as const) {
      const lines = describeCallData(data);
      expect(value(lines, 'Call')).toMatch(/^executeBatch/u);
      expect(value(lines, 'Inner call 1: to')).toBe(ATTACKER);
      expect(value(lines, 'Inner call 1: value')).toBe(first);
      expect(value(lines, 'Inner call 2: to')).toBe(TOKEN);
      expect(value(lines, 'Inner call 2: value')).toBe('0 ETH');
      expect(value(lines, 'Inner call 2: Call')).toBe('ERC-20 transfer');
    }
    // v0.7: no values is none sent; a value list of another length reverts, shown raw
    const none = describeCallData(
      encodeFunctionData({ abi: V07, args: [[ATTACKER], [], ['0x']] }),
    );
    expect(value(none, 'Inner call 1: value')).toBe('0 ETH');
    const uneven = describeCallData(
      encodeFunctionData({ abi: V07, args: [[ATTACKER], [1n, 2n], ['0x']] }),
    );
    expect(value(uneven, 'Call')).toMatch(/not decoded/u);
  });

  it('stops decoding at the nesting bound and shows the rest raw, in full', () => {
    let data: Hex = encodeFunctionData({
      abi: ERC20,
      functionName: 'transfer',
      args: [ATTACKER, 1n],
    });
    for (let level = 0; level < 6; level += 1) {
      data = encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'execute',
        args: [OWNER, 0n, data],
      });
    }
    const lines = describeCallData(data);
    const rawLine = lines.find((line) => line.label.includes('Call data'));
    expect(rawLine?.text.length).toBeGreaterThan(200);
    expect(data.toLowerCase()).toContain(rawLine?.text.slice(10));
  });

  it('shows an unknown selector with the FULL call data, and non-standard encodings raw', () => {
    const data = `0xdeadbeef${'ab'.repeat(300)}` as Hex;
    const lines = describeCallData(data);
    expect(value(lines, 'Call')).toBe(
      'function 0xdeadbeef (not decoded: check the full call data)',
    );
    expect(value(lines, 'Call data (304 bytes, in full)')).toBe(data);

    // transfer with dirty high bits in the address word: not what a Solidity 0.8 token reads
    const transfer = encodeFunctionData({
      abi: ERC20,
      functionName: 'transfer',
      args: [ATTACKER, 1n],
    });
    const dirty = `${transfer.slice(0, 10)}ff${transfer.slice(12)}` as Hex;
    expect(value(describeCallData(dirty), 'Call')).toMatch(/not decoded/u);
    expect(value(describeCallData('0xa9059cbb'), 'Call')).toMatch(
      /^function 0xa9059cbb/u,
    );
    expect(value(describeCallData('0x12'), 'Call')).toBe(
      'no function selector (not decoded)',
    );
    expect(value(describeCallData('0x'), 'Call')).toBe('plain transfer');
  });

  it('describeIntents: an intent that sends execute to another contract is that contract’s code; only one sent to the account is its own execute', () => {
    const approve = encodeFunctionData({
      abi: ERC20,
      functionName: 'approve',
      args: [ATTACKER, maxUint256],
    });
    const execute = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'execute',
      args: [TOKEN, 0n, approve],
    });
    const [foreign, own] = describeIntents({
      account: OWNER,
      intents: [
        { to: ATTACKER, data: execute },
        { to: OWNER, data: execute },
      ],
    });
    expect(value(foreign ?? [], 'Call')).toMatch(
      new RegExp(`^a call to ${ATTACKER} \\(a contract\\)`, 'u'),
    );
    expect(value(own ?? [], 'Call')).toMatch(/^execute \(SimpleAccount\)/u);
  });

  it("credits execute/executeBatch to the account only when sent to the account itself; elsewhere it is that contract's own code, shown raw", () => {
    const approve = encodeFunctionData({
      abi: ERC20,
      functionName: 'approve',
      args: [ATTACKER, maxUint256],
    });
    const execute = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'execute',
      args: [TOKEN, 0n, approve],
    });
    const batch = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'executeBatch',
      args: [[TOKEN], [approve]],
    });
    const foreign = new RegExp(
      `^a call to ${ATTACKER} \\(a contract\\), which runs its own code: function 0x[0-9a-f]{8} \\(not this account's execute`,
      'u',
    );
    for (const data of [execute, batch]) {
      // an EOA's transaction to a third party's contract
      const sent = describeCall({ to: ATTACKER, from: OWNER, value: 0n, data });
      expect(value(sent, 'Call')).toMatch(foreign);
      expect(
        sent.find((line) => line.label.startsWith('Call data'))?.text,
      ).toBe(data.toLowerCase());
      expect(sent.some((line) => line.label.startsWith('Inner call'))).toBe(
        false,
      );
      // an inner call of the account's own execute, to a third party
      const outer = encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'execute',
        args: [ATTACKER, 0n, data],
      });
      const nested = describeCallData(outer, { self: OWNER });
      expect(value(nested, 'Call')).toMatch(/^execute \(SimpleAccount\)/u);
      expect(value(nested, 'Inner call 1: Call')).toMatch(foreign);
      expect(
        nested.some((line) => line.label.startsWith('Inner call 1.1')),
      ).toBe(false);
      // a user operation's callData runs in the account: its own
      expect(value(describeCallData(data), 'Call')).toMatch(
        /\(SimpleAccount\)/u,
      );
      // a call whose sender is unknown is not credited to the account either
      expect(value(describeCall({ to: OWNER, data }), 'Call')).toMatch(
        /^a call to /u,
      );
    }
    // a contract deployment is creation code, not an account's execute
    expect(value(describeCall({ value: 0n, data: execute }), 'Call')).toMatch(
      /^contract creation code: function 0xb61d27f6/u,
    );
  });
});
