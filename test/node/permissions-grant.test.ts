/**
 * ERC-7715 grants through the snap's own domain code in Node, redeemed with MetaMask's Smart
 * Accounts Kit on real contracts: anvil (Prague) with the Delegation Framework v1.3.0 deployed by
 * the kit's `deploySmartAccountsEnvironment`, an EOA of the snap (an imported known key) pointed to
 * EIP7702StatelessDeleGatorImpl out of band, and a session key redeeming with
 * `erc7710WalletActions().sendTransactionWithDelegation`. What each redemption moved is read from
 * the node (balances), and every refusal names the enforcer that refused it.
 */
import type { SmartAccountsEnvironment } from '@metamask/smart-accounts-kit';
import { overrideDeployedEnvironment } from '@metamask/smart-accounts-kit/utils';
import {
  decodeAbiParameters,
  getAddress,
  parseEther,
  recoverTypedDataAddress,
  toFunctionSelector,
} from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { ANVIL_KEYS, startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import {
  DELEGATION_DEPLOYER_KEY,
  deployDelegationFramework,
} from '../../devnet/delegation';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  delegateEoa,
  deployTestToken,
  mintTo,
  redeem,
  tokenBalance,
  transferCall,
} from '../../devnet/permissions';
import { DELEGATION_TYPES } from '../../src/accounts/deleGator/delegation';
import { normalizeDelegationEnvironment } from '../../src/accounts/deleGator/environment';
import { DeleGators } from '../../src/keyring/deleGator';
import { KeyringSnap } from '../../src/keyring/keyring';
import type { KeyringPlatform } from '../../src/keyring/keyring';
import { MetadataReader } from '../../src/metadata';
import { Settings } from '../../src/settings';
import { ExecutionPermissions } from '../../src/sites/permissions/executionPermissions';
import type { GrantReview } from '../../src/sites/permissions/types';
import { defaultState, StateStore } from '../../src/state/store';

const SITE = 'https://dapp.example';
const KEY = ANVIL_KEYS[3];
const SESSION_KEY = generatePrivateKey();
const STRANGER_KEY = generatePrivateKey();
const RECIPIENT = '0x000000000000000000000000000000000000bEEF' as Address;

