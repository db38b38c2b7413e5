/**
 * The devnet's VerifyingPaymasters for EntryPoint v0.7 and v0.8 and its ERC-7677 service in the v0.7
 * form, proven with independent reference clients: permissionless's SimpleAccount of each version,
 * sent through Alto by viem's bundler client with viem's own ERC-7677 paymaster client
 * (`createPaymasterClient`: `pm_getPaymasterStubData`, then `pm_getPaymasterData`). The account holds
 * no ETH at all, so only the paymaster can have paid; the EntryPoint's event names it.
 */
import { toSimpleSmartAccount } from 'permissionless/accounts';
import {
  createPublicClient,
  getAddress,
  http,
  parseAbi,
  parseEventLogs,
} from 'viem';
import type { Address, PublicClient } from 'viem';
import {
  createBundlerClient,
  createPaymasterClient,
} from 'viem/account-abstraction';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain, ERC4337_ABI } from '../../devnet/erc4337';
import { VERIFYING_PAYMASTER_V07_ABI } from '../../devnet/paymasters-modern';

jest.setTimeout(180_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';

describe('devnet: VerifyingPaymasters of EntryPoint v0.7 and v0.8 behind the ERC-7677 service', () => {
  let devnet: Devnet;
  let publicClient: PublicClient;

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    publicClient = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
      pollingInterval: 100,
    });
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it.each(['0.7', '0.8'] as const)(
    'the v%s paymaster names its EntryPoint and the service’s signer, and is deposited and staked there',
    async (version) => {
      const paymaster = devnet.modernPaymasters?.[version] as Address;
      const { entryPoint } = devnet.entryPoints?.[version] ?? {};
      /**
       * Read one address getter of the paymaster.
       *
       * @param functionName - `entryPoint` or `verifyingSigner`.
       * @returns The checksummed address.
       */
      const read = async (
        functionName: 'entryPoint' | 'verifyingSigner',
      ): Promise<Address> =>
        getAddress(
          await publicClient.readContract({
            address: paymaster,
            abi: VERIFYING_PAYMASTER_V07_ABI,
            functionName,
          }),
        );
      expect(await read('entryPoint')).toBe(entryPoint);
      expect(await read('verifyingSigner')).toBe(
        devnet.contracts.paymasterSignerAddress,
      );
      const info = await publicClient.readContract({
        address: entryPoint as Address,
        abi: ERC4337_ABI.entryPoint,
        functionName: 'getDepositInfo',
        args: [paymaster],
      });
      expect(info.deposit).toBeGreaterThan(0n);
      expect(info.staked).toBe(true);
    },
  );

  it.each(['0.7', '0.8'] as const)(
    'viem’s paymaster client sponsors a SimpleAccount v%s that holds no ETH: it deploys and calls a target; the event names the paymaster',
    async (version) => {
      const chain = devnetChain(devnet.chainId, devnet.rpcUrl);
      const { entryPoint, accountFactory } =
        devnet.entryPoints?.[version] ?? {};
      const account = await toSimpleSmartAccount({
        client: publicClient,
        owner: privateKeyToAccount(generatePrivateKey()),
        entryPoint: { address: entryPoint as Address, version },
        factoryAddress: accountFactory,
        index: 0n,
      });
      // the account holds no ETH, so it cannot pay its own gas
      expect(await publicClient.getBalance({ address: account.address })).toBe(
        0n,
      );
      const bundler = createBundlerClient({
        chain,
        client: publicClient,
        transport: http(devnet.bundlerUrl),
        paymaster: createPaymasterClient({
          transport: http(devnet.paymasterUrl),
        }),
        pollingInterval: 100,
      });
      devnet.paymaster.resetStats();
      const hash = await bundler.sendUserOperation({
        account,
        calls: [
          {
            to: DEAD,
            data: '0x',
            value: 0n,
          },
        ],
      });
      const receipt = await bundler.waitForUserOperationReceipt({
        hash,
        timeout: 30_000,
        pollingInterval: 100,
      });
      expect(receipt.success).toBe(true);
      expect(getAddress(receipt.paymaster as Address)).toBe(
        devnet.modernPaymasters?.[version],
      );
      const [event] = parseEventLogs({
        abi: parseAbi([
          'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
        ]),
        logs: receipt.receipt.logs,
      });
      expect(getAddress(event?.args.paymaster)).toBe(
        devnet.modernPaymasters?.[version],
      );
      expect(
        (await publicClient.getCode({ address: account.address }))?.length,
      ).toBeGreaterThan(2);
      expect(await publicClient.getBalance({ address: account.address })).toBe(
        0n,
      );
      expect(devnet.paymaster.stats.byMethod).toStrictEqual(
        expect.objectContaining({
          pm_getPaymasterStubData: 1,
          pm_getPaymasterData: 1,
        }),
      );
    },
  );
});
