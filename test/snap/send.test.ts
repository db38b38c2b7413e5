/**
 * sendUserOperation through the built snap, on real parts: anvil with the v0.6 EntryPoint,
 * SimpleAccountFactory and VerifyingPaymaster, the ERC-7677 paymaster service and the Alto bundler.
 * Counting proxies sit in front of the chain and of the bundler. Outcomes are checked independently:
 * the EntryPoint's own getUserOpHash of the operation Alto holds, storage and balances on anvil,
 * Alto's own receipts.
 */
import {
  createPublicClient,
  encodeFunctionData,
  formatEther,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';

import { COMPANION, installKeyringSnap, METAMASK } from './harness';
import type { KeyringHarness } from './harness';
import { pageJson, pagesDuring } from './homePage';
import type { HomePageUi } from './homePage';
import { startDelayingProxy } from '../../devnet/delaying-proxy';
import type { DelayingProxy } from '../../devnet/delaying-proxy';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain, ERC4337_ABI } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import { startLimitsProxy } from '../../devnet/limits-proxy';
import type { LimitsProxy } from '../../devnet/limits-proxy';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';

const GET_USER_OP_HASH = parseAbi([
  'function getUserOpHash((address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature) userOp) view returns (bytes32)',
]);

/** A v0.6 user operation as a bundler's JSON-RPC carries it: every field hex. */
type RpcUserOp = Record<
  | 'sender'
  | 'nonce'
  | 'initCode'
  | 'callData'
  | 'callGasLimit'
  | 'verificationGasLimit'
  | 'preVerificationGas'
  | 'maxFeePerGas'
  | 'maxPriorityFeePerGas'
  | 'paymasterAndData'
  | 'signature',
  Hex
>;

/**
 * Every string a snaps-sdk JSX tree shows: text children, row labels, addresses.
 *
 * @param node - The tree.
 * @returns The strings, in tree order.
 */
function shownStrings(node: unknown): string[] {
  if (typeof node === 'string') {
    return [node];
  }
  if (Array.isArray(node)) {
    return node.flatMap(shownStrings);
  }
  if (typeof node !== 'object' || node === null) {
    return [];
  }
  const props =
    ((node as Record<string, unknown>).props as
      Record<string, unknown> | undefined) ?? {};
  return [props.label, props.address, props.children].flatMap(shownStrings);
}

/**
 * The row value that follows a label in the shown strings.
 *
 * @param shown - The strings a dialog showed.
 * @param label - The row label.
 * @returns The value, or undefined when the label is not shown.
 */
function valueAfter(shown: string[], label: string): string | undefined {
  const index = shown.indexOf(label);
  return index === -1 ? undefined : shown[index + 1];
}

/**
 * The product of the dialog's `Gas × max fee` detail row.
 *
 * @param text - The row's text (`<gas> gas × <fee> wei per gas`).
 * @returns Gas × fee, in wei.
 */
function gasTimesFee(text: string | undefined): bigint {
  const [, gas, fee] = /^(\d+) gas × (\d+) wei per gas$/u.exec(
    text ?? '',
  ) as RegExpExecArray;
  return BigInt(gas) * BigInt(fee);
}

/** What one sendUserOperation call through its dialog gave. */
type Sent = {
  /** The strings the dialog showed. */
  shown: string[];
  /** The request counters when the dialog was shown. */
  atDialog: Record<string, unknown>;
  /** The snap's JSON-RPC response. */
  response: any;
};

/**
 * How long Alto's bundle transactions are held on their way to anvil while a test holds them
 * (ms): a busy bundler or chain, made deterministic (devnet/delaying-proxy.ts).
 */
const HOLD_MS = 5_000;

