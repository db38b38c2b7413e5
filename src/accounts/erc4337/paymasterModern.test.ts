import fc from 'fast-check';
import { getAddress } from 'viem';
import type { UserOperation } from 'viem/account-abstraction';

import {
  applyPaymasterData,
  assertModernGasCaps,
  finishSponsorship,
  MAX_PAYMASTER_DATA_BYTES,
  readPaymasterStub,
} from './paymasterModern';
import type { PaymasterStub } from './paymasterModern';
import { assertSponsorshipData } from './paymasterReply';

const PAYMASTER = '0xd2d7715bae07e5b9d7c0ec0b671b9bad6b9dbebb';
const OTHER = '0x1111111111111111111111111111111111111111';
/** Sponsorship data (SingletonPaymaster's first byte: verifying mode, all bundlers), 129 bytes. */
const DATA = `0x01${'ab'.repeat(128)}` as const;
const ENTRY_POINT = '0x0000000071727De22E5E9d8BAf0edAc6f37da032';
/** No service listens there: a test that reaches it fails. */
const NOWHERE = 'http://127.0.0.1:1';

const STUB = {
  paymaster: PAYMASTER,
  paymasterData: DATA,
  paymasterVerificationGasLimit: '0x186a0',
  paymasterPostOpGasLimit: '0x0',
};

/** An estimated, sponsored v0.7 operation (the stub's data). */
const OP: UserOperation<'0.7'> = {
  sender: '0x2222222222222222222222222222222222222222',
  nonce: 5n,
  callData: '0x',
  callGasLimit: 100_000n,
  verificationGasLimit: 200_000n,
  preVerificationGas: 50_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  paymaster: getAddress(PAYMASTER),
  paymasterData: DATA,
  paymasterVerificationGasLimit: 100_000n,
  paymasterPostOpGasLimit: 0n,
  signature: '0x',
};

/**
 * The JSON-RPC error code and message of what `run` throws.
 *
 * @param run - Code expected to throw.
 * @returns `{ code, message }`.
 */
function thrown(run: () => unknown): { code: unknown; message: string } {
  try {
    run();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    return { code, message };
  }
  throw new Error('did not throw');
}

