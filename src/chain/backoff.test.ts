import { TransportError } from './errors';
import { createTransport } from './transport';
import type { CallBudget, FetchLike } from './transportTypes';

/**
 * A fetch that answers HTTP 503 to every attempt, counting the JSON-RPC calls it was sent.
 *
 * @param sent - Where the calls are added up.
 * @param sent.calls - Calls sent (a batch counts its members).
 * @returns The fetch.
 */
function unavailable(sent: { calls: number }): FetchLike {
  return async (_url, init) => {
    const body: unknown = JSON.parse(init.body);
    sent.calls += Array.isArray(body) ? body.length : 1;
    return {
      ok: false,
      status: 503,
      text: async () => '',
      headers: { get: () => null },
    };
  };
}

/**
 * A fetch that never answers (until its attempt is aborted).
 *
 * @param sent - Where the attempts are counted.
 * @param sent.calls - Attempts made.
 * @returns The fetch.
 */
function silent(sent: { calls: number }): FetchLike {
  return async (_url, init) => {
    sent.calls += 1;
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () =>
        reject(new Error('aborted')),
      );
    });
  };
}

const CALLS = [
  { method: 'eth_getBalance', params: ['0x0', 'latest'] },
  { method: 'eth_getTransactionCount', params: ['0x0', 'latest'] },
];

describe('a CallBudget shared by transports', () => {
  it('pays for every attempt, retries included, before it is sent: none is sent it cannot pay for', async () => {
    const sent = { calls: 0 };
    const budget: CallBudget = { calls: 5, deadline: Date.now() + 60_000 };
    const transport = createTransport({
      url: 'https://rpc.example',
      fetch: unavailable(sent),
      retries: 10,
      sleep: async () => undefined,
      budget,
    });
    await expect(transport.batchSettled(CALLS)).rejects.toBeInstanceOf(
      TransportError,
    );
    // two attempts of two calls were paid; the third could not be
    expect(sent.calls).toBe(4);
    expect(budget.calls).toBe(1);
    await expect(transport.request('eth_chainId')).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(budget.calls).toBe(0);
    await expect(transport.request('eth_chainId')).rejects.toMatchObject({
      kind: 'budget',
    });
    expect(sent.calls).toBe(5);
  });

  it('cuts an attempt at the deadline and retries nothing after it', async () => {
    const sent = { calls: 0 };
    const budget: CallBudget = { calls: 100, deadline: Date.now() + 50 };
    const transport = createTransport({
      url: 'https://rpc.example',
      fetch: silent(sent),
      timeoutMs: 60_000,
      retries: 10,
      sleep: async () => undefined,
      budget,
    });
    await expect(transport.request('eth_chainId')).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(sent.calls).toBe(1);
  });

  it('changes nothing for a transport without one', async () => {
    const sent = { calls: 0 };
    const transport = createTransport({
      url: 'https://rpc.example',
      fetch: unavailable(sent),
      retries: 2,
      sleep: async () => undefined,
    });
    await expect(transport.request('eth_chainId')).rejects.toBeInstanceOf(
      TransportError,
    );
    expect(sent.calls).toBe(3);
  });
});
