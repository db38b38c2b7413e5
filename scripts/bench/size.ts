import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Size of the built snap (dist/bundle.js, built by `npm run bench`): raw and gzip -9 bytes. */
export async function benchSize(): Promise<void> {
  const bundle = readFileSync(path.join(__dirname, '../../dist/bundle.js'));
  const gzip = gzipSync(bundle, { level: 9 }).length;
  console.log(`\ndist/bundle.js: ${bundle.length.toLocaleString('en')} B raw, ${gzip.toLocaleString('en')} B gzip -9`);
}
