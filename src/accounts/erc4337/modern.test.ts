import { toSimpleSmartAccount } from 'permissionless/accounts';
import { createPublicClient, custom, defineChain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { contractsOf, parseChainConfig } from './config';
import { encodeModernCallData, modernPrefundGas } from './modern';
import { CANONICAL_CONTRACTS } from './versions';

/** One call as permissionless takes it. */
type Call = {
  /** The called address. */
  to: `0x${string}`;
  /** Wei sent. */
  value: bigint;
  /** Call data. */
  data: `0x${string}`;
};

const TO_A = '0x1111111111111111111111111111111111111111';
const TO_B = '0x2222222222222222222222222222222222222222';
const KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/**
 * permissionless's SimpleAccount of a version, an independent reference for the call data (no
 * network: the address is given, the client answers nothing).
 *
 * @param version - The EntryPoint version.
 * @returns The account.
 */
async function reference(
  version: '0.7' | '0.8',
): Promise<{ encodeCalls: (calls: readonly Call[]) => Promise<string> }> {
  const client = createPublicClient({
    chain: defineChain({
      id: 31337,
      name: 'test',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
    }),
    transport: custom({
      request: async () => {
        throw new Error('no network in this test');
      },
    }),
  });
  return toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(KEY),
    entryPoint: {
      address: CANONICAL_CONTRACTS[version].entryPoint as `0x${string}`,
      version,
    },
    address: '0x3333333333333333333333333333333333333333',
  });
}

describe('encodeModernCallData', () => {
  it.each(['0.7', '0.8'] as const)(
    'v%s: execute for one intent and executeBatch with values for several, as permissionless encodes them',
    async (version) => {
      const account = await reference(version);
      const one = [{ to: TO_A, value: 5n, data: '0xabcd' }] as const;
      const two = [
        { to: TO_A, value: 5n, data: '0xabcd' },
        { to: TO_B, value: 7n, data: '0x' },
      ] as const;
      expect(encodeModernCallData(version, [...one])).toBe(
        await account.encodeCalls([...one]),
      );
      expect(encodeModernCallData(version, [...two])).toBe(
        await account.encodeCalls([...two]),
      );
    },
  );

  it('refuses an empty list', () => {
    expect(() => encodeModernCallData('0.8', [])).toThrow(
      'at least one intent',
    );
  });
});

describe('modernPrefundGas', () => {
  it('adds the five gas fields the v0.7 / v0.8 prefund counts', () => {
    expect(
      modernPrefundGas({
        sender: TO_A,
        nonce: 0n,
        callData: '0x',
        signature: '0x',
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
        callGasLimit: 1n,
        verificationGasLimit: 10n,
        preVerificationGas: 100n,
        paymasterVerificationGasLimit: 1000n,
        paymasterPostOpGasLimit: 10000n,
      }),
    ).toBe(11111n);
  });
});

describe('setChainConfig entryPoints', () => {
  const base = { scope: 'eip155:31337', rpcUrl: 'https://rpc.example' };

  it('defaults each version to its canonical deployment', () => {
    const config = parseChainConfig(base);
    expect(config.entryPoints).toBeUndefined();
    for (const version of ['0.6', '0.7', '0.8'] as const) {
      expect(contractsOf(config, version)).toStrictEqual(
        CANONICAL_CONTRACTS[version],
      );
    }
  });

  it('keeps an override of any address, checksummed, for its version only', () => {
    const config = parseChainConfig({
      ...base,
      entryPoints: {
        '0.7': { entryPoint: TO_A, accountFactory: TO_B },
      },
    });
    expect(contractsOf(config, '0.7')).toStrictEqual({
      entryPoint: TO_A,
      accountFactory: TO_B,
    });
    expect(contractsOf(config, '0.8')).toStrictEqual(
      CANONICAL_CONTRACTS['0.8'],
    );
  });

  it('refuses a malformed override, naming the field', () => {
    expect(() =>
      parseChainConfig({
        ...base,
        entryPoints: { '0.8': { entryPoint: '0x12', accountFactory: TO_B } },
      }),
    ).toThrow('entryPoints');
    expect(() =>
      parseChainConfig({
        ...base,
        entryPoints: { '0.9': { entryPoint: TO_A, accountFactory: TO_B } },
      }),
    ).toThrow('entryPoints');
  });
});
