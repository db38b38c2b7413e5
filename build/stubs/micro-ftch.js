/**
 * Stand-in for `micro-ftch` (an HTTP client) where eth-sig-util's copy of @ethereumjs/util 8
 * requires it: only that package's `fetchFromProvider` calls it, and neither eth-sig-util nor
 * this snap calls `fetchFromProvider` (test/node/bundle-size.test.ts checks it). The real
 * module pulls Node's `url` and `util` polyfills (with `qs`, `object-inspect`, `get-intrinsic`)
 * into the bundle. Calling it throws.
 */
function unavailable() {
  throw new Error('micro-ftch is not bundled in this snap');
}
module.exports = { __esModule: true, default: unavailable };
