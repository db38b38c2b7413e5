/**
 * The smart-account address is computed by the snap (CREATE2, EIP-1014), not taken from the RPC:
 * checked against the real SimpleAccountFactory v0.6 on anvil (its `getAddress` and the address a
 * real `createAccount` deploys to), and against an RPC that lies about `getAddress` (the limits
 * proxy rewriting that one eth_call's result): the account is refused and nothing is stored.
 */
import {
  encodeFunctionData,
  getAddress,
  getContractAddress,
  padHex,
} from 'viem';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

import { ANVIL_KEYS, startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337, loadArtifact } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { DEFAULT_ACCOUNT_FACTORY } from '../../src/accounts/erc4337/constants';
import { knownImplementation } from '../../src/accounts/erc4337/knownFactories';
import {
  computeAccountAddress,
  counterfactualAddress,
} from '../../src/accounts/erc4337/prepare';
import { createRpcClient } from '../../src/chain';
import { createDomain } from '../../src/domain';
import type { KeyringPlatform } from '../../src/keyring/keyring';
import { defaultState } from '../../src/state/store';
import type { StateSaver } from '../../src/state/store';
import { startFakeFactoryRpc } from '../fixtures/fake-factory-rpc';
import canonicalFactory from '../fixtures/simple-account-factory-v06-createcall.json';

const factoryAbi = loadArtifact('SimpleAccountFactory').abi;
const GET_ADDRESS_SELECTOR = encodeFunctionData({
  abi: factoryAbi,
  functionName: 'getAddress',
  args: [privateKeyToAddress(ANVIL_KEYS[0]), 0n],
}).slice(0, 10);
/** Anvil's deterministic deployment proxy (CREATE2 of `salt ++ creation code`). */
const CREATE2_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C';
/** An address the lying RPC names as the account (an attacker's, say). */
const ATTACKER = '0x000000000000000000000000000000000000a77a';

