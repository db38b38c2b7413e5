/**
 * The example app (site/dapp.html) as a person meets it, in headless Chromium
 * (test/snap/siteBrowser.ts): the built snap behind a test `window.ethereum` that speaks for
 * another site than the companion, a devnet (anvil + Alto) behind the snap. The app offers the
 * accounts MetaMask connected, takes amounts in ETH, says what an account can do, and sends two
 * calls as one batch, showing the user operation and its state while it waits (Send disabled
 * meanwhile). Outcomes are read on the chain itself.
 */
/* eslint-disable jest/no-standalone-expect, no-restricted-globals -- the tests are itInBrowser (it or it.skip); page code runs in the browser */
import { parseEther } from 'viem';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { NO_CHROMIUM, startSiteBrowser } from './siteBrowser';
import type { SiteBrowser } from './siteBrowser';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';

jest.setTimeout(240_000);

const itInBrowser = NO_CHROMIUM ? it.skip : it;

describe(`the example app in headless Chromium${NO_CHROMIUM ? ` (skipped: ${NO_CHROMIUM})` : ''}`, () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let site: SiteBrowser;
  let smart: { id: string; address: Address };
  let regular: { id: string; address: Address };

  /**
   * An input's value.
   *
   * @param selector - The input.
   * @returns Its value.
   */
  const fieldValue = async (selector: string): Promise<string> =>
    site.page.$eval(selector, (element) => (element as HTMLInputElement).value);

  beforeAll(async () => {
    if (NO_CHROMIUM) {
      return;
    }
    devnet = await startDevnet({ entryPoints: true });
    await Promise.all(
      RECORDERS.map(async (address) => installRecorder(devnet.rpcUrl, address)),
    );
    harness = await installKeyringSnap();
    await harness.rpcApproved('setChainConfig', devnet.chainConfig);
    smart = await harness.createAccount({
      type: 'eip155:erc4337',
      entryPointVersion: '0.8',
    });
    regular = await harness.createAccount();
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      smart.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    site = await startSiteBrowser({ harness, chainId: devnet.chainId });
    await site.connect('dapp.html');
  });

  afterAll(async () => {
    await site?.stop();
    await devnet?.stop();
  });

  itInBrowser(
    'offers the connected accounts in full (no address to paste), the chain from the wallet, and says what the chosen account can do; a new choice clears what was said',
    async () => {
      const offered = await site.page.$$eval('#from label', (labels) =>
        labels.map((label) => ({
          text: (label as HTMLElement).innerText.trim(),
          checked: (label.querySelector('input') as HTMLInputElement).checked,
        })),
      );
      expect(offered).toStrictEqual([
        { text: smart.address, checked: true },
        { text: regular.address, checked: false },
      ]);
      expect(await fieldValue('#chain')).toBe(String(devnet.chainId));

      await site.page.click('#capabilities');
      expect(await site.waitText('#abilities', /./u)).toBe(
        'Sends several calls at once, all or nothing. Its gas can be paid by a paymaster.',
      );
      await site.page.click(`[id="from:${regular.address}"]`);
      expect(await site.text('#abilities')).toBe('');
      await site.page.click('#capabilities');
      // a site asks the person once (it was allowed the first account); another account is given to
      // it by a send it makes from it, until then the snap answers as for any address (4100)
      expect(await site.waitText('#abilities', /./u)).toMatch(
        /^MetaMask did not allow this/u,
      );
      await site.page.click(`[id="from:${smart.address}"]`);
    },
  );

  itInBrowser(
    'takes amounts in ETH: a malformed amount is answered under its field and nothing is sent',
    async () => {
      const before = site.calls.length;
      await site.fill('#to-1', RECORDERS[0]);
      await site.fill('#value-1', '0,01');
      await site.page.click('#send-submit');
      expect(await site.waitText('#value-1-error', /./u)).toBe(
        'Enter an amount of ETH, such as 0.01',
      );
      await site.fill('#to-1', '');
      await site.fill('#value-1', '');
      await site.page.click('#send-submit');
      expect(await site.waitText('#to-1-error', /./u)).toBe(
        'Enter the address to send to',
      );
      expect(await site.text('#value-1-error')).toBe('');
      expect(
        site.calls
          .slice(before)
          .some((call) => call.snapMethod === 'wallet_sendCalls'),
      ).toBe(false);
    },
  );

  itInBrowser(
    'sends two calls (0.01 ETH and a contract call) as one user operation: while it waits the page shows it and its state with Send disabled, then what happened; both took effect on the chain and the form is emptied',
    async () => {
      const recipient = privateKeyToAddress(generatePrivateKey());
      await site.fill('#to-1', RECORDERS[0]);
      await site.fill('#data-1', recordCalldata(0x701, 0x7001));
      await site.fill('#to-2', recipient);
      await site.fill('#value-2', '0.01');

      // the chain holds the bundle: the page must show the operation waiting
      await jsonRpc(devnet.rpcUrl, 'evm_setAutomine', [false]);
      try {
        await site.page.click('#send-submit');
        const waiting = await site.waitText(
          '#progress',
          /waiting to be included/u,
          60_000,
        );
        expect(waiting).toMatch(
          /^User operation 0x[0-9a-f]{64}: waiting to be included…$/u,
        );
        expect(
          await site.page.$eval(
            '#send-submit',
            (button) => (button as HTMLButtonElement).disabled,
          ),
        ).toBe(true);
      } finally {
        await jsonRpc(devnet.rpcUrl, 'evm_setAutomine', [true]);
      }
      await jsonRpc(devnet.rpcUrl, 'evm_mine', []);
      const done = await site.waitText('#progress', /done|failed/u, 120_000);
      expect(done).toMatch(
        /^User operation 0x[0-9a-f]{64}: done: every call happened\. Transaction 0x[0-9a-f]{64}\.$/u,
      );
      await site.screenshot('dapp');

      // on the chain itself: both calls ran, in the transaction the page names
      const userOpHash = /User operation (0x[0-9a-f]{64})/u.exec(
        done,
      )?.[1] as Hex;
      const hash = /Transaction (0x[0-9a-f]{64})/u.exec(done)?.[1];
      const receipt = await harness.rpc('getUserOperationReceipt', {
        scope: devnet.scope,
        userOpHash,
      });
      expect(receipt).toMatchObject({ success: true, transactionHash: hash });
      expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 0x701)).toBe(
        0x7001n,
      );
      expect(
        BigInt(
          await jsonRpc<string>(devnet.rpcUrl, 'eth_getBalance', [
            recipient,
            'latest',
          ]),
        ),
      ).toBe(parseEther('0.01'));
      for (const input of ['#to-1', '#data-1', '#to-2', '#value-2']) {
        expect(await fieldValue(input)).toBe('');
      }
      expect(
        await site.page.$eval(
          '#send-submit',
          (button) => (button as HTMLButtonElement).disabled,
        ),
      ).toBe(false);
      // the next action clears what the last one said
      await site.page.click('#capabilities');
      await site.waitText('#abilities', /./u);
      expect(await site.text('#progress')).toBe('');
    },
  );

  itInBrowser(
    'reads at phone width: nothing wider than the screen',
    async () => {
      await site.page.setViewport({ width: 360, height: 800 });
      await site.page.reload({ waitUntil: 'load' });
      await site.waitText('#from', /0x/u);
      expect(
        await site.page.evaluate(() => ({
          width: document.documentElement.scrollWidth,
          // every address shown whole: no line of it cut off
          clipped: [...document.querySelectorAll('.mono')].filter(
            (element) => element.scrollWidth > element.clientWidth,
          ).length,
        })),
      ).toStrictEqual({ width: 360, clipped: 0 });
      await site.screenshot('dapp-phone');
    },
  );
});
