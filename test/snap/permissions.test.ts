/**
 * ERC-7715 execution permissions through the built snap, as a site calls them with
 * `wallet_invokeSnap`, on real parts: anvil (Prague) with MetaMask's Delegation Framework v1.3.0
 * deployed by the Smart Accounts Kit (devnet `delegation: true`), and Alto. Every bad request is
 * refused with a JSON-RPC error naming what is wrong, before any dialog opens.
 */
import type { Json } from '@metamask/utils';

import {
  COMPANION,
  dialogOf,
  expectError,
  installKeyringSnap,
} from './harness';
import type { KeyringHarness } from './harness';
import { ANVIL_KEYS } from '../../devnet/anvil';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const SITE = 'https://dapp.example';
const SESSION = '0x000000000000000000000000000000000000bEEF';
const TOKEN = '0x000000000000000000000000000000000000dEaD';

describe('ERC-7715 execution permissions through the built snap', () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let eoa: string;
  let smart: string;
  let now: number;

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true });
    harness = await installKeyringSnap();
    eoa = (
      await harness.createAccount({
        privateKey: ANVIL_KEYS[3],
      })
    ).address;
    const block = await jsonRpc<{ timestamp: string }>(
      devnet.rpcUrl,
      'eth_getBlockByNumber',
      ['latest', false],
    );
    now = Number(BigInt(block.timestamp));
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * A valid request for a native-token periodic permission from the EOA, with changes.
   *
   * @param changes - Fields to replace at the top level.
   * @param data - Fields to replace in `permission.data`.
   * @returns The `[PermissionRequest]` params.
   */
  function request(
    changes: Record<string, Json> = {},
    data: Record<string, Json> = {},
  ): Json[] {
    return [
      {
        chainId: '0x7a69',
        from: eoa,
        to: SESSION,
        permission: {
          type: 'native-token-periodic',
          isAdjustmentAllowed: false,
          data: {
            periodAmount: '0x6f05b59d3b20000',
            periodDuration: 3600,
            justification: 'Top up game credits',
            ...data,
          },
        },
        rules: [{ type: 'expiry', data: { timestamp: now + 86_400 } }],
        ...changes,
      },
    ];
  }

  /**
   * Expect a request from the site to be refused before any dialog opens.
   *
   * @param params - The params.
   * @param code - The JSON-RPC error code.
   * @param message - What the message must say.
   */
  async function expectRefusedBeforeDialog(
    params: Json[],
    code: number,
    message: RegExp,
  ): Promise<void> {
    const pending = harness.snap.request({
      origin: SITE,
      method: 'wallet_requestExecutionPermissions',
      params,
    });
    expect(await dialogOf(pending)).toBeUndefined();
    await expectError(
      harness.rpc('wallet_requestExecutionPermissions', params, SITE),
      code,
      message,
    );
  }

  it('a chain without the Delegation Framework is refused, and not listed as supported', async () => {
    await harness.rpcApproved('setChainConfig', devnet.chainConfig);
    expect(
      await harness.rpc('wallet_getSupportedExecutionPermissions', [], SITE),
    ).toEqual({
      'native-token-periodic': { chainIds: [], ruleTypes: ['expiry'] },
      'erc20-token-periodic': { chainIds: [], ruleTypes: ['expiry'] },
      'native-token-stream': { chainIds: [], ruleTypes: ['expiry'] },
      'erc20-token-stream': { chainIds: [], ruleTypes: ['expiry'] },
    });
    await expectRefusedBeforeDialog(
      request(),
      -32602,
      /no Delegation Framework settings/u,
    );
  });

  it('with the kit’s environment, the chain is supported for every type, with the expiry rule', async () => {
    await harness.rpcApproved('setChainConfig', {
      ...devnet.chainConfig,
      delegationEnvironment: devnet.delegationEnvironment as unknown as Json,
    });
    const supported = await harness.rpc(
      'wallet_getSupportedExecutionPermissions',
      [],
      SITE,
    );
    for (const type of [
      'native-token-periodic',
      'erc20-token-periodic',
      'native-token-stream',
      'erc20-token-stream',
    ]) {
      expect(supported[type]).toEqual({
        chainIds: ['0x7a69'],
        ruleTypes: ['expiry'],
      });
    }
  });

  it.each([
    [
      'an unknown permission type',
      (): Json[] =>
        request({
          permission: {
            type: 'native-token-allowance',
            isAdjustmentAllowed: false,
            data: { allowanceAmount: '0x1' },
          },
        }),
      /Unsupported permission type/u,
    ],
    [
      'an unknown rule',
      (): Json[] =>
        request({
          rules: [{ type: 'redeemer', data: { addresses: [SESSION] } }],
        }),
      /Unsupported rule type at .*rules\.0/u,
    ],
    [
      'no expiry',
      (): Json[] => request({ rules: [] }),
      /exactly one expiry rule/u,
    ],
    [
      'a zero amount',
      (): Json[] => request({}, { periodAmount: '0x0' }),
      /periodAmount: it must be above zero/u,
    ],
    [
      'an absurd amount',
      (): Json[] => request({}, { periodAmount: `0x${'f'.repeat(64)}` }),
      /periodAmount: the amount is absurdly large/u,
    ],
    [
      'a zero period',
      (): Json[] => request({}, { periodDuration: 0 }),
      /periodDuration: expected 1 second to 10 years/u,
    ],
    [
      'an expiry that has passed',
      (): Json[] =>
        request({ rules: [{ type: 'expiry', data: { timestamp: now - 60 } }] }),
      /expiry: that time has passed/u,
    ],
    [
      'the account itself as session account',
      (): Json[] => request({ to: eoa }),
      /to is the granting account itself/u,
    ],
    [
      'the zero address as session account',
      (): Json[] => request({ to: `0x${'0'.repeat(40)}` }),
      /to is the zero address/u,
    ],
    [
      'two requests at once',
      (): Json[] => [...request(), ...request()],
      /exactly one permission request/u,
    ],
    [
      'a stream without a total',
      (): Json[] =>
        request({
          permission: {
            type: 'native-token-stream',
            isAdjustmentAllowed: false,
            data: { amountPerSecond: '0x1' },
          },
        }),
      /maxAmount: a stream needs the most it may spend/u,
    ],
    [
      'an ERC-20 permission for an address that is not a token',
      (): Json[] =>
        request({
          permission: {
            type: 'erc20-token-periodic',
            isAdjustmentAllowed: false,
            data: {
              tokenAddress: TOKEN,
              periodAmount: '0x1',
              periodDuration: 60,
            },
          },
        }),
      /not an ERC-20 token on this chain/u,
    ],
  ] as [string, () => Json[], RegExp][])(
    'refuses %s (-32602) before any dialog',
    async (_what, params, message) => {
      // built when the test runs: the account and the chain's time are known then
      await expectRefusedBeforeDialog(params(), -32602, message);
    },
  );

  it('refuses an address that is not one of the snap’s accounts (4100), and a smart account (-32602)', async () => {
    await expectRefusedBeforeDialog(
      request({ from: '0x000000000000000000000000000000000000c0DE' }),
      4100,
      /not one of this snap’s accounts/u,
    );
    smart = (
      await harness.createAccount({
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
      })
    ).address;
    await expectRefusedBeforeDialog(
      request({ from: smart }),
      -32602,
      /A smart account \(SimpleAccount\) cannot grant/u,
    );
  });

  it('a site with no grant lists none and cannot revoke (-32602)', async () => {
    expect(
      await harness.rpc('wallet_getGrantedExecutionPermissions', [], SITE),
    ).toEqual([]);
    await expectError(
      harness.rpc(
        'wallet_revokeExecutionPermission',
        { permissionContext: `0x${'00'.repeat(64)}` },
        SITE,
      ),
      -32602,
      /this site was granted no such permission/u,
    );
    await expectError(
      harness.rpc('wallet_revokeExecutionPermission', [], SITE),
      -32602,
      /wallet_revokeExecutionPermission params/u,
    );
  });

  it('the companion may call the four methods too', async () => {
    expect(
      await harness.rpc('wallet_getGrantedExecutionPermissions', [], COMPANION),
    ).toEqual([]);
  });
});