describe('sendUserOperation through the built snap (EntryPoint v0.6, Alto, ERC-7677 paymaster)', () => {
  let devnet: Devnet;
  let delaying: DelayingProxy;
  let client: PublicClient;
  let chainProxy: LimitsProxy;
  let bundlerProxy: LimitsProxy;
  let harness: KeyringHarness;
  let account: any;
  let chainConfig: Record<string, string>;
  let sponsored: {
    /** The hash of the sponsored operation sent. */
    userOpHash: Hex;
    /** The latest block before it was sent. */
    fromBlockBefore: bigint;
  };

  /**
   * Call sendUserOperation as the companion dapp and answer its dialog.
   *
   * @param params - The sendUserOperation params.
   * @param answer - The button pressed.
   * @returns What the dialog showed, the counters at the moment it was shown, and the reply.
   */
  async function send(
    params: Record<string, unknown>,
    answer: 'ok' | 'cancel',
  ): Promise<Sent> {
    const request = harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: params as any,
    });
    const ended = request.then((response) => {
      throw new Error(
        `sendUserOperation ended without a dialog: ${JSON.stringify(response.response)}`,
      );
    });
    const ui: any = await Promise.race([request.getInterface(), ended]);
    ended.catch(() => undefined);
    const atDialog = {
      chainRequests: chainProxy.stats.httpRequests,
      bundlerMethods: { ...bundlerProxy.stats.methods },
      paymasterMethods: { ...devnet.paymaster.stats.byMethod },
    };
    const shown = shownStrings(ui.content);
    await (answer === 'ok' ? ui.ok() : ui.cancel());
    const { response } = (await request) as any;
    return { shown, atDialog, response };
  }

  /**
   * Poll Alto itself (not through the snap) for the operation's receipt; bounded to 10 s.
   *
   * @param userOpHash - The operation's hash.
   * @returns The receipt.
   */
  async function altoReceipt(userOpHash: Hex): Promise<any> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const receipt = await jsonRpc(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [userOpHash],
      );
      if (receipt) {
        return receipt;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no receipt for ${userOpHash} after 10 s`);
  }

  /**
   * The operation as Alto holds it, and the EntryPoint's own hash of it.
   *
   * @param userOpHash - The operation's hash.
   * @returns The operation and the on-chain hash.
   */
  async function bundled(userOpHash: Hex): Promise<{
    /** The operation as Alto holds it. */
    op: RpcUserOp;
    /** EntryPoint.getUserOpHash of it. */
    onChainHash: Hex;
  }> {
    const { userOperation: op } = await jsonRpc<
      Record<'userOperation', RpcUserOp>
    >(devnet.bundlerUrl, 'eth_getUserOperationByHash', [userOpHash]);
    const quantities = [
      'nonce',
      'callGasLimit',
      'verificationGasLimit',
      'preVerificationGas',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
    ] as const;
    const args = {
      ...op,
      ...Object.fromEntries(
        quantities.map((field) => [field, BigInt(op[field])]),
      ),
    };
    const onChainHash = await client.readContract({
      address: devnet.contracts.entryPoint,
      abi: GET_USER_OP_HASH,
      functionName: 'getUserOpHash',
      args: [args as never],
    });
    return { op, onChainHash };
  }

  /**
   * EntryPoint v0.6 prefund, computed here from the operation's fields.
   *
   * @param op - The operation.
   * @returns The prefund, in wei.
   */
  const prefund = (op: RpcUserOp): bigint =>
    (BigInt(op.callGasLimit) +
      BigInt(op.verificationGasLimit) *
        (op.paymasterAndData === '0x' ? 1n : 3n) +
      BigInt(op.preVerificationGas)) *
    BigInt(op.maxFeePerGas);

  /**
   * The EntryPoint nonce of an account (key 0).
   *
   * @param sender - The account.
   * @returns The nonce.
   */
  const nonceOf = async (sender: Address): Promise<bigint> =>
    client.readContract({
      address: devnet.contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      functionName: 'getNonce',
      args: [sender, 0n],
    });

  beforeAll(async () => {
    // Alto reaches anvil through a delaying proxy, which holds nothing until a test asks it to
    devnet = await startDevnet({
      altoUpstream: async (anvilUrl) => {
        delaying = await startDelayingProxy(anvilUrl);
        return delaying;
      },
    });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    await installRecorder(devnet.rpcUrl, RECORDERS[1]);
    chainProxy = await startLimitsProxy({
      upstream: devnet.rpcUrl,
      recordCalls: true,
    });
    bundlerProxy = await startLimitsProxy({
      upstream: devnet.bundlerUrl,
      apiKey: 'bundler-key-0123',
      recordCalls: true,
    });
    chainConfig = {
      ...devnet.chainConfig,
      rpcUrl: chainProxy.url,
      bundlerUrl: bundlerProxy.url,
    };
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', chainConfig);
    account = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
  });

  afterAll(async () => {
    await bundlerProxy?.close();
    await chainProxy?.close();
    await devnet?.stop();
  });

  it('refuses MetaMask and a site that is not https (4100), and nothing runs for them (https sites may: test/snap/dapps.test.ts)', async () => {
    chainProxy.resetStats();
    const params = {
      account: account.id,
      scope: devnet.scope,
      intents: [{ to: RECORDERS[0], value: '0x0', data: '0x' }],
    };
    for (const origin of [METAMASK, 'http://dapp.example']) {
      const { response } = (await harness.snap.request({
        origin,
        method: 'sendUserOperation',
        params,
      })) as any;
      expect(response.error).toEqual(expect.objectContaining({ code: 4100 }));
    }
    expect(chainProxy.stats.httpRequests).toBe(0);
  });

  it('sends a sponsored two-intent operation that deploys the account, in one chain round trip, after the dialog', async () => {
    chainProxy.resetStats();
    bundlerProxy.resetStats();
    devnet.paymaster.resetStats();
    const fromBlockBefore = await client.getBlockNumber();
    const intents = [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 111) },
      { to: RECORDERS[1], value: '0x0', data: recordCalldata(2, 222) },
    ];
    const { shown, atDialog, response } = await send(
      { account: account.id, scope: devnet.scope, intents },
      'ok',
    );

    // order: prepare + fees (one chain round trip) and the bundler's fee method, then the paymaster, then the dialog; nothing sent yet
    expect(atDialog.chainRequests).toBe(1);
    expect(atDialog.paymasterMethods).toEqual({
      pm_getPaymasterStubData: 1,
      pm_getPaymasterData: 1,
    });
    expect(atDialog.bundlerMethods).toEqual({
      pimlico_getUserOperationGasPrice: 1,
    });
    expect(response.result).toEqual({
      userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/u),
      entryPoint: devnet.contracts.entryPoint,
      sender: account.address,
    });
    expect(chainProxy.stats.httpRequests).toBe(1);
    expect(chainProxy.stats.batches).toBe(1);
    // prepare's four reads, the block (gas cap) and the balance, eth_maxPriorityFeePerGas, eth_feeHistory and eth_blockNumber
    expect(chainProxy.stats.methods).toEqual({
      eth_getCode: 1,
      eth_call: 1,
      eth_estimateGas: 2,
      eth_getBlockByNumber: 1,
      eth_maxPriorityFeePerGas: 1,
      eth_feeHistory: 1,
      eth_blockNumber: 1,
      eth_getBalance: 1,
    });
    expect(bundlerProxy.stats.methods).toEqual({
      pimlico_getUserOperationGasPrice: 1,
      eth_sendUserOperation: 1,
    });

    const { userOpHash } = response.result;
    const altoSays = await altoReceipt(userOpHash);
    expect(altoSays.success).toBe(true);
    const { op, onChainHash } = await bundled(userOpHash);
    expect(userOpHash).toBe(onChainHash);
    // the paymaster signed the final gas limits and fees
    const signedFor = devnet.paymaster.stats.signed.at(-1) as Record<
      string,
      string
    >;
    for (const field of [
      'callGasLimit',
      'verificationGasLimit',
      'preVerificationGas',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
      'nonce',
      'callData',
      'initCode',
    ] as const) {
      expect(BigInt(signedFor[field])).toBe(BigInt(op[field]));
    }

    // the dialog: account and chain, each intent, deployment, the prefund in ETH, the paymaster
    expect(shown).toContain(account.address);
    expect(valueAfter(shown, 'Chain')).toBe('Local chain (31337)');
    expect(valueAfter(shown, 'Deploys the account')).toMatch(/^Yes/u);
    expect(valueAfter(shown, 'Call 1 of 2: to')).toBe(getAddress(RECORDERS[0]));
    expect(valueAfter(shown, 'Call 2 of 2: to')).toBe(getAddress(RECORDERS[1]));
    expect(
      shown.filter(
        (text) =>
          text ===
          'function 0x00000000 (not decoded: check the full call data)',
      ),
    ).toHaveLength(2);
    expect(valueAfter(shown, 'Call data (64 bytes, in full)')).toBe(
      recordCalldata(1, 111),
    );
    expect(shown).toContain(recordCalldata(2, 222));
    expect(valueAfter(shown, 'Requested by')).toBe(COMPANION);
    // the dialog shows the full nonce that was signed: key 0, the account's first sequence number
    expect(valueAfter(shown, 'Nonce')).toBe(BigInt(op.nonce).toString());
    expect(BigInt(op.nonce)).toBe(0n);
    // the two calls' values and the total (the paymaster pays the gas)
    expect(shown.filter((text) => text === '0 ETH')).toHaveLength(2);
    expect(valueAfter(shown, 'Total')).toBe(
      '0 ETH (the paymaster pays the gas)',
    );
    expect(gasTimesFee(valueAfter(shown, 'Gas × max fee'))).toBe(prefund(op));
    expect(op.paymasterAndData.slice(0, 42).toLowerCase()).toBe(
      devnet.contracts.verifyingPaymaster.toLowerCase(),
    );
    expect(valueAfter(shown, 'Gas')).toBe(
      'Paid by the paymaster below (sponsored)',
    );
    expect(valueAfter(shown, 'Paymaster')).toBe(
      getAddress(devnet.contracts.verifyingPaymaster),
    );
    const intentData = new Set<string>(intents.map((intent) => intent.data));
    expect(
      JSON.stringify(
        shown.filter(
          (text) =>
            !intentData.has(text) && text !== valueAfter(shown, 'Nonce'),
        ),
      ),
    ).not.toMatch(/[0-9a-f]{64}/iu); // no key (nor any 32-byte secret) in the dialog: only the intents' own call data and the full decimal nonce

    // the intents took effect, from the deployed account
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 1)).toBe(111n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 2)).toBe(222n);
    expect(await client.getCode({ address: account.address })).toBeDefined();
    expect(op.initCode).not.toBe('0x');

    // the receipt comes from the bundler: no log scan
    chainProxy.resetStats();
    bundlerProxy.resetStats();
    const receipt = await harness.rpc('getUserOperationReceipt', {
      scope: devnet.scope,
      userOpHash,
    });
    expect(receipt).toEqual({
      userOpHash,
      sender: account.address,
      nonce: `0x${BigInt(op.nonce).toString(16)}`, // key 0, sequence 0
      success: true,
      actualGasCost: altoSays.actualGasCost,
      actualGasUsed: altoSays.actualGasUsed,
      transactionHash: altoSays.receipt.transactionHash,
      blockNumber: altoSays.receipt.blockNumber,
    });
    expect(bundlerProxy.stats.methods).toEqual({
      eth_getUserOperationReceipt: 1,
    });
    expect(chainProxy.stats.rpcCalls).toBe(0);
    sponsored = { userOpHash, fromBlockBefore };
  });

  it('the dialog decodes an unlimited approve (spender in full, flagged) and names the site, chain, nonce, sponsor and maximum cost', async () => {
    const spender = getAddress(`0x${'a7'.repeat(19)}01`);
    const token = getAddress(`0x${'70'.repeat(19)}02`);
    const approve = encodeFunctionData({
      abi: parseAbi(['function approve(address, uint256)']),
      functionName: 'approve',
      args: [spender, maxUint256],
    });
    const nonce = await nonceOf(account.address);
    devnet.paymaster.resetStats();
    const { shown, response } = await send(
      {
        account: account.id,
        scope: devnet.scope,
        intents: [{ to: token, value: '0x0', data: approve }],
      },
      'cancel',
    );
    expect(response.error).toEqual(expect.objectContaining({ code: 4001 }));
    expect(valueAfter(shown, 'Requested by')).toBe(COMPANION);
    expect(valueAfter(shown, 'Chain')).toBe('Local chain (31337)');
    // one nonce key (0) per account: the shown nonce is the EntryPoint's next one, in full
    expect(BigInt(valueAfter(shown, 'Nonce') ?? 'x')).toBe(nonce);
    expect(valueAfter(shown, 'Call 1 of 1: to')).toBe(token);
    expect(valueAfter(shown, 'What it does')).toMatch(/^approve/u);
    expect(valueAfter(shown, 'spender')).toBe(spender); // the Address component's full address
    expect(valueAfter(shown, 'Warning')).toContain('UNLIMITED APPROVAL');
    expect(valueAfter(shown, 'Warning')).toContain(spender);
    expect(valueAfter(shown, 'Gas')).toBe(
      'Paid by the paymaster below (sponsored)',
    );
    expect(valueAfter(shown, 'Paymaster')).toBe(
      getAddress(devnet.contracts.verifyingPaymaster),
    );
    // the maximum cost from the fields the paymaster service signed (sponsored: verification × 3)
    const signed = devnet.paymaster.stats.signed.at(-1) as RpcUserOp;
    expect(gasTimesFee(valueAfter(shown, 'Gas × max fee'))).toBe(
      prefund({
        ...signed,
        paymasterAndData: devnet.contracts.verifyingPaymaster,
      }),
    );
    expect(await nonceOf(account.address)).toBe(nonce); // declined: nothing sent
  });

  it('sends a self-paid operation from the funded account when no paymaster is configured', async () => {
    const { paymasterUrl: _dropped, ...withoutPaymaster } = chainConfig;
    await harness.rpcApproved('setChainConfig', withoutPaymaster);
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      '0xde0b6b3a7640000',
    ]); // 1 ETH
    const recipient = getAddress(`0x${'5e'.repeat(19)}01`);
    const value = parseEther('0.01');
    devnet.paymaster.resetStats();
    chainProxy.resetStats();

    const { shown, response } = await send(
      {
        account: account.id,
        scope: devnet.scope,
        intents: [{ to: recipient, value: `0x${value.toString(16)}` }],
      },
      'ok',
    );
    expect(chainProxy.stats.httpRequests).toBe(1);
    const { userOpHash } = response.result;
    const altoSays = await altoReceipt(userOpHash);
    const { op, onChainHash } = await bundled(userOpHash);
    expect(userOpHash).toBe(onChainHash);
    expect(op.paymasterAndData).toBe('0x');
    expect(op.initCode).toBe('0x');
    expect(devnet.paymaster.stats.requests).toBe(0);

    expect(valueAfter(shown, 'Deploys the account')).toMatch(/^No/u);
    expect(valueAfter(shown, 'Call 1 of 1: to')).toBe(recipient);
    expect(valueAfter(shown, 'Value')).toBe('0.01 ETH');
    expect(valueAfter(shown, 'What it does')).toBe('plain transfer');
    // the most the gas can cost, rounded up for reading (4 decimals), exactly under Details
    const gas = /^Paid by this account: at most ([0-9.]+) ETH$/u.exec(
      valueAfter(shown, 'Gas') ?? '',
    )?.[1];
    expect(parseEther(gas ?? 'x')).toBeGreaterThanOrEqual(prefund(op));
    expect(parseEther(gas ?? 'x') - prefund(op)).toBeLessThan(10n ** 14n);
    expect(valueAfter(shown, 'Exact maximum gas cost')).toBe(
      `${formatEther(prefund(op))} ETH`,
    );
    const total =
      /^at most ([0-9.]+) ETH \(amount plus the most the gas can cost\)$/u.exec(
        valueAfter(shown, 'Total') ?? '',
      )?.[1];
    expect(parseEther(total ?? 'x')).toBeGreaterThanOrEqual(
      value + prefund(op),
    );
    expect(valueAfter(shown, 'Exact total, at most')).toBe(
      `${formatEther(value + prefund(op))} ETH`,
    );

    expect(altoSays.success).toBe(true);
    expect(await client.getBalance({ address: recipient })).toBe(value);
    // the account paid the EntryPoint exactly the prefund the dialog showed; the unused part stays as its deposit there
    const deposit = await client.readContract({
      address: devnet.contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      functionName: 'balanceOf',
      args: [account.address],
    });
    expect(await client.getBalance({ address: account.address })).toBe(
      parseEther('1') - value - prefund(op),
    );
    expect(deposit).toBe(prefund(op) - BigInt(altoSays.actualGasCost));
    expect(
      (
        await harness.rpc('getUserOperationReceipt', {
          scope: devnet.scope,
          userOpHash,
        })
      ).success,
    ).toBe(true);
  });

  it('a declined dialog signs and sends nothing (4001): the bundler receives no operation', async () => {
    bundlerProxy.resetStats();
    const nonce = await nonceOf(account.address);
    const { response } = await send(
      {
        account: account.id,
        scope: devnet.scope,
        intents: [
          { to: RECORDERS[0], value: '0x0', data: recordCalldata(3, 333) },
        ],
      },
      'cancel',
    );
    expect(response.error).toEqual(
      expect.objectContaining({
        code: 4001,
        message: 'The user declined to send the user operation',
      }),
    );
    expect(bundlerProxy.stats.methods.eth_sendUserOperation).toBeUndefined();
    expect(Object.keys(bundlerProxy.stats.methods)).toEqual([
      'pimlico_getUserOperationGasPrice',
    ]); // a read, before the dialog
    await new Promise((resolve) => setTimeout(resolve, 500)); // give a wrongly sent operation time to be bundled
    expect(await nonceOf(account.address)).toBe(nonce);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 3)).toBe(0n);
  });

  it('refuses a self-paid operation from an account with no ETH before its dialog: -32003 with the amounts, nothing sent to the bundler', async () => {
    const poor = await harness.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    expect(await client.getBalance({ address: poor.address })).toBe(0n);
    bundlerProxy.resetStats();
    const { response } = (await harness.snap.request({
      origin: COMPANION,
      method: 'sendUserOperation',
      params: {
        account: poor.id,
        scope: devnet.scope,
        intents: [
          { to: RECORDERS[0], value: '0x0', data: recordCalldata(4, 444) },
        ],
      },
    })) as any;
    // before this check, Alto refused it with AA21 (the account cannot pay the prefund)
    expect(response.error.code).toBe(-32003);
    expect(response.error.message).toMatch(
      /^Insufficient funds on eip155:31337: the account holds 0 wei; the value sent plus the most the gas can cost is [1-9]\d* wei$/u,
    );
    expect(response.error.data).toMatchObject({
      reason: 'insufficientFunds',
      balance: '0',
      value: '0',
    });
    expect(response.error.message).not.toContain('bundler-key-0123');
    expect(bundlerProxy.stats.methods.eth_sendUserOperation).toBeUndefined();
  });

  it('finds the receipt of an operation it sent through the logs, from the block remembered at send time, when the bundler refuses eth_getUserOperationReceipt', async () => {
    bundlerProxy.inject({
      type: 'rpcError',
      code: -32601,
      message: 'Method not found',
      method: 'eth_getUserOperationReceipt',
      times: 1000,
    });
    try {
      chainProxy.resetStats();
      const receipt = await harness.rpc('getUserOperationReceipt', {
        scope: devnet.scope,
        userOpHash: sponsored.userOpHash,
      });
      const altoSays = await jsonRpc(
        devnet.bundlerUrl,
        'eth_getUserOperationReceipt',
        [sponsored.userOpHash],
      );
      expect(receipt).toEqual(
        expect.objectContaining({
          userOpHash: sponsored.userOpHash,
          success: true,
          transactionHash: altoSays.receipt.transactionHash,
          blockNumber: altoSays.receipt.blockNumber,
        }),
      );
      const logQueries = chainProxy.stats.calls.filter(
        (call) => call.method === 'eth_getLogs',
      );
      expect(logQueries.length).toBeGreaterThan(0);
      for (const { params } of logQueries) {
        const from = BigInt((params[0] as Record<string, Hex>).fromBlock);
        expect(from).toBeGreaterThanOrEqual(sponsored.fromBlockBefore);
        expect(from).toBeLessThanOrEqual(BigInt(altoSays.receipt.blockNumber));
      }
    } finally {
      bundlerProxy.clearFaults();
    }
  });

  it('for an operation it did not send, asks the chain’s bundlers, then scans the EntryPoint logs of the last 10,000 blocks', async () => {
    await harness.rpcApproved('setChainConfig', chainConfig);
    // built with the keyring methods as MetaMask drives them, sent to Alto directly: the snap never saw the hash
    const prepared = (
      await harness.submit(
        account,
        'eth_prepareUserOperation',
        [{ to: RECORDERS[1], value: '0x0', data: recordCalldata(5, 555) }],
        devnet.scope,
      )
    ).result;
    const block = await client.getBlock();
    const userOp: Record<string, string> = {
      sender: account.address,
      nonce: prepared.nonce,
      initCode: prepared.initCode,
      callData: prepared.callData,
      ...prepared.gasLimits,
      maxFeePerGas: `0x${((block.baseFeePerGas ?? 0n) * 2n + 10n ** 9n).toString(16)}`,
      maxPriorityFeePerGas: '0x3b9aca00',
      paymasterAndData: prepared.dummyPaymasterAndData,
      signature: prepared.dummySignature,
    };
    Object.assign(
      userOp,
      (
        await harness.submit(
          account,
          'eth_patchUserOperation',
          [userOp],
          devnet.scope,
        )
      ).result,
    );
    userOp.signature = (
      await harness.submit(
        account,
        'eth_signUserOperation',
        [userOp],
        devnet.scope,
      )
    ).result;
    const foreign = await jsonRpc<Hex>(
      devnet.bundlerUrl,
      'eth_sendUserOperation',
      [userOp, devnet.contracts.entryPoint],
    );
    const altoSays = await altoReceipt(foreign);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 5)).toBe(555n);

    chainProxy.resetStats();
    bundlerProxy.resetStats();
    expect(
      await harness.rpc('getUserOperationReceipt', {
        scope: devnet.scope,
        userOpHash: foreign,
      }),
    ).toEqual(
      expect.objectContaining({
        userOpHash: foreign,
        success: true,
        transactionHash: altoSays.receipt.transactionHash,
      }),
    );
    expect(bundlerProxy.stats.methods).toEqual({
      eth_getUserOperationReceipt: 1,
    });
    expect(chainProxy.stats.rpcCalls).toBe(0);

    bundlerProxy.inject({
      type: 'rpcError',
      code: -32601,
      message: 'Method not found',
      method: 'eth_getUserOperationReceipt',
      times: 1000,
    });
    try {
      chainProxy.resetStats();
      expect(
        await harness.rpc('getUserOperationReceipt', {
          scope: devnet.scope,
          userOpHash: foreign,
        }),
      ).toEqual(
        expect.objectContaining({
          userOpHash: foreign,
          success: true,
          transactionHash: altoSays.receipt.transactionHash,
        }),
      );
      expect(chainProxy.stats.methods.eth_getLogs).toBeGreaterThan(0);

      // the scan covers the last 10,000 blocks only (on this young devnet: from block 0; the window
      // itself is proven in test/node/erc4337-receipt.test.ts)
      const latest = await client.getBlockNumber();
      const froms = chainProxy.stats.calls
        .filter((call) => call.method === 'eth_getLogs')
        .map(({ params }) =>
          BigInt((params[0] as Record<string, Hex>).fromBlock),
        );
      // the adapter may split the window into sub-ranges; none starts before it
      expect(froms.reduce((low, value) => (value < low ? value : low))).toBe(
        latest > 9_999n ? latest - 9_999n : 0n,
      );

      // an operation the snap sent is still found from the block it remembered
      const found = await harness.rpc('getUserOperationReceipt', {
        scope: devnet.scope,
        userOpHash: sponsored.userOpHash,
      });
      expect(found).toEqual(
        expect.objectContaining({
          userOpHash: sponsored.userOpHash,
          success: true,
        }),
      );
    } finally {
      bundlerProxy.clearFaults();
    }
  });
  it('the home page sends from a smart account through the same dialog, then follows the operation until it is in a block', async () => {
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      '0xde0b6b3a7640000',
    ]); // 1 ETH
    const recipient = getAddress(`0x${'6f'.repeat(19)}02`);
    const ui: any = (await harness.snap.onHomePage()).getInterface();
    await ui.typeInField(`send-to:${account.id}`, recipient);
    await ui.typeInField(`send-value:${account.id}`, '0.002');
    bundlerProxy.resetStats();
    harness.answerDialogs(true);
    // the click's handler ends once the page has followed the operation into a block (bounded)
    const pages = await pagesDuring(ui, async (current) =>
      current.clickElement(`send:${account.id}-submit`),
    );
    const dialog = JSON.stringify(harness.dialogs.at(-1));
    expect(dialog).toContain('0.002 ETH');
    expect(dialog).toContain(recipient);
    expect(bundlerProxy.stats.methods.eth_sendUserOperation).toBe(1);
    const userOpHash = /\(user operation (0x[0-9a-f]{64})\)/u.exec(
      pageJson(pages[0]),
    )?.[1] as Hex;
    expect(userOpHash).toBeDefined();
    const altoSays = await altoReceipt(userOpHash);
    expect(altoSays.success).toBe(true);
    expect(await client.getBalance({ address: recipient })).toBe(
      parseEther('0.002'),
    );
    expect(pageJson(pages.at(-1) as HomePageUi)).toContain(
      `succeeded in block ${BigInt(altoSays.receipt.blockNumber).toString()}, fee `,
    );
  });

  it('two sends of one account started together on a slow bundler: the second waits for the first to land, then both land, with consecutive nonces', async () => {
    // Self-paid: the sample VerifyingPaymaster v0.6 signs over its own per-sender counter
    // (`senderNonce`), so only one of two sponsored operations drafted at once could validate.
    const { paymasterUrl: _dropped, ...withoutPaymaster } = chainConfig;
    await harness.rpcApproved('setChainConfig', withoutPaymaster);
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      '0xde0b6b3a7640000',
    ]); // 1 ETH
    /**
     * Start sendUserOperation as the companion dapp, recording `value` in the recorder's `slot`.
     *
     * @param slot - The recorder slot.
     * @param value - The value recorded.
     * @returns The pending request.
     */
    const request = (slot: number, value: number): any =>
      harness.snap.request({
        origin: COMPANION,
        method: 'sendUserOperation',
        params: {
          account: account.id,
          scope: devnet.scope,
          intents: [
            {
              to: RECORDERS[0],
              value: '0x0',
              data: recordCalldata(slot, value),
            },
          ],
        },
      });
    // Alto's bundle transactions reach the chain HOLD_MS late: once Alto took the first operation
    // for a bundle it no longer counts it as pending, and the chain does not count it yet.
    delaying.hold(['eth_sendRawTransaction'], HOLD_MS);
    const heldBefore = delaying.held;
    const first = request(21, 2100);
    const firstUi: any = await first.getInterface();
    const second = request(22, 2200);
    const progress = { secondSettled: false };
    Promise.resolve(second)
      .catch(() => undefined)
      .finally(() => {
        progress.secondSettled = true;
      });
    /**
     * The second send's dialog once it is shown (bounded: 300 × 100 ms).
     *
     * @returns It, or undefined when the second send ended without one.
     */
    const secondDialog = async (): Promise<any> => {
      for (let attempt = 0; attempt < 300; attempt += 1) {
        if (progress.secondSettled) {
          return undefined;
        }
        const ui: any = await second.getInterface().catch(() => undefined);
        if (ui && ui.id !== firstUi.id) {
          return ui;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    };
    // The snap queues the account's sends: the second is drafted only once the first, accepted
    // by the bundler, has landed (the EntryPoint's nonce moved), and takes the next nonce.
    await firstUi.ok();
    await first;
    for (let attempt = 0; attempt < 300 && delaying.held === heldBefore;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      attempt += 1;
    }
    expect(delaying.held).toBeGreaterThan(heldBefore); // the first bundle is on its way, held
    const secondUi = await secondDialog();
    delaying.release(); // the second's bundle goes through at once
    await secondUi?.ok();
    const responses = (await Promise.all([first, second])).map(
      ({ response }: any) => response,
    );
    expect(responses.map((response) => response.error)).toStrictEqual([
      undefined,
      undefined,
    ]);
    const hashes = responses.map(({ result }) => result.userOpHash as Hex);
    const receipts = await Promise.all(hashes.map(altoReceipt));
    expect(receipts.map((receipt) => receipt.success)).toStrictEqual([
      true,
      true,
    ]);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 21)).toBe(2100n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 22)).toBe(2200n);
    // The EntryPoint's own UserOperationEvents: both succeeded, with different nonces.
    const events = await client.getContractEvents({
      address: devnet.contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      eventName: 'UserOperationEvent',
      args: { sender: account.address },
      fromBlock: 0n,
    });
    const [eventA, eventB] = hashes.map((hash) =>
      events.find((event) => event.args.userOpHash === hash),
    );
    expect(eventA?.args.success).toBe(true);
    expect(eventB?.args.success).toBe(true);
    expect(eventB?.args.nonce).toBe((eventA?.args.nonce ?? 0n) + 1n);
  });
});
