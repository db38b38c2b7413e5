import type { KeyringRequest } from '@metamask/keyring-api';
import {
  encodeFunctionData,
  getAddress,
  maxUint256,
  parseAbi,
  stringToHex,
} from 'viem';

import { summarizeRequest } from './requestSummary';

const SPENDER = getAddress('0xa11ce0000000000000000000000000000000beef');
const OWNER = getAddress('0x1234567890abcdef1234567890abcdef12345678');
const TOKEN = getAddress('0x00000000000000000000000000000000000070ce');

/**
 * A parked request.
 *
 * @param method - Its method.
 * @param params - Its params.
 * @param origin - Its origin.
 * @returns The keyring-api request.
 */
function parked(
  method: string,
  params: unknown[],
  origin = 'https://dapp.example',
): KeyringRequest {
  return {
    id: '00000000-0000-4000-8000-000000000000',
    scope: 'eip155:1',
    account: '00000000-0000-4000-8000-000000000001',
    origin,
    request: { method, params: params as any },
  };
}

/**
 * @param request - The request.
 * @param label - A line's label.
 * @returns Its value.
 */
function line(request: KeyringRequest, label: string): string | undefined {
  return summarizeRequest(request).find((item) => item.label === label)?.value;
}

describe('parked request summary', () => {
  it('shows every signed field of a typed-data Permit (spender and value in full), nested fields by path, as signed', () => {
    const typed = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'terms', type: 'Terms' },
        ],
        Terms: [
          { name: 'delegate', type: 'address' },
          { name: 'revocable', type: 'bool' },
        ],
      },
      domain: {
        name: 'USD\u202eCoin',
        chainId: 1,
        verifyingContract: TOKEN,
      },
      primaryType: 'Permit',
      message: {
        owner: OWNER,
        spender: SPENDER,
        value: maxUint256.toString(),
        nonce: '0x10',
        deadline: 1_900_000_000,
        terms: { delegate: SPENDER, revocable: 'false' },
        extra: { nested: ['a', { deep: SPENDER }] },
      },
    };
    const request = parked('eth_signTypedData_v4', [
      OWNER,
      JSON.stringify(typed),
    ]);
    expect(line(request, 'message.spender')).toBe(SPENDER);
    // 2^256 - 1 is an unlimited allowance (EIP-2612): said so, not a 78-digit number
    expect(line(request, 'message.value')).toBe('unlimited (2^256 − 1)');
    expect(line(request, 'message.owner')).toBe(OWNER);
    expect(line(request, 'message.deadline')).toBe(
      '1900000000 (2030-03-17 17:46:40 UTC)',
    );
    expect(line(request, 'message.terms.delegate')).toBe(SPENDER);
    expect(line(request, 'message.terms.revocable')).toBe('false');
    // shown as it is signed: the hex quantity 0x10 is the integer 16
    expect(line(request, 'message.nonce')).toBe('16');
    // an undeclared field is not signed, so it is not shown as if it were
    expect(line(request, 'message.extra.nested.1.deep')).toBeUndefined();
    expect(line(request, 'domain.verifyingContract')).toBe(TOKEN);
    expect(line(request, 'domain.name')).toBe('USD\ufffdCoin');
    expect(line(request, 'Primary type')).toBe('Permit');
  });

  it('bounds typed data to 200 fields and says so', () => {
    const message = Object.fromEntries(
      Array.from({ length: 500 }, (_, index) => [`f${index}`, index]),
    );
    const types = {
      EIP712Domain: [],
      Big: Object.keys(message).map((name) => ({ name, type: 'uint256' })),
    };
    const lines = summarizeRequest(
      parked('eth_signTypedData_v4', [
        OWNER,
        { types, domain: {}, primaryType: 'Big', message },
      ]),
    );
    expect(lines.length).toBeLessThan(210);
    expect(lines.at(-1)).toMatchObject({ label: 'More fields', warning: true });
  });

  it('shows a 400-character personal_sign message whole, and the end of a very long one', () => {
    const message = `${'Sign in. '.repeat(40)}…transfer ownership of vault #42 to ${SPENDER}`;
    expect(message.length).toBeGreaterThan(400);
    expect(
      line(parked('personal_sign', [stringToHex(message), OWNER]), 'Message'),
    ).toBe(message);
    const huge = `${'x'.repeat(20_000)} the end`;
    const shown = line(
      parked('personal_sign', [stringToHex(huge), OWNER]),
      'Message',
    );
    expect(shown?.endsWith(' the end')).toBe(true);
    expect(shown).toContain('characters not shown');
  });

  it('cleans bidi overrides from a message and the site name; says when MetaMask did not name the site', () => {
    const request = parked(
      'personal_sign',
      [stringToHex('Pay \u202e0x1234 now'), OWNER],
      'https://evil.example\u2066',
    );
    expect(line(request, 'Message')).toBe('Pay \ufffd0x1234 now');
    expect(line(request, 'From site')).toBe('https://evil.example\ufffd');
    expect(
      line(parked('personal_sign', ['0x00', OWNER], 'metamask'), 'From site'),
    ).toMatch(/^metamask \(MetaMask did not tell this snap which site asked/u);
  });

  it('decodes a transaction’s call data: an unlimited approve, spender in full, flagged', () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function approve(address, uint256)']),
      functionName: 'approve',
      args: [SPENDER, maxUint256],
    });
    const lines = summarizeRequest(
      parked('eth_signTransaction', [
        { to: TOKEN, value: '0x0', data, chainId: '0x1' },
      ]),
    );
    expect(lines).toContainEqual({ label: 'To', value: TOKEN });
    expect(lines).toContainEqual({ label: 'spender', value: SPENDER });
    expect(lines.find((item) => item.label === 'Warning')).toMatchObject({
      warning: true,
    });
  });

  it('decodes a user operation’s callData (SimpleAccount execute → ERC-20 transfer) and names the paymaster in full', () => {
    const transfer = encodeFunctionData({
      abi: parseAbi(['function transfer(address, uint256)']),
      functionName: 'transfer',
      args: [SPENDER, 5n],
    });
    const callData = encodeFunctionData({
      abi: parseAbi(['function execute(address, uint256, bytes)']),
      functionName: 'execute',
      args: [TOKEN, 0n, transfer],
    });
    const request = parked('eth_signUserOperation', [
      {
        sender: OWNER,
        nonce: '0x2',
        initCode: '0x',
        callData,
        callGasLimit: '0x10',
        verificationGasLimit: '0x10',
        preVerificationGas: '0x10',
        maxFeePerGas: '0x1',
        maxPriorityFeePerGas: '0x1',
        paymasterAndData: `${SPENDER}${'00'.repeat(4)}`,
        signature: '0x',
      },
    ]);
    expect(line(request, 'Nonce')).toBe('2');
    expect(line(request, 'Gas paid by')).toBe(`paymaster ${SPENDER}`);
    expect(line(request, 'Paymaster data')).toBeUndefined();
    // ERC-20 mode data (SingletonPaymaster's first byte 0x03) is flagged
    const charged = parked('eth_signUserOperation', [
      {
        ...(request.request.params as Record<string, unknown>[])[0],
        paymasterAndData: `${SPENDER}03${'00'.repeat(4)}`,
      },
    ]);
    expect(
      summarizeRequest(charged).find((item) => item.label === 'Paymaster data'),
    ).toStrictEqual({
      label: 'Paymaster data',
      value: expect.stringContaining('takes an ERC-20 token from this account'),
      warning: true,
    });
    // EntryPoint v0.6 prefund with a paymaster: (16 + 16 × 3 + 16) gas × 1 wei
    expect(line(request, 'Maximum gas cost')).toBe('0.00000000000000008 ETH');
    expect(line(request, 'Inner call 1: to')).toBe(TOKEN);
    expect(line(request, 'Inner call 1: Call')).toBe('ERC-20 transfer');
    expect(line(request, 'Inner call 1: recipient')).toBe(SPENDER);
    expect(line(request, 'Inner call 1: amount (token base units)')).toBe('5');
  });

  it('names the chain’s own currency: a transaction’s value and inner calls on Polygon in POL, a user operation’s gas on BNB Smart Chain in BNB', () => {
    const execute = encodeFunctionData({
      abi: parseAbi(['function execute(address, uint256, bytes)']),
      functionName: 'execute',
      args: [SPENDER, 10n ** 18n, '0x'],
    });
    const transaction = parked('eth_signTransaction', [
      {
        from: OWNER,
        to: OWNER,
        value: '0xde0b6b3a7640000',
        data: execute,
        chainId: '0x89',
      },
    ]);
    expect(line(transaction, 'Value')).toBe('1 POL');
    expect(line(transaction, 'Inner call 1: value')).toBe('1 POL');
    const operation = {
      ...parked('eth_signUserOperation', [
        {
          sender: OWNER,
          nonce: '0x2',
          initCode: '0x',
          callData: execute,
          callGasLimit: '0x10',
          verificationGasLimit: '0x10',
          preVerificationGas: '0x10',
          maxFeePerGas: '0x1',
          maxPriorityFeePerGas: '0x1',
          paymasterAndData: '0x',
          signature: '0x',
        },
      ]),
      scope: 'eip155:56',
    };
    expect(line(operation, 'Maximum gas cost')).toBe(
      '0.000000000000000048 BNB',
    );
    expect(line(operation, 'Inner call 1: value')).toBe('1 BNB');
    expect(JSON.stringify(summarizeRequest(operation))).not.toContain('ETH');
  });

  it('shows typed data of a user operation of another sender as one: a warning, sender, EntryPoint and its calls decoded, before the fields', () => {
    const callData = encodeFunctionData({
      abi: parseAbi(['function execute(address, uint256, bytes)']),
      functionName: 'execute',
      args: [SPENDER, 10n ** 18n, '0x'],
    });
    const entryPoint = getAddress('0x4337084d9e255ff0702461cf8895ce9e3b5ff108');
    const request = parked('eth_signTypedData_v4', [
      OWNER,
      {
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'verifyingContract', type: 'address' },
          ],
          PackedUserOperation: [
            { name: 'sender', type: 'address' },
            { name: 'nonce', type: 'uint256' },
            { name: 'callData', type: 'bytes' },
          ],
        },
        primaryType: 'PackedUserOperation',
        domain: { name: 'ERC4337', verifyingContract: entryPoint },
        message: { sender: TOKEN, nonce: '0x1', callData },
      },
    ]);
    const lines = summarizeRequest(request);
    const labels = lines.map((item) => item.label);
    expect(lines.find((item) => item.label === 'User operation')).toStrictEqual(
      {
        label: 'User operation',
        value: expect.stringContaining(
          'whoever holds it can make the calls below from the sender account',
        ),
        warning: true,
      },
    );
    expect(labels.indexOf('User operation')).toBeLessThan(
      labels.indexOf('domain.name'),
    );
    expect(line(request, 'Sender')).toBe(TOKEN);
    expect(line(request, 'EntryPoint')).toBe(entryPoint);
    expect(line(request, 'Calls: Inner call 1: to')).toBe(SPENDER);
    expect(line(request, 'Calls: Inner call 1: value')).toBe('1 ETH');
    expect(line(request, 'message.nonce')).toBe('1');
    // a Permit is no user operation: no such lines
    expect(
      summarizeRequest(
        parked('eth_signTypedData_v4', [
          OWNER,
          {
            types: { Permit: [{ name: 'owner', type: 'address' }] },
            primaryType: 'Permit',
            domain: {},
            message: { owner: OWNER },
          },
        ]),
      ).map((item) => item.label),
    ).not.toContain('User operation');
  });
});
