/**
 * Settings through the domain, in Node: a chain config edited with its masked URL keeps the stored
 * URL; a refused config leaves state untouched. The eth_chainId check talks to a real local
 * JSON-RPC server (127.0.0.1) that answers for chain 31337 on any path.
 */
import { JsonRpcError } from '@metamask/rpc-errors';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createDomain } from '../../src/domain';
import { defaultState } from '../../src/state/store';
import type { KeyringState } from '../../src/state/store';

let server: Server;
let base: string;
const paths: string[] = [];

/**
 * A domain over the default state, on a platform that confirms everything and records each
 * saved state.
 *
 * @returns The domain, and the states it saved (copies), in order.
 */
function domain(): ReturnType<typeof createDomain> & {
  /** Copies of the states saved, in order. */
  saved: KeyringState[];
} {
  const saved: KeyringState[] = [];
  const platform: Parameters<typeof createDomain>[1] = {
    /**
     * Record a copy of the state.
     *
     * @param state - The state saved.
     */
    saveState: async (state: KeyringState) => {
      saved.push(JSON.parse(JSON.stringify(state)));
    },
    /**
     * Drop the event.
     *
     * @returns Nothing.
     */
    emitEvent: async () => undefined,
    /**
     * Confirm.
     *
     * @returns Always true.
     */
    confirm: async () => true,
    /**
     * Not used by the settings.
     *
     * @returns Never: it throws.
     */
    deriveKey: async () => {
      throw new Error('not used');
    },
  };
  return {
    ...createDomain(defaultState(), platform, () => ({ message: 'approve' })),
    saved,
  };
}

