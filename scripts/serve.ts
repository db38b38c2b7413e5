/**
 * `npm run serve`: serve the built snap to MetaMask Flask as `local:http://localhost:8080`, on
 * 127.0.0.1 only (snaps-cli's own `mm-snap serve` listens on every interface).
 *
 * Only what a local snap install fetches is served: `snap.manifest.json`, `package.json` and the
 * files under `dist/` and `images/`. `--port <n>` changes the port; `--root <dir>` serves another
 * build folder (one holding its own manifest, as the dev build does).
 *
 * `--site` (`npm run site`) serves the companion site (`site/`, plain HTML and JS) instead, with
 * the snap's `images/` at `/images/`, on http://localhost:8000 by default: the origin the
 * development build allows (`npm run serve:dev` serves that snap beside it).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

import { stopOnExit } from './lib/lifetime';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
};

/**
 * A command-line option's value.
 *
 * @param name - The option, without `--`.
 * @param fallback - The value when it is not given.
 * @returns The argument after `--<name>`, or the fallback.
 */
function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const site = process.argv.includes('--site');
const root = path.resolve(
  option('root', path.join(__dirname, '..', site ? 'site' : '')),
);
const port = Number(option('port', site ? '8000' : '8080'));
const IMAGES = path.resolve(__dirname, '..', 'images');

/**
 * The file a request path names.
 *
 * @param urlPath - The request's path (and query).
 * @returns The file under the served folder, or undefined when it is not one we serve.
 */
function resolveFile(urlPath: string): string | undefined {
  const asked = path.posix.normalize(
    decodeURIComponent(urlPath.split('?')[0] ?? '/'),
  );
  const clean = site && asked === '/' ? '/index.html' : asked;
  const allowed =
    site ||
    clean === '/snap.manifest.json' ||
    clean === '/package.json' ||
    clean.startsWith('/dist/') ||
    clean.startsWith('/images/');
  // the site shows the snap's own icon: images/ beside site/, as the published site has it
  const [base, rest] =
    site && clean.startsWith('/images/')
      ? [IMAGES, clean.slice('/images'.length)]
      : [root, clean];
  const file = path.join(base, rest);
  if (
    !allowed ||
    !file.startsWith(base + path.sep) ||
    !existsSync(file) ||
    !statSync(file).isFile()
  ) {
    return undefined;
  }
  return file;
}

const server = createServer((request, response) => {
  const file = resolveFile(request.url ?? '/');
  response.setHeader('Access-Control-Allow-Origin', '*');
  response.setHeader('Cache-Control', 'no-store');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405).end();
    return;
  }
  if (!file) {
    response
      .writeHead(404, { 'Content-Type': 'text/plain' })
      .end('not found\n');
    return;
  }
  response.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
  });
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
});

server.listen(port, '127.0.0.1', () => {
  console.log(
    `Serving ${path.relative(process.cwd(), root) || '.'} on http://localhost:${port} (127.0.0.1 only); Ctrl-C stops.`,
  );
  console.log(
    site
      ? `Open http://localhost:${port}/ (the companion) or /dapp.html (the example app).`
      : `Install it from a page with wallet_requestSnaps({ 'local:http://localhost:${port}': {} }).`,
  );
});
stopOnExit(
  async () => new Promise<void>((resolve) => server.close(() => resolve())),
);
