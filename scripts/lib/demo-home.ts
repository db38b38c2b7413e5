/**
 * The demo's home-page part (`npm run demo`, scripts/demo.ts): a person opens the snap's home page,
 * creates an account there and reads each account's card, its Activity among it (what alice sent
 * bob, what bob received); then the snap is installed again with the same recovery phrase and an
 * empty state, and *Find my accounts* brings the used accounts back.
 */
import { check, say } from './demo-log';
import type { DemoContext } from './demo-log';

/**
 * The text a person reads on a JSX page.
 *
 * @param node - A JSX element (or text) of the page.
 * @param lines - Lines found so far.
 * @returns Each Heading, Row (label: value), Text and Copyable, one per line.
 */
function pageText(node: any, lines: string[] = []): string[] {
  if (node === null || typeof node !== 'object') {
    return lines;
  }
  if (Array.isArray(node)) {
    node.forEach((child) => pageText(child, lines));
    return lines;
  }
  const { type, props } = node;
  if (type === 'Heading') {
    lines.push(`\n    ## ${props.children}`);
  } else if (type === 'Row') {
    lines.push(`    ${props.label}: ${props.children?.props?.children ?? ''}`);
    return lines;
  } else if (type === 'Text' && typeof props.children === 'string') {
    lines.push(`    ${props.children}`);
  } else if (type === 'Copyable') {
    lines.push(`    [copy] ${props.value}`);
  } else if (
    type === 'Form' ||
    type === 'Field' ||
    type === 'Button' ||
    type === 'Dropdown'
  ) {
    return lines; // controls: not printed
  }
  return pageText(props?.children, lines);
}

/**
 * The lines of one account's card: the Section that shows its address.
 *
 * @param node - The page (a JSX element).
 * @param address - The account's address.
 * @returns The card's lines (none when the page does not show the account).
 */
function cardText(node: any, address: string): string[] {
  if (node === null || typeof node !== 'object') {
    return [];
  }
  if (Array.isArray(node)) {
    return node.flatMap((child) => cardText(child, address));
  }
  if (node.type === 'Section') {
    const lines = pageText(node);
    return lines.includes(`    [copy] ${address}`) ? lines : [];
  }
  return cardText(node.props?.children, address);
}

/**
 * The home page: create an account there and print what it shows (each account's card, with its
 * Activity list read from the chain when the page opened).
 *
 * @param demo - The running snap.
 * @param demo.snap - The running snap (its first two accounts: alice, who paid bob 0.5 ETH, and
 * bob).
 */
export async function homePageFlow({ snap }: DemoContext): Promise<void> {
  say(
    "A person opens the snap's home page in MetaMask and creates an account there (no site involved)",
  );
  const before = await snap.keyring('keyring_listAccounts');
  const page = await snap.homePage();
  const next = page.waitForUpdate();
  await page.clickElement('create-eoa-submit');
  const updated = await next;
  const accounts = await snap.keyring('keyring_listAccounts');
  check(
    'the home page created an account, and told MetaMask',
    accounts.length === before.length + 1 &&
      snap.events.at(-1)?.method === 'notify:accountCreated',
  );
  const created = accounts.at(-1);
  const text = pageText(updated.content);
  check(
    'the page shows it',
    text.some((line) => line.includes(created.address)),
    created.address,
  );
  const [alice, bob, vault] = before;
  check(
    "bob's Activity lists the 0.5 ETH he received from alice",
    cardText(updated.content, bob.address).some((line) =>
      line.includes(
        `Received: 0.5 ETH from Keyring Account 1 (${alice.address}) · in block`,
      ),
    ),
  );
  check(
    "alice's Activity lists it as sent, with its fee",
    cardText(updated.content, alice.address).some((line) =>
      new RegExp(
        `Sent: 0\\.5 ETH to Keyring Account 2 \\(${bob.address}\\) · Succeeded in block \\d+ · fee [0-9.]+ ETH`,
        'u',
      ).test(line),
    ),
  );
  check(
    "the Demo Vault's Activity lists the operation MetaMask prepared and sent: its two calls, read back from the chain",
    cardText(updated.content, vault.address).some((line) =>
      /^ {4}Sent: 2 calls · Succeeded in block \d+ · fee [0-9.]+ ETH/u.test(
        line,
      ),
    ),
  );
  check(
    'each account that sent user operations lists them, read from the chain (what, outcome, block, fee)',
    text.some((line) =>
      /^ {4}Sent: .+ · Succeeded in block \d+ · fee [0-9.]+ ETH · 0x[0-9a-f]{8}…/u.test(
        line,
      ),
    ),
  );
  console.log('    What the home page shows now (accounts part):');
  const end = text.findIndex((line) => line.includes('## Create an account'));
  console.log(text.slice(0, end === -1 ? undefined : end).join('\n'));
}

