/**
 * userOpHash (src/accounts/erc4337/userop.ts) against the EntryPoint v0.6 contract itself: random
 * operations hashed by the snap and by `EntryPoint.getUserOpHash` on anvil (the shipped runtime
 * bytecode, through an eth_call state override), on a chain whose id is above 2^53 (a JS number
 * cannot hold it), and against viem's implementation on random chain ids below 2^53.
 */
import type { EthUserOperation } from '@metamask/keyring-api';
import * as fc from 'fast-check';
import { encodeFunctionData, numberToHex, parseAbi } from 'viem';
import type { Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { loadArtifact, toViemUserOperation } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import { userOpHash } from '../../src/accounts/erc4337/userop';
import { fuzzRuns } from '../fixtures/fuzz';

/** 2^53 + 1: the first integer a float64 rounds (to 2^53). */
const BIG_CHAIN_ID = 2n ** 53n + 1n;
const ENTRY_POINT = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
const GET_USER_OP_HASH = parseAbi([
  'function getUserOpHash((address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature) userOp) view returns (bytes32)',
]);

/**
 * Random hex byte strings.
 *
 * @param max - The most bytes.
 * @returns An arbitrary of `0x`-prefixed hex.
 */
const hexBytes = (max: number): fc.Arbitrary<Hex> =>
  fc
    .uint8Array({ maxLength: max })
    .map((bytes): Hex => `0x${Buffer.from(bytes).toString('hex')}`);
const quantity = fc
  .bigInt({ min: 0n, max: 2n ** 256n - 1n })
  .map((value) => numberToHex(value));
const userOperation: fc.Arbitrary<EthUserOperation> = fc.record({
  sender: fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`),
  nonce: quantity,
  initCode: hexBytes(120),
  callData: hexBytes(300),
  callGasLimit: quantity,
  verificationGasLimit: quantity,
  preVerificationGas: quantity,
  maxFeePerGas: quantity,
  maxPriorityFeePerGas: quantity,
  paymasterAndData: hexBytes(160),
  signature: hexBytes(65),
});

describe('userOpHash equals EntryPoint v0.6 getUserOpHash', () => {
  let anvil: Anvil;
  const runtime = loadArtifact('EntryPoint').deployedBytecode;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: BIG_CHAIN_ID });
    const chainId = BigInt(await jsonRpc<Hex>(anvil.url, 'eth_chainId', []));
    if (chainId !== BIG_CHAIN_ID) {
      throw new Error(
        `setup: anvil runs chain ${chainId}, not ${BIG_CHAIN_ID}`,
      );
    }
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it(`on a chain with id 2^53 + 1 (${BIG_CHAIN_ID}), for random operations`, async () => {
    await fc.assert(
      fc.asyncProperty(userOperation, async (op) => {
        const data = encodeFunctionData({
          abi: GET_USER_OP_HASH,
          functionName: 'getUserOpHash',
          args: [toViemUserOperation(op)],
        });
        const onChain = await jsonRpc<Hex>(anvil.url, 'eth_call', [
          { to: ENTRY_POINT, data },
          'latest',
          { [ENTRY_POINT]: { code: runtime } },
        ]);
        expect(userOpHash(op, ENTRY_POINT, BIG_CHAIN_ID)).toBe(onChain);
      }),
      { numRuns: fuzzRuns(60) },
    );
  });

  it('equals viem’s v0.6 hash for random chain ids below 2^53', () => {
    fc.assert(
      fc.property(
        userOperation,
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (op, chainId) => {
          const reference = getUserOperationHash({
            chainId,
            entryPointAddress: ENTRY_POINT,
            entryPointVersion: '0.6',
            userOperation: toViemUserOperation(op),
          });
          expect(userOpHash(op, ENTRY_POINT, BigInt(chainId))).toBe(reference);
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });
});
