import { installSnap } from '@metamask/snaps-simulation';
import type { Json } from '@metamask/utils';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import path from 'node:path';

const ROOT = path.join(__dirname, '../..');

/** The built snap running in the snaps simulation (outside jest), for the demo and the bench. */
export type SimulatedSnap = {
  /** The `snap_manageAccounts` calls the snap made (keyring events such as accountCreated). */
  events: { method: string; params: any }[];
  /** Call a keyring method (onKeyringRequest); resolves to its result, rejects with `{ code }`. */
  keyring: (
    method: string,
    params?: Record<string, Json> | Json[],
    origin?: string,
  ) => Promise<any>;
  /** Call a snap RPC method (onRpcRequest); resolves to its result, rejects with `{ code }`. */
  rpc: (
    method: string,
    params?: Record<string, Json> | Json[],
    origin?: string,
  ) => Promise<any>;
  /**
   * Call a snap RPC method that asks the person first (a site's settings change opens a consent
   * dialog naming the site and the change), and confirm that dialog as the person would.
   */
  rpcConfirmed: (
    method: string,
    params?: Record<string, Json> | Json[],
    origin?: string,
  ) => Promise<any>;
  /** Open the home page (onHomePage) as MetaMask shows it; returns its interface (content and actions). */
  homePage: () => Promise<any>;
  /**
   * Install the same snap again beside this one, from the same file server (so the same snap id:
   * `snap_getEntropy` gives the same keys from the same recovery phrase) with an empty state, as
   * after a reinstall or on a new device. Its `close()` stops it alone; this snap's `close()`
   * stops the file server.
   */
  installAgain: () => Promise<SimulatedSnap>;
  /** Stop the snap and its file server. */
  close: () => Promise<void>;
  /** installSnap's wall time, and within it the execution service's executeSnap (worker start, SES lockdown, bundle evaluation), in ms. */
  timings: { installMs: number; executeMs: number };
};

/**
 * The simulation's execution service, timing executeSnap.
 *
 * @param timings - Receives `executeMs`, the wall time of executeSnap in ms.
 * @returns A subclass of the simulation's NodeThreadExecutionService.
 */
function timedExecutionService(timings: SimulatedSnap['timings']): unknown {
  // snaps-simulation's default service (a worker thread per snap), from its own dependency.
  const controllers = require.resolve('@metamask/snaps-controllers/node', {
    paths: [require.resolve('@metamask/snaps-simulation')],
  });
  // The path is resolved at run time (the copy snaps-simulation itself uses).
  // eslint-disable-next-line import-x/no-dynamic-require, n/global-require, @typescript-eslint/no-require-imports
  const { NodeThreadExecutionService: ExecutionService } = require(
    controllers,
  ) as {
    // eslint-disable-next-line @typescript-eslint/naming-convention -- the library's class name
    NodeThreadExecutionService: new (...args: any[]) => any;
  };
  return class extends ExecutionService {
    /**
     * The simulation's executeSnap, timed.
     *
     * @param args - executeSnap's arguments, passed on.
     * @returns executeSnap's result.
     */
    async executeSnap(...args: unknown[]): Promise<unknown> {
      const started = performance.now();
      try {
        return await super.executeSnap(...args);
      } finally {
        timings.executeMs = performance.now() - started;
      }
    }
  };
}

/**
 * A snap's files as its manifest names them.
 *
 * @param root - The snap's folder.
 * @returns URL path -> [file under the folder, content type].
 */
function snapFiles(root: string): Record<string, [string, string]> {
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'snap.manifest.json'), 'utf8'),
  ) as {
    source: { location: { npm: { filePath: string; iconPath?: string } } };
  };
  const { filePath, iconPath } = manifest.source.location.npm;
  const files: Record<string, [string, string]> = {
    '/snap.manifest.json': ['snap.manifest.json', 'application/json'],
    '/package.json': ['package.json', 'application/json'],
    [`/${filePath}`]: [filePath, 'application/javascript'],
  };
  if (iconPath) {
    files[`/${iconPath}`] = [iconPath, 'image/svg+xml'];
  }
  return files;
}

/**
 * The first origin a snap's manifest allows to call its keyring methods (its companion dapp).
 *
 * @param root - The snap's folder (snap.manifest.json inside); this repository by default.
 * @returns The origin.
 */
export function companionOrigin(root: string = ROOT): string {
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'snap.manifest.json'), 'utf8'),
  ) as {
    initialPermissions: { 'endowment:keyring': { allowedOrigins: string[] } };
  };
  return manifest.initialPermissions['endowment:keyring'].allowedOrigins[0];
}

