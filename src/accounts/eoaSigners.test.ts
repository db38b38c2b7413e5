import { createCustomCommon, Mainnet } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import type { TypedTxData } from '@ethereumjs/tx';
import { privateKeyToAddress } from 'viem/accounts';

import { signEoaTask } from './eoa';

const KEY =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = privateKeyToAddress(KEY).toLowerCase();
const CHAIN_ID = 31337n;
const common = createCustomCommon({ chainId: Number(CHAIN_ID) }, Mainnet, {
  hardfork: 'prague',
});
const BASE = {
  chainId: CHAIN_ID,
  nonce: 5n,
  gasLimit: 21000n,
  value: 7n,
  data: '0x',
  to: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
} as const;

describe('eth_signTransaction: each type the snap signs through its own @ethereumjs/tx constructor', () => {
  it.each([
    ['legacy', { ...BASE, type: 0, gasPrice: 10n }],
    ['EIP-2930', { ...BASE, type: 1, gasPrice: 10n, accessList: [] }],
    [
      'EIP-1559',
      {
        ...BASE,
        type: 2,
        maxFeePerGas: 10n,
        maxPriorityFeePerGas: 1n,
        accessList: [],
      },
    ],
  ])(
    '%s: { v, r, s } rebuild, with the library factory, into a transaction of that type signed by the key',
    (_name, tx) => {
      const signature = signEoaTask(KEY, {
        method: 'eth_signTransaction',
        tx: tx as TypedTxData,
        chainId: CHAIN_ID,
      }) as { v: string; r: string; s: string };
      const rebuilt = createTx({ ...tx, ...signature } as TypedTxData, {
        common,
      });
      expect(rebuilt.type).toBe(tx.type);
      expect(rebuilt.getSenderAddress().toString()).toBe(ADDRESS);
    },
  );

  it('refuses a blob transaction (type 3), which no constructor here builds (parsing refuses it before this)', () => {
    expect(() =>
      signEoaTask(KEY, {
        method: 'eth_signTransaction',
        tx: { ...BASE, type: 3 } as TypedTxData,
        chainId: CHAIN_ID,
      }),
    ).toThrow(
      'Cannot sign the transaction: a type is unknown or not supported',
    );
  });
});
