import manifest from '../../snap.manifest.json';
import { startDevnet } from '../../test/fixtures/devnet';
import { startLimitsProxy } from '../../test/fixtures/limits-proxy';
import { installRecorder, recordCalldata, RECORDERS } from '../../test/fixtures/targets';
import { sendAndMine } from '../../test/fixtures/json-rpc';
import { startSimulatedSnap } from '../lib/snap-sim';

const LATENCY_MS = 50;
const RUNS = 5;

/**
 * eth_prepareUserOperation through the built snap (snaps simulation), with the chain behind a
 * proxy that adds 50 ms per HTTP round trip: round trips to the chain and wall time, for a
 * not-yet-deployed and a deployed account. No paymaster is configured, so every round trip
 * counted is the chain adapter's. The ideal is one round trip.
 */
export async function benchErc4337(): Promise<void> {
  const devnet = await startDevnet();
  const proxy = await startLimitsProxy({ upstream: devnet.rpcUrl, latencyMs: LATENCY_MS });
  const companion = manifest.initialPermissions['endowment:keyring'].allowedOrigins[0] as string;
  const snap = await startSimulatedSnap(companion);
  try {
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    const { paymasterUrl: _paymaster, ...config } = devnet.chainConfig;
    await snap.rpc('setChainConfig', { ...config, rpcUrl: proxy.url });
    const account = await snap.keyring('keyring_createAccount', { options: { type: 'eip155:erc4337', scopes: [devnet.scope] } });
    const intents = [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 1) },
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(2, 2) },
    ];
    let id = 0;
    const prepare = async () => {
      id += 1;
      proxy.resetStats();
      const started = performance.now();
      const response = await snap.keyring(
        'keyring_submitRequest',
        { id: `b0000000-0000-4000-8000-${String(id).padStart(12, '0')}`, scope: devnet.scope, account: account.id, origin: 'https://dapp.example', request: { method: 'eth_prepareUserOperation', params: intents } },
        'metamask',
      );
      return { ms: performance.now() - started, roundTrips: proxy.stats.httpRequests, calls: proxy.stats.rpcCalls, initCode: response.result.initCode as string };
    };
    const report = async (label: string) => {
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) {
        runs.push(await prepare());
      }
      const ms = runs.map((entry) => entry.ms).sort((a, b) => a - b);
      const median = ms[Math.floor(ms.length / 2)] as number;
      const [first] = runs;
      console.log(
        `  ${label.padEnd(22)} round trips ${first?.roundTrips} (ideal 1), JSON-RPC calls ${first?.calls}, wall time median ${median.toFixed(0)} ms (min ${ms[0]?.toFixed(0)}, max ${ms.at(-1)?.toFixed(0)}) over ${RUNS} runs; initCode ${first?.initCode === '0x' ? '0x' : 'set'}`,
      );
    };
    console.log(`\neth_prepareUserOperation through the built snap, chain behind a proxy adding ${LATENCY_MS} ms per round trip:`);
    await report('not yet deployed');
    // Deploy the account with the snap's own initCode (factory ++ createAccount(owner, salt)),
    // sent from one of anvil's unlocked dev accounts.
    const { initCode } = await prepare();
    await sendAndMine(devnet.rpcUrl, { from: devnet.contracts.deployer, to: initCode.slice(0, 42), data: `0x${initCode.slice(42)}` });
    await report('deployed');
  } finally {
    await snap.close();
    await proxy.close();
    await devnet.stop();
  }
}
