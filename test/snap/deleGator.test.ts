/**
 * MetaMask's Delegation Framework v1.3.0 through the built snap, on real parts: anvil (Prague)
 * with the framework deployed offline by the Smart Accounts Kit's `deploySmartAccountsEnvironment`
 * (devnet/delegation.ts) on the canonical EntryPoint v0.7, and Alto serving it. The kit's
 * environment is handed unchanged to `setChainConfig`; the site's dialog lists its contracts.
 * Outcomes are checked independently: the contracts' code on anvil and Alto's EntryPoints.
 */
import { getAddress } from 'viem';
import type { Hex } from 'viem';

import {
  COMPANION,
  dialogOf,
  dialogText,
  expectError,
  installKeyringSnap,
} from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

/**
 * The kit's environment with every address checksummed (EIP-55), as the snap stores it (the kit
 * returns the addresses of its receipts, lower case).
 *
 * @param environment - The kit's environment.
 * @returns The same contracts, checksummed.
 */
function checksummedEnvironment(
  environment: NonNullable<Devnet['delegationEnvironment']>,
): NonNullable<Devnet['delegationEnvironment']> {
  /**
   * Checksum a record's addresses.
   *
   * @param entries - Names to addresses.
   * @returns The same, checksummed.
   */
  const each = (entries: Record<string, Hex>): Record<string, Hex> =>
    Object.fromEntries(
      Object.entries(entries).map(([name, address]) => [
        name,
        getAddress(address),
      ]),
    );
  return {
    DelegationManager: getAddress(environment.DelegationManager),
    EntryPoint: getAddress(environment.EntryPoint),
    SimpleFactory: getAddress(environment.SimpleFactory),
    implementations: each(environment.implementations),
    caveatEnforcers: each(environment.caveatEnforcers),
  };
}

describe("DeleGator: MetaMask's Delegation Framework on the devnet", () => {
  let devnet: Devnet;
  let harness: KeyringHarness;

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true });
    harness = await installKeyringSnap();
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('the devnet deploys the framework with the kit and Alto serves its EntryPoint v0.7', async () => {
    const environment = devnet.delegationEnvironment;
    expect(environment).toBeDefined();
    const { DelegationManager, EntryPoint, implementations } =
      environment as NonNullable<typeof environment>;
    for (const contract of [
      DelegationManager,
      EntryPoint,
      implementations.EIP7702StatelessDeleGatorImpl as string,
    ]) {
      expect(
        (
          await jsonRpc<string>(devnet.rpcUrl, 'eth_getCode', [
            contract,
            'latest',
          ])
        ).length,
      ).toBeGreaterThan(2);
    }
    const served = await jsonRpc<string[]>(
      devnet.bundlerUrl,
      'eth_supportedEntryPoints',
      [],
    );
    expect(served.map((address) => getAddress(address))).toContain(
      getAddress(EntryPoint),
    );
  });

  it("setChainConfig takes the kit's environment unchanged: the site's dialog lists its contracts in full, flagged not canonical; the stored config keeps it", async () => {
    const environment = devnet.delegationEnvironment as NonNullable<
      Devnet['delegationEnvironment']
    >;
    const pending = harness.snap.request({
      origin: COMPANION,
      method: 'setChainConfig',
      params: { ...devnet.chainConfig, delegationEnvironment: environment },
    });
    const checksummed = checksummedEnvironment(environment);
    const dialog = await dialogOf(pending);
    const text = dialogText(dialog as NonNullable<typeof dialog>);
    for (const fragment of [
      'Delegation manager',
      `${checksummed.DelegationManager} (NOT canonical)`,
      `${checksummed.implementations.EIP7702StatelessDeleGatorImpl} (NOT canonical)`,
      `${checksummed.caveatEnforcers.NativeTokenPeriodTransferEnforcer} (NOT canonical)`,
      "NOT MetaMask's canonical Delegation Framework v1.3.0 deployment",
    ]) {
      expect(text).toContain(fragment);
    }
    await dialog?.ok();
    const stored = ((await pending).response as any).result;
    expect(stored.delegationEnvironment).toEqual(checksummed);
    const [listed] = await harness.rpc('getChainConfigs');
    expect(listed.delegationEnvironment).toEqual(checksummed);
  });

  it('refuses a bounded-out environment before any dialog, naming the field (-32602)', async () => {
    const environment = devnet.delegationEnvironment as NonNullable<
      Devnet['delegationEnvironment']
    >;
    const pending = harness.snap.request({
      origin: COMPANION,
      method: 'setChainConfig',
      params: {
        ...devnet.chainConfig,
        delegationEnvironment: { ...environment, implementations: {} },
      },
    });
    expect(await dialogOf(pending)).toBeUndefined();
    await expectError(
      harness.rpc('setChainConfig', {
        ...devnet.chainConfig,
        delegationEnvironment: { ...environment, implementations: {} },
      }),
      -32602,
      /delegationEnvironment at implementations/u,
    );
  });
});
