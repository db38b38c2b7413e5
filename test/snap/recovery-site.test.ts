/**
 * Find my accounts and restore by index asked by a site, through the built snap: a snap dialog
 * first (naming the site, the phrases, the chain, the index and address), declined is 4001 and
 * nothing changes; the reply lists only the accounts added; a person declining MetaMask's account
 * prompt is asked no further in that call; a restore past the search's reach does not carry later
 * accounts out of it; and with a hostile RPC (every address used, HTTP 503 twice before each
 * batch's answer) the JSON-RPC calls that reach it stay within the search's 4,000; a chain answering
 * after 40 s is reported as not searched, within the search's time (the test's own timeout).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Hex } from 'viem';

import {
  COMPANION,
  dialogOf,
  dialogText,
  installKeyringSnap,
  rejection,
} from './harness';
import type { KeyringHarness } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';

jest.setTimeout(240_000);

const SCOPE = 'eip155:31337';

/** A JSON-RPC proxy in front of anvil that counts the calls reaching it and can turn hostile. */
type Rpc = {
  /** Its URL on 127.0.0.1. */
  url: string;
  /** JSON-RPC calls that reached it (a batch counts its members), failed attempts included. */
  calls: number;
  /** When true: every balance is 1 wei, and each batch asking one is answered 503 twice first. */
  hostile: boolean;
  /** When true: each batch asking a balance is answered after 40 s. */
  slow: boolean;
  /** Stop it. */
  close: () => Promise<void>;
};

/**
 * Start the proxy on a free 127.0.0.1 port.
 *
 * @param target - anvil's URL.
 * @returns The proxy.
 */
async function startRpc(target: string): Promise<Rpc> {
  const seen = new Map<string, number>();
  const rpc: Rpc = {
    url: '',
    calls: 0,
    hostile: false,
    slow: false,
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const body = JSON.parse(text);
      const calls: { method: string }[] = Array.isArray(body) ? body : [body];
      rpc.calls += calls.length;
      const probe = calls.some((call) => call.method === 'eth_getBalance');
      if (rpc.hostile && probe && (seen.get(text) ?? 0) < 2) {
        seen.set(text, (seen.get(text) ?? 0) + 1);
        response.writeHead(503).end();
        return;
      }
      /**
       * Forward to anvil, every balance rewritten to 1 wei when hostile.
       *
       * @returns When answered.
       */
      const forward = async (): Promise<void> => {
        const reply = await fetch(target, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: text,
          signal: AbortSignal.timeout(10_000),
        });
        let answer = await reply.json();
        if (rpc.hostile && Array.isArray(answer)) {
          answer = answer.map((item: { id: number }) =>
            calls.find(
              (call: any) =>
                call.id === item.id && call.method === 'eth_getBalance',
            )
              ? { ...item, result: '0x1' }
              : item,
          );
        }
        response
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify(answer));
      };
      if (rpc.slow && probe) {
        setTimeout(() => {
          forward().catch(() => response.writeHead(502).end());
        }, 40_000).unref();
        return;
      }
      forward().catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  rpc.url = `http://127.0.0.1:${port}`;
  rpc.close = async (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return rpc;
}

