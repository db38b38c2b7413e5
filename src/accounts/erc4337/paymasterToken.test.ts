import fc from 'fast-check';
import {
  decodeFunctionData,
  encodePacked,
  getAddress,
  maxUint256,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';
import type { UserOperation } from 'viem/account-abstraction';

import { ABSOLUTE_GAS_CAPS } from './opBounds';
import {
  assertTokenTerms,
  estimateApproveAmount,
  maxCostInToken,
  payInToken,
  readSignedTokenTerms,
} from './paymasterToken';
import {
  MAX_EXCHANGE_RATE,
  MAX_QUOTE_POST_OP_GAS,
  readTokenQuote,
} from './tokenQuote';
import type { TokenPayment } from './tokenQuote';

const TOKEN = getAddress('0x68e13372AE8FAaDDaf32cC08ee44C5ef5A002c69');
const PAYMASTER = getAddress('0xe276558647476dC0f409B25a1AFCbCed730128D9');
const TREASURY = getAddress('0xD8Baa107006C93a030d1455A2eF43261b384F21c');
const RATE = 0x5cc717fbb3450c0000n;

const PAYMENT: TokenPayment = {
  token: TOKEN,
  paymaster: PAYMASTER,
  exchangeRate: RATE,
  postOpGas: 50_000n,
  symbol: 'T20',
  decimals: 18,
};

/**
 * SingletonPaymaster ERC-20 mode data as Pimlico's service encodes it (mode 1, all bundlers).
 *
 * @param terms - What to sign.
 * @param terms.token - The token.
 * @param terms.postOpGas - Gas.
 * @param terms.exchangeRate - Rate.
 * @param terms.flags - Flag byte.
 * @param terms.tail - Optional fields and signature.
 * @returns The paymasterData.
 */
function signedData({
  token = TOKEN,
  postOpGas = 50_000n,
  exchangeRate = RATE,
  flags = 0,
  tail = `0x${'11'.repeat(65)}`,
}: {
  token?: Hex;
  postOpGas?: bigint;
  exchangeRate?: bigint;
  flags?: number;
  tail?: Hex;
} = {}): Hex {
  return encodePacked(
    [
      'uint8',
      'uint8',
      'uint48',
      'uint48',
      'address',
      'uint128',
      'uint256',
      'uint128',
      'address',
      'bytes',
    ],
    [
      3,
      flags,
      1_900_000_000,
      0,
      token,
      postOpGas,
      exchangeRate,
      1n,
      TREASURY,
      tail,
    ],
  );
}

const OP: UserOperation<'0.8'> = {
  sender: '0x2222222222222222222222222222222222222222',
  nonce: 5n,
  callData: '0x',
  callGasLimit: 100_000n,
  verificationGasLimit: 200_000n,
  preVerificationGas: 50_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
  paymaster: PAYMASTER,
  paymasterData: signedData(),
  paymasterVerificationGasLimit: 60_000n,
  paymasterPostOpGasLimit: 120_000n,
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

describe('maxCostInToken', () => {
  it('is the paymaster getCostInToken bound over every gas limit and the post-op gas, rounded up', () => {
    // (50,000 + 200,000 + 100,000 + 60,000 + 120,000 + 50,000) gas x 2 gwei x RATE / 1e18
    const gas = 580_000n;
    const expected =
      (gas * 2_000_000_000n * RATE + 10n ** 18n - 1n) / 10n ** 18n;
    expect(maxCostInToken(OP, PAYMENT)).toBe(expected);
    expect(
      maxCostInToken(
        { ...OP, maxFeePerGas: 1n },
        { postOpGas: 0n, exchangeRate: 1n },
      ),
    ).toBe(1n);
  });

  it('is never below the exact product over 10^18', () => {
    fc.assert(
      fc.property(
        fc.bigInt(0n, 30_000_000n),
        fc.bigInt(0n, 10n ** 15n),
        fc.bigInt(1n, MAX_EXCHANGE_RATE),
        (gas, fee, rate) => {
          const cost = maxCostInToken(
            {
              ...OP,
              preVerificationGas: gas,
              verificationGasLimit: 0n,
              callGasLimit: 0n,
              paymasterVerificationGasLimit: 0n,
              paymasterPostOpGasLimit: 0n,
              maxFeePerGas: fee,
            },
            { postOpGas: 0n, exchangeRate: rate },
          );
          const exact = gas * fee * rate;
          return (
            cost * 10n ** 18n >= exact &&
            (cost - 1n) * 10n ** 18n < exact + (exact === 0n ? 10n ** 18n : 0n)
          );
        },
      ),
    );
  });
});

describe('estimateApproveAmount', () => {
  it('covers the largest capped operation, has every byte non-zero, and is not unlimited for real fees', () => {
    const amount = estimateApproveAmount(PAYMENT, 2_000_000_000n);
    const largest = maxCostInToken(
      {
        preVerificationGas: ABSOLUTE_GAS_CAPS.total,
        verificationGasLimit: 0n,
        callGasLimit: 0n,
        maxFeePerGas: 2_000_000_000n,
      },
      PAYMENT,
    );
    expect(amount).toBeGreaterThanOrEqual(largest);
    expect(/^f+$/u.test(amount.toString(16))).toBe(true);
    expect(amount).not.toBe(maxUint256);
  });
});

describe('readTokenQuote', () => {
  const quote = {
    paymaster: PAYMASTER,
    token: TOKEN,
    exchangeRate: '0x5cc717fbb3450c0000',
    postOpGas: '0xc350',
    exchangeRateNativeToUsd: '0x1',
    balanceSlot: '0x5',
    allowanceSlot: '0x0',
  };

  it('reads the quote of the token asked for', () => {
    expect(
      readTokenQuote(
        { quotes: [{ ...quote, token: `0x${'33'.repeat(20)}` }, quote] },
        TOKEN.toLowerCase() as Hex,
      ),
    ).toStrictEqual({
      token: TOKEN,
      paymaster: PAYMASTER,
      exchangeRate: RATE,
      postOpGas: 50_000n,
    });
  });

  it.each([
    ['no quote (an unsupported token)', { quotes: [] }, 'does not take'],
    ['no quotes field', null, 'does not take'],
    [
      'the zero paymaster',
      { quotes: [{ ...quote, paymaster: `0x${'0'.repeat(40)}` }] },
      'at paymaster',
    ],
    [
      'a rate of 0',
      { quotes: [{ ...quote, exchangeRate: '0x0' }] },
      'at exchangeRate',
    ],
    [
      'a rate above the bound',
      {
        quotes: [
          {
            ...quote,
            exchangeRate: `0x${(MAX_EXCHANGE_RATE + 1n).toString(16)}`,
          },
        ],
      },
      'at exchangeRate',
    ],
    [
      'a rate that is not hex',
      { quotes: [{ ...quote, exchangeRate: 12 }] },
      'at exchangeRate',
    ],
    [
      'a huge post-op gas',
      {
        quotes: [
          {
            ...quote,
            postOpGas: `0x${(MAX_QUOTE_POST_OP_GAS + 1n).toString(16)}`,
          },
        ],
      },
      'at postOpGas',
    ],
  ])('refuses %s', (_name, reply, message) => {
    const error = thrown(() => readTokenQuote(reply, TOKEN));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(message);
  });
});

describe('readSignedTokenTerms', () => {
  it('reads the token, post-op gas and rate the paymaster signed', () => {
    expect(readSignedTokenTerms(signedData())).toStrictEqual({
      token: TOKEN,
      postOpGas: 50_000n,
      exchangeRate: RATE,
      constantFee: 0n,
      preFund: 0n,
    });
  });

  it('reads the optional pre-fund, then constant fee, then recipient, in the contract’s order', () => {
    // BaseSingletonPaymaster._parseErc20Config: preFund (bit 2), constantFee (bit 0), recipient (bit 1)
    const tail = encodePacked(
      ['uint128', 'uint128', 'address', 'bytes'],
      [9n, 7n, TREASURY, `0x${'11'.repeat(65)}`],
    );
    const terms = readSignedTokenTerms(signedData({ flags: 7, tail }));
    expect(terms.preFund).toBe(9n);
    expect(terms.constantFee).toBe(7n);
    const feeOnly = readSignedTokenTerms(
      signedData({
        flags: 3,
        tail: encodePacked(
          ['uint128', 'address', 'bytes'],
          [5n, TREASURY, `0x${'11'.repeat(65)}`],
        ),
      }),
    );
    expect(feeOnly).toMatchObject({ constantFee: 5n, preFund: 0n });
  });

  it('refuses verifying-mode or short data', () => {
    const verifying = encodePacked(
      ['uint8', 'uint48', 'uint48', 'bytes'],
      [1, 0, 0, `0x${'11'.repeat(200)}`],
    );
    expect(thrown(() => readSignedTokenTerms(verifying)).message).toContain(
      'not the ERC-20 mode',
    );
    expect(thrown(() => readSignedTokenTerms('0x03')).code).toBe(-32602);
    expect(
      thrown(() => readSignedTokenTerms(signedData({ flags: 4, tail: '0x' })))
        .message,
    ).toContain('too short');
  });
});

describe('assertTokenTerms', () => {
  const approved = maxCostInToken(OP, PAYMENT);

  it('accepts the quoted terms within the approve', () => {
    expect(() => assertTokenTerms(OP, PAYMENT, approved)).not.toThrow();
  });

  it.each([
    [
      'a rate 1,000 times the quote',
      { paymasterData: signedData({ exchangeRate: RATE * 1000n }) },
      'can take more',
    ],
    [
      'a larger post-op gas',
      { paymasterData: signedData({ postOpGas: 5_000_000n }) },
      'can take more',
    ],
    ['raised gas limits', { callGasLimit: 200_000n }, 'can take more'],
    [
      'another paymaster',
      { paymaster: getAddress(`0x${'12'.repeat(20)}`) },
      'another paymaster than the quote',
    ],
    [
      'another token',
      {
        paymasterData: signedData({
          token: getAddress(`0x${'34'.repeat(20)}`),
        }),
      },
      'another token',
    ],
    [
      'a pre-fund above the approve',
      {
        paymasterData: signedData({
          flags: 4,
          tail: encodePacked(['uint128'], [approved + 1n]),
        }),
      },
      'can take more',
    ],
  ])('refuses %s', (_name, change, message) => {
    const error = thrown(() =>
      assertTokenTerms({ ...OP, ...change }, PAYMENT, approved),
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(message);
  });
});

describe('payInToken', () => {
  const abi = parseAbi(['function approve(address spender, uint256 amount)']);

  it('estimates with a bounded approve first, then signs over the exact bound', () => {
    const approves: bigint[] = [];
    const parts = payInToken(PAYMENT, OP.maxFeePerGas, (approve) => {
      expect(approve.to).toBe(TOKEN);
      const { args } = decodeFunctionData({ abi, data: approve.data });
      expect(args[0]).toBe(PAYMASTER);
      approves.push(args[1]);
      return approve.data;
    });
    expect(approves[0]).toBe(estimateApproveAmount(PAYMENT, OP.maxFeePerGas));
    expect(parts.settlement.context).toStrictEqual({ token: TOKEN });
    const bound = parts.settlement.bind(OP);
    expect(approves[1]).toBe(maxCostInToken(OP, PAYMENT));
    expect(approves[1]).toBeLessThan(approves[0]);
    expect(bound.callData).not.toBe(OP.callData);
    expect(() => parts.settlement.check(bound)).not.toThrow();
    expect(parts.summary()).toStrictEqual({
      token: TOKEN,
      symbol: 'T20',
      decimals: 18,
      paymaster: PAYMASTER,
      maxCost: approves[1],
    });
    expect(
      thrown(() => parts.checkStub(getAddress(`0x${'12'.repeat(20)}`))).message,
    ).toContain('pm_getPaymasterStubData) at paymaster');
  });
});