describe('readPaymasterStub (pm_getPaymasterStubData, ERC-7677 v0.7 form)', () => {
  it('reads the four fields, the paymaster checksummed, isFinal false unless true', () => {
    expect(readPaymasterStub(STUB)).toStrictEqual({
      paymaster: getAddress(PAYMASTER),
      paymasterData: DATA,
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 0n,
      isFinal: false,
    });
    expect(readPaymasterStub({ ...STUB, isFinal: true }).isFinal).toBe(true);
  });

  it('leaves the verification gas to the bundler when the service gives none', () => {
    const { paymasterVerificationGasLimit: _left, ...rest } = STUB;
    expect(readPaymasterStub(rest)).not.toHaveProperty(
      'paymasterVerificationGasLimit',
    );
  });

  it.each([
    ['an empty reply', {}],
    ['null', null],
    ['an array', [STUB]],
    [
      'the v0.6 form (paymasterAndData)',
      { paymasterAndData: `${PAYMASTER}${DATA.slice(2)}` },
    ],
    ['the zero address', { ...STUB, paymaster: `0x${'0'.repeat(40)}` }],
    ['a short address', { ...STUB, paymaster: '0x1234' }],
  ])('refuses %s: names no paymaster (-32602)', (_name, reply) => {
    expect(thrown(() => readPaymasterStub(reply))).toStrictEqual({
      code: -32602,
      message: expect.stringContaining('at paymaster: names no paymaster'),
    });
  });

  it.each([
    ['odd hex', { ...STUB, paymasterData: '0xabc' }],
    ['not hex', { ...STUB, paymasterData: '0xzz' }],
    ['missing', { ...STUB, paymasterData: undefined }],
    [
      'one byte too long',
      {
        ...STUB,
        paymasterData: `0x${'00'.repeat(MAX_PAYMASTER_DATA_BYTES + 1)}`,
      },
    ],
  ])('refuses paymasterData %s', (_name, reply) => {
    expect(thrown(() => readPaymasterStub(reply)).message).toContain(
      'at paymasterData: expected hex bytes',
    );
  });

  it('accepts paymasterData of exactly the bound (2048 bytes with address and gas limits)', () => {
    const data = `0x${'00'.repeat(MAX_PAYMASTER_DATA_BYTES)}`;
    expect(MAX_PAYMASTER_DATA_BYTES).toBe(2048 - 52);
    expect(
      readPaymasterStub({ ...STUB, paymasterData: data }).paymasterData,
    ).toBe(data);
  });

  it.each([
    ['no paymasterPostOpGasLimit', { ...STUB, paymasterPostOpGasLimit: null }],
    [
      'a verification limit above 30,000,000 gas',
      { ...STUB, paymasterVerificationGasLimit: '0x1c9c381' },
    ],
    [
      'a post-op limit of 2^64',
      { ...STUB, paymasterPostOpGasLimit: '0x10000000000000000' },
    ],
    ['a decimal gas limit', { ...STUB, paymasterPostOpGasLimit: 5 }],
  ])('refuses %s, without echoing the value', (_name, reply) => {
    const { code, message } = thrown(() => readPaymasterStub(reply));
    expect(code).toBe(-32602);
    expect(message).toMatch(/GasLimit: expected a gas amount/u);
    expect(message).not.toMatch(/0x1c9c381|0x10000000000000000/u);
  });

  it('refuses an isFinal that is not a boolean', () => {
    expect(
      thrown(() => readPaymasterStub({ ...STUB, isFinal: 'yes' })).message,
    ).toContain('isFinal: expected a boolean');
  });

  it('answers any JSON with a stub or a -32602 error, nothing else', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            paymaster: fc.oneof(fc.constant(PAYMASTER), fc.jsonValue()),
            paymasterData: fc.oneof(fc.constant(DATA), fc.jsonValue()),
            paymasterPostOpGasLimit: fc.oneof(
              fc.constant('0x0'),
              fc.jsonValue(),
            ),
          }),
        ),
        (reply) => {
          let code: unknown = -32602;
          try {
            readPaymasterStub(reply);
          } catch (error) {
            code = (error as { code?: unknown }).code;
          }
          expect(code).toBe(-32602);
        },
      ),
    );
  });
});

describe('applyPaymasterData (pm_getPaymasterData)', () => {
  const SIGNED = `0x${'cd'.repeat(129)}` as const;

  it('takes the service’s paymasterData and keeps every other field', () => {
    expect(
      applyPaymasterData({ paymaster: PAYMASTER, paymasterData: SIGNED }, OP),
    ).toStrictEqual({ ...OP, paymasterData: SIGNED });
  });

  it('refuses another paymaster than the stub’s, and a reply naming none', () => {
    expect(
      thrown(() =>
        applyPaymasterData({ paymaster: OTHER, paymasterData: SIGNED }, OP),
      ).message,
    ).toContain('names another paymaster than its stub data');
    expect(
      thrown(() =>
        applyPaymasterData({ paymasterAndData: `${PAYMASTER}00` }, OP),
      ).message,
    ).toContain('names no paymaster');
  });

  it('lets a gas limit rise within own + 10% + 10,000 gas, and no further', () => {
    const most = 100_000n + 10_000n + 10_000n;
    expect(
      applyPaymasterData(
        {
          paymaster: PAYMASTER,
          paymasterData: SIGNED,
          paymasterVerificationGasLimit: `0x${most.toString(16)}`,
        },
        OP,
      ).paymasterVerificationGasLimit,
    ).toBe(most);
    expect(
      thrown(() =>
        applyPaymasterData(
          {
            paymaster: PAYMASTER,
            paymasterData: SIGNED,
            paymasterVerificationGasLimit: `0x${(most + 1n).toString(16)}`,
          },
          OP,
        ),
      ).message,
    ).toContain(
      "paymasterVerificationGasLimit: above the operation's own value + 10% + 10000 gas",
    );
    expect(
      thrown(() =>
        applyPaymasterData(
          {
            paymaster: PAYMASTER,
            paymasterData: SIGNED,
            callGasLimit: '0x1',
          },
          OP,
        ),
      ).message,
    ).toContain("callGasLimit: below the operation's own value");
  });

  it('refuses an operation whose five gas limits add up above 60,000,000 gas', () => {
    const big = {
      ...OP,
      callGasLimit: 29_000_000n,
      verificationGasLimit: 29_000_000n,
      preVerificationGas: 2_000_000n,
    };
    expect(thrown(() => assertModernGasCaps(big, 'x at')).message).toContain(
      'gas limits: their sum is above the absolute cap of 60000000 gas',
    );
    expect(() =>
      assertModernGasCaps(
        { ...big, paymasterVerificationGasLimit: 0n },
        'x at',
      ),
    ).not.toThrow();
  });
});

