/**
 * `npm run site` runs this first: bundle what the example app's spending-permission part
 * (site/permissions.js) takes from MetaMask's Smart Accounts Kit 2.0.0 (`erc7715ProviderActions`)
 * and viem into one ES module for the browser, site/vendor/smart-accounts-kit.js, with the esbuild
 * devDependency. The bundle is built, never committed (.gitignore). `process` is defined as
 * `{ env: { DO_NOT_TRACK: '1' } }` so the kit never reports its calls to MetaMask's analytics from
 * the page.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'site', 'vendor', 'smart-accounts-kit.js');

await build({
  stdin: {
    contents: [
      "export { erc7715ProviderActions } from '@metamask/smart-accounts-kit/actions';",
      "export { createClient, custom, formatEther, getAddress, isAddress, parseEther } from 'viem';",
    ].join('\n'),
    resolveDir: root,
    loader: 'js',
  },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  outfile,
  define: { process: '{"env":{"DO_NOT_TRACK":"1"}}' },
  logLevel: 'warning',
});
console.log(
  `Built ${path.relative(process.cwd(), outfile)} (the Smart Accounts Kit for site/permissions.js).`,
);
