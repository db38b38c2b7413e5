/**
 * A webpack loader for @metamask/abi-utils 3.0.0's CommonJS files: each
 * `(0, utils_1.assert)(CONDITION, new errors_1.ParserError(MESSAGE));` becomes
 * `if (!(CONDITION)) throw new errors_1.ParserError(MESSAGE);`, on the same line.
 *
 * Why: abi-utils builds the `ParserError` (an `Error`, whose stack V8 captures) as the argument
 * of `assert` before the assertion runs, so every field it encodes built one or more errors that
 * were then dropped. In the snap's SES sandbox an `Error` costs 15-60 µs, and one small EIP-712
 * message built 37 of them (docs/performance.md, "Typed data: errors built and dropped").
 *
 * Why it changes nothing else: @metamask/utils' `assert(value, message)` does
 * `if (!value) { if (message instanceof Error) throw message; ... }`, so when the condition is
 * falsy both forms evaluate the same message and throw the same `ParserError`; when it is truthy
 * the rewritten form skips building an error nobody sees. The one difference would be a message
 * whose construction throws while the condition holds: every message here interpolates only the
 * type string, a constant, or a `.length` / parsed bigint that the condition itself has just
 * compared as a number or bigint (test/build/abi-utils-asserts.test.ts compares the rewritten library with the original).
 *
 * Exact match: `EXPECTED` lists, per file, how many such calls the installed version has. A
 * file whose count differs, or that keeps an `assert(…, new …ParserError(…))` the pattern did
 * not take, fails the build (and `checkInstalled`, which snap.config.ts runs on every build,
 * fails it before webpack starts if a listed file is missing or changed): an upgrade of
 * abi-utils cannot skip the rewrite silently, it has to be looked at again.
 */
const { readFileSync } = require('node:fs');
const path = require('node:path');

/** The version the counts below were taken from. */
const VERSION = '3.0.0';

/** Per file (relative to the package), the number of `assert(…, new ParserError(…))` calls. */
const EXPECTED = {
  'dist/abi.js': 1,
  'dist/packer.js': 3,
  'dist/parsers/address.js': 1,
  'dist/parsers/array.js': 5,
  'dist/parsers/fixed-bytes.js': 2,
  'dist/parsers/function.js': 1,
  'dist/parsers/number.js': 5,
  'dist/parsers/tuple.js': 1,
};

/** One call on one line: indentation, condition, the `new errors_1.ParserError(…)` expression. */
const CALL =
  /^([ \t]*)\(0, utils_1\.assert\)\((.+), (new errors_1\.ParserError\((?:`[^`\n]*`|'[^'\n]*')\))\);$/gmu;
/**
 * Any `assert` whose message is a `new …ParserError(`, however written (across lines too): none
 * may be left.
 */
const LEFT =
  /utils_1\.assert\)\((?:(?!\);)[\s\S])*?new errors_1\.ParserError\(/u;

/**
 * Rewrite one file of the package.
 *
 * @param {string} source - The file's text.
 * @param {string} file - Its path relative to the package folder, `/`-separated.
 * @returns {string} The rewritten text.
 * @throws {Error} When the number of calls rewritten is not `EXPECTED[file]` (0 for files not
 * listed), or when one is left.
 */
function rewrite(source, file) {
  let count = 0;
  const output = source.replace(CALL, (_match, indent, condition, error) => {
    count += 1;
    return `${indent}if (!(${condition})) throw ${error};`;
  });
  const expected = EXPECTED[file] ?? 0;
  if (count !== expected || LEFT.test(output)) {
    throw new Error(
      `build/loaders/abi-utils-asserts.js: @metamask/abi-utils ${file} has ${count} assert(…, new ParserError(…)) call(s) matching the rewrite, expected ${expected}${LEFT.test(output) ? ', and some left unmatched' : ''}. The package changed (pinned rewrite for ${VERSION}): review the rewrite and EXPECTED.`,
    );
  }
  return output;
}

/**
 * Check the installed package before a build: its version, and every listed file's count.
 *
 * @param {string} packageDir - The installed @metamask/abi-utils folder.
 * @throws {Error} When the version is not `VERSION` or a listed file does not match.
 */
function checkInstalled(packageDir) {
  const { version } = JSON.parse(
    // eslint-disable-next-line n/no-sync -- a build step, once per build
    readFileSync(path.join(packageDir, 'package.json'), 'utf8'),
  );
  if (version !== VERSION) {
    throw new Error(
      `build/loaders/abi-utils-asserts.js: written for @metamask/abi-utils ${VERSION}, found ${version}: review the rewrite and EXPECTED.`,
    );
  }
  for (const file of Object.keys(EXPECTED)) {
    // eslint-disable-next-line n/no-sync -- a build step, once per build
    rewrite(readFileSync(path.join(packageDir, file), 'utf8'), file);
  }
}

/**
 * The loader: webpack calls it with each file of the package.
 *
 * @param {string} source - The file's text.
 * @returns {string} The rewritten text.
 */
function loader(source) {
  const marker = `${path.sep}@metamask${path.sep}abi-utils${path.sep}`;
  const at = this.resourcePath.lastIndexOf(marker);
  const file = this.resourcePath
    .slice(at + marker.length)
    .split(path.sep)
    .join('/');
  return rewrite(source, file);
}

module.exports = loader;
module.exports.rewrite = rewrite;
module.exports.checkInstalled = checkInstalled;
module.exports.EXPECTED = EXPECTED;
module.exports.VERSION = VERSION;
