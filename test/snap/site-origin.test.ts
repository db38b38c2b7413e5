/**
 * Which snap the companion site talks to, in a real browser: on the companion's public host (its
 * name mapped to the local server with Chromium's `--host-resolver-rules`) the page speaks only to
 * the published snap (`npm:` and the package name), whatever its address's `?snap=` says, so a link
 * cannot make it hand a typed private key to another snap; on this machine (`localhost`,
 * `127.0.0.1`) `?snap=` picks a developer's build.
 */
/* eslint-disable jest/no-standalone-expect, no-restricted-globals -- the tests are itInBrowser (it or it.skip); page code runs in the browser */
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import { NO_CHROMIUM, startSiteBrowser } from './siteBrowser';
import type { SiteBrowser } from './siteBrowser';
import packageJson from '../../package.json';
import manifest from '../../snap.manifest.json';

jest.setTimeout(120_000);

const itInBrowser = NO_CHROMIUM ? it.skip : it;

/** The published snap's id. */
const PUBLISHED = `npm:${manifest.source.location.npm.packageName}`;

/** The companion's public host (the manifest's allowed origin). */
const PUBLIC_HOST = new URL(
  manifest.initialPermissions['endowment:keyring'].allowedOrigins[0],
).hostname;

/** A key typed into the Import form (anvil's well-known test key 5). */
const TYPED_KEY =
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

describe(`which snap the companion site talks to${NO_CHROMIUM ? ` (skipped: ${NO_CHROMIUM})` : ''}`, () => {
  let harness: KeyringHarness;
  const opened: SiteBrowser[] = [];

  beforeAll(async () => {
    if (!NO_CHROMIUM) {
      harness = await installKeyringSnap();
    }
  });

  afterAll(async () => {
    await Promise.all(opened.map(async (site) => site.stop()));
  });

  it('the published id is the package the manifest names', () => {
    expect(PUBLISHED).toBe(`npm:${packageJson.name}`);
  });

  itInBrowser(
    `on ${PUBLIC_HOST}, ?snap= is ignored: Connect and Import speak to ${PUBLISHED} only`,
    async () => {
      const site = await startSiteBrowser({
        harness,
        snapId: PUBLISHED,
        host: PUBLIC_HOST,
      });
      opened.push(site);
      await site.open('', '?snap=npm:another-snap');
      expect(await site.page.evaluate(() => window.location.hostname)).toBe(
        PUBLIC_HOST,
      );
      await site.page.click('#connect');
      await site.waitText('#connected', /Connected/u, 10_000);
      await site.fill('#import-key', TYPED_KEY);
      await site.page.click('#import-submit');
      await site.waitText(
        '#accounts',
        new RegExp(privateKeyToAddress(TYPED_KEY), 'iu'),
      );

      const named = new Set(site.calls.map((call) => call.snapId));
      named.delete(undefined);
      expect([...named]).toStrictEqual([PUBLISHED]);
      expect(
        site.calls.some(
          (call) =>
            call.snapMethod === 'keyring_createAccount' &&
            call.snapId === PUBLISHED,
        ),
      ).toBe(true);
    },
  );

  itInBrowser('on localhost, ?snap= picks a development build', async () => {
    const developer = 'local:http://localhost:9000';
    const site = await startSiteBrowser({
      harness,
      snapId: developer,
      host: 'localhost',
    });
    opened.push(site);
    await site.connect('', `?snap=${encodeURIComponent(developer)}`);
    const named = new Set(site.calls.map((call) => call.snapId));
    named.delete(undefined);
    expect([...named]).toStrictEqual([developer]);
  });
});
