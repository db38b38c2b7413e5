import type { SmartAccountsEnvironment } from '@metamask/smart-accounts-kit';
import { overrideDeployedEnvironment } from '@metamask/smart-accounts-kit/utils';
import { getAddress, numberToHex, parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startDevnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import {
  deployTestToken,
  kitOverSnap,
  mintTo,
  redemptionGas,
  transferCall,
} from '../../devnet/permissions';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

const SITE = 'https://bench.example';
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF';

/** Requests that reached one service during one grant. */
type Counted = {
  /** HTTP requests (a batch is one). */
  roundTrips: number;
  /** JSON-RPC calls in them. */
  calls: number;
};

/** The permissions section. */
export type PermissionsResult = {
  /** The first grant of a plain EOA (its upgrade to the DeleGator included), at the chain's RPC and the bundler. */
  firstGrant: { chain: Counted; bundler: Counted };
  /** A later grant of the same EOA (a DeleGator already). */
  laterGrant: { chain: Counted; bundler: Counted };
  /** Gas of one redemption (`redeemDelegations` sent by the session key), by permission type. */
  redemptionGas: { nativePeriodic: number; erc20Periodic: number };
};

/**
 * The round trips of `wallet_requestExecutionPermissions` through the built snap (snaps
 * simulation, the dialog approved at once), counted at proxies in front of the chain's RPC and the
 * bundler: the first grant of a plain EOA (which also upgrades it, and waits for that on chain) and
 * a later one; and the gas of one redemption by the session key with the Smart Accounts Kit
 * (`sendTransactionWithDelegation`: a native transfer, an ERC-20 transfer), from the receipts.
 *
 * @returns The figures, also printed.
 */
export async function benchPermissions(): Promise<PermissionsResult> {
  process.env.DO_NOT_TRACK = '1';
  const devnet = await startDevnet({ delegation: true });
  const environment = devnet.delegationEnvironment as SmartAccountsEnvironment;
  overrideDeployedEnvironment(devnet.chainId, '1.3.0', environment);
  const proxies = {
    chain: await startLimitsProxy({ upstream: devnet.rpcUrl }),
    bundler: await startLimitsProxy({ upstream: devnet.bundlerUrl }),
  };
  const snap = await startSimulatedSnap(companionOrigin());
  try {
    const { paymasterUrl: _sponsor, ...base } = devnet.chainConfig;
    await snap.rpcConfirmed('setChainConfig', {
      ...base,
      rpcUrl: proxies.chain.url,
      bundlerUrl: proxies.bundler.url,
      delegationEnvironment: environment as never,
    });
    const account = await snap.keyring('keyring_createAccount', {
      options: {},
    });
    const from = getAddress(account.address);
    const sessionKey = generatePrivateKey();
    for (const address of [from, privateKeyToAccount(sessionKey).address]) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        address,
        numberToHex(parseEther('10')),
      ]);
    }
    const token = await deployTestToken(devnet.rpcUrl, 'BNCH');
    await mintTo(devnet.rpcUrl, token, from, parseEther('100'));
    const kit = kitOverSnap(async (method, params) =>
      method === 'wallet_requestExecutionPermissions'
        ? snap.rpcConfirmed(method, params as never, SITE)
        : snap.rpc(method, params as never, SITE),
    );
    const block = await jsonRpc<{ timestamp: Hex }>(
      devnet.rpcUrl,
      'eth_getBlockByNumber',
      ['latest', false],
    );
    const expiry = Number(BigInt(block.timestamp)) + 86_400;
    /**
     * One grant from the EOA to the session key, counted at the proxies.
     *
     * @param data - The permission's type and data.
     * @returns The counts and the response.
     */
    const grant = async (
      data: Parameters<
        typeof kit.requestExecutionPermissions
      >[0][number]['permission'],
    ): Promise<{ counts: PermissionsResult['firstGrant']; granted: any }> => {
      for (const proxy of Object.values(proxies)) {
        proxy.resetStats();
      }
      const [granted] = await kit.requestExecutionPermissions([
        {
          chainId: devnet.chainId,
          from,
          to: privateKeyToAccount(sessionKey).address,
          expiry,
          permission: data,
        },
      ]);
      /**
       * @param proxy - A counting proxy.
       * @returns What reached it.
       */
      const counted = (proxy: LimitsProxy): Counted => ({
        roundTrips: proxy.stats.httpRequests,
        calls: proxy.stats.rpcCalls,
      });
      return {
        counts: {
          chain: counted(proxies.chain),
          bundler: counted(proxies.bundler),
        },
        granted,
      };
    };
    const native = await grant({
      type: 'native-token-periodic',
      isAdjustmentAllowed: false,
      data: { periodAmount: parseEther('1'), periodDuration: 3600 },
    });
    const erc20 = await grant({
      type: 'erc20-token-periodic',
      isAdjustmentAllowed: false,
      data: {
        tokenAddress: token,
        periodAmount: parseEther('10'),
        periodDuration: 86_400,
      },
    });
    const gas = {
      nativePeriodic: await redemptionGas({
        rpcUrl: devnet.rpcUrl,
        sessionKey,
        call: { to: RECIPIENT, value: parseEther('0.1') },
        permission: native.granted,
      }),
      erc20Periodic: await redemptionGas({
        rpcUrl: devnet.rpcUrl,
        sessionKey,
        call: { to: token, data: transferCall(RECIPIENT, parseEther('1')) },
        permission: erc20.granted,
      }),
    };
    console.log(
      '\n## Spending permissions (ERC-7715): wallet_requestExecutionPermissions through the built snap (requests counted at proxies), and one redemption with the kit',
    );
    for (const [label, count] of [
      ['first grant (upgrades the EOA)', native.counts],
      ['later grant (ERC-20)', erc20.counts],
    ] as const) {
      console.log(
        `  ${label.padEnd(31)} chain ${count.chain.roundTrips} round trip(s), ${count.chain.calls} calls; bundler ${count.bundler.roundTrips} / ${count.bundler.calls}`,
      );
    }
    console.log(
      `  redemption gas: native-token-periodic ${gas.nativePeriodic}, erc20-token-periodic ${gas.erc20Periodic}`,
    );
    return {
      firstGrant: native.counts,
      laterGrant: erc20.counts,
      redemptionGas: gas,
    };
  } finally {
    await snap.close();
    for (const proxy of Object.values(proxies)) {
      await proxy.close();
    }
    await devnet.stop();
  }
}