describe('smart-account address on anvil with SimpleAccountFactory v0.6', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let contracts: Erc4337Deployment;
  let scope: string;

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    proxy = await startLimitsProxy({ upstream: anvil.url });
    scope = `eip155:${BigInt(await jsonRpc<string>(anvil.url, 'eth_chainId', []))}`;
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  /**
   * The factory's own `getAddress(owner, salt)`, read straight from anvil.
   *
   * @param owner - Owner EOA.
   * @param salt - The salt.
   * @returns The address the factory answers.
   */
  async function factoryGetAddress(owner: Hex, salt: bigint): Promise<Hex> {
    const word = await jsonRpc<Hex>(anvil.url, 'eth_call', [
      {
        to: contracts.accountFactory,
        data: encodeFunctionData({
          abi: factoryAbi,
          functionName: 'getAddress',
          args: [owner, salt],
        }),
      },
      'latest',
    ]);
    return getAddress(`0x${word.slice(26)}`);
  }

  it.each([0n, 1n, 2n ** 255n + 7n])(
    'computes the address the factory gives and deploys to (salt %s)',
    async (salt) => {
      const owner = privateKeyToAddress(generatePrivateKey());
      const computed = counterfactualAddress(
        contracts.accountFactory,
        contracts.simpleAccountImplementation,
        owner,
        salt,
      );
      expect(computed).toBe(await factoryGetAddress(owner, salt));
      expect(
        await jsonRpc(anvil.url, 'eth_getCode', [computed, 'latest']),
      ).toBe('0x');
      const { receipt } = await sendAndMine(anvil.url, {
        from: privateKeyToAddress(ANVIL_KEYS[0]),
        to: contracts.accountFactory,
        data: encodeFunctionData({
          abi: factoryAbi,
          functionName: 'createAccount',
          args: [owner, salt],
        }),
      });
      expect(receipt.status).toBe('0x1');
      // The real deployment: proxy code at the computed address, owned by `owner`.
      expect(
        await jsonRpc<Hex>(anvil.url, 'eth_getCode', [computed, 'latest']),
      ).not.toBe('0x');
      const ownerWord = await jsonRpc<Hex>(anvil.url, 'eth_call', [
        {
          to: computed,
          data: encodeFunctionData({
            abi: loadArtifact('SimpleAccount').abi,
            functionName: 'owner',
          }),
        },
        'latest',
      ]);
      expect(ownerWord).toBe(padHex(owner.toLowerCase() as Hex, { size: 32 }));
    },
  );

  it('computeAccountAddress returns the computed address and the implementation', async () => {
    const owner = privateKeyToAddress(generatePrivateKey());
    const result = await computeAccountAddress(
      createRpcClient({ url: proxy.url }),
      contracts.accountFactory,
      owner,
    );
    expect(result).toStrictEqual({
      address: await factoryGetAddress(owner, 0n),
      implementation: getAddress(contracts.simpleAccountImplementation),
    });
  });

  it('refuses an RPC whose getAddress answer disagrees, naming the factory, not the answer', async () => {
    const owner = privateKeyToAddress(generatePrivateKey());
    proxy.inject({
      type: 'result',
      method: 'eth_call',
      selector: GET_ADDRESS_SELECTOR,
      result: padHex(ATTACKER, { size: 32 }),
    });
    const error = await computeAccountAddress(
      createRpcClient({ url: proxy.url }),
      contracts.accountFactory,
      owner,
    ).catch((caught: unknown) => caught);
    // an untrusted reply, as a malformed one is: -32002 to a caller (errorMap), never -32603
    expect(error).toMatchObject({ name: 'TransportError', kind: 'malformed' });
    const { message } = error as Error;
    expect(message).toContain(contracts.accountFactory);
    expect(message).toMatch(/disagrees with the CREATE2 address/u);
    expect(message.toLowerCase()).not.toContain(ATTACKER.slice(2));
  });

  it('the canonical SimpleAccountFactory v0.6, deployed at its canonical address, has the pinned implementation (CREATE of the factory at nonce 1)', async () => {
    const { receipt } = await sendAndMine(anvil.url, {
      from: privateKeyToAddress(ANVIL_KEYS[0]),
      to: CREATE2_DEPLOYER,
      data: canonicalFactory.SIMPLE_ACCOUNT_FACTORY_V06_CREATECALL,
    });
    expect(receipt.status).toBe('0x1');
    expect(
      await jsonRpc<Hex>(anvil.url, 'eth_getCode', [
        DEFAULT_ACCOUNT_FACTORY,
        'latest',
      ]),
    ).not.toBe('0x');
    const word = await jsonRpc<Hex>(anvil.url, 'eth_call', [
      {
        to: DEFAULT_ACCOUNT_FACTORY,
        data: encodeFunctionData({
          abi: factoryAbi,
          functionName: 'accountImplementation',
        }),
      },
      'latest',
    ]);
    const implementation = getAddress(`0x${word.slice(26)}`);
    expect(knownImplementation(DEFAULT_ACCOUNT_FACTORY)).toBe(implementation);
    expect(
      getContractAddress({ from: DEFAULT_ACCOUNT_FACTORY, nonce: 1n }),
    ).toBe(implementation);
    // the snap computes, from the pinned implementation, the address the real factory gives
    const owner = privateKeyToAddress(generatePrivateKey());
    const { address } = await computeAccountAddress(
      createRpcClient({ url: anvil.url }),
      DEFAULT_ACCOUNT_FACTORY,
      owner,
    );
    const answered = await jsonRpc<Hex>(anvil.url, 'eth_call', [
      {
        to: DEFAULT_ACCOUNT_FACTORY,
        data: encodeFunctionData({
          abi: factoryAbi,
          functionName: 'getAddress',
          args: [owner, 0n],
        }),
      },
      'latest',
    ]);
    expect(address).toBe(getAddress(`0x${answered.slice(26)}`));
  });

  it('refuses an RPC that names another implementation for the canonical factory, even with a matching getAddress', async () => {
    const liar = await startFakeFactoryRpc(31337, true);
    try {
      const error = await computeAccountAddress(
        createRpcClient({ url: liar.url }),
        DEFAULT_ACCOUNT_FACTORY,
        privateKeyToAddress(generatePrivateKey()),
      ).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: -32603 });
      expect((error as Error).message).toMatch(
        /accountImplementation with an address that is not the implementation this known factory deploys/u,
      );
    } finally {
      await liar.stop();
    }
  });

  it('createAccount stores no account when the RPC lies about getAddress', async () => {
    const key = generatePrivateKey();
    const state = defaultState();
    state.chains[scope] = {
      scope,
      rpcUrl: proxy.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    };
    const saved: unknown[] = [];
    const events: unknown[] = [];
    const platform: KeyringPlatform & { saveState: StateSaver } = {
      saveState: async (next) => {
        saved.push(next);
      },
      emitEvent: async (...args) => {
        events.push(args);
      },
      confirm: async () => true,
      deriveKey: async () => ({
        privateKey: key,
        address: privateKeyToAddress(key),
      }),
    };
    const { keyring } = createDomain(state, platform, () => ({ message: '' }));
    proxy.inject({
      type: 'result',
      method: 'eth_call',
      selector: GET_ADDRESS_SELECTOR,
      result: padHex(ATTACKER, { size: 32 }),
    });
    await expect(
      keyring.createAccount({ type: 'eip155:erc4337', scopes: [scope] }),
    ).rejects.toMatchObject({ name: 'TransportError', kind: 'malformed' });
    expect(await keyring.listAccounts()).toStrictEqual([]);
    expect(events).toStrictEqual([]);
    // Without the lie, the same keyring creates the account at the factory's address.
    const account = await keyring.createAccount({
      type: 'eip155:erc4337',
      scopes: [scope],
    });
    expect(account.address).toBe(
      await factoryGetAddress(privateKeyToAddress(key), 0n),
    );
  });
});
