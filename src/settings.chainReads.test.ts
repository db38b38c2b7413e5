import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Settings } from './settings';
import { defaultState, StateStore } from './state/store';
import type { KeyringState } from './state/store';

/**
 * Where the Activity reads of a chain stand is forgotten when its RPC URL changes, and only then:
 * block numbers of one node are no bound for another (a restarted local chain, a fork).
 */

const SCOPE = 'eip155:31337';
const ENTRY_POINT = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
const FACTORY = '0x9406Cc6185a346906296840746125a0E44976454';

describe('setChainConfig and the Activity reads of the chain', () => {
  let server: Server;
  let urls: string[];

  beforeAll(async () => {
    // answers eth_chainId 31337 on every path: two URLs, one chain
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' }));
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve()),
    );
    const { port } = server.address() as AddressInfo;
    urls = [`http://127.0.0.1:${port}/a`, `http://127.0.0.1:${port}/b`];
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /**
   * A state with the chain configured at `rpcUrl`, two accounts' Activity read on it and on another
   * chain, and the chain's head.
   *
   * @param rpcUrl - The configured RPC URL.
   * @returns The state.
   */
  function readState(rpcUrl: string): KeyringState {
    const entry = {
      kind: 'operation' as const,
      hash: `0x${'a'.repeat(64)}`,
      status: 'succeeded' as const,
      block: '0x10',
    };
    return {
      ...defaultState(),
      chains: {
        [SCOPE]: {
          scope: SCOPE,
          rpcUrl,
          entryPoint: ENTRY_POINT,
          accountFactory: FACTORY,
        },
      },
      activity: {
        a: {
          [SCOPE]: { next: '0x21', entries: [entry] },
          'eip155:1': { next: '0x99', entries: [] },
        },
        b: { [SCOPE]: { next: '0x20', entries: [] } },
      },
      activityHeads: {
        [SCOPE]: { block: '0x20', at: 1 },
        'eip155:1': { block: '0x98', at: 1 },
      },
    };
  }

  it('another RPC URL: every account’s next block and the chain’s head are forgotten, the entries and the other chains kept', async () => {
    const store = new StateStore(readState(urls[0]), async () =>
      Promise.resolve(),
    );
    await new Settings(store).setChainConfig({
      scope: SCOPE,
      rpcUrl: urls[1],
      entryPoint: ENTRY_POINT,
      accountFactory: FACTORY,
    });
    const { activity, activityHeads } = store.current;
    expect(activity?.a?.[SCOPE]).toStrictEqual({
      entries: readState('').activity?.a?.[SCOPE]?.entries,
    });
    expect(activity?.b?.[SCOPE]).toStrictEqual({ entries: [] });
    expect(activity?.a?.['eip155:1']).toStrictEqual({
      next: '0x99',
      entries: [],
    });
    expect(activityHeads).toStrictEqual({
      'eip155:1': { block: '0x98', at: 1 },
    });
  });

  it('the same RPC URL (another bundler, say): where the reads stand is kept', async () => {
    const before = readState(urls[0]);
    const store = new StateStore(before, async () => Promise.resolve());
    await new Settings(store).setChainConfig({
      scope: SCOPE,
      rpcUrl: urls[0],
      entryPoint: ENTRY_POINT,
      accountFactory: FACTORY,
      bundlerUrl: 'https://bundler.example',
    });
    expect(store.current.activity).toStrictEqual(readState(urls[0]).activity);
    expect(store.current.activityHeads).toStrictEqual(
      readState(urls[0]).activityHeads,
    );
  });
});
