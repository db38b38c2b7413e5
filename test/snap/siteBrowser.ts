/**
 * The companion site and its example app in a real browser, for the browser suites: headless
 * Chromium (@sparticuz/chromium, driven by puppeteer-core through its executablePath; nothing is
 * downloaded) loads the site as `npm run site` serves it, with a `window.ethereum` provided here.
 * It forwards `wallet_requestSnaps`, `wallet_invokeSnap` and `wallet_invokeKeyring` to the built
 * snap in the snaps-jest simulation, as MetaMask would: the companion pages as the companion's
 * origin, the example app as another site; each dialog the snap opens is approved (or cancelled,
 * see `answer`) and recorded. `eth_requestAccounts` answers the snap's addresses, as MetaMask lists
 * the accounts a person connects. Every provider call is recorded with the snap id it named.
 *
 * The Chromium of the `@sparticuz/chromium` package is a Linux x64 build: elsewhere the suites are
 * skipped (`NO_CHROMIUM` says why). The functions handed to `page.evaluate` and its kin run in the
 * page, where `window` and `document` are the page's.
 */
/* eslint-disable no-restricted-globals -- page code runs in the browser */
import chromium from '@sparticuz/chromium';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';

import { COMPANION, METAMASK, dialogOf, dialogText } from './harness';
import type { KeyringHarness, PendingRequest } from './harness';
import { freePort, startService, waitFor } from '../../devnet/ports';
import type { Service } from '../../devnet/ports';

/** The example app's origin, as MetaMask would report it. */
export const DAPP = 'https://dapp.example';

/** The snap id the site uses when served from this machine. */
export const LOCAL_SNAP_ID = 'local:http://localhost:8080';

/** Why the browser suites are skipped here, or undefined when they run. */
export const NO_CHROMIUM =
  process.platform === 'linux' && process.arch === 'x64'
    ? undefined
    : `no Chromium build of @sparticuz/chromium for ${process.platform}-${process.arch}`;

/** Where screenshots go (committed; `SITE_SCREENSHOTS=1` retakes them). */
const SCREENSHOTS = path.join(__dirname, '../../docs/images');

/** A JSON-RPC reply as the page's provider hands it back. */
type Reply =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } };

/** One call the page made to its provider. */
export type ProviderCall = {
  /** The page's path (`/`, `/dapp.html`). */
  pathname: string;
  /** The provider method. */
  method: string;
  /** The snap it named (`snapId`, or the key of wallet_requestSnaps). */
  snapId?: string;
  /** The snap method, for wallet_invokeSnap / wallet_invokeKeyring. */
  snapMethod?: string;
  /** That method's params. */
  snapParams?: unknown;
};

/** The site in a browser. */
export type SiteBrowser = {
  /** The browser tab. */
  page: Page;
  /** The site's base URL (no trailing slash). */
  url: string;
  /** Every provider call, in order. */
  calls: ProviderCall[];
  /** Every snap dialog, in order, with the origin that caused it. */
  dialogs: { origin: string; text: string }[];
  /** How the next dialogs are answered (`ok` unless a test says otherwise). */
  answer: { next: 'ok' | 'cancel' };
  /** Load a page of the site (`''` for the companion, `dapp.html`), with an optional query. */
  open: (file: string, query?: string) => Promise<void>;
  /** Load a page and press Connect, waiting until it says it is connected. */
  connect: (file: string, query?: string) => Promise<void>;
  /** Replace a field's text, as a person typing it (input events fire). */
  fill: (selector: string, text: string) => Promise<void>;
  /** The visible text of an element (`innerText`), or '' when there is none. */
  text: (selector: string) => Promise<string>;
  /** Wait until an element's text matches, and return it (bounded). */
  waitText: (
    selector: string,
    pattern: RegExp,
    timeout?: number,
  ) => Promise<string>;
  /**
   * Save a screenshot as docs/images/site-<name>.png when SITE_SCREENSHOTS is set: of the element
   * `selector` names, else of the whole page.
   */
  screenshot: (name: string, selector?: string) => Promise<void>;
  /** Close the browser and stop the site's server. */
  stop: () => Promise<void>;
};

/** Options of {@link startSiteBrowser}. */
export type SiteBrowserOptions = {
  /** The snap in the simulation the provider forwards to. */
  harness: KeyringHarness;
  /** The snap id MetaMask has installed: calls naming another are refused (4100), and recorded. */
  snapId?: string;
  /** Serve the site under this host name (mapped to 127.0.0.1 with `--host-resolver-rules`). */
  host?: string;
  /** The chain id `eth_chainId` answers (decimal). */
  chainId?: number;
};

/**
 * Serve the site with `scripts/serve.ts --site` on a free port, launch Chromium with a test
 * provider, and open a tab.
 *
 * @param options - See {@link SiteBrowserOptions}.
 * @returns The site in a browser; call `stop`.
 */
