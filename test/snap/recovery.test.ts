/**
 * Nothing lost: a second install of the built snap with the same recovery phrase and an empty
 * state finds the first install's used accounts on a real chain (anvil with the v0.6 EntryPoint and
 * SimpleAccountFactory of `@account-abstraction/contracts`), at the same addresses, and they sign
 * as themselves (viem recovers the signers; the two installs' signatures are equal). The chain is
 * reached through a counting proxy, so the batching is checked where the requests arrive.
 */
import {
  encodeFunctionData,
  hashMessage,
  recoverAddress,
  recoverMessageAddress,
} from 'viem';
import type { Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';
import { privateKeyToAccount } from 'viem/accounts';

import { installKeyringSnap, METAMASK } from './harness';
import type { KeyringHarness } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337, ERC4337_ABI } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';

const SCOPE = 'eip155:31337';
const MESSAGE = '0x7265636f76657279'; // "recovery"

/** What the first install made, and what it signed. */
type Made = {
  /** Account id in the first install. */
  id: string;
  /** Its address. */
  address: Hex;
  /** Its type. */
  type: 'eip155:eoa' | 'eip155:erc4337';
  /** Its signature of MESSAGE (EOA) or of USER_OP (smart account), from the first install. */
  signature: Hex;
};

/**
 * A fixed user operation for `sender` (v0.6 shape), signed by both installs.
 *
 * @param sender - The smart account.
 * @returns The operation.
 */
function userOpFor(sender: Hex): Record<string, Hex> {
  return {
    sender,
    nonce: '0x0',
    initCode: '0x',
    callData: '0x',
    callGasLimit: '0x5208',
    verificationGasLimit: '0x186a0',
    preVerificationGas: '0xc350',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x3b9aca00',
    paymasterAndData: '0x',
    signature: '0x',
  };
}

