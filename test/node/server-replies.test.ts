/**
 * What servers answer is checked, not trusted: no client follows an HTTP redirect (a redirect from
 * an https:// service could lead to http:// or a loopback address), bundler and paymaster replies
 * are capped at 64 KiB, and a bundler's receipt with a quantity out of range is refused. Real HTTP
 * servers on 127.0.0.1, stopped after the suite.
 */
import type { EthUserOperation } from '@metamask/keyring-api';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';

import {
  bundlerReceipt,
  parseBundlerReceipt,
  sendToBundler,
} from '../../src/accounts/erc4337/bundler';
import { bundlerFees } from '../../src/accounts/erc4337/fees';
import { getPaymasterStubData } from '../../src/accounts/erc4337/paymaster';
import { createRpcClient } from '../../src/chain';
import { createIpfsClient } from '../../src/ipfs';

jest.setTimeout(30_000);

const KEY = 'redirKeyQ7w3Lm29Xc71Vb40';
const ENTRY_POINT: Hex = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';
const USER_OP_HASH: Hex = `0x${'ab'.repeat(32)}`;
const OP: EthUserOperation = {
  sender: '0x2222222222222222222222222222222222222222',
  nonce: '0x0',
  initCode: '0x',
  callData: '0x',
  callGasLimit: '0x186a0',
  verificationGasLimit: '0x249f0',
  preVerificationGas: '0xc350',
  maxFeePerGas: '0x3b9aca00',
  maxPriorityFeePerGas: '0x3b9aca00',
  paymasterAndData: '0x',
  signature: `0x${'ff'.repeat(65)}`,
};

/** A test server: its base URL, the requests it saw, and how to stop it. */
type TestServer = {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests received. */
  hits: number;
  /** Stop listening and drop connections. */
  close: () => Promise<void>;
};

/**
 * Start an HTTP server on 127.0.0.1 (a free port) that reads each request body and answers with `handle`.
 *
 * @param handle - Writes the answer.
 * @returns The server.
 */
