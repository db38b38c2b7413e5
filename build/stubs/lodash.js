/**
 * What `@metamask/utils` (dist/hex.cjs and dist/hex.mjs) takes from lodash: `memoize`, and
 * nothing else. Those files import the whole library for it; this module gives them lodash's
 * own `memoize` module. snap.config.ts applies it to requests from `@metamask/utils` only, and
 * test/node/bundle-size.test.ts checks that those files use no other lodash member.
 */
const memoize = require('lodash/memoize');

module.exports = { memoize };
