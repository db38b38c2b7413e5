/**
 * eth_patchUserOperation (src/accounts/erc4337/paymaster.ts) against the real ERC-7677 paymaster
 * service fixture on anvil with the v0.6 contracts, honest and misbehaving (`tamper`): the patch
 * must keep the paymaster the stub named, never `0x`, never raise a gas limit beyond the
 * operation's own value + 10% + 10,000 gas (in v0.6 preVerificationGas is paid in full), never
 * lower one below the operation's own value (a callGasLimit of 1 would make the included operation
 * revert and spend its nonce), and never go past the absolute gas caps.
 */
import type { EthUserOperation } from '@metamask/keyring-api';
import { numberToHex } from 'viem';
import type { Hex } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { startPaymasterService } from '../../devnet/paymaster-service';
import type { PaymasterService } from '../../devnet/paymaster-service';
import { patchUserOperation } from '../../src/accounts/erc4337/paymaster';

const OTHER_PAYMASTER = '0x1111111111111111111111111111111111111111';

/** Code and message of a refused patch. */
type Refusal = {
  /** The JSON-RPC error code. */
  code: number;
  /** The error message. */
  message: string;
};

describe('eth_patchUserOperation against the ERC-7677 paymaster service', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let service: PaymasterService;
  let stub: Hex;

  /**
   * A v0.6 user operation of a fixed sender, with the given paymasterAndData.
   *
   * @param paymasterAndData - The paymaster field.
   * @returns The operation.
   */
  const op = (paymasterAndData: string): EthUserOperation => ({
    sender: '0x2222222222222222222222222222222222222222',
    nonce: '0x0',
    initCode: '0x',
    callData: '0xb61d27f6',
    callGasLimit: numberToHex(100_000n),
    verificationGasLimit: numberToHex(150_000n),
    preVerificationGas: numberToHex(50_000n),
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x3b9aca00',
    paymasterAndData,
    signature: `0x${'ff'.repeat(65)}`,
  });
  /**
   * Patch {@link op} through the service.
   *
   * @param paymasterAndData - The paymaster field of the operation.
   * @returns The patch.
   */
  const patch = async (
    paymasterAndData: string,
  ): ReturnType<typeof patchUserOperation> =>
    patchUserOperation(
      service.url,
      op(paymasterAndData),
      contracts.entryPoint,
      31337n,
    );
  /**
   * The error of a patch expected to fail.
   *
   * @param paymasterAndData - The paymaster field of the operation.
   * @returns Code and message of the error, or undefined when the patch succeeded.
   */
  const refusal = async (
    paymasterAndData: string,
  ): Promise<Refusal | undefined> =>
    patch(paymasterAndData).then(
      () => undefined,
      (error: Refusal) => ({
        code: error.code,
        message: error.message,
      }),
    );

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    service = await startPaymasterService({
      rpcUrl: anvil.url,
      verifyingPaymaster: contracts.verifyingPaymaster,
      signerKey: contracts.paymasterSigner,
      entryPoint: contracts.entryPoint,
      chainId: 31337,
    });
    stub = (
      (await fetch(service.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'pm_getPaymasterStubData',
          params: [op('0x'), contracts.entryPoint, '0x7a69', {}],
        }),
      }).then(async (response) => response.json())) as {
        /** The stub data of the reply. */
        result: {
          /** The stub paymasterAndData. */
          paymasterAndData: Hex;
        };
      }
    ).result.paymasterAndData;
  });

  afterEach(() => {
    service.options.tamper = undefined;
    service.resetStats();
  });

  afterAll(async () => {
    await service?.close();
    await anvil?.stop();
  });

  it('an honest service: the signed paymasterAndData of the stub’s paymaster, no gas field', async () => {
    const result = await patch(stub);
    expect(Object.keys(result)).toStrictEqual(['paymasterAndData']);
    expect(result.paymasterAndData.slice(0, 42).toLowerCase()).toBe(
      contracts.verifyingPaymaster.toLowerCase(),
    );
    expect(result.paymasterAndData).toHaveLength(stub.length);
    expect(service.stats.signed).toHaveLength(1);
  });

  it('without the stub in the operation (0x), asks for the stub again to learn the paymaster', async () => {
    const result = await patch('0x');
    expect(result.paymasterAndData.slice(0, 42).toLowerCase()).toBe(
      contracts.verifyingPaymaster.toLowerCase(),
    );
    expect(service.stats.byMethod).toStrictEqual({
      pm_getPaymasterStubData: 1,
      pm_getPaymasterData: 1,
    });
  });

  it.each([
    [
      '0x (the user would pay)',
      (): Record<string, unknown> => ({ paymasterAndData: '0x' }),
    ],
    [
      'another paymaster than the stub named',
      (signed: Hex): Record<string, unknown> => ({
        paymasterAndData: `${OTHER_PAYMASTER}${signed.slice(42)}`,
      }),
    ],
    [
      'a paymasterAndData shorter than an address',
      (): Record<string, unknown> => ({ paymasterAndData: '0x1234' }),
    ],
    [
      'an oversized paymasterAndData',
      (signed: Hex): Record<string, unknown> => ({
        paymasterAndData: `${signed}${'00'.repeat(4096)}`,
      }),
    ],
  ])('refuses %s (-32602 naming paymasterAndData)', async (_name, tampered) => {
    /**
     * The service's reply, tampered for pm_getPaymasterData.
     *
     * @param method - The paymaster method answered.
     * @param result - The honest result.
     * @returns The result sent.
     */
    service.options.tamper = (method, result): Record<string, unknown> =>
      method === 'pm_getPaymasterData'
        ? tampered(result.paymasterAndData)
        : result;
    const error = await refusal(stub);
    expect(error).toStrictEqual({
      code: -32602,
      message: expect.stringMatching(
        /^Invalid paymaster service reply \(pm_getPaymasterData\) at paymasterAndData: /u,
      ),
    });
  });

  it('refuses a final paymasterAndData naming another paymaster than the stub it gave when asked again', async () => {
    /**
     * The service's reply, tampered for pm_getPaymasterData.
     *
     * @param method - The paymaster method answered.
     * @param result - The honest result.
     * @returns The result sent.
     */
    service.options.tamper = (method, result): Record<string, unknown> =>
      method === 'pm_getPaymasterData'
        ? {
            paymasterAndData: `${OTHER_PAYMASTER}${result.paymasterAndData.slice(42)}`,
          }
        : result;
    expect((await refusal('0x'))?.message).toMatch(
      /at paymasterAndData: names another paymaster than its stub data/u,
    );
  });

  it.each(['02', '03', 'ff'])(
    'refuses paymaster data whose first byte (0x%s) asks SingletonPaymaster for another mode than sponsorship (ERC-20: the postOp takes a token)',
    async (modeByte) => {
      /**
       * The service's reply with its data's first byte set.
       *
       * @param method - The paymaster method answered.
       * @param result - The honest result.
       * @returns The result sent.
       */
      service.options.tamper = (method, result): Record<string, unknown> =>
        method === 'pm_getPaymasterData'
          ? {
              paymasterAndData: `${result.paymasterAndData.slice(0, 42)}${modeByte}${result.paymasterAndData.slice(44)}`,
            }
          : result;
      expect(await refusal(stub)).toStrictEqual({
        code: -32602,
        message: expect.stringMatching(
          /^Invalid paymaster service reply \(pm_getPaymasterData\) at paymasterAndData: not sponsorship data/u,
        ),
      });
    },
  );

  it('refuses an operation whose paymasterAndData is not 0x and shorter than an address (-32602)', async () => {
    expect(await refusal('0xabcd')).toStrictEqual({
      code: -32602,
      message: expect.stringMatching(
        /params\[0\]\.paymasterAndData: expected 0x or a paymaster address/u,
      ),
    });
  });

  describe.each([
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
  ] as const)('%s from the service', (field) => {
    const own = {
      callGasLimit: 100_000n,
      verificationGasLimit: 150_000n,
      preVerificationGas: 50_000n,
    }[field];
    const cap = own + own / 10n + 10_000n;
    /**
     * Make the service return this value for the field.
     *
     * @param value - The value the service sends.
     */
    const withGas = (value: unknown): void => {
      /**
       * The service's reply, tampered for pm_getPaymasterData.
       *
       * @param method - The paymaster method answered.
       * @param result - The honest result.
       * @returns The result sent.
       */
      service.options.tamper = (method, result): Record<string, unknown> =>
        method === 'pm_getPaymasterData'
          ? { ...result, [field]: value }
          : result;
    };

    it('is accepted from the operation’s own value up to it + 10% + 10,000 gas, as a canonical quantity', async () => {
      withGas(`0x000${cap.toString(16)}`);
      expect((await patch(stub))[field]).toBe(numberToHex(cap));
      withGas(numberToHex(own));
      expect((await patch(stub))[field]).toBe(numberToHex(own));
    });

    it.each([
      [
        'one gas above the cap',
        (): unknown => numberToHex(cap + 1n),
        /above the operation's own value \+ 10% \+ 10000 gas/u,
      ],
      [
        'ten times the operation’s value',
        (): unknown => numberToHex(own * 10n),
        /above the operation's own value/u,
      ],
      [
        '1 gas (the included operation would revert and spend its nonce)',
        (): unknown => '0x1',
        /below the operation's own value \(the estimate\)/u,
      ],
      [
        'half the operation’s value',
        (): unknown => numberToHex(own / 2n),
        /below the operation's own value/u,
      ],
      [
        'one gas below the operation’s value',
        (): unknown => numberToHex(own - 1n),
        /below the operation's own value/u,
      ],
      ['0', (): unknown => '0x0', /expected a non-zero hex quantity/u],
      ['not hex', (): unknown => 'lots', /expected a non-zero hex quantity/u],
      [
        'a JSON number',
        (): unknown => 100,
        /expected a non-zero hex quantity/u,
      ],
      [
        'more than 256 bits',
        (): unknown => `0x1${'0'.repeat(64)}`,
        /expected a non-zero hex quantity/u,
      ],
    ])(
      'is refused when %s (-32602 naming the field)',
      async (_name, value, message) => {
        withGas(value());
        const error = await refusal(stub);
        expect(error?.code).toBe(-32602);
        expect(error?.message).toMatch(
          new RegExp(
            `^Invalid paymaster service reply \\(pm_getPaymasterData\\) at ${field}: `,
            'u',
          ),
        );
        expect(error?.message).toMatch(message);
      },
    );
  });

  describe('absolute gas caps (30,000,000 gas per field, 60,000,000 in all), whatever the block gas limit', () => {
    it('refuses a callGasLimit above 30,000,000 gas even within + 10% of a large own value', async () => {
      service.options.tamper = (method, result): Record<string, unknown> =>
        method === 'pm_getPaymasterData'
          ? { ...result, callGasLimit: numberToHex(30_000_001n) }
          : result;
      const error = await patchUserOperation(
        service.url,
        { ...op(stub), callGasLimit: numberToHex(29_999_000n) },
        contracts.entryPoint,
        31337n,
      ).then(
        () => undefined,
        (caught: Refusal) => caught,
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(
        /at callGasLimit: above the absolute cap of 30000000 gas/u,
      );
    });

    it('refuses an operation whose limits add up above 60,000,000 gas (verification counted 3 times with a paymaster)', async () => {
      const error = await patchUserOperation(
        service.url,
        {
          ...op(stub),
          callGasLimit: numberToHex(20_000_000n),
          verificationGasLimit: numberToHex(14_000_000n),
        },
        contracts.entryPoint,
        31337n,
      ).then(
        () => undefined,
        (caught: Refusal) => caught,
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toMatch(
        /gas limits: callGasLimit \+ verificationGasLimit x 3 \+ preVerificationGas above the absolute cap of 60000000 gas/u,
      );
    });

    it('accepts limits at the per-field cap when the total is within its cap', async () => {
      const result = await patchUserOperation(
        service.url,
        { ...op(stub), callGasLimit: numberToHex(30_000_000n) },
        contracts.entryPoint,
        31337n,
      );
      expect(result.paymasterAndData.slice(0, 42).toLowerCase()).toBe(
        contracts.verifyingPaymaster.toLowerCase(),
      );
    });
  });
});
