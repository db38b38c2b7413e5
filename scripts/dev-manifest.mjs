/**
 * Write the development manifest: `dev/snap.manifest.json` is the shipped manifest with the local
 * site's origin (`DEV_ORIGIN`, default http://localhost:8000) added to the keyring and RPC
 * allow-lists and to initialConnections; the icon and package.json are copied beside it, so
 * `npm run serve:dev` serves a complete local snap from `dev/`.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { origin } = new URL(process.env.DEV_ORIGIN ?? 'http://localhost:8000');
const manifest = JSON.parse(
  readFileSync(path.join(root, 'snap.manifest.json'), 'utf8'),
);
/**
 * An allow-list with the dev origin added once.
 *
 * @param {string[]} list - The origins.
 * @returns {string[]} The origins and the dev origin.
 */
const add = (list) => [...new Set([...list, origin])];
const permissions = manifest.initialPermissions;
permissions['endowment:keyring'].allowedOrigins = add(
  permissions['endowment:keyring'].allowedOrigins,
);
permissions['endowment:rpc'].allowedOrigins = add(
  permissions['endowment:rpc'].allowedOrigins ?? [],
);
manifest.initialConnections = { ...manifest.initialConnections, [origin]: {} };
manifest.proposedName = `${manifest.proposedName} (dev)`;
mkdirSync(path.join(root, 'dev/images'), { recursive: true });
writeFileSync(
  path.join(root, 'dev/snap.manifest.json'),
  `${JSON.stringify(manifest, null, 2)}\n`,
);
copyFileSync(
  path.join(root, 'images/icon.svg'),
  path.join(root, 'dev/images/icon.svg'),
);
copyFileSync(
  path.join(root, 'package.json'),
  path.join(root, 'dev/package.json'),
);
console.log(
  `dev/snap.manifest.json: companion origins ${permissions['endowment:keyring'].allowedOrigins.join(', ')}`,
);
