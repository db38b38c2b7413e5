import {
  encodeFunctionData,
  getAddress,
  numberToHex,
  padHex,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';
import { entryPoint06Abi, entryPoint07Abi } from 'viem/account-abstraction';

import { readOperationDetails, sentDetails } from './opDetails';
import type { RpcClient } from '../../chain';

const SENDER: Hex = '0x1111111111111111111111111111111111111111';
const ENTRY_POINT: Hex = '0x2222222222222222222222222222222222222222';
const BOB: Hex = '0x000000000000000000000000000000000000b0b0';
const TOKEN: Hex = '0x000000000000000000000000000000000000c0de';

/** The account functions, as their contracts declare them (eth-infinitism SimpleAccount v0.6–v0.8). */
const ACCOUNT = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'function executeBatch((address target, uint256 value, bytes data)[] calls)',
]);

/**
 * A bundle transaction of EntryPoint v0.7 carrying one operation of SENDER with this call data.
 *
 * @param callData - The operation's call data.
 * @param nonce - Its nonce.
 * @returns The transaction's input.
 */
function bundle07(callData: Hex, nonce = 5n): Hex {
  return encodeFunctionData({
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [
      [
        {
          sender: SENDER,
          nonce,
          initCode: '0x',
          callData,
          accountGasLimits: padHex('0x01', { size: 32 }),
          preVerificationGas: 1n,
          gasFees: padHex('0x01', { size: 32 }),
          paymasterAndData: '0x',
          signature: '0x',
        },
      ],
      BOB,
    ],
  });
}

/**
 * A client whose eth_getTransactionByHash answers the given transactions, in call order.
 *
 * @param transactions - The transactions (`to`, `input`), or an error.
 * @returns The client.
 */
function client(transactions: ({ to: Hex; input: Hex } | Error)[]): RpcClient {
  return {
    batchSettled: async () =>
      transactions.map((tx) =>
        tx instanceof Error
          ? { ok: false as const, error: tx as never }
          : { ok: true as const, result: tx },
      ),
  } as unknown as RpcClient;
}

/**
 * The operations found, as the logs give them.
 *
 * @param count - How many.
 * @returns One per index, userOpHash `0x0…<index>`, nonce 5.
 */
const found = (count: number): Parameters<typeof readOperationDetails>[2] =>
  Array.from({ length: count }, (_, at) => ({
    hash: numberToHex(at, { size: 32 }),
    transactionHash: numberToHex(100 + at, { size: 32 }),
    entryPoint: ENTRY_POINT,
    nonce: 5n,
  }));

describe('what a user operation sent', () => {
  it('sentDetails: one transfer, one contract call, several calls, none', () => {
    expect(sentDetails([{ to: BOB, value: 5n, data: '0x' }])).toStrictEqual({
      to: getAddress(BOB),
      value: '0x5',
    });
    expect(
      sentDetails([{ to: TOKEN, value: 0n, data: '0xa9059cbb' }]),
    ).toStrictEqual({
      to: getAddress(TOKEN),
      value: '0x0',
      call: true,
    });
    expect(
      sentDetails([
        { to: BOB, value: 1n, data: '0x' },
        { to: TOKEN, value: 2n, data: '0x12' },
      ]),
    ).toStrictEqual({ value: '0x3', calls: 2 });
    expect(sentDetails([])).toStrictEqual({});
  });

  it('reads each account encoding back from the bundle transaction (built with viem’s EntryPoint ABIs)', async () => {
    const inputs = [
      encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'execute',
        args: [BOB, 7n, '0x'],
      }),
      encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'executeBatch',
        args: [
          [BOB, TOKEN],
          ['0x', '0x12'],
        ],
      }),
      encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'executeBatch',
        args: [
          [BOB, TOKEN],
          [1n, 2n],
          ['0x', '0x12'],
        ],
      }),
      encodeFunctionData({
        abi: ACCOUNT,
        functionName: 'executeBatch',
        args: [[{ target: BOB, value: 3n, data: '0x' }]],
      }),
    ];
    const details = await readOperationDetails(
      client(
        inputs.map((callData) => ({
          to: ENTRY_POINT,
          input: bundle07(callData),
        })),
      ),
      SENDER,
      found(4),
    );
    expect([...details.values()]).toStrictEqual([
      { to: getAddress(BOB), value: '0x7' },
      { value: '0x0', calls: 2 },
      { value: '0x3', calls: 2 },
      { to: getAddress(BOB), value: '0x3' },
    ]);
  });

  it('reads a v0.6 bundle too', async () => {
    const input = encodeFunctionData({
      abi: entryPoint06Abi,
      functionName: 'handleOps',
      args: [
        [
          {
            sender: SENDER,
            nonce: 5n,
            initCode: '0x',
            callData: encodeFunctionData({
              abi: ACCOUNT,
              functionName: 'execute',
              args: [BOB, 9n, '0x'],
            }),
            callGasLimit: 1n,
            verificationGasLimit: 1n,
            preVerificationGas: 1n,
            maxFeePerGas: 1n,
            maxPriorityFeePerGas: 1n,
            paymasterAndData: '0x',
            signature: '0x',
          },
        ],
        BOB,
      ],
    });
    const details = await readOperationDetails(
      client([{ to: ENTRY_POINT, input }]),
      SENDER,
      found(1),
    );
    expect([...details.values()]).toStrictEqual([
      { to: getAddress(BOB), value: '0x9' },
    ]);
  });

  it('gives nothing for a transaction to another contract, another nonce, other call data or a failed reply', async () => {
    const execute = encodeFunctionData({
      abi: ACCOUNT,
      functionName: 'execute',
      args: [BOB, 1n, '0x'],
    });
    const details = await readOperationDetails(
      client([
        { to: TOKEN, input: bundle07(execute) },
        { to: ENTRY_POINT, input: bundle07(execute, 6n) },
        { to: ENTRY_POINT, input: bundle07('0xdeadbeef') },
        new Error('no'),
        { to: ENTRY_POINT, input: '0x1234' },
      ]),
      SENDER,
      found(5),
    );
    expect(details.size).toBe(0);
  });
});
