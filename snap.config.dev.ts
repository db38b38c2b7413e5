import type { SnapConfig } from '@metamask/snaps-cli';

import config, { companionOrigins } from './snap.config';

/**
 * The development build (`npm run build:dev`, served by `npm run serve:dev`): the same snap with
 * its own manifest (`dev/snap.manifest.json`, written by scripts/dev-manifest.mjs from the shipped
 * one plus the local site's origin, `DEV_ORIGIN`, default http://localhost:8000) and its own output
 * folder, so the shipped manifest and its shasum are never touched by local work.
 */
const devConfig: SnapConfig = {
  ...config,
  manifest: { path: 'dev/snap.manifest.json' },
  output: { path: 'dev/dist' },
  environment: {
    COMPANION_ORIGINS: companionOrigins('dev/snap.manifest.json'),
  },
};

export default devConfig;