/**
 * Serve a built snap (manifest, bundle, icon and package.json, as its manifest names them) on
 * 127.0.0.1 and install it in @metamask/snaps-simulation, with snap_manageAccounts mocked and
 * its events recorded (the simulation has no keyring controller). `installAgain()` installs it a
 * second time from the same server, with an empty state.
 *
 * @param origin - The default caller origin (the companion dapp).
 * @param root - The snap's folder: this repository (dist/bundle.js) by default, or another
 * built keyring snap for side-by-side figures.
 * @param port - The file server's port (default: a free one). The snap id is
 * `local:http://localhost:<port>`, and snap_getEntropy derives from the snap id: two installs
 * that must derive the same keys (a reinstall) use the same port.
 * @returns The running snap; `close()` stops it and the file server.
 */
export async function startSimulatedSnap(
  origin: string,
  root: string = ROOT,
  port = 0,
): Promise<SimulatedSnap> {
  const files = snapFiles(root);
  const server: Server = createServer((request, response) => {
    const entry = files[(request.url ?? '').split('?')[0]];
    if (!entry) {
      response.writeHead(404).end();
      return;
    }
    readFile(path.join(root, entry[0]))
      .then((body) =>
        response
          .writeHead(200, { 'Content-Type': entry[1], Connection: 'close' })
          .end(body),
      )
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) =>
    server.listen(port, '127.0.0.1', resolve),
  );
  const { port: listening } = server.address() as { port: number };
  const snapId = `local:http://localhost:${listening}`;
  /** Stop the file server. */
  const stopServer = async (): Promise<void> =>
    new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    const first = await simulate(snapId, origin);
    return {
      ...first,
      installAgain: async (): Promise<SimulatedSnap> => {
        const again = await simulate(snapId, origin);
        return {
          ...again,
          installAgain: async (): Promise<SimulatedSnap> => {
            throw new Error('install again from the first snap');
          },
        };
      },
      close: async (): Promise<void> => {
        await first.close();
        await stopServer();
      },
    };
  } catch (error) {
    await stopServer();
    throw error;
  }
}

/**
 * Install a snap the file server serves in a new simulation (its own state), with
 * snap_manageAccounts mocked and its events recorded.
 *
 * @param snapId - The snap's id (`local:` and the file server's URL).
 * @param origin - The default caller origin.
 * @returns The running snap; its `close()` stops the snap only.
 */
async function simulate(
  snapId: string,
  origin: string,
): Promise<Omit<SimulatedSnap, 'installAgain'>> {
  const timings = { installMs: 0, executeMs: 0 };
  const started = performance.now();
  const snap = await installSnap(snapId as never, {
    executionService: timedExecutionService(timings) as never,
  });
  timings.installMs = performance.now() - started;
  const events: SimulatedSnap['events'] = [];
  snap.mockJsonRpc((request) => {
    if (request.method === 'snap_manageAccounts') {
      events.push(request.params as never);
      return null;
    }
    return undefined;
  });
  /**
   * A simulation response's result, or its error thrown.
   *
   * @param response - The simulation's response.
   * @param response.response - Its JSON-RPC result or error.
   * @returns The result.
   */
  const unwrap = (response: {
    response: { result: Json } | { error: Json };
  }): any => {
    if ('error' in response.response) {
      const error = response.response.error as {
        code: number;
        message: string;
      };
      throw Object.assign(new Error(error.message), { code: error.code });
    }
    return response.response.result as any;
  };
  /**
   * `params` as a request field, left out when undefined.
   *
   * @param params - The request's params.
   * @returns `{ params }` or `{}`.
   */
  const withParams = (
    params?: Record<string, Json> | Json[],
  ): { params?: Record<string, Json> | Json[] } =>
    params === undefined ? {} : { params };
  return {
    timings,
    events,
    keyring: async (method, params, from = origin) =>
      unwrap(
        await snap.onKeyringRequest({
          origin: from,
          method,
          ...withParams(params),
        }),
      ),
    rpc: async (method, params, from = origin) =>
      unwrap(
        await snap.request({ origin: from, method, ...withParams(params) }),
      ),
    rpcConfirmed: async (method, params, from = origin): Promise<any> => {
      const pending = snap.request({
        origin: from,
        method,
        ...withParams(params),
      });
      // The dialog, or nothing when the request ends without one (getInterface alone would wait).
      const dialog = await Promise.race([
        pending.getInterface().then(
          (ui) => ui as unknown as { ok: () => Promise<void> },
          () => undefined,
        ),
        pending.then(() => undefined),
      ]);
      await dialog?.ok();
      return unwrap(await pending);
    },
    homePage: async (): Promise<any> =>
      (await snap.onHomePage()).getInterface(),
    close: async (): Promise<void> => snap.close(),
  };
}
