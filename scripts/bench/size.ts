import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = path.join(__dirname, '../..');

/** Where `npm run bench` has the build write webpack-bundle-analyzer's report (see snap.config.ts). */
export const BUNDLE_STATS_FILE = path.join(
  ROOT,
  'node_modules/.cache/keyring-snap/bundle-stats.json',
);

/** One installed package's share of the bundle: webpack's parsed (minified) bytes. */
export type PackageShare = {
  /** The package's name. */
  name: string;
  /** The installed copy's version. */
  version: string;
  /** The copy's folder, relative to the project (node_modules/...). */
  path: string;
  /** Its modules' parsed bytes in the bundle. */
  parsedBytes: number;
};

/** The bundle-size section of the bench. */
export type SizeResult = {
  /** The bundle measured, relative to the project. */
  file: string;
  /** Its size in bytes. */
  rawBytes: number;
  /** zlib level 9 (Node's gzip); GNU `gzip -9` comes out a few hundred bytes smaller. */
  gzipBytes: number;
  /** The budget from package.json `bundleBudget.gzipBytes`. */
  budgetGzipBytes: number;
  /** The 15 largest package copies, largest first. */
  topPackages: PackageShare[];
  /** The snap's own source (src/), parsed bytes. */
  ownBytes: number;
};

/**
 * Bytes of a bundle: raw and gzip (zlib level 9, as test/node/bundle-size.test.ts measures it).
 *
 * @param file - The bundle's path.
 * @returns `{ rawBytes, gzipBytes }`.
 */
export function bundleBytes(file: string): {
  rawBytes: number;
  gzipBytes: number;
} {
  const bundle = readFileSync(file);
  return {
    rawBytes: bundle.length,
    gzipBytes: gzipSync(bundle, { level: 9 }).length,
  };
}

/**
 * The gzip budget of dist/bundle.js.
 *
 * @returns package.json `bundleBudget.gzipBytes`, in bytes.
 */
export function bundleBudget(): number {
  const pkg = JSON.parse(
    readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
  ) as { bundleBudget: { gzipBytes: number } };
  return pkg.bundleBudget.gzipBytes;
}

/** A node of webpack-bundle-analyzer's JSON report: a folder or a module. */
type AnalyzerGroup = {
  /** The folder or file name. */
  label: string;
  /** Its path from the project root, as webpack saw it. */
  path?: string;
  /** Minified bytes of the node and all under it. */
  parsedSize?: number;
  /** The nodes inside a folder. */
  groups?: AnalyzerGroup[];
};

/**
 * Sum webpack-bundle-analyzer's parsed sizes per installed package copy (each folder under
 * node_modules counts apart, so duplicated copies show up twice). Sizes of modules webpack
 * concatenated into one scope are the analyzer's estimates.
 *
 * @param statsFile - The analyzer's JSON report.
 * @returns Packages by size, largest first, and the bytes of src/.
 */
export function packageShares(statsFile: string): {
  packages: PackageShare[];
  ownBytes: number;
} {
  const report = JSON.parse(readFileSync(statsFile, 'utf8')) as AnalyzerGroup[];
  const totals = new Map<string, number>();
  let ownBytes = 0;
  /**
   * Add a node's parsed bytes to its package copy, or to the snap's own total.
   *
   * @param group - The node.
   */
  const walk = (group: AnalyzerGroup): void => {
    if (group.groups) {
      group.groups.forEach(walk);
      return;
    }
    const file = (group.path ?? group.label).replace(
      /^.*\(concatenated\)\//u,
      './',
    );
    const match = /^(?:\.\/)?(.*node_modules\/(?:@[^/]+\/)?[^/]+)/u.exec(file);
    if (match) {
      totals.set(
        match[1],
        (totals.get(match[1]) ?? 0) + (group.parsedSize ?? 0),
      );
    } else {
      ownBytes += group.parsedSize ?? 0;
    }
  };
  report.forEach(walk);
  const packages = [...totals].map(([folder, parsedBytes]) => {
    const manifest = path.join(ROOT, folder, 'package.json');
    const pkg = existsSync(manifest)
      ? (JSON.parse(readFileSync(manifest, 'utf8')) as {
          name: string;
          version: string;
        })
      : undefined;
    return {
      name: pkg?.name ?? folder,
      version: pkg?.version ?? '?',
      path: folder,
      parsedBytes,
    };
  });
  return {
    packages: packages.sort((a, b) => b.parsedBytes - a.parsedBytes),
    ownBytes,
  };
}

/**
 * Size of the built snap (dist/bundle.js, built by `npm run bench`): raw and gzip bytes, the
 * budget, and the 15 largest packages when the build wrote its analyzer report.
 *
 * @param anchor - Optional folder of a reference snap (its bundle is measured beside ours).
 * @returns The figures, also printed.
 */
export async function benchSize(anchor?: string): Promise<{
  snap: SizeResult;
  anchor?: { file: string; rawBytes: number; gzipBytes: number };
}> {
  const file = path.join(ROOT, 'dist/bundle.js');
  const { rawBytes, gzipBytes } = bundleBytes(file);
  const budgetGzipBytes = bundleBudget();
  const shares =
    existsSync(BUNDLE_STATS_FILE) && packageShares(BUNDLE_STATS_FILE);
  const snap: SizeResult = {
    file: 'dist/bundle.js',
    rawBytes,
    gzipBytes,
    budgetGzipBytes,
    topPackages: shares ? shares.packages.slice(0, 15) : [],
    ownBytes: shares ? shares.ownBytes : 0,
  };
  /**
   * A byte count with thousands separators.
   *
   * @param bytes - The count.
   * @returns E.g. `172,773`.
   */
  const format = (bytes: number): string => bytes.toLocaleString('en');
  console.log('\n## Bundle size');
  console.log(
    `dist/bundle.js: ${format(rawBytes)} B raw, ${format(gzipBytes)} B gzip (zlib -9; budget ${format(budgetGzipBytes)})`,
  );
  let anchorSize;
  if (anchor) {
    const anchorFile = path.join(anchor, 'dist/bundle.js');
    anchorSize = { file: 'dist/bundle.js', ...bundleBytes(anchorFile) };
    console.log(
      `anchor bundle:  ${format(anchorSize.rawBytes)} B raw, ${format(anchorSize.gzipBytes)} B gzip`,
    );
  }
  if (shares) {
    console.log(
      `largest packages (webpack parsed bytes; src/ itself ${format(snap.ownBytes)}):`,
    );
    for (const entry of snap.topPackages) {
      console.log(
        `  ${format(entry.parsedBytes).padStart(8)}  ${entry.name}@${entry.version}${entry.path === `node_modules/${entry.name}` ? '' : `  (${entry.path})`}`,
      );
    }
  } else {
    console.log(
      '(no package breakdown: build with SNAP_BUNDLE_STATS set, as `npm run bench` does)',
    );
  }
  return { snap, ...(anchorSize ? { anchor: anchorSize } : {}) };
}
