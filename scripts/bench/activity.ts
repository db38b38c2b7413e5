import { encodeAbiParameters, pad, toEventSelector } from 'viem';
import type { Hex } from 'viem';

import { startAnvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

/** Latency the proxy adds per HTTP round trip, ms. */
const LATENCY_MS = 50;

/** Operations in the account's history, and the blocks mined between two bundles of them. */
const BUNDLES = 100;
const OPS_PER_BUNDLE = 3;
const GAP_BLOCKS = 20;

/** The address the emitter stands in for the chain's EntryPoint at. */
const EMITTER = '0x00000000000000000000000000000000000e1e4a';

/**
 * Runtime code that emits `UserOperationEvent` logs as an EntryPoint does (hand-assembled).
 * Calldata: word 0 = N, word 1 = the sender as a topic, word 2 = a seed. For i < N:
 * `LOG4(data = abi.encode(i, true, 1000, 500), topics = [UserOperationEvent, seed + i, sender, 0])`.
 *
 * @returns The code.
 */
const emitterCode = (): Hex =>
  `0x60003560005b818110156058578060005260016020526103e86040526101f4606052600060203582604035017f${toEventSelector(
    'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)',
  ).slice(2)}60806000a46001016005565b00`;

/** Round trips and calls at the provider for one page open. */
type Open = {
  /** HTTP requests (round trips). */
  roundTrips: number;
  /** JSON-RPC calls. */
  calls: number;
  /** eth_getLogs calls. */
  getLogs: number;
  /** Wall time of onHomePage with the added latency, ms. */
  wallMs: number;
};

/** The activity section of the bench. */
export type ActivityResult = {
  /** Latency the proxy adds per HTTP round trip, ms. */
  latencyPerRoundTripMs: number;
  /** The account's history: operations and the blocks they span. */
  history: { operations: number; blocks: number };
  /** The first open (first use searched, the whole history read), at the default result cap. */
  firstOpen: Open;
  /** The same first open behind a provider capping eth_getLogs at 100 results. */
  firstOpenCapped: Open;
  /** Reopened with nothing mined since. */
  reopenNothingNew: Open;
  /** Reopened after 10 blocks holding 3 more operations. */
  reopenAfterNew: Open;
  /** Entries the page shows for the account (at most 10 of the 50 kept). */
  shown: number;
};

/**
 * Open the home page and count what reached the provider.
 *
 * @param snap - The simulated snap.
 * @param snap.homePage - Opens the home page.
 * @param proxy - The counting proxy.
 * @returns The figures and the page's content.
 */
async function open(
  snap: { homePage: () => Promise<any> },
  proxy: LimitsProxy,
): Promise<{ figures: Open; content: string }> {
  proxy.resetStats();
  const started = performance.now();
  const page = await snap.homePage();
  return {
    figures: {
      roundTrips: proxy.stats.httpRequests,
      calls: proxy.stats.rpcCalls,
      getLogs: proxy.stats.methods.eth_getLogs ?? 0,
      wallMs: Math.round(performance.now() - started),
    },
    content: JSON.stringify(page.content),
  };
}

/**
 * Emit `count` operations of `sender` in one transaction (one block).
 *
 * @param url - anvil.
 * @param from - An unlocked account.
 * @param sender - The account the operations are of.
 * @param seed - The first userOpHash (as a number).
 * @param count - How many.
 */
async function bundle(
  url: string,
  from: Hex,
  sender: Hex,
  seed: bigint,
  count: number,
): Promise<void> {
  await sendAndMine(url, {
    from,
    to: EMITTER,
    data: encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bytes32' }, { type: 'uint256' }],
      [BigInt(count), pad(sender), seed],
    ),
  });
}

/**
 * One smart account's Activity list through the built snap (snaps simulation), behind a proxy
 * adding 50 ms per round trip and counting what reaches the provider: a history of 300 operations
 * (`UserOperationEvent` logs of the chain's EntryPoint, emitted by a stand-in contract in 100
 * bundles 20 blocks apart, after the account got code at an early block). First open (the first
 * use searched by the account's code at past blocks, then the history read), the same behind a
 * provider capping eth_getLogs at 100 results (a second install, empty), a reopen with nothing
 * new, and one after 3 more operations.
 *
 * @returns The figures, also printed.
 */