/**
 * A restore on the home page: the snap installed again with the same recovery phrase and an empty
 * state (a new device), the chain added, then *Find my accounts*; print what the page shows.
 *
 * @param demo - The running snap and the devnet.
 * @param demo.snap - The running snap (its accounts: alice and bob used on the chain, the smart
 * accounts deployed, the home page's account never used).
 * @param demo.devnet - The devnet (its chain config).
 */
export async function restoreFlow({
  snap,
  devnet,
}: DemoContext): Promise<void> {
  say(
    'The snap is installed again with the same recovery phrase and an empty state (a new device); on its home page the person adds the chain and presses Find my accounts',
  );
  const before: { address: string; type: string }[] = await snap.keyring(
    'keyring_listAccounts',
  );
  const again = await snap.installAgain();
  try {
    check(
      'the new install starts empty',
      (await again.keyring('keyring_listAccounts')).length === 0,
    );
    await again.rpcConfirmed('setChainConfig', devnet.chainConfig);
    const page = await again.homePage();
    // Every page it renders while it runs, each update awaited from the one before.
    const pages: any[] = [];
    let ended: ((value: undefined) => void) | undefined;
    const done = new Promise<undefined>((resolve) => {
      ended = resolve;
    });
    const watching = (async (): Promise<void> => {
      for (let current = page; ;) {
        const next = await Promise.race([current.waitForUpdate(), done]);
        if (next === undefined) {
          return;
        }
        pages.push(next);
        current = next;
      }
    })();
    await page
      .clickElement('accounts-restore')
      .finally(() => ended?.(undefined));
    await watching;
    const progress = [
      ...new Set(
        pages
          .flatMap((shown) => pageText(shown.content))
          .filter((line) => line.includes('Searching'))
          .map((line) => line.trim()),
      ),
    ];
    console.log(
      `    While it ran the page said: ${progress.length > 0 ? progress.join(' / ') : '(no progress shown: it ended at once)'}`,
    );
    const text = pageText(pages.at(-1)?.content ?? page.content);
    const start = text.findIndex((line) =>
      line.includes('## Find my accounts'),
    );
    const stop = text.findIndex((line) => line.includes('## Restore by index'));
    console.log('    What the home page shows when it ends:');
    console.log(text.slice(start, stop === -1 ? undefined : stop).join('\n'));
    const restored: { address: string; type: string }[] = await again.keyring(
      'keyring_listAccounts',
    );
    /**
     * An account's identity for comparison: its type and address.
     *
     * @param account - A keyring account.
     * @param account.address - Its address.
     * @param account.type - Its type.
     * @returns `<type> <address in lower case>`.
     */
    const key = (account: { address: string; type: string }): string =>
      `${account.type} ${account.address.toLowerCase()}`;
    const had = new Set(before.map(key));
    check(
      'every account it added is one the first install had, at the same address and type',
      restored.length > 0 && restored.every((account) => had.has(key(account))),
      `${restored.length} of ${before.length}`,
    );
    check(
      'the accounts used on the chain came back (alice, bob, the smart accounts that sent); the unused one did not',
      restored.length === before.length - 1 &&
        !restored.some((account) => key(account) === key(before.at(-1) as any)),
    );
  } finally {
    await again.close();
  }
}