async function serve(
  handle: (body: string, res: ServerResponse, req: IncomingMessage) => void,
): Promise<TestServer> {
  const state = { hits: 0 };
  const server: Server = createServer((req, res) => {
    state.hits += 1;
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => handle(body, res, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /**
     * @returns The requests received so far.
     */
    get hits(): number {
      return state.hits;
    },
    close: async (): Promise<void> => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Answer a JSON-RPC request (single) with `result`, echoing its id.
 *
 * @param body - The request body.
 * @param res - The response.
 * @param result - The result.
 * @param extra - Members added to the reply object.
 */
function answer(
  body: string,
  res: ServerResponse,
  result: unknown,
  extra: Record<string, unknown> = {},
): void {
  const { id } = JSON.parse(body) as { id: number };
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result, ...extra }));
}

/** Results the honest target gives, by JSON-RPC method. */
const RESULTS: Record<string, unknown> = {
  eth_chainId: '0x1',
  eth_sendUserOperation: USER_OP_HASH,
  pm_getPaymasterStubData: {
    paymasterAndData: `0x${'11'.repeat(20)}${'00'.repeat(40)}`,
  },
  pimlico_getUserOperationGasPrice: {
    standard: { maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' },
  },
};

describe('no client follows a redirect', () => {
  let target: TestServer;
  const redirectors: TestServer[] = [];

  beforeAll(async () => {
    // an honest server: following the redirect would succeed
    target = await serve((body, res) => {
      if (body.startsWith('{')) {
        const { method } = JSON.parse(body) as { method: string };
        answer(body, res, RESULTS[method] ?? null);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('hello world');
    });
  });

  afterAll(async () => {
    await Promise.all(redirectors.map(async (server) => server.close()));
    await target?.close();
  });

  /**
   * A server answering every request with `status` and a Location on the honest target.
   *
   * @param status - 301, 302, 307 or 308.
   * @returns Its URL with a key in the path.
   */
  const redirecting = async (status: number): Promise<string> => {
    const server = await serve((_body, res, req) => {
      res.writeHead(status, { Location: `${target.url}${req.url ?? '/'}` });
      res.end();
    });
    redirectors.push(server);
    return `${server.url}/v3/${KEY}`;
  };

  describe.each([302, 307])('HTTP %i', (status) => {
    it('chain RPC: a TransportError naming the redirect, without the key', async () => {
      const url = await redirecting(status);
      const error = await createRpcClient({ url, retryDelayMs: 1 })
        .chainId()
        .then(
          () => undefined,
          (caught: Error) => caught,
        );
      expect(error?.name).toBe('TransportError');
      expect(error?.message).toMatch(
        /the JSON-RPC endpoint answered with a redirect; redirects are not followed/u,
      );
      expect(error?.message).not.toContain(KEY);
      expect(target.hits).toBe(0); // never reached
    });

    it('bundler: eth_sendUserOperation refused naming the bundler; receipts and fees are not read through it', async () => {
      const url = await redirecting(status);
      const error = await sendToBundler(url, OP, ENTRY_POINT).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error?.message).toMatch(
        /the bundler answered with a redirect; redirects are not followed/u,
      );
      expect(error?.message).not.toContain(KEY);
      expect(target.hits).toBe(0); // never reached
      expect(await bundlerReceipt(url, USER_OP_HASH)).toBeNull();
      expect(await bundlerFees(url)).toBeUndefined();
      expect(target.hits).toBe(0);
    });

    it('paymaster service: pm_getPaymasterStubData refused naming the service', async () => {
      const url = await redirecting(status);
      const error = await getPaymasterStubData(url, OP, ENTRY_POINT, 1n).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error?.message).toMatch(
        /the paymaster service answered with a redirect; redirects are not followed/u,
      );
      expect(error?.message).not.toContain(KEY);
      expect(target.hits).toBe(0); // never reached
    });

    it('the IPFS API: the read fails with IpfsTransportError naming the redirect', async () => {
      const url = await redirecting(status);
      const error = await createIpfsClient({
        apiUrl: url.replace(/\/v3\/.*$/u, ''),
        apiKey: 'ipfs-user',
        apiKeySecret: KEY,
      })
        .cat('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o')
        .then(
          () => undefined,
          (caught: Error) => caught,
        );
      expect(error?.name).toBe('IpfsTransportError');
      expect(error?.message).toMatch(
        /the IPFS API answered with a redirect; redirects are not followed/u,
      );
      expect(error?.message).not.toContain(KEY);
      expect(target.hits).toBe(0); // never reached
    });
  });
});

describe('bundler and paymaster replies are capped at 64 KiB', () => {
  let server: TestServer;
  let padding = 0;

  beforeAll(async () => {
    server = await serve((body, res) => {
      const { method } = JSON.parse(body) as { method: string };
      answer(body, res, RESULTS[method] ?? null, {
        padding: 'x'.repeat(padding),
      });
    });
  });
  afterAll(async () => server?.close());

  it('accepts a reply just under 64 KiB', async () => {
    padding = 60 * 1024;
    expect(await sendToBundler(server.url, OP, ENTRY_POINT)).toBe(USER_OP_HASH);
  });

  it('refuses a 100 KiB bundler reply (tooLarge), and a paymaster one', async () => {
    padding = 100 * 1024;
    const error = await sendToBundler(server.url, OP, ENTRY_POINT).then(
      () => undefined,
      (caught: Error & { code?: number }) => caught,
    );
    // the operation was handed over signed: -32002, saying what failed and that it may still run
    expect(error?.code).toBe(-32002);
    expect(error?.message).toMatch(/exceeds the cap of 65536 bytes/u);
    expect(error?.message).toMatch(
      /may still be submitted until it is replaced/u,
    );
    const fromPaymaster = await getPaymasterStubData(
      server.url,
      OP,
      ENTRY_POINT,
      1n,
    ).then(
      () => undefined,
      (caught: Error & { kind?: string }) => caught,
    );
    expect(fromPaymaster?.kind).toBe('tooLarge');
  });

  it('the chain RPC keeps its 32 MiB cap', async () => {
    padding = 100 * 1024;
    expect(await createRpcClient({ url: server.url }).chainId()).toBe(1);
  });
});

describe('a bundler receipt with a quantity out of range is refused', () => {
  /**
   * A bundler's receipt for USER_OP_HASH, valid but for what the test changes.
   *
   * @param blockNumber - The receipt's blockNumber.
   * @returns The receipt object.
   */
  const receipt = (blockNumber: unknown): Record<string, unknown> => ({
    userOpHash: USER_OP_HASH,
    sender: OP.sender,
    nonce: '0x0',
    success: true,
    actualGasCost: '0x5af3107a4000',
    actualGasUsed: '0x249f0',
    receipt: { transactionHash: `0x${'cd'.repeat(32)}`, blockNumber },
  });

  it('keeps a valid one, in canonical quantities', () => {
    expect(parseBundlerReceipt(receipt('0x00ff'), USER_OP_HASH)).toStrictEqual(
      expect.objectContaining({ blockNumber: '0xff', nonce: '0x0' }),
    );
  });

  it.each([
    ['2^64 (no block number is that high)', `0x1${'0'.repeat(16)}`],
    ['2^256 - 1', `0x${'f'.repeat(64)}`],
    ['not hex', '0xzz'],
    ['a JSON number', 255],
    ['missing', undefined],
  ])('blockNumber %s: null', (_name, blockNumber) => {
    expect(parseBundlerReceipt(receipt(blockNumber), USER_OP_HASH)).toBeNull();
  });

  it('actualGasUsed above 2^64 - 1: null', () => {
    expect(
      parseBundlerReceipt(
        { ...receipt('0x1'), actualGasUsed: `0x${'f'.repeat(17)}` },
        USER_OP_HASH,
      ),
    ).toBeNull();
  });

  it('through eth_getUserOperationReceipt at a bundler: null, so the caller reads the chain', async () => {
    const server = await serve((body, res) =>
      answer(body, res, receipt(`0x1${'0'.repeat(16)}`)),
    );
    try {
      expect(await bundlerReceipt(server.url, USER_OP_HASH)).toBeNull();
      expect(server.hits).toBe(1);
    } finally {
      await server.close();
    }
  });
});