describe('Find my accounts: a second install with the same recovery phrase', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let proxy: LimitsProxy;
  let chainConfig: Record<string, string>;
  let first: KeyringHarness;
  let second: KeyringHarness;
  let funder: Hex;
  const used: Record<string, Made> = {};
  const notFound: Record<string, Hex> = {};
  /** The name the first install gave each account, by address. */
  const firstNames = new Map<string, string>();

  /**
   * Sign with one account of a harness: personal_sign for an EOA, eth_signUserOperation for a
   * smart account.
   *
   * @param harness - The install.
   * @param account - The account (`id`, `address`, `type`).
   * @param account.id - Its id.
   * @param account.address - Its address.
   * @param account.type - Its type.
   * @returns The signature.
   */
  async function signWith(
    harness: KeyringHarness,
    account: { id: string; address: Hex; type: string },
  ): Promise<Hex> {
    const response =
      account.type === 'eip155:eoa'
        ? await harness.submit(
            account,
            'personal_sign',
            [MESSAGE, account.address],
            SCOPE,
          )
        : await harness.submit(
            account,
            'eth_signUserOperation',
            [userOpFor(account.address), contracts.entryPoint],
            SCOPE,
          );
    return response.result;
  }

  /**
   * Send wei from anvil's first account and wait until it is mined.
   *
   * @param to - The receiver.
   */
  async function fund(to: Hex): Promise<void> {
    const { receipt } = await sendAndMine(anvil.url, {
      from: funder,
      to,
      value: '0x2386f26fc10000', // 0.01 ETH
    });
    expect(receipt.status).toBe('0x1');
  }

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    proxy = await startLimitsProxy({ upstream: anvil.url });
    [funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
    chainConfig = {
      scope: SCOPE,
      rpcUrl: proxy.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    };

    first = await installKeyringSnap();
    await first.rpcApproved('setChainConfig', chainConfig);
    const eoa0 = await first.createAccount(); // eoa 0: funded
    const eoa1 = await first.createAccount(); // eoa 1: sent a transaction (nonce 1, no balance)
    const eoa2 = await first.createAccount(); // eoa 2: never used
    const smart0 = await first.createAccount({ type: 'eip155:erc4337' }); // deployed
    const smart1 = await first.createAccount({ type: 'eip155:erc4337' }); // funded, not deployed
    const smart2 = await first.createAccount({ type: 'eip155:erc4337' }); // never used
    const alt0 = await first.createAccount({ entropySource: 'alternative' }); // the second phrase, funded
    const eoa15 = await first.rpcApproved('restoreAccount', {
      type: 'eip155:eoa',
      index: 15,
    }); // 13 unused indices before it: within the gap limit
    const eoa40 = await first.rpcApproved('restoreAccount', {
      type: 'eip155:eoa',
      index: 40,
    }); // 24 unused indices before it: past the gap limit
    const imported = await first.createAccount({
      privateKey:
        '0x1111111111111111111111111111111111111111111111111111111111111111',
    }); // an imported key, funded: no phrase derives it

    for (const account of [eoa0, smart1, alt0, eoa15, eoa40, imported]) {
      await fund(account.address);
    }
    await jsonRpc(anvil.url, 'anvil_setNonce', [eoa1.address, '0x1']);
    const exported = await first.keyringApproved('keyring_exportAccount', {
      id: smart0.id,
    });
    const owner0 = privateKeyToAccount(exported.privateKey).address;
    const { receipt } = await sendAndMine(anvil.url, {
      from: funder,
      to: contracts.accountFactory,
      data: encodeFunctionData({
        abi: ERC4337_ABI.factory,
        functionName: 'createAccount',
        args: [owner0, 0n],
      }),
    });
    if (
      receipt.status !== '0x1' ||
      (await jsonRpc(anvil.url, 'eth_getCode', [smart0.address, 'latest'])) ===
        '0x'
    ) {
      throw new Error('the factory did not deploy the first smart account');
    }

    for (const [name, account] of Object.entries({
      eoa0,
      eoa1,
      eoa15,
      smart0,
      smart1,
      alt0,
    })) {
      used[name] = {
        id: account.id,
        address: account.address,
        type: account.type,
        signature: await signWith(first, account),
      };
    }
    Object.assign(notFound, {
      eoa2: eoa2.address,
      smart2: smart2.address,
      eoa40: eoa40.address,
      imported: imported.address,
    });

    for (const account of await first.keyring('keyring_listAccounts')) {
      firstNames.set(account.address, account.options.name);
    }
    second = await installKeyringSnap(); // same default phrase, empty state
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  it('lists both recovery phrases of the simulation, primary first', async () => {
    expect(await second.rpc('listEntropySources')).toEqual([
      { id: 'default', name: 'Default Secret Recovery Phrase', primary: true },
      {
        id: 'alternative',
        name: 'Alternative Secret Recovery Phrase',
        primary: false,
      },
    ]);
  });

  it('without a chain it searches nothing and says so', async () => {
    const report = await second.rpc('findAccounts');
    expect(report).toMatchObject({ noChain: true, added: [], searched: [] });
    expect(await second.keyring('keyring_listAccounts')).toEqual([]);
  });

  it('finds the used EOAs and smart accounts of both phrases at their addresses, and nothing else', async () => {
    await second.rpcApproved('setChainConfig', chainConfig);
    proxy.resetStats();
    const report = await second.rpcApproved('findAccounts');

    const added = report.added.map((entry: any) => [
      entry.type,
      entry.scheme,
      entry.source,
      entry.index,
      entry.address,
    ]);
    expect(added).toEqual([
      ['eip155:eoa', 'eoa', 'default', 0, used.eoa0?.address],
      ['eip155:eoa', 'eoa', 'default', 1, used.eoa1?.address],
      ['eip155:eoa', 'eoa', 'default', 15, used.eoa15?.address],
      ['eip155:erc4337', 'erc4337-owner', 'default', 0, used.smart0?.address],
      ['eip155:erc4337', 'erc4337-owner', 'default', 1, used.smart1?.address],
      ['eip155:eoa', 'eoa', 'alternative', 0, used.alt0?.address],
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.noChain).toBe(false);
    expect(report.chains).toEqual([SCOPE]);
    expect(report.unreachable).toEqual([]);
    const accounts = await second.keyring('keyring_listAccounts');
    expect(accounts.map((account: any) => account.address).sort()).toEqual(
      Object.values(used)
        .map((made) => made.address)
        .sort(),
    );
    for (const address of Object.values(notFound)) {
      expect(JSON.stringify(report).toLowerCase()).not.toContain(
        address.slice(2).toLowerCase(),
      );
    }
    // the gap limit: 20 unused in a row end a scheme (eoa: 0,1 used … 15 used, then 16–35 unused)
    expect(report.searched).toEqual([
      { source: 'default', scheme: 'eoa', indices: 36, end: 'gap' },
      { source: 'default', scheme: 'erc4337-owner', indices: 22, end: 'gap' },
      { source: 'default', scheme: 'legacy', indices: 20, end: 'gap' },
      { source: 'alternative', scheme: 'eoa', indices: 21, end: 'gap' },
      {
        source: 'alternative',
        scheme: 'erc4337-owner',
        indices: 20,
        end: 'gap',
      },
    ]);
    // announced to MetaMask once each, each named as the first install named it (by its index and
    // phrase), never with another address's name
    const created = second.events.filter(
      (event) => event.method === 'notify:accountCreated',
    );
    expect(created.map((event) => event.params.account.address)).toEqual(
      report.added.map((entry: any) => entry.address),
    );
    expect(created.map((event) => event.params.accountNameSuggestion)).toEqual([
      'Keyring Account 1',
      'Keyring Account 2',
      'Keyring Account 16',
      'Smart Account 1',
      'Smart Account 2',
      'Keyring Account 1 (Alternative Secret Recovery Phrase)',
    ]);
    for (const event of created) {
      expect(event.params.accountNameSuggestion).toBe(
        firstNames.get(event.params.account.address),
      );
      expect(event.params.account.options.name).toBe(
        event.params.accountNameSuggestion,
      );
    }

    // batching, counted where the requests arrive: the search's round trips and calls, plus one
    // getAddress check per smart account added (3 calls), as createAccount checks it
    expect(proxy.stats.httpRequests).toBe(report.roundTrips + 2);
    expect(proxy.stats.rpcCalls).toBe(report.calls + 2 * 3);
    // two rounds of windows of 20 indices (the first split at 100 calls), and the factory read:
    // far fewer round trips than the 119 indices searched
    expect(report.roundTrips).toBeLessThanOrEqual(6);
    expect(proxy.stats.batches).toBe(proxy.stats.httpRequests);
  });

  it('the found EOAs sign as themselves: the same signatures as the first install', async () => {
    const accounts = await second.keyring('keyring_listAccounts');
    const eoas = Object.values(used).filter(
      (made) => made.type === 'eip155:eoa',
    );
    expect(eoas).toHaveLength(4);
    for (const made of eoas) {
      const account = accounts.find(
        (entry: any) => entry.address === made.address,
      );
      const signature = await signWith(second, account);
      expect(signature).toBe(made.signature);
      expect(
        await recoverMessageAddress({ message: { raw: MESSAGE }, signature }),
      ).toBe(made.address);
    }
  });

  it('the found smart accounts sign as themselves: same signatures, by the owner the deployed contract names', async () => {
    const accounts = await second.keyring('keyring_listAccounts');
    const owners: Hex[] = [];
    for (const made of [used.smart0, used.smart1] as Made[]) {
      const account = accounts.find(
        (entry: any) => entry.address === made.address,
      );
      const signature = await signWith(second, account);
      expect(signature).toBe(made.signature);
      const hash = getUserOperationHash({
        chainId: 31337,
        entryPointAddress: contracts.entryPoint,
        entryPointVersion: '0.6',
        userOperation: {
          ...(userOpFor(made.address) as any),
          nonce: 0n,
          callGasLimit: 0x5208n,
          verificationGasLimit: 0x186a0n,
          preVerificationGas: 0xc350n,
          maxFeePerGas: 0x3b9aca00n,
          maxPriorityFeePerGas: 0x3b9aca00n,
        },
      });
      // SimpleAccount v0.6 checks an EIP-191 signature of the userOpHash by its owner
      owners.push(
        await recoverAddress({ hash: hashMessage({ raw: hash }), signature }),
      );
    }
    // the deployed one names its owner itself (owner())
    const word = await jsonRpc<Hex>(anvil.url, 'eth_call', [
      { to: used.smart0?.address, data: '0x8da5cb5b' },
      'latest',
    ]);
    expect(`0x${word.slice(26)}`.toLowerCase()).toBe(owners[0]?.toLowerCase());
    expect(owners[1]).not.toBe(owners[0]);
  });

  it('a second run adds nothing, and tells the site nothing of the accounts held already', async () => {
    const before = second.events.length;
    const report = await second.rpcApproved('findAccounts');
    expect(report.added).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(second.events).toHaveLength(before);
  });

  it('a new account after the restore takes a fresh index, and MetaMask itself may create it', async () => {
    const created = await second.keyring(
      'keyring_createAccount',
      { options: {} },
      METAMASK,
    );
    const taken = [
      ...Object.values(used).map((made) => made.address),
      ...Object.values(notFound),
    ];
    expect(taken).not.toContain(created.address);
    // index 16 is the one it took: restoring it is refused as a key in use
    await expect(
      second.rpc('restoreAccount', { type: 'eip155:eoa', index: 16 }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        `Invalid restoreAccount params: this key already backs account ${created.address}`,
      ),
    });
  });
});
