/**
 * The companion site and its example app in a real browser: headless Chromium (@sparticuz/chromium,
 * driven by puppeteer-core through its executablePath; nothing is downloaded) loads the site as
 * `npm run site` serves it, with a `window.ethereum` this test provides. It forwards
 * `wallet_requestSnaps`, `wallet_invokeSnap` and `wallet_invokeKeyring` to the built snap in the
 * snaps-jest simulation, as MetaMask would: the companion pages as the companion's origin, the
 * example app as another site, each dialog the snap opens approved and recorded. The test clicks
 * through saving a chain, creating a smart account on EntryPoint v0.8 and sending a two-call batch,
 * then checks on the devnet (anvil + Alto) that both calls took effect.
 *
 * The Chromium of the `@sparticuz/chromium` package is a Linux x64 build: elsewhere the suite is
 * skipped, and its title says why. The functions handed to `page.evaluate` and its kin run in the
 * page, where `window` and `document` are the page's.
 */
/* eslint-disable no-restricted-globals, jest/no-standalone-expect -- page code; the one test is itInBrowser (it or it.skip) */
import chromium from '@sparticuz/chromium';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { parseEther } from 'viem';
import type { Address } from 'viem';

import { COMPANION, dialogOf, dialogText, installKeyringSnap } from './harness';
import type { KeyringHarness, PendingRequest } from './harness';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { jsonRpc } from '../../devnet/json-rpc';
import { freePort, startService, waitFor } from '../../devnet/ports';
import type { Service } from '../../devnet/ports';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../../devnet/targets';

jest.setTimeout(240_000);

const DAPP = 'https://dapp.example';
const SNAP_ID = 'local:http://localhost:8080';
const CHROMIUM =
  process.platform === 'linux' && process.arch === 'x64'
    ? undefined
    : `no Chromium build of @sparticuz/chromium for ${process.platform}-${process.arch}`;
const itInBrowser = CHROMIUM ? it.skip : it;

/** A JSON-RPC reply as the page's provider hands it back. */
type Reply = { result: unknown } | { error: { code: number; message: string } };