export async function benchActivity(): Promise<ActivityResult> {
  const anvil = await startAnvil({ args: ['--hardfork', 'cancun'] });
  let proxy: LimitsProxy | undefined;
  try {
    const contracts = await deployErc4337(anvil.url);
    await jsonRpc(anvil.url, 'anvil_setCode', [EMITTER, emitterCode()]);
    proxy = await startLimitsProxy({
      upstream: anvil.url,
      latencyMs: LATENCY_MS,
    });
    const config = {
      scope: 'eip155:31337',
      rpcUrl: proxy.url,
      entryPoint: EMITTER,
      accountFactory: contracts.accountFactory,
    };
    const [funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
    const snap = await startSimulatedSnap(companionOrigin());
    try {
      await snap.rpcConfirmed('setChainConfig', config);
      const account = await snap.rpcConfirmed('restoreAccount', {
        type: 'eip155:erc4337',
        index: 0,
      });
      await jsonRpc(anvil.url, 'anvil_mine', ['0x64']);
      // deployed (code) at block ~100, then its history
      await jsonRpc(anvil.url, 'anvil_setCode', [account.address, '0x00']);
      await jsonRpc(anvil.url, 'anvil_mine', ['0x1']);
      const first = BigInt(
        await jsonRpc<Hex>(anvil.url, 'eth_blockNumber', []),
      );
      for (let at = 0; at < BUNDLES; at += 1) {
        await bundle(
          anvil.url,
          funder,
          account.address,
          BigInt(at * OPS_PER_BUNDLE + 1),
          OPS_PER_BUNDLE,
        );
        await jsonRpc(anvil.url, 'anvil_mine', [
          `0x${GAP_BLOCKS.toString(16)}`,
        ]);
      }
      const last = BigInt(await jsonRpc<Hex>(anvil.url, 'eth_blockNumber', []));
      const again = await snap.installAgain();
      let firstOpenCapped: Open;
      try {
        await again.rpcConfirmed('setChainConfig', config);
        await again.rpcConfirmed('restoreAccount', {
          type: 'eip155:erc4337',
          index: 0,
        });
        proxy.options.maxResults = 100;
        firstOpenCapped = (await open(again, proxy)).figures;
        proxy.options.maxResults = 10_000;
      } finally {
        await again.close();
      }
      const firstOpen = (await open(snap, proxy)).figures;
      const reopenNothingNew = (await open(snap, proxy)).figures;
      await bundle(anvil.url, funder, account.address, 10_000n, 3);
      await jsonRpc(anvil.url, 'anvil_mine', ['0x9']);
      const after = await open(snap, proxy);
      const result: ActivityResult = {
        latencyPerRoundTripMs: LATENCY_MS,
        history: {
          operations: BUNDLES * OPS_PER_BUNDLE,
          blocks: Number(last - first + 1n),
        },
        firstOpen,
        firstOpenCapped,
        reopenNothingNew,
        reopenAfterNew: after.figures,
        shown: after.content.split('Sent (user operation)').length - 1,
      };
      /**
       * Print one open's figures.
       *
       * @param name - Which open.
       * @param figures - Its figures.
       * @returns Nothing.
       */
      const line = (name: string, figures: Open): void =>
        console.log(
          `  ${name}: ${figures.roundTrips} round trips, ${figures.calls} JSON-RPC calls (${figures.getLogs} eth_getLogs), wall ${figures.wallMs} ms`,
        );
      console.log(
        `\nActivity list: one smart account, ${result.history.operations} operations over ${result.history.blocks} blocks (+50 ms per round trip)`,
      );
      line('first open', firstOpen);
      line('first open, 100-result cap', firstOpenCapped);
      line('reopen, nothing new', reopenNothingNew);
      line('reopen, 3 new operations', after.figures);
      return result;
    } finally {
      await snap.close();
    }
  } finally {
    await proxy?.close();
    await anvil.stop();
  }
}
