import type { Hex } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import { freePort } from '../../devnet/ports';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

/** Latency the proxy adds per HTTP round trip, ms. */
const LATENCY_MS = 50;

/** The index of the last used account of each kind: the search then reads 40 indices of each. */
const LAST_USED = 19;

/** The recovery section of the bench. */
export type RecoveryResult = {
  /** Latency the proxy adds per HTTP round trip, ms. */
  latencyPerRoundTripMs: number;
  /** Indices searched per source and scheme (`<source>/<scheme>`). */
  searched: Record<string, number>;
  /** HTTP requests and JSON-RPC calls of the search, as the snap counted them. */
  search: { roundTrips: number; calls: number };
  /** HTTP requests and JSON-RPC calls the proxy received in all (the search and the additions). */
  atChain: { roundTrips: number; calls: number; batches: number };
  /** Accounts added. */
  added: number;
  /** Wall time of findAccounts with the added latency, ms. */
  wallMs: number;
};

/**
 * "Find my accounts" through the built snap (snaps simulation) on one chain (anvil, v0.6
 * factory, behind a proxy that adds 50 ms per HTTP round trip and counts what arrives): a first
 * install restores EOA index 19 and smart-account index 19 and funds them; a second install,
 * empty, searches. Each kind is then searched over 40 indices (0–39: the used index 19, then the
 * 20-index gap); the simulation's second recovery phrase and the legacy salts are searched too
 * (20 indices each), as they would be in MetaMask.
 *
 * @returns The figures, also printed.
 */
export async function benchRecovery(): Promise<RecoveryResult> {
  const anvil = await startAnvil();
  let proxy: Awaited<ReturnType<typeof startLimitsProxy>> | undefined;
  try {
    const contracts = await deployErc4337(anvil.url);
    proxy = await startLimitsProxy({
      upstream: anvil.url,
      latencyMs: LATENCY_MS,
    });
    const config = {
      scope: 'eip155:31337',
      rpcUrl: proxy.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    };
    const [funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
    // one port for both installs: the snap id (and so every derived key) depends on it
    const port = await freePort();
    const first = await startSimulatedSnap(companionOrigin(), undefined, port);
    try {
      await first.rpcConfirmed('setChainConfig', config);
      for (const type of ['eip155:eoa', 'eip155:erc4337']) {
        const account = await first.rpcConfirmed('restoreAccount', {
          type,
          index: LAST_USED,
        });
        await sendAndMine(anvil.url, {
          from: funder,
          to: account.address,
          value: '0x1',
        });
      }
    } finally {
      await first.close();
    }
    const second = await startSimulatedSnap(companionOrigin(), undefined, port);
    try {
      await second.rpcConfirmed('setChainConfig', config);
      proxy.resetStats();
      const started = performance.now();
      const report = await second.rpcConfirmed('findAccounts');
      const wallMs = performance.now() - started;
      const result: RecoveryResult = {
        latencyPerRoundTripMs: LATENCY_MS,
        searched: Object.fromEntries(
          report.searched.map(
            (lane: { source: string; scheme: string; indices: number }) => [
              `${lane.source}/${lane.scheme}`,
              lane.indices,
            ],
          ),
        ),
        search: { roundTrips: report.roundTrips, calls: report.calls },
        atChain: {
          roundTrips: proxy.stats.httpRequests,
          calls: proxy.stats.rpcCalls,
          batches: proxy.stats.batches,
        },
        added: report.added.length,
        wallMs: Math.round(wallMs),
      };
      console.log('\nFind my accounts (one chain, +50 ms per round trip)');
      console.log(
        `  searched: ${Object.entries(result.searched)
          .map(([lane, count]) => `${lane} ${count}`)
          .join(', ')} indices`,
      );
      console.log(
        `  search: ${result.search.roundTrips} round trips, ${result.search.calls} JSON-RPC calls; at the chain in all (with the ${result.added} additions' address checks): ${result.atChain.roundTrips} round trips, ${result.atChain.calls} calls; wall ${result.wallMs} ms`,
      );
      return result;
    } finally {
      await second.close();
    }
  } finally {
    await proxy?.close();
    await anvil.stop();
  }
}