describe(`the companion site and its example app in headless Chromium${CHROMIUM ? ` (skipped: ${CHROMIUM})` : ''}`, () => {
  let devnet: Devnet;
  let harness: KeyringHarness;
  let site: Service;
  let browser: Browser;
  let page: Page;
  let siteUrl: string;
  const dialogs: { origin: string; text: string }[] = [];

  /**
   * What MetaMask would do with the page's request: the snap's methods go to the simulation,
   * from the companion's origin or, for the example app, another site's; dialogs are approved.
   *
   * @param pathname - The page's path (which origin it stands for).
   * @param method - The provider method.
   * @param params - Its params.
   * @returns The reply.
   */
  async function forward(
    pathname: string,
    method: string,
    params: any,
  ): Promise<Reply> {
    const origin = pathname.endsWith('/dapp.html') ? DAPP : COMPANION;
    if (method === 'wallet_requestSnaps') {
      return {
        result: { [SNAP_ID]: { id: SNAP_ID, enabled: true, blocked: false } },
      };
    }
    const request = {
      origin,
      method: params?.request?.method,
      ...(params?.request?.params === undefined
        ? {}
        : { params: params.request.params }),
    };
    let pending: PendingRequest;
    if (method === 'wallet_invokeSnap') {
      pending = harness.snap.request(request);
    } else if (method === 'wallet_invokeKeyring') {
      pending = harness.snap.onKeyringRequest(request);
    } else {
      return { error: { code: 4200, message: `${method} is not offered` } };
    }
    const dialog = await dialogOf(pending);
    if (dialog) {
      dialogs.push({ origin, text: dialogText(dialog) });
      await dialog.ok();
    }
    const { response } = (await pending) as any;
    return 'error' in response
      ? { error: response.error }
      : { result: response.result };
  }

  /**
   * Open a page of the site with the test's provider.
   *
   * @param file - The page (`` for the companion, `dapp.html`).
   */
  async function open(file: string): Promise<void> {
    await page.goto(`${siteUrl}/${file}`, { waitUntil: 'load' });
    await page.click('#connect');
    await page.waitForFunction(
      () => document.getElementById('connected')?.textContent !== '',
      { timeout: 10_000 },
    );
  }

  /**
   * Type into a field, replacing what it held.
   *
   * @param selector - The field.
   * @param text - What to type.
   */
  async function fill(selector: string, text: string): Promise<void> {
    await page.$eval(
      selector,
      (element, value) => {
        (element as HTMLInputElement).value = value;
      },
      text,
    );
  }

  beforeAll(async () => {
    if (CHROMIUM) {
      return;
    }
    devnet = await startDevnet({ entryPoints: true });
    await Promise.all(
      RECORDERS.map(async (address) => installRecorder(devnet.rpcUrl, address)),
    );
    harness = await installKeyringSnap();
    const port = await freePort();
    siteUrl = `http://127.0.0.1:${port}`;
    site = startService(process.execPath, [
      '--import',
      'tsx',
      path.join(__dirname, '../../scripts/serve.ts'),
      '--site',
      '--port',
      String(port),
    ]);
    await waitFor(async () => (await fetch(siteUrl)).ok, 30_000, 200);
    browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
    });
    page = await browser.newPage();
    await page.exposeFunction('snapProvider', forward);
    await page.evaluateOnNewDocument(() => {
      const call = (window as any).snapProvider;
      (window as any).ethereum = {
        request: async ({ method, params }: any): Promise<unknown> => {
          const reply = await call(window.location.pathname, method, params);
          if (reply.error) {
            throw Object.assign(new Error(reply.error.message), {
              code: reply.error.code,
            });
          }
          return reply.result;
        },
      };
    });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await devnet?.stop();
  });

  itInBrowser(
    'saves a chain and creates a smart account on the companion, then the example app sends a two-call batch that both take effect',
    async () => {
      await open('');
      const { chainConfig } = devnet;
      await fill('#chain-scope', chainConfig.scope);
      await fill('#chain-rpc', chainConfig.rpcUrl);
      await fill('#chain-bundler', chainConfig.bundlerUrl);
      await fill('#chain-entrypoint', chainConfig.entryPoint);
      await fill('#chain-factory', chainConfig.accountFactory);
      await page.click('#chain-save');
      await page.waitForFunction(
        (scope) =>
          document.getElementById('chains')?.textContent?.includes(scope),
        { timeout: 30_000 },
        chainConfig.scope,
      );
      expect(dialogs.at(-1)?.origin).toBe(COMPANION);

      await page.select('#create-type', 'eip155:erc4337');
      await page.select('#create-version', '0.8');
      await page.click('#create');
      const address = (await (
        await page.waitForSelector('#accounts tr[data-address]', {
          timeout: 30_000,
        })
      )?.evaluate((row) => (row as HTMLElement).dataset.address)) as Address;
      const [listed] = await harness.keyring('keyring_listAccounts');
      expect(listed).toMatchObject({ address, type: 'eip155:erc4337' });
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        address,
        `0x${parseEther('1').toString(16)}`,
      ]);

      await open('dapp.html');
      await fill('#from', address);
      await fill('#chain', String(devnet.chainId));
      for (const index of [1, 2]) {
        await fill(`#to-${index}`, RECORDERS[index - 1]);
        await fill(
          `#data-${index}`,
          recordCalldata(0x700 + index, 0x7000 + index),
        );
      }
      await page.click('#capabilities');
      await page.waitForFunction(
        () => document.getElementById('abilities')?.textContent !== '',
        { timeout: 10_000 },
      );
      expect(
        await page.$eval('#abilities', (element) => element.textContent),
      ).toContain('several calls at once');
      await page.click('#send');
      await page.waitForSelector(
        '#progress[data-status]:not([data-status="100"])',
        {
          timeout: 120_000,
        },
      );
      const progress = await page.$eval('#progress', (element) => ({
        status: (element as HTMLElement).dataset.status,
        text: element.textContent ?? '',
      }));
      expect(progress.status).toBe('200');
      expect(dialogs.at(-1)?.origin).toBe(DAPP);
      expect(dialogs.at(-1)?.text).toContain(DAPP);

      // on the chain itself: both calls ran, in the mined transaction the page names
      const hash = /Transaction (0x[0-9a-f]{64})/u.exec(progress.text)?.[1];
      const receipt = await jsonRpc<any>(
        devnet.rpcUrl,
        'eth_getTransactionReceipt',
        [hash],
      );
      expect(receipt.status).toBe('0x1');
      expect(await readRecord(devnet.rpcUrl, RECORDERS[0], 0x701)).toBe(
        0x7001n,
      );
      expect(await readRecord(devnet.rpcUrl, RECORDERS[1], 0x702)).toBe(
        0x7002n,
      );
    },
  );
});
