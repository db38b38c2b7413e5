/**
 * EIP-5792 (version 2.0.0) from a site that is neither MetaMask nor the companion, through the built
 * snap (`endowment:rpc` with `dapps: true`), on real parts: anvil (Prague) with EntryPoint v0.8,
 * its SimpleAccountFactory and Simple7702Account, and the Alto bundler. A v0.8 smart account and an
 * EOA (upgraded by its first send) each send a two-call batch with `wallet_sendCalls`; the status is
 * polled with `wallet_getCallsStatus` until confirmed, and both calls are checked on anvil
 * (recorder storage, and the log naming the account as the caller).
 */
import { getAddress, parseEther } from 'viem';
import type { Address, Hex } from 'viem';

import {
  COMPANION,
  dialogOf,
  dialogText,
  expectError,
  installKeyringSnap,
  METAMASK,
} from './harness';
import type { KeyringHarness, OpenDialog } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
  recordTopics,
} from '../../devnet/targets';

jest.setTimeout(240_000);

const DAPP = 'https://dapp.example';
const OTHER = 'https://other.example';
const THIRD = 'https://third.example';
const PROBE = 'https://probe.example';

/**
 * What a site sees of an error reply: its code and message.
 *
 * @param error - The reply's error.
 * @returns `{ code, message }`.
 */
function pick(error: any): { code: number; message: string } {
  return { code: error?.code, message: error?.message };
}

/**
 * The first row of a dialog (its label and what it shows), in tree order.
 *
 * @param node - The dialog's JSX content.
 * @returns The first Row's label and the strings it shows, or undefined.
 */
function firstRow(node: any): { label: string; shown: string } | undefined {
  if (Array.isArray(node)) {
    return node.map(firstRow).find(Boolean);
  }
  if (typeof node !== 'object' || node === null) {
    return undefined;
  }
  if (node.type === 'Row') {
    return {
      label: node.props.label,
      shown: JSON.stringify(node.props.children),
    };
  }
  return firstRow(node.props?.children);
}

