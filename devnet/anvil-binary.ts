import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Foundry's per-platform npm packages of anvil, by Node's `process.platform` and `process.arch`.
 * The `@foundry-rs/anvil` devDependency lists all five as optionalDependencies, so `npm ci` installs
 * only the one that matches the machine (npm skips the others by their `os`/`cpu` fields).
 */
export const ANVIL_PACKAGES: Readonly<Record<string, string>> = {
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/** The one line printed when no anvil can be found. */
export const ANVIL_MISSING =
  'anvil not found: run `npm ci` on a supported platform (macOS, Linux, Windows x64) or install Foundry (https://getfoundry.sh) so that `anvil` is on PATH';

/** Where to look for anvil; each field defaults to this process's own value. */
export type AnvilLookup = {
  /** `process.platform`. */
  platform?: string;
  /** `process.arch`. */
  arch?: string;
  /** The PATH variable (`;`-separated on Windows, `:` elsewhere). */
  pathVariable?: string;
  /** Resolve a package's `package.json` (default: `require.resolve` from this folder); throws when absent. */
  resolvePackage?: (packageJson: string) => string;
  /** Whether a file exists (default: `fs.existsSync`). */
  exists?: (file: string) => boolean;
};

/**
 * Find the anvil binary to run: the Foundry platform package npm installed for this machine, else an
 * `anvil` on PATH.
 *
 * @param lookup - Overrides for the platform, PATH and file system (tests); defaults to this process.
 * @returns The absolute path of the binary (`anvil`, or `anvil.exe` on Windows).
 * @throws Error with ANVIL_MISSING when neither exists.
 */
export function findAnvilBinary(lookup: AnvilLookup = {}): string {
  const platform = lookup.platform ?? process.platform;
  const arch = lookup.arch ?? process.arch;
  const exists = lookup.exists ?? existsSync;
  const resolvePackage =
    lookup.resolvePackage ??
    ((packageJson: string): string =>
      require.resolve(packageJson, { paths: [__dirname] }));
  const binary = platform === 'win32' ? 'anvil.exe' : 'anvil';
  const packageName = ANVIL_PACKAGES[`${platform}-${arch}`];
  if (packageName !== undefined) {
    try {
      const folder = path.dirname(
        resolvePackage(`${packageName}/package.json`),
      );
      const candidate = path.join(folder, 'bin', binary);
      if (exists(candidate)) {
        return candidate;
      }
    } catch {
      // Not installed (another platform's lockfile entry, or --no-optional): try PATH.
    }
  }
  const pathVariable = lookup.pathVariable ?? process.env.PATH ?? '';
  const separator = platform === 'win32' ? ';' : ':';
  for (const folder of pathVariable.split(separator)) {
    if (folder !== '') {
      const candidate = path.join(folder, binary);
      if (exists(candidate)) {
        return candidate;
      }
    }
  }
  throw new Error(ANVIL_MISSING);
}
