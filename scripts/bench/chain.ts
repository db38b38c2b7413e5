import { createRpcClient } from '../../src/chain';
import { startAnvil } from '../../test/fixtures/anvil';
import { startLimitsProxy } from '../../test/fixtures/limits-proxy';
import { seedLogs } from '../../test/fixtures/seed-logs';

const hex = (n: bigint): `0x${string}` => `0x${n.toString(16)}`;

/**
 * Benchmark of the chain adapter behind the provider-limits proxy (not a timed
 * test). Starts anvil and the proxy (50 ms added per HTTP round trip, the
 * spec's 10,000-result and 5,000-parameter caps), seeds 30,000+ logs, then prints:
 * - getLogs over the whole seeded range: HTTP requests made vs the ideal
 *   ceil(N / 10,000), eth_getLogs calls, -32005 refusals, wall time;
 * - a batch of 4 reads: HTTP round trips (must be 1).
 * Everything it starts is stopped by PID before it returns.
 */
export async function benchChain(): Promise<void> {
  const anvil = await startAnvil();
  const proxy = await startLimitsProxy({ upstream: anvil.url, latencyMs: 50 });
  try {
    const seeded = Date.now();
    const seed = await seedLogs(anvil.url);
    const seedMs = Date.now() - seeded;
    const client = createRpcClient({ url: proxy.url });

    proxy.resetStats();
    const started = Date.now();
    const logs = await client.getLogs({ fromBlock: hex(seed.fromBlock), toBlock: hex(seed.toBlock) });
    const wallMs = Date.now() - started;
    const ideal = Math.ceil(logs.length / 10_000);
    const getLogsCalls = proxy.stats.methods.eth_getLogs ?? 0;
    console.log('## chain: eth_getLogs over the seeded range (limits proxy, +50 ms per round trip)');
    console.log(`blocks ${seed.fromBlock}..${seed.toBlock} (${seed.toBlock - seed.fromBlock + 1n}), seeded ${seed.totalLogs} logs in ${seedMs} ms`);
    console.log(`logs returned:            ${logs.length}${logs.length === seed.totalLogs ? ' (all)' : ' (MISMATCH)'}`);
    console.log(`HTTP requests:            ${proxy.stats.httpRequests} (ideal ceil(N/10000) = ${ideal})`);
    console.log(`eth_getLogs calls:        ${getLogsCalls} (refused with -32005: ${proxy.stats.limitErrors})`);
    console.log(`wall time:                ${wallMs} ms`);

    proxy.resetStats();
    const batchStarted = Date.now();
    await client.batch([
      { method: 'eth_chainId' },
      { method: 'eth_blockNumber' },
      { method: 'eth_gasPrice' },
      { method: 'eth_getBalance', params: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'] },
    ]);
    console.log('## chain: batch of 4 reads');
    console.log(`HTTP round trips:         ${proxy.stats.httpRequests} (must be 1), JSON-RPC calls ${proxy.stats.rpcCalls}, ${Date.now() - batchStarted} ms`);
  } finally {
    await proxy.close();
    await anvil.stop();
  }
}

