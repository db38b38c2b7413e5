/**
 * Two sendUserOperation calls for one smart account at once, through the keyring domain (the snap's
 * own code, in Node) on real parts: anvil with the v0.6 contracts and the Alto bundler; the account
 * pays its own gas. Alto reaches anvil through a delaying proxy: while a test holds them, Alto's
 * bundle transactions reach the chain {@link HOLD_MS} late, as on a busy bundler or chain (Alto
 * no longer counts an operation it took for a bundle as pending, and the chain does not count it
 * yet: a next operation of the account with the following nonce fails AA25 in between). The snap
 * queues an account's sends: the second is drafted only once the first is answered (declined: it
 * takes the same nonce) and, when the bundler accepted the first, once it has landed (the
 * EntryPoint's nonce moved). Outcomes are checked on the chain: the EntryPoint's
 * UserOperationEvent of each hash, and Alto's own receipts.
 */
import { createPublicClient, http } from 'viem';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

import { startDelayingProxy } from '../../devnet/delaying-proxy';
import type { DelayingProxy } from '../../devnet/delaying-proxy';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain, ERC4337_ABI } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';
import type { SendSummary } from '../../src/accounts/erc4337/send';
import { createDomain } from '../../src/domain';
import type { KeyringPlatform, KeyringSnap } from '../../src/keyring/keyring';
import { defaultState } from '../../src/state/store';
import type { StateSaver } from '../../src/state/store';

/** How long Alto's bundle transactions are held on their way to anvil while a test holds them (ms). */
const HOLD_MS = 5_000;

describe('two concurrent sendUserOperation calls for one smart account (anvil, Alto, self-paid)', () => {
  let devnet: Devnet;
  let delaying: DelayingProxy;
  let keyring: KeyringSnap;
  let accountId: string;
  let sender: Hex;
  /** Each confirmation shown, and how to answer it. */
  const pending: { summary: SendSummary; answer: (ok: boolean) => void }[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({
      altoUpstream: async (anvilUrl) => {
        delaying = await startDelayingProxy(anvilUrl);
        return delaying;
      },
    });
    await installRecorder(devnet.rpcUrl, RECORDERS[0]);
    const key = generatePrivateKey();
    const state = defaultState();
    // Self-paid: the sample VerifyingPaymaster v0.6 signs over its own per-sender counter
    // (`senderNonce`), so of two sponsored operations of one sender drafted at once only one can
    // validate, whatever their EntryPoint nonces.
    const { paymasterUrl: _unused, ...withoutPaymaster } = devnet.chainConfig;
    state.chains[devnet.scope] = withoutPaymaster;
    const platform: KeyringPlatform & { saveState: StateSaver } = {
      saveState: async () => undefined,
      emitEvent: async () => undefined,
      confirm: async () => true,
      confirmSend: async (summary) =>
        new Promise<boolean>((resolve) => {
          pending.push({ summary, answer: resolve });
        }),
      deriveKey: async () => ({
        privateKey: key,
        address: privateKeyToAddress(key),
      }),
    };
    ({ keyring } = createDomain(state, platform, () => ({ message: '' })));
    const account = await keyring.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    accountId = account.id;
    sender = account.address as Hex;
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      sender,
      '0xde0b6b3a7640000',
    ]); // 1 ETH
  });

  afterEach(() => {
    delaying.release();
    // A failed test leaves no dialog open for the next one.
    for (const { answer } of pending.splice(0)) {
      answer(false);
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * Wait, bounded to 60 s, until `done()` holds (polled every 100 ms).
   *
   * @param done - The condition.
   * @param what - What is awaited, for the error.
   */
  async function until(done: () => boolean, what: string): Promise<void> {
    for (let attempt = 0; attempt < 600 && !done(); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!done()) {
      throw new Error(`not after 60 s: ${what}`);
    }
  }

  /**
   * Alto's receipt of an operation, polled (bounded to 20 s).
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
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no receipt for ${userOpHash} after 20 s`);
  }

  /**
   * Send one operation for the account, recording `value` in the recorder's `slot`.
   *
   * @param slot - The recorder slot.
   * @param value - The value recorded.
   * @returns The snap's answer.
   */
  const send = async (
    slot: number,
    value: number,
  ): Promise<{ userOpHash: string }> =>
    keyring.sendUserOperation({
      account: accountId,
      scope: devnet.scope,
      intents: [{ to: RECORDERS[0], data: recordCalldata(slot, value) }],
    });

  it('queues the second of two deploying sends behind the first: declined, the first leaves its nonce to the second, which lands', async () => {
    const first = send(1, 11);
    const second = send(4, 44);
    await until(() => pending.length === 1, 'the first confirmation');
    // the second waits in the account's queue: it shows nothing before the first is answered
    pending[0]?.answer(false);
    await expect(first).rejects.toMatchObject({ code: 4001 });
    await until(() => pending.length === 2, 'the second confirmation');
    expect(pending[1]?.summary.deploys).toBe(true);
    expect(pending[1]?.summary.nonce).toBe(pending[0]?.summary.nonce);
    pending[1]?.answer(true);
    const landed = await second;
    expect((await altoReceipt(landed.userOpHash as Hex)).success).toBe(true);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 4)).toBe(44n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 1)).toBe(0n); // the declined one never ran
  });

  it('lands both of two sends started at the same time on a slow bundler: the second is drafted once the first has landed, with the next nonce', async () => {
    delaying.hold(['eth_sendRawTransaction'], HOLD_MS);
    const heldBefore = delaying.held;
    const first = send(2, 22);
    const second = send(3, 33);
    let secondSettled = false;
    second
      .catch(() => undefined)
      .finally(() => {
        secondSettled = true;
      });
    await until(() => pending.length === 1, 'the first confirmation');
    pending[0]?.answer(true);
    await first; // the bundler accepted it
    // Alto took it for a bundle, whose transaction is held on its way to the chain
    await until(() => delaying.held > heldBefore, 'the first bundle sent');
    await until(
      () => pending.length === 2 || secondSettled,
      'the second confirmation',
    );
    delaying.release(); // the second's bundle goes through at once
    expect(pending[1]?.summary.nonce).toBe(
      (pending[0]?.summary.nonce ?? 0n) + 1n,
    );
    pending[1]?.answer(true);
    const [a, b] = await Promise.all([first, second]);
    const receipts = await Promise.all([
      altoReceipt(a.userOpHash as Hex),
      altoReceipt(b.userOpHash as Hex),
    ]);
    expect(receipts.map((receipt) => receipt.success)).toStrictEqual([
      true,
      true,
    ]);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 2)).toBe(22n);
    expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 3)).toBe(33n);

    // The EntryPoint's own events: one successful UserOperationEvent per hash, nonces different,
    // and each the nonce the confirmation showed.
    const client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    const events = await client.getContractEvents({
      address: devnet.contracts.entryPoint,
      abi: ERC4337_ABI.entryPoint,
      eventName: 'UserOperationEvent',
      args: { sender },
      fromBlock: 0n,
    });
    const byHash = new Map(
      events.map((event) => [event.args.userOpHash?.toLowerCase(), event]),
    );
    const eventA = byHash.get(a.userOpHash.toLowerCase());
    const eventB = byHash.get(b.userOpHash.toLowerCase());
    expect(eventA?.args.success).toBe(true);
    expect(eventB?.args.success).toBe(true);
    expect(eventA?.args.nonce).not.toBe(eventB?.args.nonce);
    expect(pending.map(({ summary }) => summary.nonce).sort()).toStrictEqual(
      [eventA?.args.nonce, eventB?.args.nonce].sort(),
    );
  });
});
