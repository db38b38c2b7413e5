import { createIpfsClient } from './client';
import { IpfsApiError, InvalidContentError } from './errors';
import type { FetchLike } from './http';
import { MAX_JSON_DEPTH } from './json';
import { parseJsonReply, parseNdjson } from './ndjson';

/**
 * Split `text` into byte chunks of `size` (cutting lines and UTF-8 sequences).
 *
 * @param text - The body.
 * @param size - Chunk length in bytes.
 * @yields The chunks.
 */
async function* chunked(
  text: string,
  size: number,
): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) {
    yield bytes.subarray(i, i + size);
  }
}

/**
 * Collect every item.
 *
 * @param source - Items.
 * @returns The array.
 */
async function all(source: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of source) {
    items.push(item);
  }
  return items;
}

describe('parseNdjson', () => {
  const items = [
    { Name: 'ä€😀', Hash: 'Qm1' },
    { Bytes: 3 },
    [1, 2],
    'x',
    { Hash: 'Qm2' },
  ];
  const body = `${items.map((item) => JSON.stringify(item)).join('\n')}\n`;

  it.each([1, 2, 3, 7, 64, 4096])(
    'parses across chunk boundaries of %i bytes',
    async (size) => {
      expect(await all(parseNdjson(chunked(body, size), 'add'))).toStrictEqual(
        items,
      );
    },
  );

  it('parses a last line without newline and skips blank lines', async () => {
    expect(
      await all(parseNdjson(chunked('{"a":1}\n\n  \n{"b":2}', 3), 'x')),
    ).toStrictEqual([{ a: 1 }, { b: 2 }]);
  });

  it('turns a trailing error object into IpfsApiError after yielding what came before', async () => {
    const seen: unknown[] = [];
    const failing = `${body}{"Message":"disk on fire","Code":0,"Type":"error"}\n`;
    const error = await (async (): Promise<unknown> => {
      try {
        for await (const item of parseNdjson(chunked(failing, 5), 'add')) {
          seen.push(item);
        }
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(seen).toStrictEqual(items);
    expect(error).toBeInstanceOf(IpfsApiError);
    expect(error).toMatchObject({
      status: 200,
      streamed: true,
      serverMessage: 'disk on fire',
      command: 'add',
    });
    expect((error as Error).message).toBe(
      'IPFS add failed after streaming began: disk on fire',
    );
  });

  it('refuses a line that is not JSON (a truncated item)', async () => {
    await expect(
      all(parseNdjson(chunked('{"a":1}\n{"b":', 4), 'refs')),
    ).rejects.toThrow(InvalidContentError);
  });
});

describe('single JSON replies and secrets in server messages', () => {
  const apiKey = 'key-7Qm2x9';
  const apiKeySecret = 'secret-Lp04vz';

  const header = Buffer.from(`${apiKey}:${apiKeySecret}`).toString('base64');
  /**
   * A fetch that answers every request with `body` and `status`.
   *
   * @param body - The reply body.
   * @param status - The HTTP status (default 200).
   * @returns The fetch.
   */
  const serving =
    (body: string, status = 200): FetchLike =>
    async () =>
      // eslint-disable-next-line no-restricted-globals -- Response is a Node.js global (unflagged since 18; the project needs >= 20)
      new Response(body, { status });
  /**
   * A client whose every request gets `body` with `status`.
   *
   * @param body - The reply body.
   * @param status - The HTTP status (default 200).
   * @returns The client.
   */
  const client = (
    body: string,
    status = 200,
  ): ReturnType<typeof createIpfsClient> =>
    createIpfsClient({
      apiUrl: 'http://127.0.0.1:5001',
      apiKey,
      apiKeySecret,
      fetch: serving(body, status),
    });
  /**
   * Everything an error shows: message, stack, cause, own fields.
   *
   * @param error - The error.
   * @returns The text.
   */
  const shown = (error: Error): string =>
    `${error.message} ${String(error.stack)} ${String(error.cause)} ${String((error.cause as Error)?.stack)} ${JSON.stringify(error)}`;

  it('parses a single JSON reply printed over several lines', async () => {
    const pretty =
      '{\n  "Version": "0.30.0",\n  "Commit": "",\n  "System": "amd64/linux",\n  "Golang": "go1.22.4"\n}\n';
    expect(parseJsonReply(pretty, 'version')).toStrictEqual({
      Version: '0.30.0',
      Commit: '',
      System: 'amd64/linux',
      Golang: 'go1.22.4',
    });
    expect(await client(pretty).requestJson('version')).toMatchObject({
      Version: '0.30.0',
    });
    expect(await client('{"a":1}\n').requestJson('x')).toStrictEqual({ a: 1 });
    await expect(client('{"a":1}\n{"b":2}\n').requestJson('x')).rejects.toThrow(
      'IPFS x replied with 2 JSON values, expected one',
    );
  });

  it('scrubs the credentials out of an NDJSON error object, streamed or single', async () => {
    const message = `denied for ${apiKey}:${apiKeySecret} (Basic ${header})`;
    const body = `{"Ref":"a"}\n${JSON.stringify({ Message: message, Code: 0, Type: 'error' })}\n`;
    const streamed = await all(client(body).streamNdjson('refs')).catch(
      (error: Error) => error,
    );
    const single = await client(
      JSON.stringify({ Message: message, Code: 0, Type: 'error' }),
    )
      .requestJson('x')
      .catch((error: Error) => error);
    const pretty = await client(
      JSON.stringify({ Message: message, Type: 'error' }, null, 2),
    )
      .requestJson('x')
      .catch((error: Error) => error);
    for (const error of [streamed, single, pretty] as Error[]) {
      expect(error).toBeInstanceOf(IpfsApiError);
      expect((error as IpfsApiError).serverMessage).toBe(
        'denied for ***:*** (Basic ***)',
      );
      for (const secret of [apiKey, apiKeySecret, header]) {
        expect(shown(error)).not.toContain(secret);
      }
    }
  });

  it('never echoes a reply that is not JSON (it may quote the credentials)', async () => {
    const body = `{"Ref":"a"}\nnot json ${apiKeySecret}\n`;
    for (const error of [
      await all(client(body).streamNdjson('refs')).catch(
        (caught: Error) => caught,
      ),
      await client(`oops ${apiKeySecret}`)
        .requestJson('x')
        .catch((caught: Error) => caught),
    ] as Error[]) {
      expect(error).toBeInstanceOf(InvalidContentError);
      expect(shown(error)).not.toContain(apiKeySecret);
    }
  });

  it('refuses JSON nested deeper than MAX_JSON_DEPTH before parsing it', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await expect(client(deep).requestJson('x')).rejects.toThrow(
      `IPFS x reply nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
    await expect(
      all(client(`{"a":${deep}}\n`).streamNdjson('refs')),
    ).rejects.toThrow(/line 1 nests deeper than 64 levels/u);
    expect(
      parseJsonReply(`${'['.repeat(64)}"[[[{{"${']'.repeat(64)}`, 'x'),
    ).toBeInstanceOf(Array); // brackets in strings do not count
  });
});
