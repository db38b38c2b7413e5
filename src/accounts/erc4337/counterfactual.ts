import { encodeFunctionData, getAddress, toHex } from 'viem';
import type { Hex } from 'viem';

import { factoryAbi } from './constants';
import { knownImplementation } from './knownFactories';
import { counterfactualAddress } from './prepare';
import type { RpcClient } from '../../chain';
import { readHexData, readUintWord } from '../../chain';

/**
 * Counterfactual smart-account addresses in bulk, for account recovery: one read per chain (the
 * factory's code and its immutable `accountImplementation()`), then every owner's address computed
 * locally with the same CREATE2 formula creation uses ({@link counterfactualAddress}). Creation
 * also checks the factory's `getAddress`; recovery does that when it adds an account it found
 * (through `resolveSmartAccount`), not for every index it searches.
 */

/**
 * The SimpleAccount implementation behind a SimpleAccountFactory v0.6 (`accountImplementation()`),
 * read with the factory's code in one batched round trip.
 *
 * @param client - The chain's RPC adapter.
 * @param accountFactory - The factory's address.
 * @returns The implementation (checksummed; the pinned one for a known factory), or undefined when
 * no code is deployed at the factory.
 * @throws The chain adapter's errors; TransportError (malformed) when a reply is not what its
 * method returns.
 */
export async function readAccountImplementation(
  client: RpcClient,
  accountFactory: Hex,
): Promise<Hex | undefined> {
  const [code, word] = await client.batch([
    { method: 'eth_getCode', params: [accountFactory, 'latest'] },
    {
      method: 'eth_call',
      params: [
        {
          to: accountFactory,
          data: encodeFunctionData({
            abi: factoryAbi,
            functionName: 'accountImplementation',
          }),
        },
        'latest',
      ],
    },
  ]);
  if (readHexData(code, 'eth_getCode', client.origin) === '0x') {
    return undefined;
  }
  // A known factory's implementation is pinned (knownFactories.ts): the search computes the
  // addresses creation would accept, whatever the RPC answers.
  const pinned = knownImplementation(accountFactory);
  if (pinned !== undefined) {
    return pinned;
  }
  return getAddress(
    toHex(
      readUintWord(
        word,
        'SimpleAccountFactory.accountImplementation',
        2n ** 160n - 1n,
        client.origin,
      ),
      { size: 20 },
    ),
  );
}

/**
 * The counterfactual address of `owner`'s SimpleAccount v0.6 from a factory whose implementation
 * is known (CREATE2, EIP-1014; the snap's account salt), as creation computes it.
 *
 * @param accountFactory - SimpleAccountFactory v0.6 address.
 * @param implementation - Its `accountImplementation()`.
 * @param owner - The owner EOA.
 * @returns The checksummed address.
 */
export function ownerAccountAddress(
  accountFactory: Hex,
  implementation: Hex,
  owner: Hex,
): Hex {
  return counterfactualAddress(accountFactory, implementation, owner);
}