describe('ERC-7715 grants redeemed with the Smart Accounts Kit (anvil, Delegation Framework v1.3.0)', () => {
  let anvil: Anvil;
  let environment: SmartAccountsEnvironment;
  let token: Address;
  let permissions: ExecutionPermissions;
  let store: StateStore;
  let eoa: Address;
  const reviews: GrantReview[] = [];
  let answer = true;
  let deleGators: DeleGators;

  beforeAll(async () => {
    anvil = await startAnvil({ args: ['--hardfork', 'prague'] });
    await jsonRpc(anvil.url, 'anvil_setBalance', [
      privateKeyToAccount(DELEGATION_DEPLOYER_KEY).address,
      '0x56bc75e2d63100000',
    ]); // 100 ETH
    environment = await deployDelegationFramework(anvil.url);
    overrideDeployedEnvironment(anvil.chainId, '1.3.0', environment);
    token = await deployTestToken(anvil.url, 'TST');
    const state = defaultState();
    const scope = `eip155:${anvil.chainId}`;
    state.chains[scope] = {
      scope,
      rpcUrl: anvil.url,
      entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      accountFactory: '0x9406Cc6185a346906296840746125a0E44976454',
      delegationEnvironment: normalizeDelegationEnvironment(environment),
    };
    store = new StateStore(state, async () => undefined);
    const settings = new Settings(store);
    const platform: KeyringPlatform = {
      emitEvent: async () => undefined,
      confirm: async () => true,
      deriveKey: async () => {
        throw new Error('no derivation here');
      },
    };
    const keyring = new KeyringSnap({
      store,
      settings,
      metadata: new MetadataReader(() => null),
      platform,
      redirect: (): { message: string } => ({ message: '' }),
    });
    const account = await keyring.createAccount({ privateKey: KEY });
    eoa = account.address as Address;
    for (const address of [
      eoa,
      ...[SESSION_KEY, STRANGER_KEY].map(
        (key) => privateKeyToAccount(key).address,
      ),
    ]) {
      await jsonRpc(anvil.url, 'anvil_setBalance', [
        address,
        '0x8ac7230489e80000',
      ]); // 10 ETH
    }
    await mintTo(anvil.url, token, eoa, parseEther('1000'));
    await delegateEoa(
      anvil.url,
      KEY,
      environment.implementations.EIP7702StatelessDeleGatorImpl,
    );
    // the snap's own seam: the EOA already runs the DeleGator (pointed out of band above)
    deleGators = new DeleGators({ store, settings, platform });
    permissions = new ExecutionPermissions({
      store,
      settings,
      keyring,
      deleGators,
      confirm: async (review): Promise<boolean> => {
        reviews.push(review);
        return answer;
      },
    });
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  /**
   * The chain's latest block time.
   *
   * @returns Unix seconds.
   */
  async function chainNow(): Promise<number> {
    const block = await jsonRpc<{ timestamp: Hex }>(
      anvil.url,
      'eth_getBlockByNumber',
      ['latest', false],
    );
    return Number(BigInt(block.timestamp));
  }

  /**
   * Move the chain's time forward and mine a block.
   *
   * @param seconds - How far.
   */
  async function later(seconds: number): Promise<void> {
    await jsonRpc(anvil.url, 'evm_increaseTime', [seconds]);
    await jsonRpc(anvil.url, 'evm_mine', []);
  }

  /**
   * Ask for a permission as a site does.
   *
   * @param permission - `{ type, data }`.
   * @param permission.type - The permission type.
   * @param permission.data - Its data.
   * @param expiry - The expiry rule's timestamp.
   * @param origin - The site.
   * @returns The one PermissionResponse.
   */
  async function grant(
    permission: { type: string; data: Record<string, unknown> },
    expiry: number,
    origin = SITE,
  ): Promise<any> {
    const [response] = (await permissions.request(
      [
        {
          chainId: `0x${anvil.chainId.toString(16)}`,
          from: eoa,
          to: privateKeyToAccount(SESSION_KEY).address,
          permission: { ...permission, isAdjustmentAllowed: false },
          rules: [{ type: 'expiry', data: { timestamp: expiry } }],
        },
      ],
      origin,
    )) as any[];
    return response;
  }

  /**
   * @param address - An account.
   * @returns Its balance in wei.
   */
  const balance = async (address: Address): Promise<bigint> =>
    BigInt(
      await jsonRpc<Hex>(anvil.url, 'eth_getBalance', [address, 'latest']),
    );

  it('native-token-periodic: exactly the limit per period, nothing more, nothing for a stranger, nothing after expiry', async () => {
    const start = await chainNow();
    const expiry = start + 3 * 3600;
    const response = await grant(
      {
        type: 'native-token-periodic',
        data: {
          periodAmount: `0x${parseEther('0.5').toString(16)}`,
          periodDuration: 3600,
          justification: 'Top up your game credits',
        },
      },
      expiry,
    );
    // the response: the request, its start filled in with the chain's time, and the kit's fields
    expect(response).toMatchObject({
      chainId: `0x${anvil.chainId.toString(16)}`,
      from: eoa,
      to: privateKeyToAccount(SESSION_KEY).address,
      permission: {
        type: 'native-token-periodic',
        isAdjustmentAllowed: false,
        data: {
          periodAmount: '0x6f05b59d3b20000',
          periodDuration: 3600,
          justification: 'Top up your game credits',
        },
      },
      rules: [{ type: 'expiry', data: { timestamp: expiry } }],
      dependencies: [],
      delegationManager: getAddress(environment.DelegationManager),
    });
    expect(response.permission.data.startTime).toBeGreaterThanOrEqual(start);
    // the dialog saw what was signed
    const review = reviews.at(-1) as GrantReview;
    expect(review).toMatchObject({
      origin: SITE,
      delegate: privateKeyToAccount(SESSION_KEY).address,
      expiry,
      justification: 'Top up your game credits',
      deleGator: { ready: true },
    });
    // the context is one delegation, signed by the EOA's key over the DelegationManager's domain
    const [[delegation]] = decodeAbiParameters(
      [
        {
          type: 'tuple[]',
          components: [
            { name: 'delegate', type: 'address' },
            { name: 'delegator', type: 'address' },
            { name: 'authority', type: 'bytes32' },
            {
              name: 'caveats',
              type: 'tuple[]',
              components: [
                { name: 'enforcer', type: 'address' },
                { name: 'terms', type: 'bytes' },
                { name: 'args', type: 'bytes' },
              ],
            },
            { name: 'salt', type: 'uint256' },
            { name: 'signature', type: 'bytes' },
          ],
        },
      ],
      response.context,
    ) as unknown as [[any]];
    expect(
      await recoverTypedDataAddress({
        domain: {
          name: 'DelegationManager',
          version: '1',
          chainId: anvil.chainId,
          verifyingContract: environment.DelegationManager,
        },
        types: DELEGATION_TYPES,
        primaryType: 'Delegation',
        message: delegation,
        signature: delegation.signature,
      }),
    ).toBe(eoa);

    const before = await balance(RECIPIENT);
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.3') },
        response,
      ),
    ).toBe('success');
    expect(await balance(RECIPIENT)).toBe(before + parseEther('0.3'));
    // what is left this period, read by the home page from the enforcer
    const views = await permissions.views();
    expect(views[Object.keys(views)[0]]?.[0]).toMatchObject({
      status: 'active',
      available: parseEther('0.2'),
    });
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.3') },
        response,
      ),
    ).toMatch(/transfer-amount-exceeded/u);
    expect(
      await redeem(
        anvil.url,
        STRANGER_KEY,
        { to: RECIPIENT, value: 1n },
        response,
      ),
    ).toMatch(toFunctionSelector('InvalidDelegate()'));
    await later(3600);
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.5') },
        response,
      ),
    ).toBe('success');
    expect(await balance(RECIPIENT)).toBe(before + parseEther('0.8'));
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: 1n },
        response,
      ),
    ).toMatch(/transfer-amount-exceeded/u);
    await later(3 * 3600);
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: 1n },
        response,
      ),
    ).toMatch(/expired-delegation/u);
    expect(await balance(RECIPIENT)).toBe(before + parseEther('0.8'));
  });

  it('erc20-token-periodic: exactly the limit per period in the token, no ETH, nothing for a stranger', async () => {
    const expiry = (await chainNow()) + 3 * 86_400;
    const response = await grant(
      {
        type: 'erc20-token-periodic',
        data: {
          tokenAddress: token,
          periodAmount: `0x${parseEther('10').toString(16)}`,
          periodDuration: 86_400,
        },
      },
      expiry,
    );
    expect(reviews.at(-1)?.token).toStrictEqual({
      address: getAddress(token),
      symbol: 'TST',
      decimals: 18,
    });
    const before = await tokenBalance(anvil.url, token, RECIPIENT);
    /**
     * Move the token with the permission.
     *
     * @param amount - Token base units.
     * @param key - Who redeems.
     * @param value - Wei sent along.
     * @returns What redeem says.
     */
    const send = async (
      amount: bigint,
      key: Hex = SESSION_KEY,
      value = 0n,
    ): Promise<string> =>
      redeem(
        anvil.url,
        key,
        { to: token, value, data: transferCall(RECIPIENT, amount) },
        response,
      );
    expect(await send(parseEther('6'))).toBe('success');
    expect(await send(parseEther('6'))).toMatch(/transfer-amount-exceeded/u);
    expect(await send(1n, SESSION_KEY, 1n)).toMatch(/value-too-high/u);
    expect(await send(1n, STRANGER_KEY)).toMatch(
      toFunctionSelector('InvalidDelegate()'),
    );
    await later(86_400);
    expect(await send(parseEther('10'))).toBe('success');
    expect(await send(1n)).toMatch(/transfer-amount-exceeded/u);
    expect(await tokenBalance(anvil.url, token, RECIPIENT)).toBe(
      before + parseEther('16'),
    );
  });

  it('native-token-stream: the initial amount at once, then the rate, never past the total; the home page reads what is unlocked', async () => {
    const start = await chainNow();
    const response = await grant(
      {
        type: 'native-token-stream',
        data: {
          initialAmount: `0x${parseEther('0.1').toString(16)}`,
          amountPerSecond: `0x${parseEther('0.001').toString(16)}`,
          maxAmount: `0x${parseEther('0.2').toString(16)}`,
          startTime: start,
        },
      },
      start + 86_400,
    );
    const before = await balance(RECIPIENT);
    // about 0.1 ETH is unlocked at first: 0.15 is more
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.15') },
        response,
      ),
    ).toMatch(/allowance-exceeded/u);
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.1') },
        response,
      ),
    ).toBe('success');
    await later(1000); // 1 ETH more by the rate, but the total is 0.2
    const views = await permissions.views();
    const view = Object.values(views)
      .flat()
      .find((item) => item.terms.type === 'native-token-stream');
    expect(view).toMatchObject({
      status: 'active',
      available: parseEther('0.1'),
    });
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.1') + 1n },
        response,
      ),
    ).toMatch(/allowance-exceeded/u);
    expect(
      await redeem(
        anvil.url,
        SESSION_KEY,
        { to: RECIPIENT, value: parseEther('0.1') },
        response,
      ),
    ).toBe('success');
    expect(await balance(RECIPIENT)).toBe(before + parseEther('0.2'));
  });

  it('a declined grant signs nothing and upgrades nothing, and keeps nothing', async () => {
    const sign = jest.spyOn(deleGators, 'signDelegation');
    const ensure = jest.spyOn(deleGators, 'ensureDeleGator');
    const kept = store.current.grants?.length ?? 0;
    answer = false;
    try {
      await expect(
        grant(
          {
            type: 'native-token-periodic',
            data: { periodAmount: '0x1', periodDuration: 60 },
          },
          (await chainNow()) + 3600,
        ),
      ).rejects.toMatchObject({ code: 4001 });
    } finally {
      answer = true;
    }
    expect(sign).not.toHaveBeenCalled();
    expect(ensure).not.toHaveBeenCalled();
    expect(store.current.grants?.length ?? 0).toBe(kept);
  });

  it('a site sees only its own grants, and cannot revoke another site’s', async () => {
    const other = 'https://other.example';
    const theirs = await grant(
      {
        type: 'native-token-periodic',
        data: { periodAmount: '0x100', periodDuration: 60 },
      },
      (await chainNow()) + 3600,
      other,
    );
    const mine = permissions.granted([], SITE) as any[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map((item) => item.context)).not.toContain(theirs.context);
    expect(permissions.granted(undefined, other)).toStrictEqual([theirs]);
    expect(permissions.granted([], 'https://nobody.example')).toStrictEqual([]);
    await expect(
      permissions.revoke({ permissionContext: theirs.context }, SITE),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses an expiry that has passed on the chain, before any dialog', async () => {
    const shown = reviews.length;
    await expect(
      grant(
        {
          type: 'native-token-periodic',
          data: { periodAmount: '0x1', periodDuration: 60 },
        },
        (await chainNow()) - 1,
      ),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/expiry: that time has passed/u),
    });
    expect(reviews).toHaveLength(shown);
  });
});