describe('recovery asked by a site', () => {
  let anvil: Anvil;
  let rpc: Rpc;
  let second: KeyringHarness;
  let made: Hex[];
  let refuse = false;
  let prompts = 0;

  beforeAll(async () => {
    anvil = await startAnvil();
    const contracts = await deployErc4337(anvil.url);
    rpc = await startRpc(anvil.url);
    const first = await installKeyringSnap();
    made = [];
    for (let index = 0; index < 3; index += 1) {
      made.push((await first.createAccount()).address);
    }
    // EOAs 0 and 1 hold funds; 2 was never used
    for (const address of made.slice(0, 2)) {
      await jsonRpc(anvil.url, 'anvil_setBalance', [address, '0x1']);
    }
    second = await installKeyringSnap({
      refuseEvent: (event) => {
        if (event.method === 'notify:accountCreated') {
          prompts += 1;
        }
        return refuse && event.method === 'notify:accountCreated';
      },
    });
    await second.rpcApproved('setChainConfig', {
      scope: SCOPE,
      rpcUrl: rpc.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    });
  });

  afterAll(async () => {
    await rpc?.close();
    await anvil?.stop();
  });

  it('findAccounts asks first, naming the site, the phrases and the chain; declined: 4001, nothing searched or added', async () => {
    rpc.calls = 0;
    const pending = second.snap.request({
      origin: COMPANION,
      method: 'findAccounts',
    });
    const dialog = await dialogOf(pending);
    expect(dialog).toBeDefined();
    const text = dialogText(dialog as NonNullable<typeof dialog>);
    for (const words of [
      COMPANION,
      'Default Secret Recovery Phrase',
      'Alternative Secret Recovery Phrase',
      'Local chain (31337)',
      'smart accounts',
    ]) {
      expect(text).toContain(words);
    }
    await dialog?.cancel();
    expect((await pending).response).toMatchObject({ error: { code: 4001 } });
    expect(rpc.calls).toBe(0);
    expect(await second.keyring('keyring_listAccounts')).toEqual([]);
  });

  it('restoreAccount asks first, naming the index and the address; declined: 4001, nothing added', async () => {
    const pending = second.snap.request({
      origin: COMPANION,
      method: 'restoreAccount',
      params: { type: 'eip155:eoa', index: 1 },
    });
    const dialog = await dialogOf(pending);
    expect(dialog).toBeDefined();
    const text = dialogText(dialog as NonNullable<typeof dialog>);
    expect(text).toContain(COMPANION);
    expect(text).toContain(made[1]);
    await dialog?.cancel();
    expect((await pending).response).toMatchObject({ error: { code: 4001 } });
    expect(await second.keyring('keyring_listAccounts')).toEqual([]);
  });

  it("the person declining MetaMask's prompt: asked once, nothing added, nothing reported; approved, the reply lists the accounts added only", async () => {
    refuse = true;
    prompts = 0;
    let report = await second.rpcApproved('findAccounts');
    expect(prompts).toBe(1); // two found, the second not asked after the refusal
    expect(report.added).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(await second.keyring('keyring_listAccounts')).toEqual([]);

    refuse = false;
    report = await second.rpcApproved('findAccounts');
    expect(report.added.map((entry: any) => entry.address)).toEqual(
      made.slice(0, 2),
    );
    expect(report.skipped).toEqual([]);
  });

  it("a restore past the search's reach leaves the next account where the search looks", async () => {
    const far = await second.rpcApproved('restoreAccount', {
      type: 'eip155:eoa',
      index: 2 ** 31 - 1,
    });
    expect(made).not.toContain(far.address);
    // the next new account takes index 2, the first install's third, not 2^31
    const next = await second.createAccount();
    expect(next.address).toBe(made[2]);
    const error = await rejection(
      second.rpc('restoreAccount', { type: 'eip155:eoa', index: 2 }),
    );
    expect(error.code).toBe(-32602);
  });

  it('a hostile RPC (every address used, 503 twice per batch): the calls reaching it stay within 4,000, and one refusal ends the prompts', async () => {
    rpc.hostile = true;
    rpc.calls = 0;
    refuse = true;
    prompts = 0;
    const report = await second.rpcApproved('findAccounts');
    expect(rpc.calls).toBeLessThanOrEqual(4000);
    expect(report.searched.map((lane: any) => lane.end)).toContain('callLimit');
    expect(prompts).toBe(1);
    expect(report.added).toEqual([]);
  });

  it('a chain answering after 40 s: the search ends within its bounds and says that chain was not searched', async () => {
    rpc.hostile = false;
    rpc.slow = true;
    const report = await second.rpcApproved('findAccounts');
    rpc.slow = false;
    expect(report.unreachable).toEqual([SCOPE]);
    expect(report.interrupted).toEqual([]);
    expect(report.added).toEqual([]);
  }, 70_000); // the search's 45 s, and some; each attempt used to wait 20 s, four times
});
