import { encodeFunctionData, getAddress, toHex } from 'viem';
import type { Hex } from 'viem';

import { ACCOUNT_SALT, factoryAbi } from './constants';
import { knownImplementation } from './knownFactories';
import { counterfactualAddress } from './prepare';
import type { EntryPointVersion } from './versions';
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
 * The SimpleAccount implementations behind SimpleAccountFactories (`accountImplementation()`),
 * each read with the factory's code, all in one batched round trip (two calls per factory).
 *
 * @param client - The chain's RPC adapter.
 * @param accountFactories - The factories' addresses (v0.6, v0.7, v0.8 factories alike).
 * @returns For each factory, in order: its implementation (checksummed; the pinned one for a known
 * factory), or undefined when no code is deployed there.
 * @throws The chain adapter's errors; TransportError (malformed) when a reply is not what its
 * method returns.
 */
export async function readAccountImplementations(
  client: RpcClient,
  accountFactories: Hex[],
): Promise<(Hex | undefined)[]> {
  const replies = await client.batch(
    accountFactories.flatMap((accountFactory) => [
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
    ]),
  );
  return accountFactories.map((accountFactory, at) => {
    const [code, word] = [replies[2 * at], replies[2 * at + 1]];
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
  });
}

/**
 * The counterfactual address of `owner`'s SimpleAccount from a factory whose implementation is
 * known (CREATE2, EIP-1014; the snap's account salt), as creation computes it.
 *
 * @param accountFactory - SimpleAccountFactory address (of `version`).
 * @param implementation - Its `accountImplementation()`.
 * @param owner - The owner EOA.
 * @param version - The factory's EntryPoint version (default v0.6; v0.7 and v0.8 proxies differ).
 * @returns The checksummed address.
 */
export function ownerAccountAddress(
  accountFactory: Hex,
  implementation: Hex,
  owner: Hex,
  version: EntryPointVersion = '0.6',
): Hex {
  return counterfactualAddress(
    accountFactory,
    implementation,
    owner,
    ACCOUNT_SALT,
    version,
  );
}
