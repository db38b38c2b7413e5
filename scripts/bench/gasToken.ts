import { numberToHex, parseEther } from 'viem';
import type { Hex } from 'viem';

import { startDevnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { mintTestToken, TEST_TOKEN } from '../../devnet/token-paymaster';
import type { TokenPaymaster } from '../../devnet/token-paymaster';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

const DEAD = '0x000000000000000000000000000000000000dEaD';

/** Requests that arrived at one service: HTTP round trips and JSON-RPC calls in them. */
type Counted = {
  /** HTTP requests. */
  roundTrips: number;
  /** JSON-RPC calls in them. */
  calls: number;
};

/** One send's requests, per service. */
type GasTokenCount = {
  /** The chain's RPC. */
  chain: Counted;
  /** The bundler. */
  bundler: Counted;
  /** The paymaster service. */
  paymaster: Counted;
};

/** The gasToken section: a deployed v0.8 account's send, self-paid and paid in the test token. */
export type GasTokenResult = {
  /** Without a paymaster. */
  selfPaid: GasTokenCount;
  /** With `gasToken`. */
  token: GasTokenCount;
};

/**
 * The round trips and calls of a token-paid `sendUserOperation` (`gasToken`) beside a self-paid
 * one, through the built snap (snaps simulation), on the devnet with the paymaster service in
 * ERC-20 mode: one v0.8 SimpleAccount, deployed by a first (uncounted) send, one intent (16 wei to
 * 0x…dEaD). The chain's RPC, the bundler and the paymaster service each sit behind a counting
 * proxy; the figures are the requests from the call to its answer (the dialog confirmed at once).
 *
 * @returns The figures, also printed.
 */
export async function benchGasToken(): Promise<GasTokenResult> {
  const devnet = await startDevnet({ tokenPaymaster: true });
  const service = devnet.tokenPaymaster as TokenPaymaster;
  const proxies = {
    chain: await startLimitsProxy({ upstream: devnet.rpcUrl }),
    bundler: await startLimitsProxy({ upstream: devnet.bundlerUrl }),
    paymaster: await startLimitsProxy({ upstream: service.url }),
  };
  const snap = await startSimulatedSnap(companionOrigin());
  try {
    const { paymasterUrl: _v06Service, ...base } = devnet.chainConfig;
    const config = {
      ...base,
      rpcUrl: proxies.chain.url,
      bundlerUrl: proxies.bundler.url,
    };
    await snap.rpcConfirmed('setChainConfig', config);
    const account = await snap.keyring('keyring_createAccount', {
      options: {
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
        entryPointVersion: '0.8',
      },
    });
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      numberToHex(parseEther('1')),
    ]);
    await mintTestToken(devnet.rpcUrl, account.address, parseEther('1000'));
    await send(account.id); // deploys the account: not counted
    const selfPaid = await send(account.id);
    await snap.rpcConfirmed('setChainConfig', {
      ...config,
      paymasterUrl: proxies.paymaster.url,
    });
    const token = await send(account.id, TEST_TOKEN);
    console.log(
      '\n## sendUserOperation paid in an ERC-20 token beside a self-paid one (deployed v0.8 account, one intent; requests counted at proxies)',
    );
    for (const [label, count] of [
      ['self-paid', selfPaid],
      ['gasToken', token],
    ] as const) {
      console.log(
        `  ${label.padEnd(9)} chain ${count.chain.roundTrips} round trip(s), ${count.chain.calls} calls; bundler ${count.bundler.roundTrips} / ${count.bundler.calls}; paymaster service ${count.paymaster.roundTrips} / ${count.paymaster.calls}`,
      );
    }
    return { selfPaid, token };
  } finally {
    await snap.close();
    for (const proxy of Object.values(proxies)) {
      await proxy.close();
    }
    await devnet.stop();
  }

  /**
   * One confirmed send, counted at the three proxies, then its receipt awaited (bounded, read from
   * the bundler directly so it is not counted).
   *
   * @param id - The account id.
   * @param gasToken - The token to pay the gas in, if any.
   * @returns The counts.
   * @throws If no successful receipt comes within 30 s.
   */
  async function send(id: string, gasToken?: Hex): Promise<GasTokenCount> {
    for (const proxy of Object.values(proxies)) {
      proxy.resetStats();
    }
    const { userOpHash } = (await snap.rpcConfirmed('sendUserOperation', {
      account: id,
      scope: devnet.scope,
      intents: [{ to: DEAD, value: '0x10', data: '0x' }],
      ...(gasToken ? { gasToken } : {}),
    })) as { userOpHash: Hex };
    /**
     * What reached one proxy.
     *
     * @param proxy - The proxy.
     * @returns Its counts.
     */
    const counted = (proxy: LimitsProxy): Counted => ({
      roundTrips: proxy.stats.httpRequests,
      calls: proxy.stats.rpcCalls,
    });
    const count = {
      chain: counted(proxies.chain),
      bundler: counted(proxies.bundler),
      paymaster: counted(proxies.paymaster),
    };
    for (let poll = 0; poll < 300; poll += 1) {
      const receipt = await jsonRpc<{ success: boolean } | null>(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      if (receipt) {
        if (!receipt.success) {
          throw new Error(`benchGasToken: the operation ${userOpHash} failed`);
        }
        return count;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`benchGasToken: no receipt for ${userOpHash} within 30 s`);
  }
}
