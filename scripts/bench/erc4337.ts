import type { Json } from '@metamask/utils';
import { createPublicClient, http, numberToHex } from 'viem';
import type { Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';
import { signMessage } from 'viem/accounts';

import { submit } from './latency';
import { formatMs, summarize, timeIt } from './stats';
import type { Summary } from './stats';
import { startDevnet } from '../../devnet/devnet';
import { toViemUserOperation } from '../../devnet/erc4337';
import { sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import {
  installRecorder,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

const LATENCY_MS = 50;
const RUNS = 5;

/** A fixed owner key (anvil's second dev account), imported so the direct signature can be compared. */
const OWNER_KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8d1c8b6f1d4f0ad1bc';

/** eth_prepareUserOperation's cost for one kind of account. */
type PrepareFigures = {
  /** HTTP round trips to the chain per call. */
  roundTrips: number;
  /** JSON-RPC calls per call (a batch counts each call). */
  rpcCalls: number;
  /** Wall time with the added latency, ms. */
  wall: Summary;
  /** The initCode prepared (`0x` once deployed). */
  initCode: string;
};

/** The ERC-4337 section of the bench. */
export type Erc4337Result = {
  /** Latency the proxy adds per HTTP round trip, ms. */
  latencyPerRoundTripMs: number;
  /** eth_prepareUserOperation before and after the account is deployed. */
  prepare: { notDeployed: PrepareFigures; deployed: PrepareFigures };
  /** eth_signUserOperation beside the floor and viem's computation alone. */
  signUserOperation: {
    snap: Summary;
    floor: Summary;
    library: Summary;
    matchesLibrary: boolean;
  };
};

/**
 * ERC-4337 figures through the built snap (snaps simulation), chain behind a proxy that adds
 * 50 ms per HTTP round trip (no paymaster configured, so every round trip counted is the chain
 * adapter's; the ideal is one):
 * - eth_prepareUserOperation: round trips and wall time, for a not-yet-deployed and a deployed account;
 * - eth_signUserOperation latency (no network) beside the keyring_listAccounts floor and the
 *   same signature made directly with viem (getUserOperationHash v0.6 + EIP-191 signMessage).
 *
 * @param runs - Recorded calls for the signing latency.
 * @param warmup - Unrecorded calls first.
 * @returns The figures, also printed.
 */
export async function benchErc4337(
  runs = 50,
  warmup = 10,
): Promise<Erc4337Result> {
  const devnet = await startDevnet();
  const proxy = await startLimitsProxy({
    upstream: devnet.rpcUrl,
    latencyMs: LATENCY_MS,
  });
  const snap = await startSimulatedSnap(companionOrigin());
  try {
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    const { paymasterUrl: _paymaster, ...config } = devnet.chainConfig;
    await snap.rpcConfirmed('setChainConfig', { ...config, rpcUrl: proxy.url });
    const account = await snap.keyring('keyring_createAccount', {
      options: {
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
        privateKey: OWNER_KEY,
      },
    });
    const intents = [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 1) },
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(2, 2) },
    ];
    /**
     * One eth_prepareUserOperation through the snap, counted at the proxy.
     *
     * @returns Its wall time (ms), round trips, calls and result.
     */
    const prepare = async (): Promise<{
      ms: number;
      roundTrips: number;
      calls: number;
      result: Record<string, any>;
    }> => {
      proxy.resetStats();
      const started = performance.now();
      const result = (await submit(
        snap,
        account.id,
        'eth_prepareUserOperation',
        intents,
        devnet.scope,
      )) as Record<string, any>;
      return {
        ms: performance.now() - started,
        roundTrips: proxy.stats.httpRequests,
        calls: proxy.stats.rpcCalls,
        result,
      };
    };
    /**
     * Time prepare and print one line.
     *
     * @param label - The account's state, for the printout.
     * @returns The figures.
     */
    const report = async (label: string): Promise<PrepareFigures> => {
      const list = [];
      for (let run = 0; run < RUNS; run += 1) {
        list.push(await prepare());
      }
      const [first] = list as [(typeof list)[number]];
      const figures = {
        roundTrips: first.roundTrips,
        rpcCalls: first.calls,
        wall: summarize(list.map((entry) => entry.ms)),
        initCode: first.result.initCode === '0x' ? '0x' : 'set',
      };
      console.log(
        `  ${label.padEnd(22)} round trips ${figures.roundTrips} (ideal 1), JSON-RPC calls ${figures.rpcCalls}, wall time ${formatMs(figures.wall)} over ${RUNS} runs (${(figures.wall.median - figures.roundTrips * LATENCY_MS).toFixed(1)} ms besides the added latency); initCode ${figures.initCode}`,
      );
      return figures;
    };
    console.log(
      `\n## eth_prepareUserOperation through the built snap, chain behind a proxy adding ${LATENCY_MS} ms per round trip`,
    );
    const notDeployed = await report('not yet deployed');
    // Deploy the account with the snap's own initCode (factory ++ createAccount(owner, salt)),
    // sent from one of anvil's unlocked dev accounts.
    const { result: prepared } = await prepare();
    const initCode = prepared.initCode as string;
    await sendAndMine(devnet.rpcUrl, {
      from: devnet.contracts.deployer,
      to: initCode.slice(0, 42),
      data: `0x${initCode.slice(42)}`,
    });
    const deployed = await report('deployed');

    const { result: ready } = await prepare();
    const block = await createPublicClient({
      transport: http(devnet.rpcUrl),
    }).getBlock();
    const userOp = {
      sender: account.address,
      nonce: ready.nonce,
      initCode: ready.initCode,
      callData: ready.callData,
      ...ready.gasLimits,
      maxFeePerGas: numberToHex(
        (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n,
      ),
      maxPriorityFeePerGas: numberToHex(1_000_000_000n),
      paymasterAndData: '0x',
      signature: '0x',
    } satisfies Record<string, Hex>;
    /**
     * The same signature computed with viem alone.
     *
     * @returns The signature.
     */
    const direct = async (): Promise<Hex> =>
      signMessage({
        privateKey: OWNER_KEY,
        message: {
          raw: getUserOperationHash({
            chainId: devnet.chainId,
            entryPointAddress: devnet.contracts.entryPoint,
            entryPointVersion: '0.6',
            userOperation: toViemUserOperation(userOp),
          }),
        },
      });
    /**
     * eth_signUserOperation through the snap.
     *
     * @returns The signature.
     */
    const sign = async (): Promise<Json> =>
      submit(snap, account.id, 'eth_signUserOperation', [userOp], devnet.scope);
    /**
     * keyring_listAccounts: the round trip with no work.
     *
     * @returns The accounts.
     */
    const floor = async (): Promise<Json> =>
      snap.keyring('keyring_listAccounts', undefined, 'metamask');
    const samples = { snap: [] as number[], floor: [] as number[] };
    let signature: Json = null;
    for (let call = 0; call < warmup + runs; call += 1) {
      for (const [name, task] of [
        ['snap', sign],
        ['floor', floor],
      ] as const) {
        const started = performance.now();
        const result = await task();
        if (call >= warmup) {
          samples[name].push(performance.now() - started);
        }
        if (name === 'snap') {
          signature = result;
        }
      }
    }
    const library = await timeIt(direct, runs, warmup);
    const signUserOperation = {
      snap: summarize(samples.snap),
      floor: summarize(samples.floor),
      library,
      matchesLibrary: signature === (await direct()),
    };
    console.log(
      `\n## eth_signUserOperation through keyring_submitRequest (medians of ${runs} after ${warmup} warm-up)`,
    );
    console.log(
      `  snap ${formatMs(signUserOperation.snap)}, floor (keyring_listAccounts) ${formatMs(signUserOperation.floor)}: floor +${(signUserOperation.snap.median - signUserOperation.floor.median).toFixed(2)} ms`,
    );
    console.log(
      `  viem alone in Node (getUserOperationHash + signMessage) ${formatMs(library)}; same signature: ${signUserOperation.matchesLibrary ? 'yes' : 'NO'}`,
    );
    return {
      latencyPerRoundTripMs: LATENCY_MS,
      prepare: { notDeployed, deployed },
      signUserOperation,
    };
  } finally {
    await snap.close();
    await proxy.close();
    await devnet.stop();
  }
}