describe('EIP-5792 from a site (wallet_invokeSnap) on EntryPoint v0.8 and an EOA (Alto)', () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let smart: { id: string; address: Address };
  let eoa: { id: string; address: Address };
  let chainId: Hex;

  /**
   * Send `params` as a site and answer the dialog it opens.
   *
   * @param params - The wallet_sendCalls request object.
   * @param answer - Approve or cancel.
   * @param origin - The site.
   * @returns The dialog and the reply.
   */
  async function sendCalls(
    params: Record<string, any>,
    answer: 'ok' | 'cancel',
    origin = DAPP,
  ): Promise<{ dialog: OpenDialog | undefined; response: any }> {
    const pending = harness.snap.request({
      origin,
      method: 'wallet_sendCalls',
      params: [params],
    });
    const dialog = await dialogOf(pending);
    await (answer === 'ok' ? dialog?.ok() : dialog?.cancel());
    return { dialog, response: (await pending).response };
  }

  /**
   * Call `method` as a site and answer the dialog it opens, if any.
   *
   * @param method - The method.
   * @param params - Its params.
   * @param answer - Approve or cancel the dialog.
   * @param origin - The site.
   * @returns The dialog (undefined when none opened) and the reply.
   */
  async function ask(
    method: string,
    params: any[],
    answer: 'ok' | 'cancel',
    origin: string,
  ): Promise<{ dialog: OpenDialog | undefined; response: any }> {
    const pending = harness.snap.request({ origin, method, params });
    const dialog = await dialogOf(pending);
    await (answer === 'ok' ? dialog?.ok() : dialog?.cancel());
    return { dialog, response: (await pending).response };
  }

  /**
   * Poll wallet_getCallsStatus until the bundle is no longer pending (bounded: 200 × 100 ms).
   *
   * @param id - The bundle id.
   * @returns The last status.
   */
  async function settled(id: string): Promise<any> {
    let status: any;
    for (let attempt = 0; attempt < 200; attempt += 1) {
      status = await harness.rpc('wallet_getCallsStatus', [id], DAPP);
      if (status.status !== 100) {
        return status;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return status;
  }

  /**
   * Two recorder calls (keys `key` and `key + 1`), to the two recorders.
   *
   * @param key - The first storage key.
   * @returns The calls.
   */
  function twoCalls(key: number): { to: Address; value: Hex; data: Hex }[] {
    return [0, 1].map((offset) => ({
      to: RECORDERS[offset],
      value: '0x0',
      data: recordCalldata(key + offset, 0xbeef + offset),
    }));
  }

  beforeAll(async () => {
    devnet = await startDevnet({ entryPoints: true });
    chainId = `0x${devnet.chainId.toString(16)}`;
    await Promise.all(
      RECORDERS.map(async (address) => installRecorder(devnet.rpcUrl, address)),
    );
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', devnet.chainConfig);
    smart = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      entryPointVersion: '0.8',
    });
    eoa = await harness.createAccount({});
    for (const { address } of [smart, eoa]) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        address,
        `0x${parseEther('1').toString(16)}`,
      ]);
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  it('wallet_getCapabilities only for an account the site was given: one question a site, the same for any address; then 4100 alike for the snap’s accounts and others; an EOA not yet upgraded is "ready"', async () => {
    // a site's first question: one dialog naming the site and the address; approved, the answer
    const first = await ask(
      'wallet_getCapabilities',
      [smart.address],
      'ok',
      DAPP,
    );
    expect(dialogText(first.dialog as OpenDialog)).toContain(DAPP);
    expect(dialogText(first.dialog as OpenDialog)).toContain(smart.address);
    expect(first.response.result).toEqual({
      [chainId]: {
        atomic: { status: 'supported' },
        paymasterService: { supported: true },
      },
    });
    expect(
      await harness.rpc(
        'wallet_getCapabilities',
        [smart.address.toLowerCase(), ['0x1']],
        DAPP,
      ),
    ).toEqual({});
    // another address: no second question, 4100 (a send from it gives it to the site)
    const second = await ask(
      'wallet_getCapabilities',
      [eoa.address],
      'ok',
      DAPP,
    );
    expect(second.dialog).toBeUndefined();
    expect(second.response.error).toMatchObject({ code: 4100 });

    // two other sites, one asking for the snap's EOA and one for an address that is not the
    // snap's: the same dialog (but for the site and the address), the same refusal once declined
    // and at the next question (with no dialog)
    const seen = [];
    for (const [site, address, next] of [
      [OTHER, eoa.address, RECORDERS[0]],
      [THIRD, RECORDERS[0], eoa.address],
    ] as const) {
      const asked = await ask(
        'wallet_getCapabilities',
        [address],
        'cancel',
        site,
      );
      const later = await ask('wallet_getCapabilities', [next], 'ok', site);
      seen.push({
        dialog: dialogText(asked.dialog as OpenDialog)
          .replaceAll(site, '<site>')
          .replaceAll(address, '<address>'),
        declined: pick(asked.response.error),
        later: pick(later.response.error),
        laterDialog: later.dialog,
      });
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]).toMatchObject({
      declined: { code: 4100 },
      later: { code: 4100 },
      laterDialog: undefined,
    });
    expect(seen[0]?.declined).toEqual(pick(second.response.error));

    // the companion sees every account: the EOA, not upgraded yet, is "ready" (its first send
    // upgrades it, after the person approves that send)
    expect(
      await harness.rpc('wallet_getCapabilities', [eoa.address], COMPANION),
    ).toEqual({
      [chainId]: {
        atomic: { status: 'ready' },
        paymasterService: { supported: true },
      },
    });
    await expectError(
      harness.rpc('wallet_getCapabilities', [RECORDERS[0]], COMPANION),
      4100,
      /not one of this snap/u,
    );

    // self-paid from here on (the devnet's paymaster service is not what these sends test)
    const { paymasterUrl: _sponsored, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', selfPaid);
    expect(
      await harness.rpc('wallet_getCapabilities', [smart.address], DAPP),
    ).toEqual({ [chainId]: { atomic: { status: 'supported' } } });
  });

  it.each([
    ['a v0.8 smart account', 'smart', 0x100, undefined],
    ['an EOA (the first send upgrades it)', 'eoa', 0x200, 'bundle-of-eoa'],
  ] as const)(
    'wallet_sendCalls from %s: the dialog names the site first, both calls run on the chain, wallet_getCallsStatus reaches 200 with the bundler’s receipt',
    async (_name, which, key, givenId) => {
      const account = which === 'smart' ? smart : eoa;
      const { dialog, response } = await sendCalls(
        {
          version: '2.0.0',
          ...(givenId ? { id: givenId } : {}),
          from: account.address,
          chainId,
          atomicRequired: true,
          calls: twoCalls(key),
          capabilities: { someFutureThing: { optional: true } },
        },
        'ok',
      );
      expect(firstRow(dialog?.content)).toEqual({
        label: 'Requested by',
        shown: expect.stringContaining(DAPP),
      });
      const idPattern = givenId
        ? new RegExp(`^${givenId}$`, 'u')
        : /^0x[0-9a-f]{64}$/u;
      expect(response.result).toEqual({ id: expect.stringMatching(idPattern) });
      const { id } = response.result as { id: string };

      const status = await settled(id);
      expect(status).toEqual({
        version: '2.0.0',
        id,
        chainId,
        status: 200,
        atomic: true,
        receipts: [
          {
            logs: expect.anything(),
            status: '0x1',
            blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
            blockNumber: expect.stringMatching(/^0x[0-9a-f]+$/u),
            gasUsed: expect.stringMatching(/^0x[0-9a-f]+$/u),
            transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
          },
        ],
      });

      // checked on the chain itself: both recorders hold their values, and the node's own receipt
      // of the bundle transaction has each recorder's log with the account as its caller
      expect(await readRecord(devnet.rpcUrl, RECORDERS[0], key)).toBe(0xbeefn);
      expect(await readRecord(devnet.rpcUrl, RECORDERS[1], key + 1)).toBe(
        0xbef0n,
      );
      const [receipt] = status.receipts;
      const onChain = await jsonRpc<any>(
        devnet.rpcUrl,
        'eth_getTransactionReceipt',
        [receipt.transactionHash],
      );
      expect(onChain.blockHash).toBe(receipt.blockHash);
      for (const offset of [0, 1]) {
        const topics = recordTopics(key + offset, account.address);
        /**
         * @param log - A log.
         * @returns Whether it is this recorder's log with the account as the caller.
         */
        const matches = (log: any): boolean =>
          getAddress(log.address) === getAddress(RECORDERS[offset]) &&
          JSON.stringify(log.topics) === JSON.stringify(topics);
        expect(onChain.logs.filter(matches)).toHaveLength(1);
        expect(receipt.logs.filter(matches)).toHaveLength(1);
      }

      // another site does not see it
      await expectError(
        harness.rpc('wallet_getCallsStatus', [id], OTHER),
        5730,
        /Unknown bundle id/u,
      );
    },
  );

  it('after the EOA’s first send from the site (which upgraded it), the site was given it, and it is "supported"', async () => {
    expect(
      await harness.rpc(
        'wallet_getCapabilities',
        [eoa.address, [chainId]],
        DAPP,
      ),
    ).toEqual({ [chainId]: { atomic: { status: 'supported' } } });
  });

  it('wallet_showCallsStatus is not supported: 4200', async () => {
    await expectError(
      harness.rpc('wallet_showCallsStatus', ['bundle-of-eoa'], DAPP),
      4200,
      /wallet_showCallsStatus is not supported/u,
    );
  });

  it('wallet_sendCalls from an address the site was not given: before any dialog, the same 4100 whether the address is the snap’s or not, its chain configured or not, a paymaster service there or not, its calls failing or not; the site given it hears why', async () => {
    const reverting = [{ to: devnet.contracts.entryPoint, data: '0xdeadbeef' }];
    const base = {
      version: '2.0.0',
      chainId,
      atomicRequired: true,
      calls: twoCalls(0x600),
    };
    const probes = [
      { ...base, from: RECORDERS[0] }, // not the snap's
      { ...base, from: smart.address, chainId: '0x1' }, // no settings for the chain
      {
        ...base,
        from: eoa.address,
        capabilities: { paymasterService: { url: DAPP } },
      }, // no paymaster service there
      { ...base, from: smart.address, calls: reverting }, // fails while drafted
    ];
    const answers = [];
    for (const params of probes) {
      const { dialog, response } = await sendCalls(params, 'cancel', PROBE);
      answers.push({ dialog, error: pick(response.error) });
    }
    expect(answers.map(({ dialog }) => dialog)).toStrictEqual(
      probes.map(() => undefined),
    );
    expect(
      new Set(answers.map(({ error }) => JSON.stringify(error))).size,
    ).toBe(1);
    expect(answers[0]?.error).toMatchObject({
      code: 4100,
      message: expect.stringMatching(/not an account this site may use/u),
    });
    await expectError(
      harness.rpc(
        'sendUserOperation',
        { account: smart.address, scope: 'eip155:1', intents: reverting },
        PROBE,
      ),
      4100,
      /not an account this site may use/u,
    );

    // the site given the smart account hears what is wrong, before any dialog
    const given = { ...base, from: smart.address };
    for (const [params, code, message] of [
      [{ ...given, chainId: '0x1' }, 5710, /Unsupported chain/u],
      [
        { ...given, capabilities: { paymasterService: { url: DAPP } } },
        5700,
        /paymasterService on this chain/u,
      ],
      [{ ...given, calls: reverting }, -32003, /execution reverted/u],
    ] as const) {
      const { dialog, response } = await sendCalls(params, 'cancel', DAPP);
      expect(dialog).toBeUndefined();
      expect(pick(response.error)).toEqual({
        code,
        message: expect.stringMatching(message),
      });
    }
    // a v0.6 smart account's calls are estimated by the chain's node (a code-3 revert), not the
    // bundler (-32521): the same answer
    const v06 = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    const { response } = await sendCalls(
      { ...base, from: v06.address, calls: reverting },
      'cancel',
      COMPANION,
    );
    expect(pick(response.error)).toEqual({
      code: -32003,
      message: expect.stringMatching(/execution reverted/u),
    });
  });

  it('refuses what EIP-5792 names: non-optional unknown capability (5700), unknown chain (5710), a reused id (5720), too many calls (5740), a wrong version (-32602)', async () => {
    const base = {
      version: '2.0.0',
      from: smart.address,
      chainId,
      atomicRequired: false,
      calls: twoCalls(0x300),
    };
    /**
     * @param params - The wallet_sendCalls request object.
     * @returns The reply (these all fail).
     */
    const send = async (params: Record<string, any>): Promise<unknown> =>
      harness.rpc('wallet_sendCalls', [params], DAPP);
    await expectError(
      send({ ...base, capabilities: { someFutureThing: {} } }),
      5700,
      /Unsupported capability/u,
    );
    await expectError(
      send({
        ...base,
        calls: [{ ...base.calls[0], capabilities: { auxiliaryFunds: {} } }],
      }),
      5700,
      /Unsupported capability/u,
    );
    await expectError(
      send({ ...base, capabilities: { paymasterService: { url: DAPP } } }),
      5700,
      /paymasterService on this chain/u,
    );
    await expectError(send({ ...base, chainId: '0x1' }), 5710, /chain/u);
    await expectError(send({ ...base, id: 'bundle-of-eoa' }), 5720, /id/u);
    await expectError(
      send({ ...base, calls: Array(33).fill(base.calls[0]) }),
      5740,
      /at most 32/u,
    );
    await expectError(
      send({ ...base, version: '1.0' }),
      -32602,
      /wallet_sendCalls params at version/u,
    );
    await expectError(
      send({ ...base, from: RECORDERS[0] }),
      4100,
      /not an account this site may use/u,
    );
    await expectError(
      harness.rpc('wallet_getCallsStatus', ['never-sent'], DAPP),
      5730,
      /Unknown bundle id/u,
    );
  });

  it('one waiting send per site: a second call while the dialog waits is refused, not queued; declining answers 4001', async () => {
    const params = {
      version: '2.0.0',
      from: smart.address,
      chainId,
      atomicRequired: true,
      calls: twoCalls(0x400),
    };
    const first = harness.snap.request({
      origin: DAPP,
      method: 'wallet_sendCalls',
      params: [params],
    });
    const dialog = (await dialogOf(first)) as OpenDialog;
    expect(dialogText(dialog)).toContain(DAPP);
    await expectError(
      harness.rpc('wallet_sendCalls', [params], DAPP),
      -32002,
      /already waiting/u,
    );
    await expectError(
      harness.rpc(
        'sendUserOperation',
        { account: smart.address, scope: devnet.scope, intents: params.calls },
        DAPP,
      ),
      -32002,
      /already waiting/u,
    );
    await dialog.cancel();
    expect((await first).response).toEqual({
      error: expect.objectContaining({ code: 4001 }),
    });
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 0x400)).toBe(0n);
  });

  it('sendUserOperation takes the account by address from a site; getUserOperationReceipt answers it', async () => {
    const pending = harness.snap.request({
      origin: DAPP,
      method: 'sendUserOperation',
      params: {
        account: smart.address.toLowerCase(),
        scope: devnet.scope,
        intents: twoCalls(0x500),
      },
    });
    await (await dialogOf(pending))?.ok();
    const { response } = (await pending) as any;
    const { userOpHash } = response.result as { userOpHash: Hex };
    let receipt: any = null;
    for (let attempt = 0; attempt < 200 && !receipt; attempt += 1) {
      receipt = await harness.rpc(
        'getUserOperationReceipt',
        { scope: devnet.scope, userOpHash },
        DAPP,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(receipt).toMatchObject({ userOpHash, success: true });
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 0x501)).toBe(0xbef0n);
  });

  it('every management method from a site is refused with 4100, and so is a site that is not https', async () => {
    const keyringMethods = [
      'keyring_listAccounts',
      'keyring_getAccount',
      'keyring_createAccount',
      'keyring_updateAccount',
      'keyring_deleteAccount',
      'keyring_exportAccount',
      'keyring_listRequests',
      'keyring_approveRequest',
      'keyring_rejectRequest',
      'keyring_submitRequest',
    ];
    for (const method of keyringMethods) {
      await expectError(
        harness.keyring(method, {}, DAPP),
        4100,
        /not allowed/u,
      );
    }
    const snapMethods = [
      'setChainConfig',
      'getChainConfigs',
      'setIpfsConfig',
      'setApprovalMode',
      'getApprovalMode',
      'listEntropySources',
      'findAccounts',
      'restoreAccount',
      'describeAccounts',
    ];
    for (const method of snapMethods) {
      await expectError(harness.rpc(method, {}, DAPP), 4100, /not allowed/u);
    }
    await expectError(
      harness.rpc(
        'wallet_getCapabilities',
        [eoa.address],
        'http://dapp.example',
      ),
      4100,
      /not allowed/u,
    );
    await expectError(
      harness.rpc('wallet_getCapabilities', [eoa.address], METAMASK),
      4100,
      /not allowed/u,
    );
    // the companion keeps its own methods and may use EIP-5792 too
    expect(
      await harness.rpc('wallet_getCapabilities', [eoa.address], COMPANION),
    ).toEqual({ [chainId]: { atomic: { status: 'supported' } } });
  });
});
