import { JsonRpcError } from '@metamask/rpc-errors';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeErrorResult, parseAbi } from 'viem';

import {
  ChainRpcError,
  ExecutionRevertedError,
  maskUrl,
  originOf,
} from '../chain';
import type { Domain } from '../domain';
import { createDomain } from '../domain';
import { scrubError } from '../domain';
import { toRpcError } from './errorMap';
import { defaultState } from '../state/store';

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
  it('never quotes the key of the config being checked (not stored yet) in the error', async () => {
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
      // the node's own text is not passed on: the page's words, and never the key
      expect(error).toStrictEqual(
        expect.objectContaining({
          code: -32002,
          message:
            'This node refused to say which chain it serves: check the address, and its key if the provider gave one',
        }),
      );
      expect(JSON.stringify(error)).not.toContain(RPC_KEY);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('scrubError: data at any depth, credentials replaced this session, keys in host names, bounded text', () => {
  const OLD_KEY = 'oldKeyVb71Xc29Lm83Hq40Ns';
  const NEW_KEY = 'newKeyZp4Q9vN2xW7kT1Rd66';
  const HOST_KEY = 'HostKey7f3a9c2e1b8d4f60';

  /**
   * A domain over `state`, with inert platform functions.
   *
   * @param state - The snap state.
   * @returns The domain.
   */
  const domainOf = (state: ReturnType<typeof defaultState>): Domain =>
    createDomain(
      state,
      {
        saveState: async () => undefined,
        emitEvent: async () => undefined,
        confirm: async () => true,
        deriveKey: async () => ({ privateKey: '', address: '' }),
      },
      () => ({ message: '' }),
    );

  it('masks a key that a setChainConfig replaced, in the message and in nested data (values and keys)', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }));
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    try {
      const { port } = server.address() as AddressInfo;
      const base = `http://127.0.0.1:${port}/v3/`;
      const domain = domainOf({
        ...defaultState(),
        chains: {
          'eip155:1': {
            scope: 'eip155:1',
            rpcUrl: `${base}${OLD_KEY}`,
            entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
            accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
          },
        },
      });
      // a call made with the old URL fails after the config was replaced
      await domain.settings.setChainConfig({
        scope: 'eip155:1',
        rpcUrl: `${base}${NEW_KEY}`,
      });
      expect(domain.settings.chainConfig('eip155:1')?.rpcUrl).toContain(
        NEW_KEY,
      );
      const error = new JsonRpcError(
        -32000,
        `upstream refused ${base}${OLD_KEY} (key ${OLD_KEY})`,
        {
          upstream: {
            detail: [`called ${base}${OLD_KEY}`, { [OLD_KEY]: OLD_KEY }],
            code: 429,
          },
        } as never,
      );
      const scrubbed = scrubError(error, domain);
      const text = JSON.stringify({
        message: scrubbed.message,
        data: scrubbed.data,
      });
      expect(text).not.toContain(OLD_KEY);
      expect(scrubbed.code).toBe(-32000);
      expect(scrubbed.data).toStrictEqual({
        upstream: {
          detail: [`called http://127.0.0.1:${port}`, { '***': '***' }],
          code: 429,
        },
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('masks a key placed in the host name of a URL, in any case', () => {
    const rpcUrl = `https://${HOST_KEY}.rpc.example/`;
    expect(maskUrl(rpcUrl)).toBe('https://***.rpc.example/');
    expect(originOf(`${rpcUrl}v3/x`)).toBe('https://***.rpc.example');
    expect(originOf('https://eth-mainnet.rpc.example:8545/')).toBe(
      'https://eth-mainnet.rpc.example:8545',
    );
    const domain = domainOf({
      ...defaultState(),
      chains: {
        'eip155:1': {
          scope: 'eip155:1',
          rpcUrl,
          entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
          accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
        },
      },
    });
    const scrubbed = scrubError(
      new JsonRpcError(
        -32000,
        `no route to ${rpcUrl} (${HOST_KEY.toLowerCase()} / ${HOST_KEY})`,
        { host: `${HOST_KEY.toLowerCase()}.rpc.example` } as never,
      ),
      domain,
    );
    expect(
      JSON.stringify([scrubbed.message, scrubbed.data]).toLowerCase(),
    ).not.toContain(HOST_KEY.toLowerCase());
    expect(scrubbed.message).toBe(
      'no route to https://***.rpc.example (*** / ***)',
    );
  });

  it("cuts a node's long error message to 300 printable characters", () => {
    const message = `${'\u0007\u202e'.repeat(10)}${'r'.repeat(5000)}`;
    const scrubbed = scrubError(
      toRpcError(new ChainRpcError(-32000, message)),
      undefined,
    );
    expect(scrubbed.code).toBe(-32000);
    expect([...scrubbed.message]).toHaveLength(300);
    expect(scrubbed.message).toMatch(/^r+…$/u);
  });

  it('a long revert reason stays bounded: decoded up to 256 characters, or not decoded past 4 KiB of data', () => {
    /**
     * The scrubbed message of a revert with this reason.
     *
     * @param reason - The Error(string) reason.
     * @returns The message a caller sees.
     */
    const shown = (reason: string): string =>
      scrubError(
        toRpcError(
          new ExecutionRevertedError(
            'execution reverted',
            encodeErrorResult({
              abi: parseAbi(['error Error(string)']),
              errorName: 'Error',
              args: [reason],
            }),
          ),
        ),
        undefined,
      ).message;
    expect(shown('r'.repeat(1000))).toMatch(/^execution reverted: r{255}…$/u);
    expect(shown('r'.repeat(5000))).not.toContain('rrrr');
  });
});
