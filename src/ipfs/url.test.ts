import { createIpfsClient } from './client';
import { InvalidApiUrlError } from './errors';
import { isLoopbackHost, normalizeIpfsApiUrl } from './url';

describe('normalizeIpfsApiUrl', () => {
  it.each([
    ['https://ipfs.example.com:5001/api/v0/', 'https://ipfs.example.com:5001'],
    ['https://ipfs.example.com/api/v0', 'https://ipfs.example.com'],
    ['https://IPFS.Example.com:443/', 'https://ipfs.example.com'],
    ['https://gw.example.com/ipfs-api//', 'https://gw.example.com/ipfs-api'],
    [
      'https://gw.example.com/ipfs-api/api/v0/',
      'https://gw.example.com/ipfs-api',
    ],
    ['http://127.0.0.1:5001', 'http://127.0.0.1:5001'],
    ['http://127.1:5001/api/v0', 'http://127.0.0.1:5001'],
    ['http://127.255.0.9/', 'http://127.255.0.9'],
    ['http://localhost:5001/', 'http://localhost:5001'],
    ['http://[::1]:5001/api/v0/', 'http://[::1]:5001'],
    ['  https://ipfs.example.com  ', 'https://ipfs.example.com'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeIpfsApiUrl(input)).toBe(expected);
  });

  it.each([
    ['not a url', 'syntax', 'apiUrl: is not a valid absolute URL'],
    ['/api/v0', 'syntax', 'apiUrl: is not a valid absolute URL'],
    [
      'ftp://files.example.com',
      'scheme',
      'apiUrl: must use https (or http to a loopback host)',
    ],
    [
      'https://user:hunter2@ipfs.example.com',
      'userinfo',
      'apiUrl: must not carry credentials; set apiKey and apiKeySecret (sent as HTTP basic auth)',
    ],
    ['https://hunter2@ipfs.example.com', 'userinfo', expect.any(String)],
    ['http://:hunter2@127.0.0.1', 'userinfo', expect.any(String)],
    [
      'https://ipfs.example.com/?key=hunter2',
      'query',
      'apiUrl: must not have a query string',
    ],
    ['https://ipfs.example.com/api/v0?', 'query', expect.any(String)],
    [
      'https://ipfs.example.com/#hunter2',
      'fragment',
      'apiUrl: must not have a fragment',
    ],
    ['https://ipfs.example.com#', 'fragment', expect.any(String)],
    [
      'http://ipfs.example.com:5001',
      'insecure',
      'apiUrl: must use https unless the host is loopback (localhost, 127.0.0.0/8, [::1])',
    ],
    ['http://128.0.0.1', 'insecure', expect.any(String)],
    ['http://10.0.0.1:5001', 'insecure', expect.any(String)],
    ['http://localhost.example.com', 'insecure', expect.any(String)],
    ['http://[::2]', 'insecure', expect.any(String)],
    [
      `https://ipfs.example.com/${'a'.repeat(2048)}`,
      'length',
      'apiUrl: must be a string of at most 2048 characters',
    ],
  ])('refuses %s (%s) without echoing it', (input, problem, message) => {
    let error: unknown;
    try {
      normalizeIpfsApiUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidApiUrlError);
    expect(error).toMatchObject({ problem, message });
    const shown = `${(error as Error).message} ${String((error as Error).stack)}`;
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('example.com');
    expect(() => createIpfsClient({ apiUrl: input })).toThrow(
      InvalidApiUrlError,
    );
  });

  it('recognises loopback hosts only', () => {
    expect(
      ['localhost', '127.0.0.1', '127.1.2.3', '[::1]'].map(isLoopbackHost),
    ).toStrictEqual([true, true, true, true]);
    expect(
      [
        '127.0.0.1.example.com',
        '127.0.0',
        '0.0.0.0',
        '[::ffff:7f00:1]',
        'localhost.',
      ].map(isLoopbackHost),
    ).toStrictEqual([false, false, false, false, false]);
  });
});
