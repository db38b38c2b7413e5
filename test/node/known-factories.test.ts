/**
 * The pinned account implementations of the canonical SimpleAccountFactory v0.7 and v0.8
 * (src/accounts/erc4337/knownFactories.ts), checked on anvil: both factories deployed at their
 * canonical addresses by the public creation calls (devnet/entrypoints.ts, through the
 * deterministic deployment proxy), their own `accountImplementation()` read back and compared with
 * the pin and with the CREATE address of the factory at nonce 1; the snap's computed address equals
 * the factory's `getAddress`; and an RPC that names another implementation is refused for those
 * versions as for v0.6.
 */
import {
  encodeFunctionData,
  getAddress,
  getContractAddress,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployEntryPoints } from '../../devnet/entrypoints';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { jsonRpc } from '../../devnet/json-rpc';
import { knownImplementation } from '../../src/accounts/erc4337/knownFactories';
import { computeAccountAddress } from '../../src/accounts/erc4337/prepare';
import { CANONICAL_CONTRACTS } from '../../src/accounts/erc4337/versions';
import { createRpcClient } from '../../src/chain';
import { startFakeFactoryRpc } from '../fixtures/fake-factory-rpc';

const FACTORY_ABI = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function accountImplementation() view returns (address)',
]);

/**
 * A factory's answer to one call, as an address.
 *
 * @param url - The node.
 * @param factory - The factory.
 * @param data - The call data.
 * @returns The address word of the answer, checksummed.
 */
async function callAddress(url: string, factory: Hex, data: Hex): Promise<Hex> {
  const word = await jsonRpc<Hex>(url, 'eth_call', [
    { to: factory, data },
    'latest',
  ]);
  return getAddress(`0x${word.slice(26)}`);
}

describe('pinned implementations of the canonical SimpleAccountFactory v0.7 and v0.8', () => {
  let anvil: Anvil;
  let deployed: EntryPointsDeployment;

  beforeAll(async () => {
    anvil = await startAnvil();
    deployed = await deployEntryPoints(anvil.url);
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it.each(['0.7', '0.8'] as const)(
    'v%s: the factory deployed at its canonical address answers the pinned implementation; the snap’s address is the factory’s',
    async (version) => {
      const factory = getAddress(deployed[version].accountFactory);
      expect(factory).toBe(CANONICAL_CONTRACTS[version].accountFactory);
      const implementation = await callAddress(
        anvil.url,
        factory,
        encodeFunctionData({
          abi: FACTORY_ABI,
          functionName: 'accountImplementation',
        }),
      );
      expect(knownImplementation(factory)).toBe(implementation);
      expect(getContractAddress({ from: factory, nonce: 1n })).toBe(
        implementation,
      );

      const owner = privateKeyToAddress(generatePrivateKey());
      const computed = await computeAccountAddress(
        createRpcClient({ url: anvil.url }),
        factory,
        owner,
        version,
      );
      expect(computed.implementation).toBe(implementation);
      expect(computed.address).toBe(
        await callAddress(
          anvil.url,
          factory,
          encodeFunctionData({
            abi: FACTORY_ABI,
            functionName: 'getAddress',
            args: [owner, 0n],
          }),
        ),
      );
    },
  );

  it.each(['0.7', '0.8'] as const)(
    'v%s: an RPC naming another implementation for the canonical factory is refused, naming the factory, not the answer',
    async (version) => {
      const liar = await startFakeFactoryRpc(31337, true);
      try {
        const factory = CANONICAL_CONTRACTS[version].accountFactory as Hex;
        const error = await computeAccountAddress(
          createRpcClient({ url: liar.url }),
          factory,
          privateKeyToAddress(generatePrivateKey()),
          version,
        ).catch((caught: unknown) => caught);
        expect(error).toMatchObject({ code: -32603 });
        const { message } = error as Error;
        expect(message).toContain(factory);
        expect(message).toMatch(
          /accountImplementation with an address that is not the implementation this known factory deploys/u,
        );
        expect(message.toLowerCase()).not.toContain('4444444444');
      } finally {
        await liar.stop();
      }
    },
  );
});