export async function startSiteBrowser(
  options: SiteBrowserOptions,
): Promise<SiteBrowser> {
  const { harness, snapId = LOCAL_SNAP_ID, host = '127.0.0.1' } = options;
  const calls: ProviderCall[] = [];
  const dialogs: SiteBrowser['dialogs'] = [];
  const answer: SiteBrowser['answer'] = { next: 'ok' };
  const connected = new Set<string>();
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const server: Service = startService(process.execPath, [
    '--import',
    'tsx',
    path.join(__dirname, '../../scripts/serve.ts'),
    '--site',
    '--port',
    String(port),
  ]);
  let browser: Browser | undefined;
  try {
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/`)).ok,
      30_000,
      200,
    );
    browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: [
        ...chromium.args,
        ...(host === '127.0.0.1'
          ? []
          : [`--host-resolver-rules=MAP ${host} 127.0.0.1`]),
      ],
      headless: true,
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 900 });

    /**
     * What MetaMask would do with the page's request.
     *
     * @param pathname - The page's path (which origin it stands for).
     * @param method - The provider method.
     * @param params - Its params.
     * @returns The reply.
     */
    const forward = async (
      pathname: string,
      method: string,
      params: any,
    ): Promise<Reply> => {
      const origin = pathname.endsWith('/dapp.html') ? DAPP : COMPANION;
      const named =
        method === 'wallet_requestSnaps'
          ? Object.keys(params ?? {})[0]
          : params?.snapId;
      calls.push({
        pathname,
        method,
        ...(named === undefined ? {} : { snapId: named }),
        ...(params?.request
          ? {
              snapMethod: params.request.method,
              snapParams: params.request.params,
            }
          : {}),
      });
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') {
        const accounts = await harness.keyring(
          'keyring_listAccounts',
          undefined,
          METAMASK,
        );
        return { result: accounts.map((account: any) => account.address) };
      }
      if (method === 'eth_chainId') {
        return { result: `0x${(options.chainId ?? 1).toString(16)}` };
      }
      if (named !== undefined && named !== snapId) {
        return {
          error: { code: 4100, message: `${named} is not installed` },
        };
      }
      const installed = {
        [snapId]: { id: snapId, enabled: true, blocked: false },
      };
      if (method === 'wallet_requestSnaps') {
        connected.add(origin);
        return { result: installed };
      }
      if (method === 'wallet_getSnaps') {
        return { result: connected.has(origin) ? installed : {} };
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
        await (answer.next === 'ok' ? dialog.ok() : dialog.cancel());
      }
      const { response } = (await pending) as any;
      return 'error' in response
        ? { error: response.error }
        : { result: response.result };
    };
    await page.exposeFunction('snapProvider', forward);
    await page.evaluateOnNewDocument(() => {
      const call = (window as any).snapProvider;
      (window as any).ethereum = {
        request: async ({ method, params }: any): Promise<unknown> => {
          const reply = await call(window.location.pathname, method, params);
          if (reply.error) {
            throw Object.assign(new Error(reply.error.message), reply.error);
          }
          return reply.result;
        },
      };
    });

    /**
     * Load a page of the site.
     *
     * @param file - The page (`''` for the companion).
     * @param query - Its query, `?…`.
     */
    const open = async (file: string, query = ''): Promise<void> => {
      await page.goto(`${url}/${file}${query}`, { waitUntil: 'load' });
    };
    /**
     * An element's visible text.
     *
     * @param selector - The element.
     * @returns Its innerText, or ''.
     */
    const text = async (selector: string): Promise<string> =>
      page.evaluate(
        (wanted) =>
          document.querySelector<HTMLElement>(wanted)?.innerText ?? '',
        selector,
      );
    /**
     * Wait until an element's text matches.
     *
     * @param selector - The element.
     * @param pattern - What it must match.
     * @param timeout - How long to wait, in ms.
     * @returns Its text then.
     */
    const waitText = async (
      selector: string,
      pattern: RegExp,
      timeout = 30_000,
    ): Promise<string> => {
      await page
        .waitForFunction(
          (wanted, source, flags) =>
            new RegExp(source, flags).test(
              document.querySelector<HTMLElement>(wanted)?.innerText ?? '',
            ),
          { timeout },
          selector,
          pattern.source,
          pattern.flags,
        )
        .catch(async (error: unknown) => {
          throw new Error(
            `${selector} never matched ${String(pattern)}; it says: ${JSON.stringify(await text(selector))} (${String(error)})`,
          );
        });
      return text(selector);
    };
    return {
      page,
      url,
      calls,
      dialogs,
      answer,
      open,
      connect: async (file, query): Promise<void> => {
        await open(file, query);
        await page.click('#connect');
        await waitText('#connected', /Connected/u, 10_000);
      },
      fill: async (selector, value): Promise<void> => {
        await page.$eval(
          selector,
          (element, typed) => {
            (element as HTMLInputElement).value = typed;
            element.dispatchEvent(new Event('input', { bubbles: true }));
            element.dispatchEvent(new Event('change', { bubbles: true }));
          },
          value,
        );
      },
      text,
      waitText,
      screenshot: async (name, selector): Promise<void> => {
        if (!process.env.SITE_SCREENSHOTS) {
          return;
        }
        mkdirSync(SCREENSHOTS, { recursive: true });
        const file = path.join(SCREENSHOTS, `site-${name}.png`);
        const part = selector ? await page.$(selector) : null;
        await (part
          ? part.screenshot({ path: file })
          : page.screenshot({ path: file, fullPage: true }));
      },
      stop: async (): Promise<void> => {
        await browser?.close();
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.stop();
    throw error;
  }
}
