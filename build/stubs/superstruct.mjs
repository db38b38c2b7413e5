/**
 * The part of `@metamask/superstruct` that `@metamask/abi-utils` uses (its `bool` and `function`
 * parsers). abi-utils is CommonJS and `require`s the package, which brought superstruct's
 * CommonJS build into the bundle beside the ES build everything else imports (two copies of the
 * same version). This ES module re-exports the same functions from the ES build, so the bundle
 * keeps one copy. snap.config.ts applies it to requests from abi-utils;
 * test/node/bundle-size.test.ts checks that every member abi-utils reads is listed here.
 */
export {
  boolean,
  coerce,
  create,
  instance,
  literal,
  object,
  union,
} from '@metamask/superstruct';