describe('finishSponsorship', () => {
  const stub: PaymasterStub = {
    paymaster: getAddress(PAYMASTER),
    paymasterData: DATA,
    paymasterPostOpGasLimit: 0n,
    isFinal: true,
  };
  const estimated = { ...OP, paymasterVerificationGasLimit: undefined };

  it('takes the bundler’s paymaster verification gas when the stub has none; a final stub is not asked again', async () => {
    const op = await finishSponsorship(
      NOWHERE,
      estimated,
      stub,
      { paymasterVerificationGasLimit: '0x7530' },
      ENTRY_POINT,
      31337n,
    );
    expect(op.paymasterVerificationGasLimit).toBe(30_000n);
    expect(op.paymasterData).toBe(DATA);
  });

  it('prefers the stub’s own verification gas over the bundler’s', async () => {
    const op = await finishSponsorship(
      NOWHERE,
      estimated,
      { ...stub, paymasterVerificationGasLimit: 90_000n },
      { paymasterVerificationGasLimit: '0x7530' },
      ENTRY_POINT,
      31337n,
    );
    expect(op.paymasterVerificationGasLimit).toBe(90_000n);
  });

  it.each([
    ['none', {}],
    ['above 30,000,000 gas', { paymasterVerificationGasLimit: '0x1c9c381' }],
  ])(
    'refuses a bundler paymaster verification estimate of %s',
    async (_name, estimate) => {
      await expect(
        finishSponsorship(
          NOWHERE,
          estimated,
          stub,
          estimate,
          ENTRY_POINT,
          31337n,
        ),
      ).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          "bundler's eth_estimateUserOperationGas at paymasterVerificationGasLimit",
        ),
      });
    },
  );
});

describe('a send paid by no token accepts only sponsorship data (SingletonPaymaster mode byte)', () => {
  it('accepts mode 0 (first byte 0x00 or 0x01, eth-infinitism VerifyingPaymaster data too), refuses every other first byte and empty data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array({ maxLength: 200 }),
        (first, rest) => {
          const data = `0x${first.toString(16).padStart(2, '0')}${Buffer.from(rest).toString('hex')}`;
          let error: { code: unknown; message: string } | undefined;
          try {
            assertSponsorshipData(data, 'reply at x');
          } catch (caught) {
            error = caught as { code: unknown; message: string };
          }
          const refusal = 'Invalid reply at x: not sponsorship data';
          expect(
            error === undefined
              ? 'accepted'
              : `${String(error.code)} ${error.message.slice(0, refusal.length)}`,
          ).toBe(first <= 1 ? 'accepted' : `-32602 ${refusal}`);
        },
      ),
    );
    expect(thrown(() => assertSponsorshipData('0x', 'reply at x')).code).toBe(
      -32602,
    );
  });

  it('refuses a final stub in ERC-20 mode (first byte 0x03: mode 1, all bundlers) before any dialog', async () => {
    await expect(
      finishSponsorship(
        NOWHERE,
        { ...OP, paymasterData: `0x03${'ab'.repeat(128)}` },
        {
          paymaster: getAddress(PAYMASTER),
          paymasterData: `0x03${'ab'.repeat(128)}`,
          paymasterPostOpGasLimit: 0n,
          paymasterVerificationGasLimit: 90_000n,
          isFinal: true,
        },
        {},
        ENTRY_POINT,
        31337n,
      ),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'pm_getPaymasterStubData) at paymasterData: not sponsorship data',
      ),
    });
  });
});
