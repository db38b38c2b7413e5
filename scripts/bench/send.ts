import { numberToHex, parseEther } from 'viem';
import type { Hex } from 'viem';

import { startDevnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

const DEAD = '0x000000000000000000000000000000000000dEaD';
/** How long to wait for a receipt before the second send, in 100 ms polls. */
const RECEIPT_POLLS = 300;

/** What one send cost, counted where the requests arrive. */
type SendCount = {
  /** HTTP requests to the chain's RPC. */
  chainRoundTrips: number;
  /** JSON-RPC calls in them. */
  chainCalls: number;
  /** HTTP requests to the bundler. */
  bundlerRoundTrips: number;
  /** JSON-RPC calls in them. */
  bundlerCalls: number;
};

/** The send section of the bench: per EntryPoint version, a first (deploying) and a second send. */
export type SendResult = Record<
  '0.6' | '0.7' | '0.8',
  { deploying: SendCount; deployed: SendCount }
>;

/**
 * The round trips and calls of `sendUserOperation` through the built snap (snaps simulation), per
 * EntryPoint version, on the devnet (anvil with the canonical v0.7 / v0.8 deployments beside v0.6,
 * Alto serving all three), self-paid (no paymaster), one intent (16 wei to 0x…dEaD). The chain's
 * RPC and the bundler each sit behind a counting proxy; the figures are the requests that arrive
 * from the call to its answer (the confirmation dialog confirmed at once): the first send deploys
 * the account, the second (after the first's receipt) finds it deployed.
 *
 * @returns The figures, also printed.
 */
export async function benchSend(): Promise<SendResult> {
  const devnet = await startDevnet({ entryPoints: true });
  const chain = await startLimitsProxy({ upstream: devnet.rpcUrl });
  const bundler = await startLimitsProxy({ upstream: devnet.bundlerUrl });
  const snap = await startSimulatedSnap(companionOrigin());
  try {
    const { paymasterUrl: _paymaster, ...config } = devnet.chainConfig;
    await snap.rpcConfirmed('setChainConfig', {
      ...config,
      rpcUrl: chain.url,
      bundlerUrl: bundler.url,
    });
    console.log(
      '\n## sendUserOperation through the built snap, per EntryPoint version (self-paid, one intent; requests counted at proxies before the chain and the bundler)',
    );
    const result = {} as SendResult;
    for (const version of ['0.6', '0.7', '0.8'] as const) {
      const account = await snap.keyring('keyring_createAccount', {
        options: {
          type: 'eip155:erc4337',
          scopes: [devnet.scope],
          ...(version === '0.6' ? {} : { entryPointVersion: version }),
        },
      });
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        account.address,
        numberToHex(parseEther('1')),
      ]);
      const deploying = await countedSend(snap, account.id, devnet.scope, [
        chain,
        bundler,
      ]);
      const deployed = await countedSend(snap, account.id, devnet.scope, [
        chain,
        bundler,
      ]);
      result[version] = {
        deploying: deploying.count,
        deployed: deployed.count,
      };
      for (const [label, count] of [
        ['deploying', deploying.count],
        ['deployed', deployed.count],
      ] as const) {
        console.log(
          `  v${version} ${label.padEnd(9)} chain ${count.chainRoundTrips} round trip(s), ${count.chainCalls} calls; bundler ${count.bundlerRoundTrips} round trip(s), ${count.bundlerCalls} calls`,
        );
      }
    }
    return result;
  } finally {
    await snap.close();
    await bundler.close();
    await chain.close();
    await devnet.stop();
  }

  /**
   * One confirmed sendUserOperation, counted at both proxies, then its receipt awaited (bounded,
   * read from the bundler directly so it is not counted).
   *
   * @param sim - The snap.
   * @param id - The account id.
   * @param scope - The chain.
   * @param proxies - The chain and bundler proxies.
   * @returns The counts and the userOpHash.
   * @throws If no successful receipt comes within 30 s.
   */
  async function countedSend(
    sim: Awaited<ReturnType<typeof startSimulatedSnap>>,
    id: string,
    scope: string,
    proxies: [LimitsProxy, LimitsProxy],
  ): Promise<{ count: SendCount; userOpHash: Hex }> {
    const [chainProxy, bundlerProxy] = proxies;
    chainProxy.resetStats();
    bundlerProxy.resetStats();
    const { userOpHash } = (await sim.rpcConfirmed('sendUserOperation', {
      account: id,
      scope,
      intents: [{ to: DEAD, value: '0x10', data: '0x' }],
    })) as { userOpHash: Hex };
    const count = {
      chainRoundTrips: chainProxy.stats.httpRequests,
      chainCalls: chainProxy.stats.rpcCalls,
      bundlerRoundTrips: bundlerProxy.stats.httpRequests,
      bundlerCalls: bundlerProxy.stats.rpcCalls,
    };
    for (let poll = 0; poll < RECEIPT_POLLS; poll += 1) {
      const receipt = await jsonRpc<{ success: boolean } | null>(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      if (receipt) {
        if (!receipt.success) {
          throw new Error(`benchSend: the operation ${userOpHash} failed`);
        }
        return { count, userOpHash };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`benchSend: no receipt for ${userOpHash} within 30 s`);
  }
}
