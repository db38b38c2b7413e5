import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

import { installSnap } from '@metamask/snaps-simulation';
import type { Json } from '@metamask/utils';

const ROOT = path.join(__dirname, '../..');
const FILES: Record<string, [string, string]> = {
  '/snap.manifest.json': ['snap.manifest.json', 'application/json'],
  '/dist/bundle.js': ['dist/bundle.js', 'application/javascript'],
  '/images/icon.svg': ['images/icon.svg', 'image/svg+xml'],
  '/package.json': ['package.json', 'application/json'],
};

/** The built snap running in the snaps simulation (outside jest), for the demo and the bench. */
export type SimulatedSnap = {
  events: { method: string; params: any }[];
  keyring: (method: string, params?: Record<string, Json> | Json[], origin?: string) => Promise<any>;
  rpc: (method: string, params?: Record<string, Json> | Json[], origin?: string) => Promise<any>;
  /** Open the home page (onHomePage) as MetaMask shows it; returns its interface (content and actions). */
  homePage: () => Promise<any>;
  close: () => Promise<void>;
};

/**
 * Serve the built snap (manifest, dist/bundle.js, icon) on 127.0.0.1 and install it
 * in @metamask/snaps-simulation, with snap_manageAccounts mocked and its events recorded
 * (the simulation has no keyring controller; TOOLCHAIN.md).
 *
 * @param origin - The default caller origin (the companion dapp).
 * @returns The running snap; `close()` stops it and the file server.
 */
export async function startSimulatedSnap(origin: string): Promise<SimulatedSnap> {
  const server: Server = createServer((request, response) => {
    const entry = FILES[(request.url ?? '').split('?')[0] as string];
    if (!entry) {
      response.writeHead(404).end();
      return;
    }
    readFile(path.join(ROOT, entry[0])).then(
      (body) => response.writeHead(200, { 'Content-Type': entry[1] }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const snap = await installSnap(`local:http://localhost:${port}` as never);
  const events: SimulatedSnap['events'] = [];
  snap.mockJsonRpc((request) => {
    if (request.method === 'snap_manageAccounts') {
      events.push(request.params as never);
      return null;
    }
    return undefined;
  });
  const unwrap = (response: { response: { result: Json } | { error: Json } }) => {
    if ('error' in response.response) {
      const error = response.response.error as { code: number; message: string };
      throw Object.assign(new Error(error.message), { code: error.code });
    }
    return response.response.result as any;
  };
  const withParams = (params?: Record<string, Json> | Json[]) => (params === undefined ? {} : { params });
  return {
    events,
    keyring: async (method, params, from = origin) => unwrap(await snap.onKeyringRequest({ origin: from, method, ...withParams(params) })),
    rpc: async (method, params, from = origin) => unwrap(await snap.request({ origin: from, method, ...withParams(params) })),
    homePage: async () => (await snap.onHomePage()).getInterface(),
    close: async () => {
      await snap.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
