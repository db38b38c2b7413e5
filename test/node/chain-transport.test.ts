import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import { freePort } from '../../devnet/ports';
import {
  createRpcClient,
  ChainRpcError,
  maskUrl,
  RateLimitedError,
  TransportError,
} from '../../src/chain';

jest.setTimeout(60_000);

const SECRET = 'sup3r-s3cret-key-4242';

describe('chain adapter: transport, batches, retries, errors', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;

  beforeAll(async () => {
    anvil = await startAnvil();
    proxy = await startLimitsProxy({ upstream: anvil.url, apiKey: SECRET });
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  beforeEach(() => {
    proxy.clearFaults();
    proxy.resetStats();
  });

  /**
   * A client of the proxy that retries after 5 ms.
   *
   * @param extra - Options overriding the defaults.
   * @returns The client.
   */
  const client = (
    extra: Partial<Parameters<typeof createRpcClient>[0]> = {},
  ): ReturnType<typeof createRpcClient> =>
    createRpcClient({ url: proxy.url, retryDelayMs: 5, ...extra });

  it('masks the API key in URLs', () => {
    expect(maskUrl(`https://mainnet.example.io/v3/${SECRET}`)).toBe(
      'https://mainnet.example.io/***',
    );
    expect(maskUrl('https://user:pw@x.io/rpc?apikey=abc&x=1')).toBe(
      'https://x.io/***',
    );
    expect(maskUrl('not a url with secret')).not.toContain('secret');
    expect(client().url).toBe(`${proxy.baseUrl}/***`);
    expect(client().origin).toBe(proxy.baseUrl);
  });

  describe.each([
    ['/v3/<key>', (key: string): string => `/v3/${key}`],
    ['/v2/<key>', (key: string): string => `/v2/${key}`],
    ['/<key>/', (key: string): string => `/${key}/`],
    ['/eth/<key>', (key: string): string => `/eth/${key}`],
    ['/v1/rpc/<key>', (key: string): string => `/v1/rpc/${key}`],
    ['?apikey=<key>', (key: string): string => `/?apikey=${key}`],
  ])('an endpoint keyed as %s', (_shape, keyed) => {
    /**
     * The proxy URL with the secret in this shape.
     *
     * @returns The keyed URL.
     */
    const url = (): string => `${proxy.baseUrl}${keyed(SECRET)}`;

    it('reaches the chain; shown back as <origin>/***', async () => {
      const keyedClient = createRpcClient({ url: url(), retries: 0 });
      expect(await keyedClient.chainId()).toBe(31337);
      expect(keyedClient.url).toBe(`${proxy.baseUrl}/***`);
      expect(maskUrl(url())).toBe(`${proxy.baseUrl}/***`);
    });

    it('names only the origin in an HTTP 503, a wrong key, a network error and a node message echoing the key', async () => {
      proxy.inject({ type: 'status', status: 503 });
      const http = (await createRpcClient({ url: url(), retries: 0 })
        .chainId()
        .catch((thrown: unknown) => thrown)) as TransportError;
      expect(http.message).toBe(
        `HTTP 503 from the JSON-RPC endpoint (${proxy.baseUrl})`,
      );
      expect(http.url).toBe(proxy.baseUrl);

      const wrongUrl = `${proxy.baseUrl}${keyed(`${SECRET}-wrong`)}`;
      const wrong = (await createRpcClient({ url: wrongUrl, retries: 0 })
        .chainId()
        .catch((thrown: unknown) => thrown)) as TransportError;
      expect(wrong.status).toBe(403);
      expect(wrong.message).toBe(
        `HTTP 403 from the JSON-RPC endpoint (${proxy.baseUrl})`,
      );

      const port = await freePort();
      const down = (await createRpcClient({
        url: `http://127.0.0.1:${port}${keyed(SECRET)}`,
        retries: 0,
      })
        .chainId()
        .catch((thrown: unknown) => thrown)) as TransportError;
      expect(down.kind).toBe('network');
      expect(down.message).toMatch(
        new RegExp(`\\(http://127\\.0\\.0\\.1:${port}\\)$`, 'u'),
      );

      proxy.inject({
        type: 'rpcError',
        code: -32001,
        message: `invalid project id ${SECRET} for ${url()}`,
      });
      const echoed = (await createRpcClient({ url: url(), retries: 0 })
        .chainId()
        .catch((thrown: unknown) => thrown)) as ChainRpcError;
      expect(echoed.code).toBe(-32001);
      expect(echoed.message).toBe(
        `invalid project id *** for ${proxy.baseUrl}`,
      );

      for (const error of [http, wrong, down, echoed]) {
        expect(
          JSON.stringify({ ...error, message: error.message }),
        ).not.toContain(SECRET);
        expect(error.message).not.toMatch(/\/v\d|\/eth|\/rpc|apikey/u);
      }
    });
  });

  it('refuses a reply body above the byte cap (tooLarge)', async () => {
    proxy.inject({ type: 'huge', bytes: 2_000_000 });
    const error = (await client({ maxReplyBytes: 100_000, retries: 0 })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('tooLarge');
    expect(error.message).toContain('100000 bytes');
    expect(await client({ maxReplyBytes: 100_000 }).chainId()).toBe(31337);
  });

  it('sends a batch of 4 reads in one HTTP round trip, replies matched by id despite shuffling', async () => {
    const [chainId, block, balance, code] = await client().batch([
      { method: 'eth_chainId' },
      { method: 'eth_blockNumber' },
      {
        method: 'eth_getBalance',
        params: ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'latest'],
      },
      {
        method: 'eth_getCode',
        params: ['0x4e59b44847b379578588920ca78fbf26c0b4956c', 'latest'],
      },
    ]);
    expect(proxy.stats.httpRequests).toBe(1);
    expect(proxy.stats.batches).toBe(1);
    expect(proxy.stats.rpcCalls).toBe(4);
    expect(chainId).toBe('0x7a69');
    expect(block).toMatch(/^0x[0-9a-f]+$/u);
    expect(BigInt(balance as string)).toBeGreaterThan(0n);
    expect((code as string).length).toBeGreaterThan(2);
  });

  it('settles each batch item on its own', async () => {
    const settled = await client().batchSettled([
      { method: 'eth_chainId' },
      { method: 'no_such_method' },
    ]);
    expect(settled[0]).toStrictEqual({ ok: true, result: '0x7a69' });
    expect(settled[1].ok).toBe(false);
    await expect(
      client().batch([{ method: 'eth_chainId' }, { method: 'no_such_method' }]),
    ).rejects.toBeInstanceOf(ChainRpcError);
  });

  it('a ChainRpcError carries code and message of the node', async () => {
    const error = await client()
      .request('no_such_method', [])
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ChainRpcError);
    expect((error as ChainRpcError).code).toBe(-32601);
    proxy.inject({
      type: 'rpcError',
      code: -32000,
      message: 'header not found',
      data: { x: 1 },
    });
    const injected = (await client()
      .chainId()
      .catch((thrown: unknown) => thrown)) as ChainRpcError;
    expect(injected).toBeInstanceOf(ChainRpcError);
    expect(injected.code).toBe(-32000);
    expect(injected.message).toBe('header not found');
    expect(injected.data).toStrictEqual({ x: 1 });
    expect(injected.method).toBe('eth_chainId');
  });

  it('retries a read once after HTTP 429 and succeeds', async () => {
    proxy.inject({ type: 'status', status: 429 });
    expect(await client().chainId()).toBe(31337);
    expect(proxy.stats.httpRequests).toBe(2);
  });

  it('gives TransportError with the status after bounded retries of HTTP 500', async () => {
    proxy.inject({ type: 'status', status: 500, times: 10 });
    const error = (await client({ retries: 2 })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(error.attempts).toBe(3);
    expect(proxy.stats.httpRequests).toBe(3);
    expect(error.message).not.toContain(SECRET);
    expect(error.url).toBe(proxy.baseUrl);
  });

  it('gives RateLimitedError 429 (origin only) after retries run out', async () => {
    proxy.inject({ type: 'status', status: 429, times: 10 });
    const error = (await client({ retries: 1 })
      .blockNumber()
      .catch((thrown: unknown) => thrown)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.status).toBe(429);
    expect(error.url).toBe(proxy.baseUrl);
    expect(error.message).not.toContain(SECRET);
    expect(proxy.stats.httpRequests).toBe(2);
  });

  it('never retries a sending method', async () => {
    proxy.inject({ type: 'status', status: 503 });
    const error = (await client()
      .request('eth_sendRawTransaction', ['0x00'])
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(1);
    expect(proxy.stats.httpRequests).toBe(1);
  });

  it('does not retry HTTP 4xx other than 429; a wrong key is 403, a missing key 401, both masked', async () => {
    const wrong = createRpcClient({
      url: `${proxy.baseUrl}/v3/${SECRET}-wrong`,
      retryDelayMs: 5,
    });
    const error = (await wrong
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.status).toBe(403);
    expect(error.attempts).toBe(1);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).toContain(`(${proxy.baseUrl})`);
    const missing = (await createRpcClient({ url: `${proxy.baseUrl}/v3/` })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(missing.status).toBe(401);
  });

  it('a garbage body is a malformed TransportError, after retries are not spent on it', async () => {
    proxy.inject({ type: 'garbage' });
    const error = (await client()
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/not JSON/u);
  });

  it('a reply with the wrong id is a malformed TransportError, never undefined', async () => {
    proxy.inject({ type: 'wrongId' });
    const error = (await client()
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/id/u);
    proxy.inject({ type: 'wrongId' });
    const batch = (await client()
      .batch([{ method: 'eth_chainId' }, { method: 'eth_blockNumber' }])
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(batch).toBeInstanceOf(TransportError);
    expect(batch.kind).toBe('malformed');
  });

  it('a reply with neither result nor error is malformed', async () => {
    proxy.inject({ type: 'noResult' });
    const error = (await client()
      .request('eth_chainId')
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/neither result nor error/u);
  });

  it('a reply with a wrong jsonrpc version is malformed', async () => {
    const fake = createRpcClient({
      url: `https://x.example/v3/${SECRET}`,
      /**
       * Answers every request with a JSON-RPC 1.0 reply.
       *
       * @returns The fake response.
       */
      fetch: async () => ({
        ok: true,
        status: 200,
        /**
         * The reply body.
         *
         * @returns The JSON text.
         */
        text: async (): Promise<string> =>
          JSON.stringify({ jsonrpc: '1.0', id: 1, result: '0x1' }),
      }),
    });
    const error = (await fake
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/jsonrpc/u);
    expect(error.message).not.toContain(SECRET);
  });

  it('times out, retries a read, then gives TransportError kind timeout', async () => {
    proxy.inject({ type: 'delay', ms: 1500, times: 2 });
    const error = (await client({ timeoutMs: 200, retries: 1 })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('timeout');
    expect(error.attempts).toBe(2);
  });

  it('recovers from a single timeout by retrying', async () => {
    proxy.inject({ type: 'delay', ms: 1500 });
    expect(await client({ timeoutMs: 300 }).chainId()).toBe(31337);
  });

  it('a network error is a TransportError with the key masked', async () => {
    const port = await freePort();
    const error = (await createRpcClient({
      url: `http://127.0.0.1:${port}/v3/${SECRET}`,
      retries: 1,
      retryDelayMs: 5,
    })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe('network');
    expect(error.attempts).toBe(2);
    expect(error.message).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('bounds the total retry time', async () => {
    proxy.inject({ type: 'status', status: 502, times: 20 });
    const error = (await client({
      retries: 10,
      retryDelayMs: 100,
      retryMaxElapsedMs: 250,
    })
      .chainId()
      .catch((thrown: unknown) => thrown)) as TransportError;
    expect(error.status).toBe(502);
    expect(error.attempts).toBeLessThan(5);
  });
});
