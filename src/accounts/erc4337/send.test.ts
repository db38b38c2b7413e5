import { parseBundlerReceipt } from './bundler';
import {
  DEPLOYING_SEND_TTL_MS,
  DeployingSends,
  maxGasCost,
  MAX_SENT_USER_OPERATIONS,
  rememberSent,
} from './send';
import type { SentUserOperation } from './types';

const HASH = `0x${'ab'.repeat(32)}` as const;

describe('maxGasCost (EntryPoint v0.6 required prefund)', () => {
  const op = {
    callGasLimit: '0x64',
    verificationGasLimit: '0x3e8',
    preVerificationGas: '0xa',
    maxFeePerGas: '0x2',
  };

  it('counts the verification gas once when the account pays', () => {
    expect(maxGasCost({ ...op, paymasterAndData: '0x' })).toBe(
      (100n + 1000n + 10n) * 2n,
    );
  });

  it('counts the verification gas three times with a paymaster (validation and postOp)', () => {
    expect(
      maxGasCost({ ...op, paymasterAndData: `0x${'11'.repeat(20)}` }),
    ).toBe((100n + 3n * 1000n + 10n) * 2n);
  });
});

describe('rememberSent', () => {
  /**
   * A sent operation whose hash is its index.
   *
   * @param index - The index, as the 32-byte userOpHash.
   * @returns The remembered entry.
   */
  const entry = (index: number): SentUserOperation => ({
    userOpHash: `0x${index.toString(16).padStart(64, '0')}`,
    scope: 'eip155:1',
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    bundlerUrl: 'https://bundler.example',
    fromBlock: '0x1',
  });

  it('keeps the newest entries up to the bound, dropping the oldest first', () => {
    let list: SentUserOperation[] = [];
    for (let index = 0; index < MAX_SENT_USER_OPERATIONS + 3; index += 1) {
      list = rememberSent(list, entry(index));
    }
    expect(list).toHaveLength(MAX_SENT_USER_OPERATIONS);
    expect(list[0]).toStrictEqual(entry(3));
    expect(list.at(-1)).toStrictEqual(entry(MAX_SENT_USER_OPERATIONS + 2));
  });

  it('replaces an entry with the same hash instead of repeating it', () => {
    const list = rememberSent([entry(1), entry(2)], {
      ...entry(1),
      fromBlock: '0x9',
    });
    expect(list).toStrictEqual([entry(2), { ...entry(1), fromBlock: '0x9' }]);
  });
});

describe('parseBundlerReceipt (an untrusted eth_getUserOperationReceipt result)', () => {
  const reply = {
    userOpHash: HASH,
    entryPoint: '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789',
    sender: '0x1111111111111111111111111111111111111111',
    nonce: '0x01',
    actualGasCost: '0x10',
    actualGasUsed: '0x20',
    success: true,
    logs: [],
    receipt: { transactionHash: `0x${'cd'.repeat(32)}`, blockNumber: '0x2a' },
  };

  it('maps it to the snap’s receipt shape with canonical quantities', () => {
    expect(parseBundlerReceipt(reply, HASH)).toStrictEqual({
      userOpHash: HASH,
      sender: '0x1111111111111111111111111111111111111111',
      nonce: '0x1',
      success: true,
      actualGasCost: '0x10',
      actualGasUsed: '0x20',
      transactionHash: `0x${'cd'.repeat(32)}`,
      blockNumber: '0x2a',
    });
  });

  it('refuses a receipt for another hash or with a malformed field', () => {
    expect(parseBundlerReceipt(reply, `0x${'ef'.repeat(32)}`)).toBeNull();
    expect(parseBundlerReceipt({ ...reply, success: 'yes' }, HASH)).toBeNull();
    expect(parseBundlerReceipt({ ...reply, nonce: 1 }, HASH)).toBeNull();
    expect(
      parseBundlerReceipt(
        { ...reply, actualGasCost: `0x${'f'.repeat(65)}` },
        HASH,
      ),
    ).toBeNull();
    expect(
      parseBundlerReceipt({ ...reply, receipt: { blockNumber: '0x2a' } }, HASH),
    ).toBeNull();
    expect(
      parseBundlerReceipt({ ...reply, sender: '0x1234' }, HASH),
    ).toBeNull();
    expect(parseBundlerReceipt(null, HASH)).toBeNull();
  });
});

describe('DeployingSends', () => {
  const SENDER = '0x3333333333333333333333333333333333333333';

  it('refuses a second deploying send of one account while the first is in flight (-32002)', () => {
    const sends = new DeployingSends(() => 1_000);
    sends.note(SENDER, true);
    expect(() => sends.note(SENDER, true)).toThrow(
      expect.objectContaining({ code: -32002 }),
    );
    // other accounts are not blocked
    expect(() =>
      sends.note('0x4444444444444444444444444444444444444444', true),
    ).not.toThrow();
  });

  it('frees the account when the send failed, once it is seen deployed, or after the TTL', () => {
    let now = 0;
    const sends = new DeployingSends(() => now);
    sends.note(SENDER, true);
    sends.release(SENDER);
    expect(() => sends.note(SENDER, true)).not.toThrow();
    sends.note(SENDER, false); // a later draft found the account deployed
    expect(() => sends.note(SENDER, true)).not.toThrow();
    now += DEPLOYING_SEND_TTL_MS - 1;
    expect(() => sends.note(SENDER, true)).toThrow(
      expect.objectContaining({ code: -32002 }),
    );
    now += 1;
    expect(() => sends.note(SENDER, true)).not.toThrow();
  });
});
