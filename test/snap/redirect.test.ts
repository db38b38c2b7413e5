/**
 * The snap's network access (snaps-jest runs the built bundle with the network endowment's fetch,
 * which follows redirects by default) honours the snap's `redirect: 'error'`: an RPC URL that
 * redirects to a working node is refused, never followed. Servers on 127.0.0.1, stopped after.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { installKeyringSnap, rejection } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';

jest.setTimeout(120_000);

const KEY = 'snapRedirKey83Lm29Xc71Vb';

describe('the snap never follows a redirect', () => {
  let anvil: Anvil;
  let server: Server;
  let redirector: string;
  let hits = 0;

  beforeAll(async () => {
    anvil = await startAnvil();
    server = createServer((req, res) => {
      hits += 1;
      req.resume();
      res.writeHead(307, { Location: anvil.url });
      res.end();
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    redirector = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await anvil?.stop();
  });

  it('setChainConfig with an rpcUrl answering 307 to a working anvil fails (-32002: it redirects, which is not followed; never the key)', async () => {
    const harness = await installKeyringSnap();
    const error = await rejection(
      harness.rpcApproved('setChainConfig', {
        scope: 'eip155:31337',
        rpcUrl: `${redirector}/v3/${KEY}`,
      }),
    );
    expect(error.code).toBe(-32002);
    expect(error.message).toBe(
      "This address sends requests on to another, which the snap doesn't follow: enter the node's own address",
    );
    expect(error.message).not.toContain(KEY);
    expect(hits).toBeGreaterThan(0);
    expect(await harness.rpc('getChainConfigs')).toStrictEqual([]);
    // the node itself is fine: the same config straight at anvil is stored
    await harness.rpcApproved('setChainConfig', {
      scope: 'eip155:31337',
      rpcUrl: anvil.url,
    });
    expect(await harness.rpc('getChainConfigs')).toHaveLength(1);
  });
});
