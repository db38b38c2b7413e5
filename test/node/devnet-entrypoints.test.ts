/**
 * The devnet's EntryPoint v0.7 and v0.8 (canonical addresses, deployed through the deterministic
 * deployment proxy), proven with independent reference clients: permissionless's SimpleAccount for
 * each version and for an EOA upgraded with EIP-7702 to Simple7702Account v0.8, sent through Alto;
 * the userOpHash compared with the EntryPoint's own `getUserOpHash`.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  keccak256,
  parseEther,
  slice,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import {
  createBundlerClient,
  entryPoint07Abi,
  entryPoint08Abi,
  getUserOperationHash,
  toPackedUserOperation,
} from 'viem/account-abstraction';
import type { BundlerClient, UserOperation } from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import * as createCalls from '../../devnet/aa-createcalls';
import { ANVIL_KEYS } from '../../devnet/anvil';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import {
  CANONICAL,
  createCallAddress,
  DETERMINISTIC_DEPLOYER,
} from '../../devnet/entrypoints';
import { devnetChain } from '../../devnet/erc4337';

jest.setTimeout(180_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';

describe('devnet: EntryPoint v0.7 and v0.8', () => {
  let devnet: Devnet;
  let publicClient: PublicClient;
  let bundler: BundlerClient;

  beforeAll(async () => {
    devnet = await startDevnet();
    const chain = devnetChain(devnet.chainId, devnet.rpcUrl);
    publicClient = createPublicClient({
      chain,
      transport: http(devnet.rpcUrl),
      pollingInterval: 100,
    });
    bundler = createBundlerClient({
      chain,
      client: publicClient,
      transport: http(devnet.bundlerUrl),
      pollingInterval: 100,
    });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('each creation call yields its canonical address, and code is there', async () => {
    expect(
      [
        createCalls.ENTRY_POINT_V07_CREATECALL,
        createCalls.SIMPLE_ACCOUNT_FACTORY_V07_CREATECALL,
        createCalls.ENTRY_POINT_V08_CREATECALL,
        createCalls.SIMPLE_ACCOUNT_FACTORY_V08_CREATECALL,
        createCalls.SIMPLE_7702_ACCOUNT_IMPLEMENTATION_V08_CREATECALL,
      ].map((data) => createCallAddress(data as Hex)),
    ).toStrictEqual([
      CANONICAL['0.7'].entryPoint,
      CANONICAL['0.7'].accountFactory,
      CANONICAL['0.8'].entryPoint,
      CANONICAL['0.8'].accountFactory,
      CANONICAL['0.8'].simple7702Account,
    ]);
    expect(
      await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER }),
    ).toBeDefined();
    for (const address of [
      ...Object.values(devnet.entryPoints['0.7']),
      ...Object.values(devnet.entryPoints['0.8']),
    ]) {
      const code = await publicClient.getCode({ address });
      expect(code?.length).toBeGreaterThan(100);
    }
  });

  it('alto serves v0.6, v0.7 and v0.8', async () => {
    const served = await bundler.getSupportedEntryPoints();
    expect(served.map((address) => getAddress(address)).sort()).toStrictEqual(
      [
        devnet.contracts.entryPoint,
        CANONICAL['0.7'].entryPoint,
        CANONICAL['0.8'].entryPoint,
      ].sort(),
    );
  });

  it.each(['0.7', '0.8'] as const)(
    'a SimpleAccount v%s deploys and pays through Alto; the hash is the EntryPoint’s getUserOpHash',
    async (version) => {
      const owner = privateKeyToAccount(generatePrivateKey());
      const { entryPoint, accountFactory } = devnet.entryPoints[version];
      const account = await toSimpleSmartAccount({
        client: publicClient,
        owner,
        entryPoint: { address: entryPoint, version },
        factoryAddress: accountFactory,
        index: 0n,
      });
      await fund(account.address);
      const before = await publicClient.getBalance({ address: DEAD });
      const hash = await bundler.sendUserOperation({
        account,
        calls: [{ to: DEAD, value: 12_345n, data: '0x' }],
      });
      const receipt = await bundler.waitForUserOperationReceipt({
        hash,
        timeout: 30_000,
        pollingInterval: 100,
      });
      expect(receipt.success).toBe(true);
      expect(await publicClient.getBalance({ address: DEAD })).toBe(
        before + 12_345n,
      );
      const op = (await bundler.getUserOperation({ hash }))
        .userOperation as UserOperation<typeof version>;
      const onChain = await publicClient.readContract({
        address: entryPoint,
        abi: version === '0.7' ? entryPoint07Abi : entryPoint08Abi,
        functionName: 'getUserOpHash',
        args: [toPackedUserOperation(op)],
      });
      expect(onChain).toBe(hash);
      expect(
        getUserOperationHash({
          userOperation: op,
          entryPointAddress: entryPoint,
          entryPointVersion: version,
          chainId: devnet.chainId,
        }),
      ).toBe(hash);
    },
  );

  it('an EOA upgraded with EIP-7702 to Simple7702Account v0.8 sends a batch from its own address', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    await fund(owner.address);
    const account = await toSimpleSmartAccount({
      client: publicClient,
      owner,
      eip7702: true,
      entryPoint: { address: CANONICAL['0.8'].entryPoint, version: '0.8' },
    });
    expect(account.address).toBe(owner.address);
    const nonce = await publicClient.getTransactionCount({
      address: owner.address,
    });
    const authorization = await owner.signAuthorization({
      address: CANONICAL['0.8'].simple7702Account,
      chainId: devnet.chainId,
      nonce,
    });
    const before = await publicClient.getBalance({ address: DEAD });
    const hash = await bundler.sendUserOperation({
      account,
      authorization,
      calls: [
        { to: DEAD, value: 1n, data: '0x' },
        { to: DEAD, value: 2n, data: '0x' },
      ],
    });
    const receipt = await bundler.waitForUserOperationReceipt({
      hash,
      timeout: 30_000,
      pollingInterval: 100,
    });
    expect(receipt.success).toBe(true);
    expect(getAddress(receipt.sender)).toBe(owner.address);
    expect(await publicClient.getBalance({ address: DEAD })).toBe(before + 3n);
    const code = await publicClient.getCode({ address: owner.address });
    expect(code).toBe(
      `0xef0100${CANONICAL['0.8'].simple7702Account.slice(2).toLowerCase()}`,
    );
    // the delegate's runtime code hash, as the snap checks it
    const delegate = await publicClient.getCode({
      address: CANONICAL['0.8'].simple7702Account,
    });
    expect(keccak256(delegate ?? '0x')).toMatch(/^0x[0-9a-f]{64}$/u);
    expect(slice(code ?? '0x00', 0, 3)).toBe('0xef0100');
  });

  /**
   * Send 1 ETH from anvil's dev key 0.
   *
   * @param to - The address to fund.
   */
  async function fund(to: Address): Promise<void> {
    const wallet = createWalletClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
      account: privateKeyToAccount(ANVIL_KEYS[0]),
    });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to, value: parseEther('1') }),
      pollingInterval: 50,
      timeout: 30_000,
    });
  }
});
