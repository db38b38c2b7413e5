/**
 * Find my accounts and the EntryPoint versions: a second install of the built snap with the same
 * recovery phrase and an empty state finds the first install's used v0.8 and v0.7 SimpleAccounts
 * (owner keys of the same `erc4337-owner` salts as v0.6 accounts) on anvil with the canonical
 * v0.7 / v0.8 deployments beside a v0.6 factory, and adds them with their version: same addresses,
 * listed without keyring-api's v0.6-only methods. The chain is reached through a counting proxy: the
 * search stays one round of parallel batches (at most 100 calls each) per window of 20 indices,
 * and the factories of every version are read in one round trip.
 */
import { createPublicClient, getAddress, http, parseAbi } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { nextPage, openHomePage, shownTexts } from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployEntryPoints } from '../../devnet/entrypoints';
import type { EntryPointsDeployment } from '../../devnet/entrypoints';
import { deployErc4337, devnetChain } from '../../devnet/erc4337';
import { jsonRpc, sendAndMine } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';

jest.setTimeout(240_000);

const SCOPE = 'eip155:31337';
const FACTORY = parseAbi([
  'function getAddress(address owner, uint256 salt) view returns (address)',
]);

describe('Find my accounts: v0.7 and v0.8 smart accounts after a reinstall with the same phrase', () => {
  let anvil: Anvil;
  let proxy: LimitsProxy;
  let modern: EntryPointsDeployment;
  let chainConfig: Record<string, string>;
  let first: KeyringHarness;
  let second: KeyringHarness;
  const made: Record<
    'v08' | 'v07',
    { address: Hex; owner: Address; privateKey: Hex }
  > = {} as never;

  beforeAll(async () => {
    anvil = await startAnvil();
    const v06 = await deployErc4337(anvil.url);
    modern = await deployEntryPoints(anvil.url);
    proxy = await startLimitsProxy({ upstream: anvil.url });
    const [funder] = await jsonRpc<Hex[]>(anvil.url, 'eth_accounts', []);
    chainConfig = {
      scope: SCOPE,
      rpcUrl: proxy.url,
      entryPoint: v06.entryPoint,
      accountFactory: v06.accountFactory,
    };

    first = await installKeyringSnap();
    await first.rpcApproved('setChainConfig', chainConfig);
    const client = createPublicClient({
      chain: devnetChain(anvil.chainId, anvil.url),
      transport: http(anvil.url),
    });
    // owner index 0: a v0.8 account; owner index 1: a v0.7 account; both funded (used by balance)
    for (const [name, version] of [
      ['v08', '0.8'],
      ['v07', '0.7'],
    ] as const) {
      const account = await first.createAccount({
        type: 'eip155:erc4337',
        scopes: [SCOPE],
        entryPointVersion: version,
      });
      const { privateKey } = await first.keyringApproved(
        'keyring_exportAccount',
        { id: account.id },
      );
      const owner = privateKeyToAccount(privateKey).address;
      // the address is the version's factory's, read from the chain
      const expected = await client.readContract({
        address: modern[version].accountFactory,
        abi: FACTORY,
        functionName: 'getAddress',
        args: [owner, 0n],
      });
      const { receipt } = await sendAndMine(anvil.url, {
        from: funder,
        to: account.address,
        value: '0x2386f26fc10000', // 0.01 ETH
      });
      if (account.address !== expected || receipt.status !== '0x1') {
        throw new Error(`the first install's v${version} account is wrong`);
      }
      made[name] = { address: account.address, owner, privateKey };
    }

    second = await installKeyringSnap(); // same default phrase, empty state
    await second.rpcApproved('setChainConfig', chainConfig);
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  it('adds the used v0.8 and v0.7 accounts at their addresses, with their version, in one round of batches per window', async () => {
    proxy.resetStats();
    const report = await second.rpcApproved('findAccounts');
    expect(
      report.added.map((entry: any) => [
        entry.type,
        entry.scheme,
        entry.index,
        entry.address,
        entry.entryPointVersion,
      ]),
    ).toEqual([
      ['eip155:erc4337', 'erc4337-owner', 0, made.v08.address, '0.8'],
      ['eip155:erc4337', 'erc4337-owner', 1, made.v07.address, '0.7'],
    ]);
    expect(report.skipped).toEqual([]);

    // restored as the versions they are: no keyring-api v0.6 methods
    const accounts = await second.keyring('keyring_listAccounts');
    expect(
      accounts.map((account: any) => [account.address, account.methods]),
    ).toEqual([
      [made.v08.address, []],
      [made.v07.address, []],
    ]);
    // the owner key is the same (exported from the second install)
    const { privateKey } = await second.keyringApproved(
      'keyring_exportAccount',
      { id: accounts[0].id },
    );
    expect(privateKeyToAccount(privateKey).address).toBe(
      getAddress(made.v08.owner),
    );

    // counted where the requests arrive: the search, plus one getAddress check per account added
    expect(proxy.stats.httpRequests).toBe(report.roundTrips + 2);
    expect(proxy.stats.rpcCalls).toBe(report.calls + 2 * 3);
    expect(proxy.stats.batches).toBe(proxy.stats.httpRequests);
    // 1 round trip reads the three factories (6 calls); round 1 reads every lane's window of 20:
    // EOAs (40 calls) and smart accounts of three versions (120) of both phrases, legacy (EOA and
    // v0.6: 80), 400 calls in 4 batches sent together; round 2, the default phrase's smart accounts
    // at indices 20-39 (120 calls, 2 batches)
    expect(report.calls).toBe(6 + 400 + 120);
    expect(report.roundTrips).toBe(1 + 4 + 2);
  });

  it('a second run adds nothing, and tells the site nothing of the accounts held already', async () => {
    const report = await second.rpcApproved('findAccounts');
    expect(report.added).toEqual([]);
    expect(report.skipped).toEqual([]);
  });

  it('the page restores a smart account by index and EntryPoint version, and imports an owner key as the version chosen: the addresses they had', async () => {
    const third = await installKeyringSnap(); // same phrase, empty state
    await third.rpcApproved('setChainConfig', chainConfig);
    let ui = await openHomePage(third);
    await ui.typeInField('restore-index', '0');
    await ui.selectInDropdown('restore-type', 'eip155:erc4337');
    await ui.selectInDropdown('restore-entryPointVersion', '0.8');
    ui = await nextPage(ui, async (current) =>
      current.clickElement('restore-form-submit'),
    );
    const [restored] = await third.keyring('keyring_listAccounts');
    expect(restored.address).toBe(made.v08.address);
    expect(shownTexts(ui.content).join(' ')).toContain(
      `(${made.v08.address}) from index 0, a smart account on EntryPoint v0.8. Each EntryPoint version gives the same index another address`,
    );

    await ui.typeInField('import-privateKey', made.v07.privateKey);
    await ui.selectInDropdown('import-type', 'eip155:erc4337');
    await ui.selectInDropdown('import-entryPointVersion', '0.7');
    await nextPage(ui, async (current) =>
      current.clickElement('import-key-submit'),
    );
    const accounts = await third.keyring('keyring_listAccounts');
    expect(accounts.map((account: any) => account.address)).toEqual([
      made.v08.address,
      made.v07.address,
    ]);
  });
});
