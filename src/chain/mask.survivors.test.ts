import { isMaskedUrl, maskKeyed, maskUrl, originOf, redact } from './mask';

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
    const url = 'https://rpc.example.io/abcDEFgh/xyzabcDEFgh';
    expect(redact('x xyzabcDEFgh y', url)).toBe('x *** y');
    expect(redact('x abcDEFgh y', url)).toBe('x *** y');
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
  it('masks the path and query as one when they appear together', () => {
    const url = 'https://rpc.example.io/v3/KEY12345?apikey=abc123456';
    expect(redact('x /v3/KEY12345?apikey=abc123456 y', url)).toBe('x *** y');
  });

  it('masks a query pair as one', () => {
    const url = 'https://rpc.example.io/?apikey=abc123456';
    expect(redact('got apikey=abc123456', url)).toBe('got ***');
  });

  it('masks a segment of exactly 6 characters', () => {
    expect(redact('id abc123 refused', 'https://rpc.example.io/abc123')).toBe(
      'id *** refused',
    );
  });

  it('masks a segment whose percent-encoding is broken', () => {
    const url = 'https://rpc.example.io/key%zz12345678';
    expect(redact('failed key%zz12345678', url)).toBe('failed ***');
  });

  it('leaves text alone for a URL that is not one, without throwing', () => {
    expect(redact('plain text', 'not a url')).toBe('plain text');
  });
});

describe('originOf: host labels that look like keys', () => {
  it('keeps names readable: words, short labels, numbers, and mixes with fewer than 3 digits or under 8 characters', () => {
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

  it('masks a label of 20 characters or more, in any case, and in free text', () => {
    const label = 'abcdefghijklmnopqrst'; // 20 letters
    const url = `https://${label}.rpc.example.io/`;
    expect(originOf(url)).toBe('https://***.rpc.example.io');
    expect(maskUrl(url)).toBe('https://***.rpc.example.io/***');
    expect(redact(`no answer from ${label.toUpperCase()}.rpc`, url)).toBe(
      'no answer from ***.rpc',
    );
  });

  it('masks a label of 8 characters mixing letters with 3 digits', () => {
    const url = 'https://ab1c2d3e.rpc.example.io/';
    expect(originOf(url)).toBe('https://***.rpc.example.io');
    expect(maskKeyed(url)).toBe('https://***.rpc.example.io/***');
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
