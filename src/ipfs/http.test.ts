import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createIpfsClient } from './client';
import { IpfsError } from './errors';
import { basicAuthorization, commandUrl, serverMessage } from './http';
import type { FetchLike } from './http';

describe('request shape (Kubo RPC API)', () => {
  it('builds POST URLs with repeated arg and flags as query parameters', () => {
    expect(
      commandUrl('http://h:5001', 'object/get', {
        args: ['Qm1'],
        flags: { encoding: 'json' },
      }),
    ).toBe('http://h:5001/api/v0/object/get?arg=Qm1&encoding=json');
    expect(
      commandUrl('http://h', 'refs', {
        args: ['a', 'b&c'],
        flags: { recursive: true },
      }),
    ).toBe('http://h/api/v0/refs?arg=a&arg=b%26c&recursive=true');
    expect(commandUrl('http://h', 'version')).toBe('http://h/api/v0/version');
  });

  it('encodes basic credentials as UTF-8', () => {
    expect(basicAuthorization('key', 'secret')).toBe(
      `Basic ${Buffer.from('key:secret').toString('base64')}`,
    );
    expect(basicAuthorization('ключ', 'pä$$')).toBe(
      `Basic ${Buffer.from('ключ:pä$$', 'utf8').toString('base64')}`,
    );
  });

  it('sends POST with the Authorization header on every request, to the normalised URL', async () => {
    const seen: {
      /** The request URL. */
      url: string;
      /** The HTTP method. */
      method: string;
      /** The request headers. */
      headers: Record<string, string>;
    }[] = [];
    /**
     * Records each request and answers with a Kubo error reply.
     *
     * @param url - The request URL.
     * @param init - The request options.
     * @returns An HTTP 500 reply.
     */
    const recordingFetch: FetchLike = async (url, init) => {
      seen.push({ url, method: init.method, headers: init.headers });
      // eslint-disable-next-line no-restricted-globals -- Response is a Node.js global (unflagged since 18; the project needs >= 20)
      return new Response('{"Message":"nope","Code":0,"Type":"error"}', {
        status: 500,
      });
    };
    const client = createIpfsClient({
      apiUrl: 'https://ipfs.example.com/api/v0/',
      apiKey: 'k',
      apiKeySecret: 's',
      fetch: recordingFetch,
    });
    await expect(
      client.blockGet('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD'),
    ).rejects.toThrow('IPFS block/get failed with HTTP 500: nope');
    await expect(client.requestJson('version')).rejects.toThrow(/nope/u);
    expect(seen).toStrictEqual([
      {
        url: 'https://ipfs.example.com/api/v0/block/get?arg=Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD',
        method: 'POST',
        headers: { Authorization: basicAuthorization('k', 's') },
      },
      {
        url: 'https://ipfs.example.com/api/v0/version',
        method: 'POST',
        headers: { Authorization: basicAuthorization('k', 's') },
      },
    ]);
  });

  it('scrubs credentials a server echoes into its message', async () => {
    /**
     * Answers with a body that echoes the API key and secret.
     *
     * @returns An HTTP 500 reply.
     */
    const echoingFetch: FetchLike = async () =>
      // eslint-disable-next-line no-restricted-globals -- Response is a Node.js global (unflagged since 18; the project needs >= 20)
      new Response('bad key my-api-key with secret my-secret-value', {
        status: 403,
      });
    const client = createIpfsClient({
      apiUrl: 'https://h.example',
      apiKey: 'my-api-key',
      apiKeySecret: 'my-secret-value',
      fetch: echoingFetch,
    });
    const error = await client
      .cat('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD')
      .catch((caught: Error) => caught);
    expect((error as Error).message).toBe(
      'IPFS block/get failed with HTTP 403: bad key *** with secret ***',
    );
  });

  it('reads only the start of a huge error body and truncates the message', async () => {
    /**
     * Answers with a 5 MB body.
     *
     * @returns An HTTP 500 reply.
     */
    const hugeFetch: FetchLike = async () =>
      // eslint-disable-next-line no-restricted-globals -- Response is a Node.js global (unflagged since 18; the project needs >= 20)
      new Response('x'.repeat(5_000_000), { status: 500 });
    const error = await createIpfsClient({
      apiUrl: 'https://h.example',
      fetch: hugeFetch,
    })
      .requestJson('version')
      .catch((caught: Error) => caught);
    expect(error).toMatchObject({
      status: 500,
      serverMessage: 'x'.repeat(500),
    });
  });

  it('refuses API URLs that are not http(s) or carry credentials, without echoing them', () => {
    for (const apiUrl of [
      'ftp://h',
      'not a url',
      'https://user:pw@h',
      'https://h/?key=abc',
    ]) {
      let thrown: unknown;
      try {
        createIpfsClient({ apiUrl });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(IpfsError);
      expect((thrown as Error).message).not.toContain(apiUrl);
    }
  });

  it('extracts the server message from JSON, NDJSON or text bodies', () => {
    expect(serverMessage('{"Message":"m","Code":0,"Type":"error"}\n')).toBe(
      'm',
    );
    expect(serverMessage('{"a":1}\n{"Message":"last","Type":"error"}')).toBe(
      'last',
    );
    expect(serverMessage('404 page not found\n')).toBe('404 page not found\n');
  });
});

describe('snap compatibility of src/ipfs', () => {
  it('imports only fetch-world packages: multiformats, @ipld/dag-pb, ipfs-unixfs, itself and the self-contained src/net/redirect.ts', () => {
    const allowed =
      /^(?:\.\/[\w-]+|\.\.\/net\/redirect|multiformats\/[\w/-]+|@ipld\/dag-pb|ipfs-unixfs)$/u;
    const specifiers: string[] = [];

    for (const file of readdirSync(__dirname).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
    )) {
      const source = readFileSync(join(__dirname, file), 'utf8');
      for (const [, specifier] of source.matchAll(/from '([^']+)'/gu)) {
        specifiers.push(specifier);
        expect({
          file,
          specifier,
          allowed: allowed.test(specifier),
        }).toStrictEqual({ file, specifier, allowed: true });
      }
      expect(source).not.toMatch(
        /\bBuffer\b|require\(|\bprocess\.|\bnew Event\b/u,
      );
    }
    expect(specifiers).toContain('@ipld/dag-pb'); // the scan saw the imports
  });
});
