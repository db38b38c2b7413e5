/**
 * The layer rules of src/ (docs/architecture.md), checked by dependency-cruiser
 * (https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md).
 *
 * `npm run lint` runs this file with Node (`node .dependency-cruiser.cjs`): dependency-cruiser's
 * command line refuses Node 20, its API does not, so the runner at the bottom calls `cruise()` with
 * these rules, and also checks that src/platform.ts is the only file that calls `snap.request`,
 * that no non-test file under src/ is longer than MAX_SOURCE_LINES lines (split it along a seam),
 * compares an error's name instead of using `instanceof` (ERROR_NAME_COMPARISON), or exports a
 * function or class under a name another src/ file exports too.
 * Any violation fails lint (and so `npm test`, whose pretest runs lint).
 *
 * Layers, top to bottom: src/index.ts (entry) > src/handlers/, src/ui/ (front doors, home page) >
 * src/domain.ts (composition root) > src/sites/ (what any site may ask) > src/keyring/, src/settings.ts,
 * src/consent.ts (the domain) >
 * src/accounts/, src/metadata.ts, src/state/ > src/ui/dialogs/ (dialog content) > src/platform.ts
 * (the only caller of snap.request), src/utils/ (helpers; src/utils/errorMap.ts also reads the two
 * libraries' error classes) > src/chain/, src/ipfs/ (plain libraries) > src/net/ (what they share).
 * Type imports count: a type two layers share lives in the lower one.
 */
/* eslint-disable n/no-sync -- a one-shot lint script, run before the tests */
const fs = require('node:fs');
const path = require('node:path');

/** The longest a non-test file under src/ may be, in lines. */
const MAX_SOURCE_LINES = 500;

/**
 * An error recognised by its name instead of its class (`error.name === 'TransportError'`,
 * `case 'IpfsError':`): errors are told apart with `instanceof` (src/utils/errorMap.ts), so that one class
 * has one name and a renamed class cannot silently stop matching.
 */
const ERROR_NAME_COMPARISON = new RegExp(
  [
    String.raw`[!=]==?\s*['"\x60][A-Z]\w*Error['"\x60]`,
    String.raw`['"\x60][A-Z]\w*Error['"\x60]\s*[!=]==?`,
    String.raw`\bcase\s+['"\x60][A-Z]\w*Error['"\x60]\s*:`,
    String.raw`\b(?:error|err|e|caught|thrown|cause|reason)\??\.name\s*[!=]==?`,
    String.raw`[!=]==?\s*(?:error|err|e|caught|thrown|cause|reason)\??\.name\b`,
  ].join('|'),
  'u',
);

/** An exported function or class (`export [async] function NAME`, `export const NAME = (...) =>`). */
const EXPORTED_CALLABLE =
  /^export\s+(?:default\s+)?(?:(?:async\s+)?function\*?\s+([\w$]+)|(?:abstract\s+)?class\s+([\w$]+)|const\s+([\w$]+)(?:\s*:[^=]+)?\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>))/gmu;

