/**
 * Gas paid in an ERC-20 token (sendUserOperation's `gasToken`) through the built snap, on real
 * parts: anvil (Prague) with the canonical EntryPoints, Alto, and the paymaster service in ERC-20
 * mode (`@pimlico/mock-paymaster`, devnet/token-paymaster.ts) with its test token and
 * SingletonPaymasters. A v0.7 and a v0.8 SimpleAccount and an upgraded EOA, each with 0 ETH and some
 * test tokens, send with `gasToken`. Checked on the chain, independently of the snap: the
 * operation succeeded, the account still has 0 ETH, the tokens it spent are what the paymaster's
 * treasury received and at most the maximum the dialog showed, the allowance left is that maximum
 * less the charge (never unlimited), and the approve in the operation Alto holds is that maximum.
 * Hostile replies are refused before any dialog, with nothing spent.
 */
import {
  createPublicClient,
  decodeFunctionData,
  formatUnits,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { COMPANION, dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { nextPage, openHomePage, pageJson } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import {
  mintTestToken,
  readTestToken,
  TEST_TOKEN,
  TEST_TOKEN_QUOTE,
  TOKEN_PAYMASTERS,
  TOKEN_TREASURY,
} from '../../devnet/token-paymaster';
import type {
  TokenPaymaster,
  TokenPaymasterHostility,
} from '../../devnet/token-paymaster';

jest.setTimeout(300_000);

const DEAD: Address = '0x000000000000000000000000000000000000dEaD';
const MINTED = parseEther('1000');

const BATCH_ABI = parseAbi([
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
  'function approve(address spender, uint256 amount)',
]);

describe('gas paid in an ERC-20 token through the built snap (Pimlico-style paymaster service, Alto)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let service: TokenPaymaster;
  const accounts: Record<string, { id: string; address: Address }> = {};

  beforeAll(async () => {
    devnet = await startDevnet({ tokenPaymaster: true });
    service = devnet.tokenPaymaster as TokenPaymaster;
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    harness = await installKeyringSnap();
    // the upgrading EIP-7702 operation is self-paid: no paymaster service yet
    const { paymasterUrl: _v06Service, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    const eoa = await harness.createAccount({});
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      eoa.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    const upgrade = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: eoa.id,
        scope: devnet.scope,
        intents: [{ to: eoa.address, value: '0x0', data: '0x' }],
      },
    });
    await (await dialogOf(upgrade))?.ok();
    const { response } = (await upgrade) as any;
    if (!(await receiptOf(response.result.userOpHash)).success) {
      throw new Error('the EIP-7702 upgrade failed');
    }
    accounts.eoa = { id: eoa.id, address: getAddress(eoa.address) };
    for (const version of ['0.7', '0.8'] as const) {
      const account = await harness.createAccount({
        type: 'eip155:erc4337',
        scopes: [devnet.scope],
        entryPointVersion: version,
      });
      accounts[version] = {
        id: account.id,
        address: getAddress(account.address),
      };
    }
    for (const account of Object.values(accounts)) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        account.address,
        '0x0',
      ]);
      await mintTestToken(devnet.rpcUrl, account.address, MINTED);
    }
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      paymasterUrl: service.url,
    });
  });

  afterEach(async () => {
    await service?.hostile(null);
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * Alto's receipt of an operation, polled (devnet/json-rpc.ts: bounded, 200 × 100 ms).
   *
   * @param userOpHash - The operation.
   * @returns The receipt.
   */
  async function receiptOf(userOpHash: Hex): Promise<any> {
    return bundlerReceipt(devnet.bundlerUrl, userOpHash);
  }

  /**
   * Ask the snap to send one call to DEAD from `account`, paying gas in the test token.
   *
   * @param account - The account's id.
   * @param gasToken - The token (default the test token).
   * @returns The request in flight.
   */
  function sendWithToken(account: string, gasToken: string = TEST_TOKEN): any {
    return harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x0', data: '0x' }],
        gasToken,
      },
    });
  }

  it.each([
    ['a v0.7 SimpleAccount', '0.7', '0.7'],
    ['a v0.8 SimpleAccount', '0.8', '0.8'],
    ['an upgraded EOA (Simple7702Account)', 'eoa', '0.8'],
  ] as const)(
    '%s with 0 ETH pays its gas in T20: success, ETH stays 0, spent = treasury received <= the maximum shown, the allowance left is bounded',
    async (_name, key, version) => {
      const account = accounts[key];
      const paymaster = TOKEN_PAYMASTERS[version];
      const before = {
        account: await readTestToken(devnet.rpcUrl, [
          'balanceOf',
          account.address,
        ]),
        treasury: await readTestToken(devnet.rpcUrl, [
          'balanceOf',
          TOKEN_TREASURY,
        ]),
      };
      const request = sendWithToken(account.id);
      const dialog = await dialogOf(request);
      expect(dialog).toBeDefined();
      const shown = JSON.stringify(dialog?.content);
      expect(shown).toContain(
        'T20, an ERC-20 token, from this account (not ETH); 18 decimals, as the token reports',
      );
      // this chain's settings list no gas tokens: nothing to compare with
      expect(shown).not.toContain("In this chain's settings");
      expect(shown).toContain(TEST_TOKEN);
      expect(shown).toContain('Maximum gas cost in T20');
      expect(shown).toContain(paymaster);
      const maxCost = BigInt(/\((\d+) base units\)/u.exec(shown)?.[1] ?? '0');
      expect(maxCost).toBeGreaterThan(0n);
      // the decimal amount and, beside it, the base units the approve carries
      expect(shown).toContain(
        `${formatUnits(maxCost, 18)} T20 (${maxCost} base units)`,
      );
      expect(shown).toMatch(
        /Lets the paymaster below take at most [0-9.]+ T20/u,
      );
      await dialog?.ok();
      const { response } = await request;
      const { userOpHash } = response.result as { userOpHash: Hex };
      const receipt = await receiptOf(userOpHash);
      expect(receipt.success).toBe(true);
      expect(getAddress(receipt.paymaster)).toBe(paymaster);

      expect(await client.getBalance({ address: account.address })).toBe(0n);
      const after = {
        account: await readTestToken(devnet.rpcUrl, [
          'balanceOf',
          account.address,
        ]),
        treasury: await readTestToken(devnet.rpcUrl, [
          'balanceOf',
          TOKEN_TREASURY,
        ]),
      };
      const spent = before.account - after.account;
      expect(spent).toBeGreaterThan(0n);
      expect(after.treasury - before.treasury).toBe(spent);
      expect(spent).toBeLessThanOrEqual(maxCost);
      const allowance = await readTestToken(devnet.rpcUrl, [
        'allowance',
        account.address,
        paymaster,
      ]);
      expect(allowance).not.toBe(maxUint256);
      expect(allowance).toBe(maxCost - spent);

      // the approve the account signed (first call of its batch, in the operation Alto holds)
      const held = await jsonRpc<any>(
        devnet.bundlerUrl,
        'eth_getUserOperationByHash',
        [userOpHash],
      );
      const batch = decodeFunctionData({
        abi: BATCH_ABI,
        data: held.userOperation.callData,
      });
      const approveData =
        version === '0.7'
          ? (batch.args as unknown as [Address[], bigint[], Hex[]])[2][0]
          : (batch.args as unknown as [{ data: Hex }[]])[0][0]?.data;
      const approve = decodeFunctionData({
        abi: BATCH_ABI,
        data: approveData,
      });
      expect(approve.functionName).toBe('approve');
      expect(approve.args).toStrictEqual([paymaster, maxCost]);
      // the devnet's service signs what it quoted: post-op gas and exchange rate in its ERC-20 data
      const signed = held.userOperation.paymasterData as Hex;
      expect(BigInt(`0x${signed.slice(2 + 68, 2 + 100)}`)).toBe(
        TEST_TOKEN_QUOTE.postOpGas,
      );
      expect(BigInt(`0x${signed.slice(2 + 100, 2 + 164)}`)).toBe(
        TEST_TOKEN_QUOTE.exchangeRate,
      );
    },
  );

  it.each([
    [
      'a signed rate 1,000 times the quote',
      'rate',
      /can take more than the quote allows/u,
    ],
    [
      'another paymaster than the quote',
      'paymaster',
      /names another paymaster/u,
    ],
    ['a huge post-op gas', 'postOpGas', /postOpGas: expected 0 to 1000000/u],
    [
      'oversized paymaster data',
      'oversized',
      /paymasterData: expected hex bytes, at most/u,
    ],
  ] as const)(
    'refuses %s before any dialog: nothing signed, no token spent',
    async (_name, mode: TokenPaymasterHostility, message) => {
      const account = accounts['0.8'];
      const before = await readTestToken(devnet.rpcUrl, [
        'balanceOf',
        account.address,
      ]);
      await service.hostile(mode);
      const request = sendWithToken(account.id);
      expect(await dialogOf(request)).toBeUndefined();
      const { response } = await request;
      expect(response.error).toStrictEqual(
        expect.objectContaining({
          code: -32602,
          message: expect.stringMatching(message),
        }),
      );
      expect(
        await readTestToken(devnet.rpcUrl, ['balanceOf', account.address]),
      ).toBe(before);
    },
  );

  it('a send without gasToken is refused before any dialog when the service answers in ERC-20 mode: the allowance a token-paid send left stays, no token leaves', async () => {
    const account = accounts['0.8'];
    const paymaster = TOKEN_PAYMASTERS['0.8'];
    // a token-paid send leaves the rest of its approve to the paymaster
    const paid = sendWithToken(account.id);
    await (await dialogOf(paid))?.ok();
    const { response: paidResponse } = await paid;
    expect((await receiptOf(paidResponse.result.userOpHash)).success).toBe(
      true,
    );
    const left = await readTestToken(devnet.rpcUrl, [
      'allowance',
      account.address,
      paymaster,
    ]);
    expect(left).toBeGreaterThan(0n);
    /**
     * The account's and the treasury's test tokens, and the allowance, read from the node.
     *
     * @returns The three amounts, token base units.
     */
    const held = async (): Promise<bigint[]> => [
      await readTestToken(devnet.rpcUrl, ['balanceOf', account.address]),
      await readTestToken(devnet.rpcUrl, ['balanceOf', TOKEN_TREASURY]),
      await readTestToken(devnet.rpcUrl, [
        'allowance',
        account.address,
        paymaster,
      ]),
    ];
    const before = await held();

    // an ordinary send: no gasToken, so the service is asked for sponsorship (context {})
    await service.hostile('sponsorInToken');
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: account.id,
        scope: devnet.scope,
        intents: [{ to: DEAD, value: '0x0', data: '0x' }],
      },
    });
    const dialog = await dialogOf(request);
    // were a dialog shown, the person would confirm it: it says a paymaster pays the gas
    await dialog?.ok();
    const { response } = (await request) as any;
    if (response.result?.userOpHash) {
      await receiptOf(response.result.userOpHash);
    }
    expect(await held()).toStrictEqual(before);
    expect(dialog).toBeUndefined();
    expect(response.error).toStrictEqual(
      expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(
          /at paymasterData: not sponsorship data/u,
        ),
      }),
    );
  });

  it('refuses a token the service does not take, gasToken on the upgrading EIP-7702 operation and on v0.6, without a dialog', async () => {
    const fresh = await harness.createAccount({});
    const v06 = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    for (const [request, message] of [
      [
        sendWithToken((accounts['0.8'] as { id: string }).id, DEAD),
        /does not take 0x000000000000000000000000000000000000dEaD/u,
      ],
      [
        sendWithToken(fresh.id),
        /the operation that upgrades this account cannot pay its gas in a token/u,
      ],
      [sendWithToken(v06.id), /needs an EntryPoint v0.7 or v0.8 account/u],
    ] as const) {
      expect(await dialogOf(request)).toBeUndefined();
      const { response } = await request;
      expect(response.error).toStrictEqual(
        expect.objectContaining({
          code: -32602,
          message: expect.stringMatching(message),
        }),
      );
    }
  });

  it('the devnet service survives a context naming a token it does not take', async () => {
    const reply = await fetch(service.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'pm_getPaymasterStubData',
        params: [
          {
            sender: DEAD,
            nonce: '0x0',
            callData: '0x',
            maxFeePerGas: '0x1',
            maxPriorityFeePerGas: '0x1',
            callGasLimit: '0x1',
            verificationGasLimit: '0x1',
            preVerificationGas: '0x1',
          },
          '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
          '0x7a69',
          { token: DEAD },
        ],
      }),
    });
    expect(reply.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await fetch(`${service.url}/ping`)).ok).toBe(true);
  });

  it('the page: the card shows each listed token balance, the Send form pays gas with T20 and the dialog says so', async () => {
    const config = (await harness.rpc('getChainConfigs', undefined)) as any[];
    const { scope, entryPoint, accountFactory } = config[0];
    await harness.rpcApproved('setChainConfig', {
      scope,
      rpcUrl: devnet.rpcUrl,
      entryPoint,
      accountFactory,
      bundlerUrl: devnet.bundlerUrl,
      paymasterUrl: service.url,
      gasTokens: [TEST_TOKEN],
    });
    const account = accounts['0.8'];
    const held = await readTestToken(devnet.rpcUrl, [
      'balanceOf',
      account.address,
    ]);
    let ui = await openHomePage(harness);
    const page = pageJson(ui);
    expect(page).toContain(`send-gas:${account.id}`);
    expect(page).toContain(`T20 ${TEST_TOKEN}`);
    expect(page).toContain(`${formatUnits(held, 18)} T20 on`);
    await ui.typeInField(`send-to:${account.id}`, DEAD);
    await ui.typeInField(`send-value:${account.id}`, '0');
    await ui.selectInDropdown(`send-gas:${account.id}`, TEST_TOKEN);
    harness.answerDialogs(true);
    ui = await nextPage(ui, async (current) =>
      current.clickElement(`send:${account.id}-submit`),
    );
    const dialog = JSON.stringify(harness.dialogs.at(-1));
    expect(dialog).toContain(
      'T20, an ERC-20 token, from this account (not ETH); 18 decimals, as the token reports',
    );
    // the chain lists T20 in gasTokens: the dialog says so, next to its label
    expect(dialog).toMatch(
      /In this chain's settings.{0,120}Yes: one of the tokens listed to pay gas with/u,
    );
    const userOpHash = /\(user operation (0x[0-9a-f]{64})\)/u.exec(
      pageJson(ui),
    )?.[1] as Hex;
    expect((await receiptOf(userOpHash)).success).toBe(true);
    expect(await client.getBalance({ address: account.address })).toBe(0n);
    expect(
      await readTestToken(devnet.rpcUrl, ['balanceOf', account.address]),
    ).toBeLessThan(held);
  });
});
