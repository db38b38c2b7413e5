import {
  isMaskedUrl,
  maskKeyed,
  maskUrl,
  originOf,
  redact,
  secretsOf,
} from './mask';

/**
 * What a person is shown of an endpoint URL that carries a key, in the shapes the other suites do
 * not try (each found by mutation testing, docs/testing.md "Mutation testing"): the key as the user
 * name, after `#`, overlapping keys, host labels on both sides of the rule, IPv6 hosts.
 */

const KEY = 'Zq8rT5vW2xY7kP3m';

describe('maskUrl: a key anywhere after the host is never shown', () => {
  it('hides a key given as the user name alone (https://KEY@host)', () => {
    const url = `https://${KEY}@rpc.example.io/`;
    expect(maskUrl(url)).toBe('https://rpc.example.io/***');
    expect(maskKeyed(url)).toBe('https://rpc.example.io/***');
    expect(redact(`cannot reach ${url}`, url)).toBe(
      'cannot reach https://rpc.example.io',
    );
  });

  it('hides a key given as the password alone (https://:KEY@host)', () => {
    expect(maskUrl(`https://:${KEY}@rpc.example.io/`)).toBe(
      'https://rpc.example.io/***',
    );
  });

  it('hides a key after # (https://host/#KEY)', () => {
    const url = `https://rpc.example.io/#${KEY}`;
    expect(maskUrl(url)).toBe('https://rpc.example.io/***');
    expect(maskKeyed(url)).toBe('https://rpc.example.io/***');
  });

  it('hides a bare ? (an empty query still marks the URL as keyed)', () => {
    expect(maskUrl('https://rpc.example.io/?')).toBe(
      'https://rpc.example.io/***',
    );
  });

  it('shows a URL with nothing secret as given (maskKeyed) or as parsed (maskUrl)', () => {
    expect(maskKeyed('http://127.0.0.1:5001')).toBe('http://127.0.0.1:5001');
    expect(maskUrl('http://127.0.0.1:5001')).toBe('http://127.0.0.1:5001/');
    expect(maskKeyed('https://rpc.example.io/')).toBe(
      'https://rpc.example.io/',
    );
  });
});

describe('isMaskedUrl: a masked placeholder is told from an endpoint', () => {
  it('is true exactly for URLs holding ***', () => {
    expect(isMaskedUrl('https://rpc.example.io/***')).toBe(true);
    expect(isMaskedUrl('https://***.example.io')).toBe(true);
    expect(isMaskedUrl('https://rpc.example.io/')).toBe(false);
    expect(isMaskedUrl(`https://rpc.example.io/v3/${KEY}`)).toBe(false);
  });
});

describe('redact: overlapping secrets leave no piece behind', () => {
  it('masks a segment that contains another whole, not the inner one first', () => {
    const inner = 'abcDEFgh12345678'; // 16 characters
    const outer = `xyz${inner}`; // 19 characters
    const url = `https://rpc.example.io/${inner}/${outer}`;
    expect(redact(`x ${outer} y`, url)).toBe('x *** y');
    expect(redact(`x ${inner} y`, url)).toBe('x *** y');
  });

  it('masks a query value and the percent-decoded user name', () => {
    const url = `https://us%65r${KEY}:pw${KEY}@rpc.example.io/?apikey=${KEY}`;
    const text = `user${KEY} pw${KEY} ${KEY}`;
    expect(redact(text, url)).toBe('*** *** ***');
  });

  it('leaves short path words readable (v3, eth) and text without the URL as it is', () => {
    const url = `https://rpc.example.io/v3/eth/${KEY}`;
    expect(redact('method eth_call on v3 failed', url)).toBe(
      'method eth_call on v3 failed',
    );
  });
});

describe('redact: every shape of a key in the path and query', () => {
  it('masks the key in the path and the query value, keeping the version and the name readable', () => {
    const url = `https://rpc.example.io/v3/${KEY}?apikey=abc123456`;
    expect(redact(`x /v3/${KEY}?apikey=abc123456 y`, url)).toBe(
      'x /v3/***?apikey=*** y',
    );
  });

  it('masks only the value of a query pair, keeping the chain id readable', () => {
    const url = 'https://rpc.example.io/11155111?apikey=abc123456';
    expect(redact('chain 11155111: got apikey=abc123456', url)).toBe(
      'chain 11155111: got apikey=***',
    );
  });

  it('masks a key-like segment of 16 characters or more', () => {
    for (const segment of [
      '0123456789abcdef', // hex
      'abcdefghijklmnop', // letters only
      '5HueCGU8rMjxEXxi', // base58
      'AbCd-EfGh_IjKlMn', // mixed case with - and _
      'abcd-efgh_ijkl-1', // - and _ with a digit
    ]) {
      expect(segment).toHaveLength(16);
      expect(
        redact(`id ${segment} refused`, `https://rpc.example.io/${segment}`),
      ).toBe('id *** refused');
    }
  });

  it('keeps a segment readable under 16 characters, word-like, or with a ~', () => {
    for (const segment of [
      '0123456789abcde', // 15 characters
      'eth-mainnet-archive',
      'ETH_MAINNET_ARCHIVE',
      '~0123456789abcdef',
      '0123456789abcdef~',
    ]) {
      expect(
        redact(`id ${segment} refused`, `https://rpc.example.io/${segment}`),
      ).toBe(`id ${segment} refused`);
    }
  });

  it('masks a key-named query value of 6 characters, not of 5', () => {
    expect(
      redact('id abc123 refused', 'https://rpc.example.io/?apikey=abc123'),
    ).toBe('id *** refused');
    expect(
      redact('id abc12 refused', 'https://rpc.example.io/?apikey=abc12'),
    ).toBe('id abc12 refused');
  });

  it('masks a query value or name whose percent-encoding is broken', () => {
    expect(
      redact(
        'failed abc%zz123456',
        'https://rpc.example.io/?apikey=abc%zz123456',
      ),
    ).toBe('failed ***');
    expect(
      redact('failed abc123456', 'https://rpc.example.io/?api%zzkey=abc123456'),
    ).toBe('failed ***');
  });

  it('leaves text alone for a URL that is not one, without throwing', () => {
    expect(redact('plain text', 'not a url')).toBe('plain text');
  });
});