const SNAP_ROOT_FILES =
  '^src/(index|domain|settings|consent|metadata|platform)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle: one of its files must not know the other (move the shared part down).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'chain-is-a-library',
      severity: 'error',
      comment:
        'src/chain/ is a plain JSON-RPC library: it imports nothing of the snap (src/net/, which imports nothing else, is shared with the IPFS library).',
      from: { path: '^src/chain/' },
      to: {
        path: '^src/',
        pathNot: ['^src/chain/', '^src/net/'],
      },
    },
    {
      name: 'ipfs-is-a-library',
      severity: 'error',
      comment:
        'src/ipfs/ is a plain IPFS HTTP API library: it imports nothing of the snap (but the self-contained src/net/), and nothing of the chain library.',
      from: { path: '^src/ipfs/' },
      to: {
        path: '^src/',
        pathNot: ['^src/ipfs/', '^src/net/'],
      },
    },
    {
      name: 'net-is-the-ground',
      severity: 'error',
      comment:
        'src/net/ holds what both plain libraries share about fetch (the redirect refusal): it imports nothing of the snap.',
      from: { path: '^src/net/' },
      to: { path: '^src/', pathNot: '^src/net/' },
    },
    {
      name: 'accounts-get-their-config-passed-in',
      severity: 'error',
      comment:
        'Account types never read the keyring, state, front doors, UI or platform: their keys, config and dialogs are passed in.',
      from: { path: '^src/accounts/' },
      to: { path: ['^src/(keyring|state|handlers|ui)/', SNAP_ROOT_FILES] },
    },
    {
      name: 'utils-are-leaves',
      severity: 'error',
      comment:
        'src/utils/ imports nothing above it (only other utils, the plain chain library, and the IPFS error classes for errorMap.ts).',
      from: { path: '^src/utils/' },
      to: {
        path: '^src/',
        pathNot: ['^src/utils/', '^src/chain/', '^src/ipfs/errors[.]ts$'],
      },
    },
    {
      name: 'platform-is-a-leaf',
      severity: 'error',
      comment:
        'src/platform.ts wraps snap.request and knows nothing of the snap: callers build what it shows or stores.',
      from: { path: '^src/platform[.]ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'state-knows-no-keyring',
      severity: 'error',
      comment:
        'The state schema and store sit below the keyring, settings and front doors.',
      from: { path: '^src/state/' },
      to: {
        path: [
          '^src/(keyring|handlers|ui)/',
          '^src/(index|domain|settings|consent)[.]ts$',
        ],
      },
    },
    {
      name: 'domain-never-builds-ui',
      severity: 'error',
      comment:
        'The domain asks the platform to confirm (KeyringPlatform); the entry hands it src/ui/snapPlatform.ts, which wires the dialogs in.',
      from: {
        path: [
          '^src/(keyring|state|accounts|chain|ipfs|utils)/',
          '^src/(domain|settings|consent|metadata|platform)[.]ts$',
        ],
      },
      to: { path: '^src/ui/' },
    },
    {
      name: 'dialogs-are-content',
      severity: 'error',
      comment:
        'A dialog of src/ui/dialogs/ is content: it shows a value the domain prepared and calls nothing (no domain, account code, platform or front door; its value types come from src/keyring/types.ts).',
      from: { path: '^src/ui/dialogs/' },
      to: {
        path: [
          '^src/(keyring|state|handlers|chain|ipfs|accounts)/',
          '^src/ui/(?!dialogs/)',
          '^src/(index|domain|platform|settings)[.]ts$',
        ],
        pathNot: '^src/keyring/types[.]ts$',
      },
    },
    {
      name: 'front-doors-call-the-domain',
      severity: 'error',
      comment:
        'Handlers and the home page translate and call the domain; the domain talks to the network.',
      from: { path: ['^src/handlers/', '^src/ui/(?!dialogs/)'] },
      to: {
        path: '^src/(chain|ipfs|accounts)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'data-flows-one-way',
      severity: 'error',
      comment:
        'Nothing imports the entry, and only the entry imports a front door (handlers may share a module).',
      from: { path: '^src/', pathNot: ['^src/index[.]ts$', '^src/handlers/'] },
      to: { path: ['^src/index[.]ts$', '^src/handlers/'] },
    },
    {
      name: 'nothing-imports-the-entry',
      severity: 'error',
      comment: 'src/index.ts holds the snap exports only.',
      from: { path: '^src/' },
      to: { path: '^src/index[.]ts$' },
    },
    {
      name: 'composition-root-on-top',
      severity: 'error',
      comment:
        'Only the entry and the front doors import the composition root.',
      from: {
        path: '^src/',
        pathNot: ['^src/index[.]ts$', '^src/handlers/', '^src/ui/(?!dialogs/)'],
      },
      to: { path: '^src/domain[.]ts$' },
    },
    {
      name: 'metadata-owns-the-ipfs-client',
      severity: 'error',
      comment:
        'Only src/metadata.ts talks to IPFS (the chain transport shares the self-contained redirect check).',
      from: {
        path: '^src/',
        pathNot: [
          '^src/metadata[.]ts$',
          '^src/ipfs/',
          '^src/chain/transport[.]ts$',
          '^src/utils/errorMap[.]ts$',
        ],
      },
      to: { path: '^src/ipfs/' },
    },
    {
      name: 'sites-ask-the-domain',
      severity: 'error',
      comment:
        'src/sites/ holds what any site may ask (EIP-5792 calls, ERC-7715 permissions): it asks the domain and account code, never the network, a front door or the page; nothing below it imports it.',
      from: { path: '^src/sites/' },
      to: { path: ['^src/(chain|ipfs|handlers|ui)/', '^src/index[.]ts$'] },
    },
    {
      name: 'the-domain-never-asks-a-site',
      severity: 'error',
      comment:
        'Data flows one way: the domain and what it holds never import src/sites/.',
      from: {
        path: [
          '^src/(keyring|state|accounts|chain|ipfs|utils|net)/',
          '^src/(settings|consent|metadata|platform)[.]ts$',
        ],
      },
      to: { path: '^src/sites/' },
    },
    {
      name: 'error-map-reads-error-classes',
      severity: 'error',
      comment:
        "src/utils/errorMap.ts maps the libraries' error classes to JSON-RPC errors: it imports their errors.ts, never a client.",
      from: { path: '^src/utils/errorMap[.]ts$' },
      to: {
        path: '^src/(chain|ipfs)/',
        pathNot: '^src/(chain|ipfs)/errors[.]ts$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

/**
 * Check src/ against the rules above, that only src/platform.ts calls `snap.request`, and that no
 * non-test file under src/ exceeds MAX_SOURCE_LINES lines, compares an error's name or exports a
 * function or class name another one exports.
 * Prints each violation; exits 1 if there is any.
 */
async function main() {
  const { cruise } = await import('dependency-cruiser');
  const { forbidden, options } = module.exports;
  const result = await cruise(['src'], {
    ...options,
    validate: true,
    ruleSet: { forbidden },
  });
  const problems = result.output.summary.violations.map(
    (violation) =>
      `${violation.rule.name}: ${violation.from} -> ${violation.to}${
        violation.cycle
          ? ` (circle: ${violation.cycle.map((step) => step.name ?? step).join(' -> ')})`
          : ''
      }`,
  );
  /**
   * Every file under a folder.
   *
   * @param {string} dir - A folder.
   * @returns {string[]} Every file under it.
   */
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : [full];
    });
  /** Files exporting each function or class name. */
  const exporters = new Map();
  for (const file of walk('src')) {
    if (/\.tsx?$/u.test(file) && !/\.test\.tsx?$/u.test(file)) {
      const text = fs.readFileSync(file, 'utf8');
      if (
        file !== path.join('src', 'platform.ts') &&
        /\bsnap\.request\s*\(/u.test(text)
      ) {
        problems.push(
          `only-platform-calls-snap-request: ${file} calls snap.request (use src/platform.ts)`,
        );
      }
      text.split('\n').forEach((line, index) => {
        if (ERROR_NAME_COMPARISON.test(line)) {
          problems.push(
            `no-error-name-comparison: ${file}:${index + 1} compares an error's name (use instanceof)`,
          );
        }
      });
      for (const match of text.matchAll(EXPORTED_CALLABLE)) {
        const name = match[1] ?? match[2] ?? match[3];
        exporters.set(name, [...(exporters.get(name) ?? []), file]);
      }
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > MAX_SOURCE_LINES) {
        problems.push(
          `max-source-lines: ${file} has ${lines} lines, more than ${MAX_SOURCE_LINES} (split it along a seam)`,
        );
      }
    }
  }
  for (const [name, files] of exporters) {
    if (files.length > 1) {
      problems.push(
        `one-export-per-name: ${name} is exported by ${files.join(', ')} (rename all but one)`,
      );
    }
  }
  const modules = result.output.modules.filter((module_) =>
    module_.source.startsWith('src/'),
  ).length;
  if (problems.length > 0) {
    console.error(
      `Layer rules (.dependency-cruiser.cjs): ${problems.length} violation(s)\n  ${problems.join('\n  ')}`,
    );
    process.exitCode = 1;
  } else {
    console.log(
      `Layer rules (.dependency-cruiser.cjs): ${modules} modules, 0 violations`,
    );
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
