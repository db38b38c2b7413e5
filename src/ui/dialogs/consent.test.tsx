import { consentDialog } from './consent';
import type { ChainConfig } from '../../accounts/erc4337';
import type { Consent } from '../../consent';

const SITE = 'https://companion.example';
const EP_07 = '0x7070707070707070707070707070707070707070';
const FACTORY_07 = '0x7171717171717171717171717171717171717171';

/**
 * Visit every element of a JSX tree, depth first.
 *
 * @param node - A JSX element, its children, or a leaf.
 * @param onElement - Called with each element's type and props; returns true to skip its children.
 */
function walk(
  node: unknown,
  onElement: (type: string, props: any) => boolean,
): void {
  if (Array.isArray(node)) {
    node.forEach((item) => walk(item, onElement));
    return;
  }
  if (node === null || typeof node !== 'object') {
    return;
  }
  const { type, props } = node as { type: string; props: any };
  if (!onElement(type, props)) {
    walk(props?.children, onElement);
  }
}

/**
 * The Row elements of a JSX tree, as `[label, text]` pairs in order.
 *
 * @param node - A JSX element.
 * @returns Each Row's label and the text of its child.
 */
function rowsOf(node: unknown): [string, string][] {
  const rows: [string, string][] = [];
  walk(node, (type, props) => {
    if (type !== 'Row') {
      return false;
    }
    rows.push([props.label, props.children.props.children]);
    return true;
  });
  return rows;
}

/**
 * The warning texts of a JSX tree (Text elements coloured `warning`).
 *
 * @param node - A JSX element.
 * @returns The warnings, in order.
 */
function warningsOf(node: unknown): string[] {
  const found: string[] = [];
  walk(node, (type, props) => {
    if (type !== 'Text' || props.color !== 'warning') {
      return false;
    }
    found.push(props.children);
    return true;
  });
  return found;
}

/**
 * A site's setChainConfig consent with canonical v0.6 contracts.
 *
 * @param entryPoints - The v0.7 / v0.8 overrides, if any.
 * @returns The consent.
 */
const chainConsent = (entryPoints?: ChainConfig['entryPoints']): Consent => ({
  origin: SITE,
  change: {
    kind: 'chainConfig',
    replaces: true,
    config: {
      scope: 'eip155:31337',
      rpcUrl: 'http://127.0.0.1:8545',
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
      ...(entryPoints ? { entryPoints } : {}),
    },
  },
});

describe('consentDialog (setChainConfig)', () => {
  it('lists the v0.7 override EntryPoint and factory in full, flagged, and the canonical v0.8 ones', () => {
    const dialog = consentDialog(
      chainConsent({
        '0.7': { entryPoint: EP_07, accountFactory: FACTORY_07 },
      }),
    );
    const rows = Object.fromEntries(rowsOf(dialog));
    expect(rows).toMatchObject({
      'EntryPoint v0.6':
        '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789 (canonical EntryPoint v0.6)',
      'Account factory v0.6':
        '0x9406Cc6185a346906296840746125a0E44976454 (canonical SimpleAccountFactory v0.6)',
      'EntryPoint v0.7': `${EP_07} (NOT the canonical EntryPoint v0.7)`,
      'Account factory v0.7': `${FACTORY_07} (NOT the canonical SimpleAccountFactory v0.7)`,
      'EntryPoint v0.8':
        '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108 (canonical EntryPoint v0.8)',
      'Account factory v0.8':
        '0x13E9ed32155810FDbd067D4522C492D6f68E5944 (canonical SimpleAccountFactory v0.8)',
    });
    const warnings = warningsOf(dialog);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(
      `The EntryPoint v0.7 ${EP_07} is NOT the canonical EntryPoint v0.7 (0x0000000071727De22E5E9d8BAf0edAc6f37da032)`,
    );
    expect(warnings[1]).toContain(
      `The SimpleAccountFactory v0.7 ${FACTORY_07} is NOT the canonical SimpleAccountFactory v0.7 (0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985)`,
    );
  });

  it('lists a v0.8 override and, without overrides, the canonical v0.7 and v0.8 contracts the config will use', () => {
    const overridden = Object.fromEntries(
      rowsOf(
        consentDialog(
          chainConsent({
            '0.8': { entryPoint: EP_07, accountFactory: FACTORY_07 },
          }),
        ),
      ),
    );
    expect(overridden['EntryPoint v0.8']).toBe(
      `${EP_07} (NOT the canonical EntryPoint v0.8)`,
    );
    expect(overridden['Account factory v0.8']).toBe(
      `${FACTORY_07} (NOT the canonical SimpleAccountFactory v0.8)`,
    );
    expect(overridden['EntryPoint v0.7']).toBe(
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032 (canonical EntryPoint v0.7)',
    );

    const plain = consentDialog(chainConsent());
    expect(rowsOf(plain).map(([label]) => label)).toStrictEqual([
      'Chain',
      'RPC URL',
      'Bundler URL',
      'Paymaster URL',
      'EntryPoint v0.6',
      'Account factory v0.6',
      'EntryPoint v0.7',
      'Account factory v0.7',
      'EntryPoint v0.8',
      'Account factory v0.8',
      'Spending permissions',
    ]);
    expect(warningsOf(plain)).toStrictEqual([]);
  });
});
