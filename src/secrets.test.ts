import { JsonRpcError } from '@metamask/rpc-errors';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createDomain } from './keyring';
import { scrubError } from './secrets';
import { defaultState } from './state';

const RPC_KEY = 'rpcKeyHq83Lm29Xc71Vb40Ns';
const IPFS_SECRET = 'ipfs-secret-Zp4Q9vN2xW7kT1';

describe('scrubError: configured credentials never leave in an error', () => {
  const state = {
    ...defaultState(),
    chains: {
      'eip155:1': {
        scope: 'eip155:1',
        rpcUrl: `https://rpc.example.com/v3/${RPC_KEY}`,
        entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
        accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
        paymasterUrl: 'https://pm.example.com/rpc?apikey=pmKey0123456789',
      },
    },
    ipfs: {
      apiUrl: 'https://ipfs.example.com',
      apiKey: 'ipfs-user-123456',
      apiKeySecret: IPFS_SECRET,
    },
  };
  const domain = createDomain(
    state,
    {
      saveState: async () => undefined,
      emitEvent: async () => undefined,
      confirm: async () => true,
      deriveKey: async () => ({ privateKey: '', address: '' }),
    },
    () => ({ message: '' }),
  );

  it('masks a server message quoting the keyed URL, the key alone, or the IPFS credentials; keeps the code and the rest', () => {
    const error = new JsonRpcError(
      -32000,
      `upstream refused https://rpc.example.com/v3/${RPC_KEY}: key ${RPC_KEY} over quota; pmKey0123456789; ${IPFS_SECRET} ipfs-user-123456`,
      `0x${RPC_KEY}` as never,
    );
    const scrubbed = scrubError(error, domain);
    expect(scrubbed.code).toBe(-32000);
    expect(scrubbed.message).toBe(
      'upstream refused https://rpc.example.com: key *** over quota; ***; *** ***',
    ); // a keyed URL shows its origin only
    expect(scrubbed.data).toBe('0x***');
  });

  it('returns the same error when there is nothing to mask', () => {
    const error = new JsonRpcError<never>(-32602, 'Invalid params');
    expect(scrubError(error, domain)).toBe(error);
    expect(scrubError(error, undefined)).toBe(error);
  });
});

describe('setChainConfig with a node that quotes its keyed URL', () => {
  it('masks the key of the config being checked (not stored yet) in the error', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32000,
            message: `refused http://127.0.0.1${req.url} (key ${RPC_KEY})`,
          },
        }),
      );
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    try {
      const { port } = server.address() as AddressInfo;
      const domain = createDomain(
        defaultState(),
        {
          saveState: async () => undefined,
          emitEvent: async () => undefined,
          confirm: async () => true,
          deriveKey: async () => ({ privateKey: '', address: '' }),
        },
        () => ({ message: '' }),
      );
      const error = await domain.settings
        .setChainConfig({
          scope: 'eip155:1',
          rpcUrl: `http://127.0.0.1:${port}/v3/${RPC_KEY}`,
        })
        .catch((caught: JsonRpcError<never>) => caught);
      expect(error).toStrictEqual(
        expect.objectContaining({
          code: -32000,
          message: expect.stringContaining('refused http://127.0.0.1'),
        }),
      );
      expect((error as Error).message).not.toContain(RPC_KEY);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
