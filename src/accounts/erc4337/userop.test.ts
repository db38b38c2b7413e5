import SimpleAccount from '@account-abstraction/contracts/artifacts/SimpleAccount.json';
import SimpleAccountFactory from '@account-abstraction/contracts/artifacts/SimpleAccountFactory.json';
import { decodeFunctionData, recoverMessageAddress, slice } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { DUMMY_SIGNATURE } from './constants';
import {
  encodeCallData,
  encodeInitCode,
  preVerificationGas,
  signUserOperation,
  userOpHash,
} from './userop';

const ADDRESS_A = '0x1111111111111111111111111111111111111111';
const ADDRESS_B = '0x2222222222222222222222222222222222222222';
const KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const OP = {
  sender: '0x3333333333333333333333333333333333333333',
  nonce: '0x0',
  initCode: '0x',
  callData: '0x',
  callGasLimit: '0x10000',
  verificationGasLimit: '0x20000',
  preVerificationGas: '0xb000',
  maxFeePerGas: '0x3b9aca00',
  maxPriorityFeePerGas: '0x3b9aca00',
  paymasterAndData: '0x',
  signature: DUMMY_SIGNATURE,
};

describe('SimpleAccount v0.6 call data (decoded with the package ABI)', () => {
  it('one intent encodes execute(dest, value, func)', () => {
    const callData = encodeCallData([
      { to: ADDRESS_A, value: 5n, data: '0xabcd' },
    ]);
    const decoded = decodeFunctionData({
      abi: SimpleAccount.abi,
      data: callData,
    });
    expect(decoded.functionName).toBe('execute');
    expect(decoded.args).toStrictEqual([ADDRESS_A, 5n, '0xabcd']);
  });

  it('several intents encode executeBatch(dest[], func[])', () => {
    const callData = encodeCallData([
      { to: ADDRESS_A, value: 0n, data: '0x01' },
      { to: ADDRESS_B, value: 0n, data: '0x02' },
    ]);
    const decoded = decodeFunctionData({
      abi: SimpleAccount.abi,
      data: callData,
    });
    expect(decoded.functionName).toBe('executeBatch');
    expect(decoded.args).toStrictEqual([
      [ADDRESS_A, ADDRESS_B],
      ['0x01', '0x02'],
    ]);
  });

  it('refuses a batch with value instead of dropping the transfer', () => {
    expect(() =>
      encodeCallData([
        { to: ADDRESS_A, value: 0n, data: '0x' },
        { to: ADDRESS_B, value: 1n, data: '0x' },
      ]),
    ).toThrow(
      /at 1\.value: SimpleAccount v0.6 executeBatch cannot send value/u,
    );
    expect(() => encodeCallData([])).toThrow(/at least one intent/u);
  });

  it('initCode is factory ++ createAccount(owner, salt)', () => {
    const initCode = encodeInitCode(ADDRESS_B, ADDRESS_A, 0n);
    expect(slice(initCode, 0, 20)).toBe(ADDRESS_B);
    const decoded = decodeFunctionData({
      abi: SimpleAccountFactory.abi,
      data: slice(initCode, 20),
    });
    expect(decoded).toStrictEqual({
      functionName: 'createAccount',
      args: [ADDRESS_A, 0n],
    });
  });
});

describe('userOpHash and signature', () => {
  it('signs the userOpHash as an EIP-191 message by the owner', async () => {
    const entryPoint = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
    const signature = await signUserOperation(KEY, OP, entryPoint, 1n);
    const hash = userOpHash(OP, entryPoint, 1n);
    expect(
      await recoverMessageAddress({ message: { raw: hash }, signature }),
    ).toBe(privateKeyToAddress(KEY));
    expect(userOpHash(OP, entryPoint, 2n)).not.toBe(hash);
  });
});

describe('preVerificationGas', () => {
  it('counts 4 gas per zero byte and 16 per non-zero byte of the packed operation, plus the fixed overhead', () => {
    const base = preVerificationGas(OP);
    expect(base).toBeGreaterThan(21_000n + 18_300n);
    // 32 bytes of 0xff in paymasterAndData: one more word (32 non-zero bytes: 512 gas, +4 per word),
    // and its length word 0x..00 becomes 0x..20 (one zero byte turns non-zero: +12 gas).
    const longer = preVerificationGas({
      ...OP,
      paymasterAndData: `0x${'ff'.repeat(32)}`,
    });
    expect(longer - base).toBe(512n + 4n + 12n);
  });
});
