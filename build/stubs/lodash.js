/**
 * What `@metamask/utils` (dist/hex.cjs and dist/hex.mjs) takes from lodash: `memoize`, and
 * nothing else, for its one-argument address checks (`getChecksumAddress`,
 * `isValidChecksumAddress`, `isValidHexAddress`). Those files import the whole library for it;
 * snap.config.ts gives requests from `@metamask/utils` this module instead. lodash's own `memoize`
 * brings its MapCache/Hash/ListCache family (about 3.5 kB gzip in the bundle) and never forgets an
 * entry; this one keys on the first argument as lodash's default resolver does, and keeps the
 * newest MAX_ENTRIES results, so addresses read from a server cannot grow the snap's memory
 * without bound. test/node/bundle-size.test.ts checks that those files use no other lodash member
 * and that this memoize answers as the function it wraps.
 */
const MAX_ENTRIES = 256;

/**
 * Memoize a one-argument function, keeping its newest MAX_ENTRIES results.
 *
 * @template {(key: unknown) => unknown} F
 * @param {F} fn - A function of one argument, without side effects.
 * @returns {F} `fn` with its latest MAX_ENTRIES results kept, keyed by the first argument.
 */
function memoize(fn) {
  const cache = new Map();
  return (key) => {
    if (cache.has(key)) {
      return cache.get(key);
    }
    const value = fn(key);
    if (cache.size >= MAX_ENTRIES) {
      cache.delete(cache.keys().next().value);
    }
    cache.set(key, value);
    return value;
  };
}

module.exports = { memoize, maxEntries: MAX_ENTRIES };
