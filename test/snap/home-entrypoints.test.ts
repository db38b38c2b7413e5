/**
 * The home page and the EntryPoint versions, through the built snap, driven by the README's element
 * names: the smart-account form offers v0.8 (preselected, recommended), v0.7 and v0.6; an account
 * made there is the SimpleAccount of the chosen version (its address checked against that version's
 * canonical SimpleAccountFactory `getAddress` on anvil, its methods as keyring-api allows) and its
 * card names the version; the Chains part shows each version's EntryPoint and factory, flagged when
 * not canonical, and an Edit + Save from the page keeps the `entryPoints` overrides a site set.
 */
import { createPublicClient, getAddress, http, parseAbi } from 'viem';
import type { Address, PublicClient } from 'viem';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  inputValue,
  nextPage,
  openHomePage,
  rowValues,
  shownTexts,
  walk,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployEntryPoints } from '../../devnet/entrypoints';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { deployErc4337, devnetChain } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';

jest.setTimeout(120_000);

const SCOPE = 'eip155:31337';
const FACTORY = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
]);
/** Contracts of no canonical deployment: what a site may set for v0.7 (setChainConfig checks only the chain id). */
const OTHER_ENTRY_POINT = getAddress(
  '0x00000000000000000000000000000000000e0007',
);
const OTHER_FACTORY = getAddress('0x00000000000000000000000000000000000f0007');

describe('home page: EntryPoint versions', () => {
  let anvil: Anvil;
  let v06: Erc4337Deployment;
  let modern: EntryPointsDeployment;
  let client: PublicClient;
  let harness: KeyringHarness;
  let ui: HomePageUi;

  /**
   * Run an action that re-renders the page, and read the page it renders (bounded).
   *
   * @param action - The action, given the current page.
   */
  async function step(
    action: (current: HomePageUi) => Promise<void>,
  ): Promise<void> {
    // eslint-disable-next-line require-atomic-updates -- steps run one at a time; ui is this suite's current page
    ui = await nextPage(ui, action);
  }

  /** @returns The notice at the top of the page (the first text shown). */
  const notice = (): string => shownTexts(ui.content).join(' ');

  beforeAll(async () => {
    anvil = await startAnvil();
    v06 = await deployErc4337(anvil.url);
    modern = await deployEntryPoints(anvil.url);
    client = createPublicClient({
      chain: devnetChain(anvil.chainId, anvil.url),
      transport: http(anvil.url),
    });
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', {
      scope: SCOPE,
      rpcUrl: anvil.url,
      entryPoint: v06.entryPoint,
      accountFactory: v06.accountFactory,
    });
    ui = await openHomePage(harness);
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it('offers v0.8 (preselected, named the recommended one), v0.7 and v0.6', () => {
    const dropdown = [...walk(ui.content)].find(
      (node) =>
        node.type === 'Dropdown' &&
        node.props.name === 'smart-entryPointVersion',
    );
    expect(dropdown.props.value).toBe('0.8');
    const options = [dropdown.props.children]
      .flat(Infinity)
      .map((option: any) => [option.props.value, option.props.children]);
    expect(options.map(([value]) => value)).toStrictEqual([
      '0.8',
      '0.7',
      '0.6',
    ]);
    expect(options[0][1]).toMatch(/recommended/u);
  });

  it.each([
    ['0.8', undefined],
    ['0.7', '0.7'],
    ['0.6', '0.6'],
  ] as const)(
    'creates a v%s account on the page: the factory’s address, its methods, a card naming the version',
    async (version, chosen) => {
      await ui.clickElement(`smart-scope:${SCOPE}`);
      if (chosen) {
        await ui.selectInDropdown('smart-entryPointVersion', chosen);
      }
      await step(async (current) =>
        current.clickElement('create-smart-submit'),
      );
      expect(notice()).toMatch(
        new RegExp(
          `Created smart account .+ \\(0x[0-9a-fA-F]{40}\\) on EntryPoint v${version.replace('.', '\\.')}`,
          'u',
        ),
      );
      const account = (await harness.keyring('keyring_listAccounts')).at(-1);
      expect(account.type).toBe('eip155:erc4337');
      // keyring-api's three user-operation methods carry v0.6 shapes only
      expect(account.methods).toHaveLength(version === '0.6' ? 3 : 0);

      const owner = rowValues(ui.content, 'Owner').at(-1) as Address;
      const factory =
        version === '0.6' ? v06.accountFactory : modern[version].accountFactory;
      const expected = await client.readContract({
        address: factory,
        abi: FACTORY,
        functionName: 'getAddress',
        args: [owner, 0n],
      });
      expect(account.address).toBe(expected);
      expect(rowValues(ui.content, 'Type').at(-1)).toBe(
        `Smart account (ERC-4337, SimpleAccount v${version}, EntryPoint v${version})`,
      );
      // the choice stays shown for the next account
      const dropdown = [...walk(ui.content)].find(
        (node) => node.props?.name === 'smart-entryPointVersion',
      );
      expect(dropdown.props.value).toBe(version);
    },
  );

  it('shows each version’s contracts, flagged when not canonical, and keeps a site’s entryPoints overrides through Edit + Save', async () => {
    const overrides = {
      '0.7': { entryPoint: OTHER_ENTRY_POINT, accountFactory: OTHER_FACTORY },
    };
    await harness.rpcApproved('setChainConfig', {
      scope: SCOPE,
      rpcUrl: anvil.url,
      entryPoint: v06.entryPoint,
      accountFactory: v06.accountFactory,
      entryPoints: overrides,
    });
    ui = await openHomePage(harness);
    expect(rowValues(ui.content, 'EntryPoint v0.7')).toStrictEqual([
      `${OTHER_ENTRY_POINT} (NOT the canonical EntryPoint v0.7)`,
    ]);
    expect(rowValues(ui.content, 'Account factory v0.7')).toStrictEqual([
      `${OTHER_FACTORY} (NOT the canonical SimpleAccountFactory v0.7)`,
    ]);
    expect(rowValues(ui.content, 'EntryPoint v0.8')).toStrictEqual([
      `${modern['0.8'].entryPoint} (canonical EntryPoint v0.8)`,
    ]);
    expect(rowValues(ui.content, 'Account factory v0.6')).toStrictEqual([
      `${getAddress(v06.accountFactory)} (NOT the canonical SimpleAccountFactory v0.6)`,
    ]);

    await step(async (current) => current.clickElement(`chain-edit:${SCOPE}`));
    expect(inputValue(ui.content, 'chain-scope')).toBe(SCOPE);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(notice()).toContain('Saved Local chain (31337)');
    const [stored] = await harness.rpc('getChainConfigs');
    expect(stored.entryPoints).toEqual(overrides); // another realm: same JSON, other prototypes
    expect(stored.accountFactory).toBe(getAddress(v06.accountFactory));
  });
});
