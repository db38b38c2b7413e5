import {
  bounded,
  defang,
  displayText,
  hasHiddenCharacters,
  fieldPath,
  knownName,
  printable,
  quoteId,
  structMessage,
} from './safeText';

const KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

describe('error text never carries what was sent', () => {
  it('keeps field names, hides keys that may be secrets', () => {
    expect(fieldPath(['params', 'account', 'options', 'exportable'])).toBe(
      'params.account.options.exportable',
    );
    expect(
      fieldPath(['chains', 'eip155:11155111', 'maxPriorityFeePerGas', 0]),
    ).toBe('chains.eip155:11155111.maxPriorityFeePerGas.0');
    expect(fieldPath(['private_key', 'apiSecret'])).toBe(
      'private_key.apiSecret',
    );
    for (const secret of [
      KEY,
      `0x${KEY}`,
      'rpcKeyHq83Lm29Xc71Vb40Ns',
      'ipfs-secret-Zp4Q9vN2xW7kT1',
      'a b',
      '"quoted"',
      '',
      'k'.repeat(21),
    ]) {
      expect(fieldPath(['params', secret])).toBe('params.<key>');
    }
  });

  it('rewrites superstruct messages: path kept, received value dropped, 300 characters at most', () => {
    expect(
      structMessage(
        `At path: params.id -- Expected a value of type \`UuidV4\`, but received: \`"0x${KEY}"\``,
      ),
    ).toBe('at params.id: Expected a value of type `UuidV4`');
    expect(
      structMessage(
        `At path: params.${KEY} -- Expected a value of type \`never\`, but received: \`1\``,
      ),
    ).toBe('at params.<key>: unknown field');
    expect(
      structMessage(
        `Expected a string matching \`/^0x/\` but received "${KEY}"`,
      ),
    ).toBe('Expected a string matching `/^0x/`');
    expect(
      structMessage(
        `At path: params.id -- Expected a string, but received: ${'1,'.repeat(40_000)}`,
      ),
    ).toBe('at params.id: Expected a string');
    expect(
      structMessage(`At path: x -- ${'Expected '.repeat(100)}`).length,
    ).toBeLessThanOrEqual(300);
    expect(bounded('x'.repeat(301))).toHaveLength(300);
  });

  it('names methods and ids only when they are known shapes', () => {
    expect(knownName('keyring_getAccount', ['keyring_getAccount'])).toBe(
      "'keyring_getAccount'",
    );
    expect(knownName(KEY, ['keyring_getAccount'])).toBe('this method');
    expect(quoteId('6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40')).toBe(
      "'6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40'",
    );
    expect(quoteId(KEY)).toBe('with this id');
  });

  it('defang: same keys and values, printable by a template string', () => {
    const value = JSON.parse(
      '{"__proto__": {"toString": "x"}, "a": [{ "valueOf": "y", "toString": "z" }]}',
    );
    const copy = defang(value) as Record<string, unknown>;
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what is tested: a template string prints it
    expect(`${copy.a}`).toBe('[value]');
    // eslint-disable-next-line @typescript-eslint/restrict-template-expressions -- what is tested: a template string prints it
    expect(() => `${(copy.a as unknown[])[0]}`).not.toThrow();
  });
});

describe('text from outside is shown without hidden characters', () => {
  it('replaces bidi overrides, isolates and marks, C0/C1 controls and invisible separators with U+FFFD; keeps line feeds and ordinary text', () => {
    // "Pay ‮0x...dcba‬" would read reversed; every listed code point, built by code, not copied from the module
    const hidden = [
      ...Array.from({ length: 0x20 }, (_, code) => code).filter(
        (code) => code !== 0x0a,
      ),
      ...Array.from({ length: 0x21 }, (_, index) => 0x7f + index),
      0x061c,
      0x200b,
      0x200e,
      0x200f,
      0x2028,
      0x2029,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2060,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
      0xfeff,
    ];
    for (const code of hidden) {
      const text = `a${String.fromCodePoint(code)}b`;
      expect(displayText(text)).toBe('a\ufffdb');
      expect(hasHiddenCharacters(text)).toBe(true);
    }
    const plain = 'Sign in to example.org\nNonce: 42 — café 日本語 مرحبا 👍🏽';
    expect(displayText(plain)).toBe(plain);
    expect(hasHiddenCharacters(plain)).toBe(false);
    expect(displayText('Pay \u202e0x1234abcd\u202c now')).toBe(
      'Pay \ufffd0x1234abcd\ufffd now',
    );
  });
});

describe('printable: server text as it may go back to a caller', () => {
  it('turns control, format and bidi-override characters into single spaces and cuts to 300 characters', () => {
    expect(printable('a\u0000b\u202e\u2066c\n\nd\u0085e')).toBe('a b c d e');
    const cut = printable(`${'\u{1F600}'.repeat(400)}`);
    expect([...cut]).toHaveLength(300);
    expect(cut.endsWith('…')).toBe(true);
    expect(printable('short', 10)).toBe('short');
  });
});
