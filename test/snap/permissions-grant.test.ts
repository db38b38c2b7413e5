/**
 * A spending permission granted through the built snap as a user meets it, with MetaMask's Smart
 * Accounts Kit as the dapp side: the kit's `erc7715ProviderActions` over a transport that calls the
 * snap as the site (as `wallet_invokeSnap` does), a plain EOA of the snap, one dialog that also
 * upgrades it to EIP7702StatelessDeleGatorImpl (a user operation through Alto on the framework's
 * EntryPoint v0.7), and the session key redeeming with `sendTransactionWithDelegation`. Checked on
 * anvil: the EOA's code, balances, the enforcers' refusals.
 */
import { overrideDeployedEnvironment } from '@metamask/smart-accounts-kit/utils';
import type { Json } from '@metamask/utils';
import { numberToHex, parseEther, toFunctionSelector } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { COMPANION, dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { kitOverSnap, redeem } from '../../devnet/permissions';

jest.setTimeout(240_000);

const SITE = 'https://dapp.example';
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF';

describe('a spending permission through the built snap, with the Smart Accounts Kit as the dapp', () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let eoa: Address;
  let answer: 'ok' | 'cancel' = 'ok';
  const sessionKey = generatePrivateKey();

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true });
    overrideDeployedEnvironment(
      devnet.chainId,
      '1.3.0',
      devnet.delegationEnvironment as never,
    );
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsor, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      delegationEnvironment: devnet.delegationEnvironment as unknown as Json,
    });
    eoa = (await harness.createAccount({})).address as Address;
    for (const address of [eoa, privateKeyToAccount(sessionKey).address]) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        address,
        numberToHex(parseEther('10')),
      ]);
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /** The dapp's kit: each call sent to the snap as the site; the grant's dialog answered with `answer`. */
  const kit = kitOverSnap(async (method, params) => {
    const pending = harness.snap.request({
      origin: SITE,
      method,
      params: params as Json[],
    });
    const dialog = await dialogOf(pending);
    await dialog?.[answer]();
    const { response } = (await pending) as {
      response: { result?: Json; error?: { message: string; code: number } };
    };
    if (response.error) {
      throw Object.assign(new Error(response.error.message), {
        code: response.error.code,
      });
    }
    return response.result;
  });

  /**
   * The EOA's code on the chain.
   *
   * @returns Hex bytes.
   */
  const code = async (): Promise<Hex> =>
    jsonRpc<Hex>(devnet.rpcUrl, 'eth_getCode', [eoa, 'latest']);

  /**
   * A native-token periodic request from the EOA to the session key.
   *
   * @returns The kit's parameters.
   */
  async function nativeRequest(): Promise<
    Parameters<typeof kit.requestExecutionPermissions>[0]
  > {
    const block = await jsonRpc<{ timestamp: Hex }>(
      devnet.rpcUrl,
      'eth_getBlockByNumber',
      ['latest', false],
    );
    return [
      {
        chainId: devnet.chainId,
        from: eoa,
        to: privateKeyToAccount(sessionKey).address,
        expiry: Number(BigInt(block.timestamp)) + 86_400,
        permission: {
          type: 'native-token-periodic',
          isAdjustmentAllowed: false,
          data: {
            periodAmount: parseEther('0.5'),
            periodDuration: 3600,
            justification: 'Top up your game credits',
          },
        },
      },
    ];
  }

  it('declined: 4001, the EOA is not upgraded and nothing is granted', async () => {
    expect(await code()).toBe('0x');
    answer = 'cancel';
    await expect(
      kit.requestExecutionPermissions(await nativeRequest()),
    ).rejects.toMatchObject({ code: 4001 });
    answer = 'ok';
    expect(await code()).toBe('0x');
    expect(await kit.getGrantedExecutionPermissions()).toStrictEqual([]);
  });

  it('approved: one dialog upgrades the plain EOA to the DeleGator, and the session key moves exactly the limit with the kit', async () => {
    const [granted] = await kit.requestExecutionPermissions(
      await nativeRequest(),
    );
    expect(granted?.dependencies).toStrictEqual([]);
    const implementation = (
      devnet.delegationEnvironment?.implementations
        .EIP7702StatelessDeleGatorImpl as string
    ).toLowerCase();
    expect((await code()).toLowerCase()).toBe(
      `0xef0100${implementation.slice(2)}`,
    );
    const permission = granted as { context: Hex; delegationManager: Address };
    const before = BigInt(
      await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [
        RECIPIENT,
        'latest',
      ]),
    );
    expect(
      await redeem(
        devnet.rpcUrl,
        sessionKey,
        { to: RECIPIENT, value: parseEther('0.3') },
        permission,
      ),
    ).toBe('success');
    expect(
      await redeem(
        devnet.rpcUrl,
        sessionKey,
        { to: RECIPIENT, value: parseEther('0.3') },
        permission,
      ),
    ).toMatch(/transfer-amount-exceeded/u);
    expect(
      BigInt(
        await jsonRpc<Hex>(devnet.rpcUrl, 'eth_getBalance', [
          RECIPIENT,
          'latest',
        ]),
      ),
    ).toBe(before + parseEther('0.3'));
    // the site lists it; another site and the companion do not see it
    expect(
      (await kit.getGrantedExecutionPermissions()).map((item) => item.context),
    ).toStrictEqual([permission.context]);
    expect(
      await harness.rpc('wallet_getGrantedExecutionPermissions', [], COMPANION),
    ).toEqual([]);
  });

  it('the site revokes it: disableDelegation is sent by the account (its send confirmation), {} once on chain, then the session key is refused', async () => {
    const [granted] = await kit.getGrantedExecutionPermissions();
    const permission = granted as { context: Hex; delegationManager: Address };
    const pending = harness.snap.request({
      origin: SITE,
      method: 'wallet_revokeExecutionPermission',
      params: { permissionContext: permission.context },
    });
    await (await dialogOf(pending))?.ok();
    expect(((await pending) as any).response).toEqual({ result: {} });
    expect(
      await redeem(
        devnet.rpcUrl,
        sessionKey,
        { to: RECIPIENT, value: 1n },
        permission,
      ),
    ).toMatch(toFunctionSelector('CannotUseADisabledDelegation()'));
    expect(await kit.getGrantedExecutionPermissions()).toStrictEqual([]);
  });
});
