/**
 * The anvil binary resolver: the Foundry platform package for each supported platform, the PATH
 * fallback, and the one-line message when neither exists. Pure: no process is started.
 */
import path from 'node:path';

import {
  ANVIL_MISSING,
  ANVIL_PACKAGES,
  findAnvilBinary,
} from '../../devnet/anvil-binary';

/**
 * A resolver that finds only the given packages, installed under a fake node_modules.
 *
 * @param installed - Package names to treat as installed.
 * @returns A `resolvePackage` for findAnvilBinary.
 */
function resolverOf(installed: string[]): (packageJson: string) => string {
  return (packageJson: string): string => {
    const name = packageJson.replace(/\/package\.json$/u, '');
    if (!installed.includes(name)) {
      throw new Error(`Cannot find module '${packageJson}'`);
    }
    return path.join('/project/node_modules', name, 'package.json');
  };
}

describe('findAnvilBinary', () => {
  it.each([
    ['darwin', 'arm64', '@foundry-rs/anvil-darwin-arm64', 'anvil'],
    ['darwin', 'x64', '@foundry-rs/anvil-darwin-amd64', 'anvil'],
    ['linux', 'arm64', '@foundry-rs/anvil-linux-arm64', 'anvil'],
    ['linux', 'x64', '@foundry-rs/anvil-linux-amd64', 'anvil'],
    ['win32', 'x64', '@foundry-rs/anvil-win32-amd64', 'anvil.exe'],
  ])('on %s-%s picks %s', (platform, arch, packageName, binary) => {
    const expected = path.join(
      '/project/node_modules',
      packageName,
      'bin',
      binary,
    );
    expect(
      findAnvilBinary({
        platform,
        arch,
        pathVariable: '',
        // Every platform package "installed": only the matching one may be chosen.
        resolvePackage: resolverOf(Object.values(ANVIL_PACKAGES)),
        exists: (file) => file.startsWith('/project/'),
      }),
    ).toBe(expected);
  });

  it('falls back to an anvil on PATH when the platform package is not installed', () => {
    expect(
      findAnvilBinary({
        platform: 'darwin',
        arch: 'arm64',
        pathVariable: '/usr/bin:/opt/foundry/bin',
        resolvePackage: resolverOf([]),
        exists: (file) => file === path.join('/opt/foundry/bin', 'anvil'),
      }),
    ).toBe(path.join('/opt/foundry/bin', 'anvil'));
  });

  it('falls back to PATH on a platform Foundry ships no package for', () => {
    expect(
      findAnvilBinary({
        platform: 'freebsd',
        arch: 'x64',
        pathVariable: '/usr/local/bin',
        resolvePackage: resolverOf(Object.values(ANVIL_PACKAGES)),
        exists: (file) => file === path.join('/usr/local/bin', 'anvil'),
      }),
    ).toBe(path.join('/usr/local/bin', 'anvil'));
  });

  it('says in one line what to install when there is no anvil at all', () => {
    expect(() =>
      findAnvilBinary({
        platform: 'win32',
        arch: 'x64',
        pathVariable: 'C:\\Windows;C:\\tools',
        resolvePackage: resolverOf([]),
        exists: () => false,
      }),
    ).toThrow(ANVIL_MISSING);
    expect(ANVIL_MISSING).not.toContain('\n');
  });

  it('finds the binary npm installed on this machine', () => {
    expect(findAnvilBinary()).toMatch(/anvil(\.exe)?$/u);
  });
});
