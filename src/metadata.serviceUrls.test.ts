import { parseChainConfig } from './accounts/erc4337';
import { parseAccountMetadata, parseIpfsConfig } from './metadata';

const SCOPE = 'eip155:1';
/**
 * The error `run` throws, if any.
 *
 * @param run - A parse expected to refuse its input.
 * @returns The error's JSON-RPC code and message, or undefined when `run` accepts.
 */
const refusal = (
  run: () => unknown,
): { code?: number; message?: string } | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return {
      code: (error as { code?: number }).code,
      message: (error as Error).message,
    };
  }
};

describe('keyed service URLs: https, or http on a loopback host only', () => {
  const loopback = [
    'http://127.0.0.1:8545',
    'http://127.1.2.3:1/rpc',
    'http://localhost:8545',
    'http://[::1]:8545',
    'https://rpc.example.com/v3/key',
  ];
  const remoteHttp = [
    'http://rpc.example.com/v3/key',
    'http://128.0.0.1:8545',
    'http://localhost.example.com',
    'http://10.0.0.1',
    'http://[::2]:1',
    'ftp://127.0.0.1',
  ];

  it.each(['rpcUrl', 'bundlerUrl', 'paymasterUrl'])(
    'setChainConfig %s',
    (field) => {
      const base = { scope: SCOPE, rpcUrl: 'https://rpc.example.com' };
      for (const url of loopback) {
        expect(
          parseChainConfig({ ...base, [field]: url })[field as 'rpcUrl'],
        ).toBe(url);
      }
      for (const url of remoteHttp) {
        const error = refusal(() =>
          parseChainConfig({ ...base, [field]: url }),
        );
        expect(error).toStrictEqual({
          code: -32602,
          message: expect.stringMatching(
            new RegExp(
              `^Invalid setChainConfig params at ${field}: expected an https URL`,
              'u',
            ),
          ),
        });
        expect(error?.message).not.toContain(url);
      }
    },
  );

  it.each(['bundlerUrl', 'paymasterUrl'])('account metadata %s', (field) => {
    /**
     * An account metadata document whose chain sets `field` to `url`.
     *
     * @param url - The service URL.
     * @returns The document.
     */
    const doc = (
      url: string,
    ): {
      version: number;
      name: string;
      chains: Record<string, Record<string, string>>;
    } => ({
      version: 1,
      name: 'A',
      chains: { [SCOPE]: { [field]: url } },
    });
    const https = loopback.filter((url) => url.startsWith('https:'));
    for (const url of https) {
      expect(parseAccountMetadata(doc(url)).chains?.[SCOPE]).toStrictEqual({
        [field]: url,
      });
    }
    // a published document never points the snap at the user's own machine
    for (const url of loopback.filter((entry) => !https.includes(entry))) {
      expect(() => parseAccountMetadata(doc(url))).toThrow(
        `invalid account metadata: chains.${SCOPE}.${field}: a loopback URL`,
      );
    }
    for (const url of remoteHttp) {
      expect(() => parseAccountMetadata(doc(url))).toThrow(
        `invalid account metadata: chains.${SCOPE}.${field}: expected an https URL`,
      );
    }
  });
});

describe('setIpfsConfig apiUrl', () => {
  it('is normalised at set time: no trailing slash, no /api/v0', () => {
    expect(
      parseIpfsConfig({ apiUrl: 'https://ipfs.example.com/api/v0/' }).apiUrl,
    ).toBe('https://ipfs.example.com');
    expect(
      parseIpfsConfig({ apiUrl: 'https://ipfs.example.com/gateway/api/v0' })
        .apiUrl,
    ).toBe('https://ipfs.example.com/gateway');
    expect(parseIpfsConfig({ apiUrl: 'http://127.0.0.1:5001/' }).apiUrl).toBe(
      'http://127.0.0.1:5001',
    );
    expect(
      parseIpfsConfig({ apiUrl: 'HTTPS://IPFS.Example.com:443//' }).apiUrl,
    ).toBe('https://ipfs.example.com');
  });

  it.each([
    ['a key in the query', 'https://ipfs.example.com/?apiKey=QmSecretKey123'],
    ['credentials', 'https://user:QmSecretKey123@ipfs.example.com'],
    ['a fragment', 'https://ipfs.example.com/#QmSecretKey123'],
    ['http to a remote host', 'http://ipfs.example.com:5001'],
  ])('refuses %s (-32602 naming apiUrl, never echoing it)', (_name, apiUrl) => {
    const error = refusal(() =>
      parseIpfsConfig({ apiUrl, apiKey: 'k', apiKeySecret: 's' }),
    );
    expect(error).toStrictEqual({
      code: -32602,
      message: expect.stringMatching(
        /^Invalid setIpfsConfig params at apiUrl: /u,
      ),
    });
    expect(error?.message).not.toMatch(/QmSecretKey123|ipfs\.example\.com/u);
  });

  it('account metadata refuses every loopback and unspecified spelling of this machine, and keeps public hosts', () => {
    /**
     * @param url - The bundler URL.
     * @returns A metadata document naming it.
     */
    const doc = (url: string): Record<string, unknown> => ({
      version: 1,
      name: 'A',
      chains: { [SCOPE]: { bundlerUrl: url } },
    });
    for (const url of [
      'https://localhost.:4337',
      'https://wallet.localhost',
      'https://wallet.localhost.',
      'https://[::ffff:127.0.0.1]',
      'https://[::ffff:7f00:1]:4337',
      'https://[::127.0.0.1]',
      'https://0.0.0.0',
      'https://0',
      'https://0.1.2.3',
      'https://[::]',
      'https://[::ffff:0.0.0.0]',
      'https://[0:0:0:0:0:0:0:1]',
      'https://127.1',
      'https://0x7f000001',
    ]) {
      expect(() => parseAccountMetadata(doc(url))).toThrow(
        `invalid account metadata: chains.${SCOPE}.bundlerUrl: a loopback URL`,
      );
    }
    for (const url of [
      'https://localhost.example.com',
      'https://bundler.example.com',
      'https://[::ffff:10.0.0.1]',
      'https://[2001:db8::1]',
      'https://128.0.0.1',
    ]) {
      expect(parseAccountMetadata(doc(url)).chains?.[SCOPE]).toStrictEqual({
        bundlerUrl: url,
      });
    }
  });
});