describe('Settings', () => {
  beforeAll(async () => {
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const { id } = JSON.parse(body) as Record<string, unknown>;
        // under /refuse/, a node error quoting the path called, key included
        const reply = request.url?.startsWith('/refuse/')
          ? { error: { code: -32000, message: `no access for ${request.url}` } }
          : { result: '0x7a69' };
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, ...reply }));
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(
    async () => new Promise<void>((resolve) => server.close(() => resolve())),
  );

  it('an edit that sends the masked URL back keeps the stored keyed URL', async () => {
    const { settings, saved } = domain();
    const keyed = `${base}/v3/SECRETKEY123`;
    const shown = await settings.setChainConfig({
      scope: 'eip155:31337',
      rpcUrl: keyed,
    });
    expect(JSON.stringify(shown)).not.toContain('SECRETKEY123');
    await settings.setChainConfig({
      scope: 'eip155:31337',
      rpcUrl: shown.rpcUrl,
    });
    expect(saved.at(-1)?.chains['eip155:31337']?.rpcUrl).toBe(keyed);
    expect(paths.at(-1)).toBe('/v3/SECRETKEY123');
  });

  it('a node error while checking an unsaved config is -32002 in words a page can show, the key masked (callerError)', async () => {
    const { settings, saved } = domain();
    const error = await settings
      .setChainConfig({
        scope: 'eip155:31337',
        rpcUrl: `${base}/refuse/v3/REFUSEDKEY4567`,
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError<never>).code).toBe(-32002);
    expect((error as JsonRpcError<never>).message).toBe(
      'This node refused to say which chain it serves: check the address, and its key if the provider gave one',
    );
    expect((error as JsonRpcError<never>).data).toStrictEqual({
      reason: 'rpcUnreachable',
      field: 'rpcUrl',
    });
    expect(JSON.stringify(error)).not.toContain('REFUSEDKEY4567');
    expect(paths.at(-1)).toBe('/refuse/v3/REFUSEDKEY4567');
    expect(saved).toStrictEqual([]);
  });

  it('a config whose rpcUrl serves another chain is refused and nothing is saved', async () => {
    const { settings, saved } = domain();
    await expect(
      settings.setChainConfig({ scope: 'eip155:1', rpcUrl: base }),
    ).rejects.toThrow(/serves chain 31337, not eip155:1/u);
    expect(saved).toStrictEqual([]);
    expect(settings.chainConfigs()).toStrictEqual([]);
  });
  it('a masked URL is refused before any request unless it stands for the same scope and field', async () => {
    const { settings, saved } = domain();
    const keyed = `${base}/v3/SECRETKEY123`;
    const shown = await settings.setChainConfig({
      scope: 'eip155:31337',
      rpcUrl: keyed,
    });
    expect(shown.rpcUrl).toBe(`${base}/***`);
    const requests = paths.length;
    const savedBefore = saved.length;
    // another scope (the edit form with its scope changed), no stored config for it
    await expect(
      settings.setChainConfig({ scope: 'eip155:1', rpcUrl: shown.rpcUrl }),
    ).rejects.toThrow(
      'Invalid setChainConfig params at rpcUrl: it is masked (***), which only keeps the stored URL of the same chain; enter the RPC URL again',
    );
    // the same scope, but the masked RPC URL given as the bundler URL
    await expect(
      settings.setChainConfig({
        scope: 'eip155:31337',
        rpcUrl: shown.rpcUrl,
        bundlerUrl: shown.rpcUrl,
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^Invalid setChainConfig params at bundlerUrl: it is masked .*enter the bundler URL again$/u,
      ),
    });
    // the same scope and field, but a masked value that is not what is shown for it
    await expect(
      settings.setChainConfig({
        scope: 'eip155:31337',
        rpcUrl: 'http://127.0.0.1:1/***',
        paymasterUrl: 'http://127.0.0.1:1/***',
      }),
    ).rejects.toThrow(/at rpcUrl: it is masked/u);
    expect(paths).toHaveLength(requests);
    expect(saved).toHaveLength(savedBefore);
    expect(settings.chainConfig('eip155:31337')?.rpcUrl).toBe(keyed);
    expect(settings.chainConfig('eip155:1')).toBeUndefined();
  });

  it('removeChainConfig drops one scope, keeps the others, and refuses an unknown scope', async () => {
    const { settings, saved } = domain();
    await settings.setChainConfig({ scope: 'eip155:31337', rpcUrl: base });
    const removed = await settings.removeChainConfig('eip155:31337');
    expect(removed.scope).toBe('eip155:31337');
    expect(saved.at(-1)?.chains).toStrictEqual({});
    await expect(settings.removeChainConfig('eip155:31337')).rejects.toThrow(
      'Invalid removeChainConfig params at scope: no chain config for it',
    );
    await expect(settings.removeChainConfig('31337')).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('an IPFS API URL is returned masked when keyed; its masked form keeps it, another masked URL is refused', async () => {
    const { settings, saved } = domain();
    const keyed = 'https://ipfs.example/KEYPATH123456';
    expect(await settings.setIpfsConfig({ apiUrl: keyed })).toStrictEqual({
      apiUrl: 'https://ipfs.example/***',
    });
    await settings.setIpfsConfig({
      apiUrl: 'https://ipfs.example/***',
      apiKey: 'k',
    });
    expect(saved.at(-1)?.ipfs).toStrictEqual({ apiUrl: keyed, apiKey: 'k' });
    await expect(
      settings.setIpfsConfig({ apiUrl: 'https://other.example/***' }),
    ).rejects.toThrow(/^Invalid setIpfsConfig params at apiUrl: it is masked/u);
    expect(settings.ipfsConfig()?.apiUrl).toBe(keyed);
  });

  it('stored IPFS credentials follow the URL only to the exact same origin, not to a host that masks alike', async () => {
    const { settings, saved } = domain();
    const stored = {
      apiUrl: 'https://ipfs2024x.io',
      apiKey: 'key-1',
      apiKeySecret: 'secret-1',
    };
    await settings.setIpfsConfig(stored);
    const writes = saved.length;
    // both hosts show as https://***.io: the masked origins are equal, the servers are not
    for (const apiUrl of [
      'https://attack777.io',
      'https://attack777.io/api/v0',
      'https://ipfs2024x.io:8443',
    ]) {
      await expect(settings.editIpfsConfig({ apiUrl })).rejects.toThrow(
        /^Invalid IPFS settings at apiKey: the stored key and secret belong to another server/u,
      );
    }
    expect(saved).toHaveLength(writes);
    expect(settings.ipfsConfig()).toStrictEqual(stored);
    // the same origin (another path, the default port spelled out) keeps them
    await settings.editIpfsConfig({ apiUrl: 'https://IPFS2024X.io:443/kubo' });
    expect(settings.ipfsConfig()).toStrictEqual({
      ...stored,
      apiUrl: 'https://ipfs2024x.io/kubo',
    });
  });
});