describe('originOf: host labels that look like keys', () => {
  it('keeps names readable: words, numbers, and any label under 16 characters', () => {
    for (const host of [
      'mainnet.example.io',
      'eth-sepolia.example.io',
      'arb1.example.io',
      'abcdef12.example.io', // 8 characters, 2 digits
      'abcd123.example.io', // 3 digits, 7 characters
      '12345678.example.io', // digits only
    ]) {
      expect(originOf(`https://${host}/`)).toBe(`https://${host}`);
      expect(maskKeyed(`https://${host}`)).toBe(`https://${host}`);
    }
  });

  it('masks a label of 16 letters in place, in any case, and in free text', () => {
    const label = 'abcdefghijklmnop'; // 16 letters
    const url = `https://${label}.rpc.example.io/`;
    expect(originOf(url)).toBe('https://***.rpc.example.io');
    expect(maskUrl(url)).toBe('https://***.rpc.example.io/');
    expect(redact(`no answer from ${label.toUpperCase()}.rpc`, url)).toBe(
      'no answer from ***.rpc',
    );
  });

  it('masks a label of 16 letters and digits, not one of 15', () => {
    const url = 'https://ab1c2d3e4f5g6h7i.rpc.example.io';
    expect(originOf(`${url}/`)).toBe('https://***.rpc.example.io');
    expect(maskKeyed(`${url}/`)).toBe('https://***.rpc.example.io/');
    expect(maskKeyed(url)).toBe('https://***.rpc.example.io');
    const short = 'https://ab1c2d3e4f5g6h7.rpc.example.io'; // 15 characters
    expect(originOf(`${short}/`)).toBe(short);
    expect(maskKeyed(short)).toBe(short);
  });

  it('keeps an IPv6 literal host whole, whatever its length', () => {
    const url = `http://[2001:db8:1234:5678::1]:8545/${KEY}`;
    expect(originOf(url)).toBe('http://[2001:db8:1234:5678::1]:8545');
    expect(maskUrl(url)).toBe('http://[2001:db8:1234:5678::1]:8545/***');
    expect(redact(`refused by ${url}`, url)).toBe(
      'refused by http://[2001:db8:1234:5678::1]:8545',
    );
  });
});

describe('maskKeyed and maskUrl: what is shown of a URL with nothing secret', () => {
  it('shows such a URL exactly as typed (case, default port), and masks a non-URL whole', () => {
    expect(maskKeyed('https://RPC.Example.io:443')).toBe(
      'https://RPC.Example.io:443',
    );
    expect(maskKeyed('not a url')).toBe('***');
    expect(maskUrl('not a url')).toBe('***');
  });

  it('adds no path to a URL of a scheme that has none (foo://host)', () => {
    expect(maskUrl('foo://node.example')).toBe('foo://node.example');
  });
});

describe('redact: user-info and query values', () => {
  it('masks user:password@ as one, so a short user name does not stay beside the key', () => {
    const url = `https://ab:${KEY}@rpc.example.io/`;
    expect(redact(`login ab:${KEY}@rpc.example.io refused`, url)).toBe(
      'login ***rpc.example.io refused',
    );
    const passwordOnly = `https://:${KEY}@rpc.example.io/`;
    expect(redact(`login :${KEY}@rpc.example.io refused`, passwordOnly)).toBe(
      'login ***rpc.example.io refused',
    );
  });

  it('keeps query values readable unless their name says key or they look like one', () => {
    const url =
      'https://rpc.example.io/?network=sepolia1&note=monkey123&apikey=abc123456';
    expect(
      redact('network sepolia1, note=monkey123, apikey=abc123456', url),
    ).toBe('network sepolia1, note=monkey123, apikey=***');
  });
});

describe('secretsOf: a string that is not a URL', () => {
  it('is a secret as a whole', () => {
    expect(secretsOf('not a url')).toStrictEqual(['not a url']);
  });
});

describe('redact: a bare query item', () => {
  it('masks a key given alone as the query (?KEY), first or after a pair, and a key with an empty name', () => {
    expect(
      redact(`node says ${KEY} is unknown`, `https://rpc.example.io/?${KEY}`),
    ).toBe('node says *** is unknown');
    expect(
      redact(
        `node says ${KEY} is unknown`,
        `https://rpc.example.io/?chain=1&${KEY}`,
      ),
    ).toBe('node says *** is unknown');
    expect(
      redact(`node says ${KEY} is unknown`, `https://rpc.example.io/?=${KEY}`),
    ).toBe('node says *** is unknown');
  });

  it('keeps a bare word readable, even one holding "key"', () => {
    expect(
      redact('monkeys and verbose', 'https://rpc.example.io/?monkeys&verbose'),
    ).toBe('monkeys and verbose');
  });
});
