import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy on a free 127.0.0.1 port (stopped by its own handle) that forwards every HTTP
 * body to an upstream server as it is, and holds back, while armed, the requests that hold a call
 * of the named methods: a busy node or bundler, made deterministic. Put between Alto and anvil
 * and holding `eth_sendRawTransaction`, it keeps an operation Alto has taken for a bundle out of
 * the chain for that long (the window in which a bundler no longer counts it as pending and the
 * chain does not count it yet).
 */

/** A running delaying proxy. */
export type DelayingProxy = {
  /** Its URL (`http://127.0.0.1:<port>`). */
  url: string;
  /**
   * Hold every request holding a call of `methods` for `ms` milliseconds from now on (until
   * `release`).
   */
  hold: (methods: readonly string[], ms: number) => void;
  /** Stop holding (requests already held keep their delay). */
  release: () => void;
  /** How many requests were held so far (counted when they arrive). */
  readonly held: number;
  /** Stop the server (closes idle connections). */
  stop: () => Promise<void>;
};

/**
 * The JSON-RPC methods of a request body.
 *
 * @param body - The body's text: one call or a batch.
 * @returns The methods named (none when it is not JSON).
 */
function methodsOf(body: string): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).map((call) =>
      String((call as { method?: unknown } | null)?.method),
    );
  } catch {
    return [];
  }
}

/**
 * Start a delaying proxy in front of `upstream`.
 *
 * @param upstream - The upstream JSON-RPC URL.
 * @returns The running proxy (holding nothing until `hold`).
 */
export async function startDelayingProxy(
  upstream: string,
): Promise<DelayingProxy> {
  let rule: { methods: readonly string[]; ms: number } | undefined;
  let held = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delay =
        rule && methodsOf(body).some((method) => rule?.methods.includes(method))
          ? rule.ms
          : 0;
      if (delay > 0) {
        held += 1;
      }
      (async (): Promise<string> => {
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        const reply = await fetch(upstream, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        return reply.text();
      })()
        .then((text) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(text);
          return undefined;
        })
        .catch((error: unknown) => {
          response.writeHead(502, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hold: (methods, ms): void => {
      rule = { methods, ms };
    },
    release: (): void => {
      rule = undefined;
    },
    /** @returns How many requests were held so far. */
    get held(): number {
      return held;
    },
    stop: async () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
