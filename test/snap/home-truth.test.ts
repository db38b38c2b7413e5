/**
 * "What is shown is true": the home page through the built snap, driven by the README's element
 * names, as the person-trial met it. Notices keep chain ids and words (only credentials are
 * masked), unlimited typed-data approvals are flagged and deadlines shown as dates, a smart
 * account's export names its owner, look-alike names are refused and suggested numbers are never
 * reused, chain and IPFS errors are in page language under their fields, forms keep what the
 * person meant, notices say what they acted on, and buttons name their object. Chains are served
 * by anvil (with the v0.6 contracts) and by a JSON-RPC server on 127.0.0.1 that answers
 * `eth_chainId` with the chain id in its path (`/c/<id>/...`), as a keyed provider URL would.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  elementNames,
  findField,
  inputValue,
  nextPage,
  openHomePage,
  rowText,
  rowValues,
  shownTexts,
  walk,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';

const KEY = 'KEYnever4shown9x';
const OWNER_KEY =
  '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f';
const MAX_UINT256 = (2n ** 256n - 1n).toString();
const MAX_UINT160 = (2n ** 160n - 1n).toString();
const SPENDER = '0x1111111254EEB25477B68fb85Ed929f73A960582';
const TOKEN = '0x6B175474E89094C44Da98b954EedeAC495271d0F';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
/** 2027-01-15 08:00:00 UTC, in seconds. */
const DEADLINE = 1_800_000_000;

describe('home page: what is shown is true', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let harness: KeyringHarness;
  let ui: HomePageUi;
  let server: Server;
  let base: string;

  /** Open the home page afresh. */
  async function open(): Promise<void> {
    ui = await openHomePage(harness);
  }

  /**
   * Run an action that re-renders the page and read the page it renders (bounded: 20 s).
   *
   * @param action - The action, given the current page.
   */
  async function step(
    action: (current: HomePageUi) => Promise<void>,
  ): Promise<void> {
    // eslint-disable-next-line require-atomic-updates -- steps run one at a time; ui is this suite's current page
    ui = await nextPage(ui, action);
  }

  /** @returns The text of the notice at the top of the page. */
  const notice = (): string | undefined =>
    [...walk(ui.content)].find((node) => node.type === 'Banner')?.props.children
      .props.children;

  /**
   * Fill the chain form (every field, blank ones emptied) and submit it.
   *
   * @param fields - The values by field name.
   */
  async function saveChain(fields: Record<string, string>): Promise<void> {
    for (const field of [
      'scope',
      'rpcUrl',
      'entryPoint',
      'accountFactory',
      'bundlerUrl',
      'paymasterUrl',
    ]) {
      await ui.typeInField(`chain-${field}`, fields[field] ?? '');
    }
    await step(async (current) => current.clickElement('chain-form-submit'));
  }

  /**
   * Fill the IPFS form and submit it.
   *
   * @param fields - The values by field name (`clear` ticks the removal box).
   */
  async function saveIpfs(
    fields: Record<string, string | boolean>,
  ): Promise<void> {
    for (const field of ['apiUrl', 'apiKey', 'apiKeySecret']) {
      await ui.typeInField(`ipfs-${field}`, (fields[field] as string) ?? '');
    }
    if (fields.clear === true) {
      await ui.clickElement('ipfs-clearCredentials');
    }
    await step(async (current) => current.clickElement('ipfs-form-submit'));
  }

  /**
   * Rename an account on the page.
   *
   * @param id - The account id.
   * @param name - The new name.
   */
  async function rename(id: string, name: string): Promise<void> {
    await ui.typeInField(`account-name:${id}`, name);
    await step(async (current) =>
      current.clickElement(`account-rename-submit:${id}`),
    );
  }

  /**
   * The text of every button, by its element name.
   *
   * @returns `{ name: text }`.
   */
  const buttons = (): Record<string, string> =>
    Object.fromEntries(
      [...walk(ui.content)]
        .filter((node) => node.type === 'Button')
        .map((node) => [
          node.props.name,
          shownTexts(node.props.children).join(''),
        ]),
    );

  /**
   * The Button element of a name.
   *
   * @param name - Its element name.
   * @returns Its props.
   */
  const button = (name: string): Record<string, any> | undefined =>
    [...walk(ui.content)].find(
      (node) => node.type === 'Button' && node.props.name === name,
    )?.props;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        let id: unknown = null;
        try {
          ({ id } = JSON.parse(body) as Record<string, unknown>);
        } catch {
          // not JSON: answered with a null id
        }
        const chain = /^\/c\/([0-9]+)\//u.exec(request.url ?? '')?.[1] ?? '5';
        response
          .writeHead(200, {
            'Content-Type': 'application/json',
            'Access-Control-Allow-Origin': '*',
          })
          .end(
            JSON.stringify({
              jsonrpc: '2.0',
              id,
              result: `0x${BigInt(chain).toString(16)}`,
            }),
          );
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    harness = await installKeyringSnap();
    await open();
  });

  afterAll(async () => {
    await anvil?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('the chain form says what its fields are in plain words, the contract fields under Advanced; a known chain id is named', async () => {
    const texts = shownTexts(ui.content);
    // the chain form's texts (the smart-account form above it names the EntryPoint version too)
    const chains = texts.indexOf('Chains');
    expect(chains).toBeGreaterThan(-1);
    const advanced = texts.findIndex((text) => text.startsWith('Advanced'));
    expect(advanced).toBeGreaterThan(-1);
    /**
     * Where the first text of the Chains part holding `needle` shows.
     *
     * @param needle - A part of a text.
     * @returns Its position in the page's texts (-1: absent).
     */
    const labelOf = (needle: string): number =>
      texts.findIndex((text, at) => at > chains && text.includes(needle));
    expect(labelOf('EntryPoint')).toBeGreaterThan(advanced);
    expect(labelOf('factory')).toBeGreaterThan(advanced);
    expect(labelOf('paymaster')).toBeGreaterThan(advanced);
    expect(labelOf('RPC URL')).toBeLessThan(advanced);

    // a local chain without the standard factory: the creation error says what to do
    await saveChain({ scope: '31337', rpcUrl: anvil.url });
    expect(notice()).toBe('Saved Local chain (31337)');
    await ui.clickElement('smart-scope:eip155:31337');
    await ui.selectInDropdown('smart-entryPointVersion', '0.6'); // this chain has v0.6 only
    await step(async (current) => current.clickElement('create-smart-submit'));
    expect(notice()).toMatch(/no account factory/u);
    expect(notice()).toMatch(/Advanced/u);
    await saveChain({
      scope: '31337',
      rpcUrl: anvil.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    });
    expect(notice()).toBe('Saved Local chain (31337)');
  });

  it('exporting a smart account key says it is the owner key and shows the owner address; the dialog names the account as its button did', async () => {
    await ui.typeInField('import-privateKey', OWNER_KEY);
    await ui.selectInDropdown('import-type', 'eip155:erc4337');
    await ui.selectInDropdown('import-entryPointVersion', '0.6'); // this chain has v0.6 only
    await step(async (current) => current.clickElement('import-key-submit'));
    const smart = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(smart.type).toBe('eip155:erc4337');
    await rename(smart.id, 'Vault');
    expect(buttons()[`account-export:${smart.id}`]).toBe('Export key of Vault');
    harness.answerDialogs(true, null);
    await step(async (current) =>
      current.clickElement(`account-export:${smart.id}`),
    );
    const [confirmation, shown] = harness.dialogs
      .slice(-2)
      .map((dialog) => shownTexts(dialog.content ?? dialog).join(' '));
    const owner = privateKeyToAddress(OWNER_KEY);
    expect(confirmation).toContain('Vault');
    expect(confirmation).toMatch(/owner/u);
    expect(confirmation).toContain(owner);
    expect(shown).toMatch(/owner/u);
    expect(shown).toContain(owner);
  });

  it('a known chain id is named in the chain list and its buttons', async () => {
    await saveChain({
      scope: '11155111',
      rpcUrl: `${base}/c/11155111/v2/${KEY}`,
    });
    expect(rowValues(ui.content, 'Chain')).toStrictEqual([
      'Local chain (31337)',
      'Sepolia (11155111)',
    ]);
    expect(shownTexts(ui.content)).toContain(
      'Smart account (ERC-4337) on these chains:',
    );
  });

  it('notices keep chain ids and words; only the key is masked', async () => {
    // a bundler URL whose path holds words: they stay readable in later text
    await saveChain({
      scope: '5',
      rpcUrl: `${base}/c/5/rpc`,
      bundlerUrl: `${base}/c/5/bundler/rpc?apikey=${KEY}`,
    });
    expect(notice()).toBe('Saved chain 5');
    const url = `${base}/c/11155111/v2/11155111/rpc?apikey=${KEY}`;
    await saveChain({ scope: '11155111', rpcUrl: url });
    expect(notice()).toBe('Saved Sepolia (11155111)');
    // the same URL for another chain: the chain it serves is named, the key is not
    await saveChain({ scope: '1', rpcUrl: url });
    const refused = findField(ui.content, 'chain-rpcUrl') ?? '';
    expect(refused).toContain('11155111');
    expect(refused).toContain('Ethereum (1)');
    expect(refused).not.toContain('***');
    expect(refused).not.toContain('setChainConfig');
    expect(JSON.stringify(ui.content)).not.toContain(KEY);
  });

  it('chain and IPFS form errors are in page language under their fields, never method names', async () => {
    await saveChain({ scope: '', rpcUrl: `${base}/c/5/rpc` });
    const scope = findField(ui.content, 'chain-scope') ?? '';
    expect(scope).toMatch(/chain/iu);
    expect(scope).not.toMatch(/setChainConfig|Invalid/u);
    await saveChain({ scope: '5', rpcUrl: '' });
    const rpc = findField(ui.content, 'chain-rpcUrl') ?? '';
    expect(rpc).toMatch(/RPC URL/u);
    expect(rpc).not.toMatch(/setChainConfig|Invalid/u);
    await saveIpfs({ apiUrl: '' });
    const ipfs = findField(ui.content, 'ipfs-apiUrl') ?? '';
    expect(ipfs).toMatch(/IPFS/u);
    expect(ipfs).not.toMatch(/setIpfsConfig|Invalid/u);
  });

  it('an unreachable keyed RPC URL: the input is emptied and the error says so', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createNetServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await saveChain({
      scope: '31337',
      rpcUrl: `http://127.0.0.1:${closed}/v3/${KEY}`,
    });
    expect(inputValue(ui.content, 'chain-rpcUrl')).toBe('');
    const error = findField(ui.content, 'chain-rpcUrl') ?? '';
    expect(error).toMatch(/^Couldn't reach this RPC URL/u);
    expect(error).not.toContain('check the address');
    expect(error).toMatch(/enter the URL again/u);
  });

  it('a send without a bundler keeps the word bundler although a bundler URL with it in its path was saved', async () => {
    const smart = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(buttons()[`send:${smart.id}-submit`]).toBe(
      'Review and send from Vault',
    );
    await ui.typeInField(`send-to:${smart.id}`, smart.address);
    await ui.typeInField(`send-value:${smart.id}`, '0');
    await step(async (current) =>
      current.clickElement(`send:${smart.id}-submit`),
    );
    expect(shownTexts(ui.content)).toContain(
      'Add a bundler URL to this chain under Chains',
    );
  });

  it('chain buttons name their chain; Remove is destructive', () => {
    expect(buttons()['chain-edit:eip155:11155111']).toBe(
      'Edit Sepolia (11155111)',
    );
    expect(buttons()['chain-remove:eip155:11155111']).toBe(
      'Remove Sepolia (11155111)',
    );
    expect(button('chain-remove:eip155:11155111')?.variant).toBe('destructive');
  });

  it('names: a look-alike of another name is refused; suggested numbers are never reused; a rename says what MetaMask shows', async () => {
    await step(async (current) => current.clickElement('create-eoa-submit'));
    const first = (await harness.keyring('keyring_listAccounts')).at(-1);
    await rename(first.id, 'Savings');
    expect(notice()).toMatch(/^Renamed to Savings/u);
    expect(notice()).toMatch(
      /MetaMask keeps the label it showed when the account was created/u,
    );
    await step(async (current) => current.clickElement('create-eoa-submit'));
    const suggested = harness.events
      .filter((event) => event.method === 'notify:accountCreated')
      .map((event) => event.params.accountNameSuggestion);
    expect(new Set(suggested).size).toBe(suggested.length);
    const second = (await harness.keyring('keyring_listAccounts')).at(-1);
    await rename(second.id, 'S\u0430vings'); // Cyrillic а
    expect(findField(ui.content, `account-name:${second.id}`)).toMatch(
      /looks like .*Savings/u,
    );
    expect((await harness.keyring('keyring_listAccounts')).at(-1).id).toBe(
      second.id,
    );
  });

  it('typed data: unlimited Permit, DAI and Permit2 approvals are flagged; deadlines are shown as dates', async () => {
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'async'),
    );
    const savings = (await harness.keyring('keyring_listAccounts')).find(
      (account: any) => account.address && account.type === 'eip155:eoa',
    );
    const domain = {
      name: 'Token',
      version: '1',
      chainId: 1,
      verifyingContract: TOKEN,
    };
    const eip712Domain = [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ];
    const permit = {
      types: {
        EIP712Domain: eip712Domain,
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      domain,
      message: {
        owner: savings.address,
        spender: SPENDER,
        value: MAX_UINT256,
        nonce: 0,
        deadline: DEADLINE,
      },
    };
    const dai = {
      types: {
        EIP712Domain: eip712Domain,
        Permit: [
          { name: 'holder', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
          { name: 'allowed', type: 'bool' },
        ],
      },
      primaryType: 'Permit',
      domain,
      message: {
        holder: savings.address,
        spender: SPENDER,
        nonce: 0,
        expiry: DEADLINE,
        allowed: true,
      },
    };
    const permit2Types = {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      PermitDetails: [
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint160' },
        { name: 'expiration', type: 'uint48' },
        { name: 'nonce', type: 'uint48' },
      ],
    };
    const permit2Domain = {
      name: 'Permit2',
      chainId: 1,
      verifyingContract: PERMIT2,
    };
    const details = {
      token: TOKEN,
      amount: MAX_UINT160,
      expiration: DEADLINE,
      nonce: 0,
    };
    const single = {
      types: {
        ...permit2Types,
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitSingle',
      domain: permit2Domain,
      message: { details, spender: SPENDER, sigDeadline: DEADLINE },
    };
    const batch = {
      types: {
        ...permit2Types,
        PermitBatch: [
          { name: 'details', type: 'PermitDetails[]' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitBatch',
      domain: permit2Domain,
      message: { details: [details], spender: SPENDER, sigDeadline: DEADLINE },
    };
    for (const data of [permit, dai, single, batch]) {
      await harness.submit(savings, 'eth_signTypedData_v4', [
        savings.address,
        JSON.stringify(data),
      ]);
    }
    await step(async (current) => current.clickElement('requests-refresh'));
    const critical = [...walk(ui.content)]
      .filter(
        (node) => node.type === 'Row' && node.props.variant === 'critical',
      )
      .map((node) => [
        node.props.label,
        shownTexts(node.props.children).join(''),
      ]);
    const flagged = Object.fromEntries(critical);
    expect(flagged['message.value']).toMatch(/unlimited/iu);
    expect(flagged['message.allowed']).toMatch(/unlimited/iu);
    expect(flagged['message.details.amount']).toMatch(/unlimited/iu);
    expect(flagged['message.details.0.amount']).toMatch(/unlimited/iu);
    const date = '2027-01-15 08:00:00 UTC';
    for (const label of [
      'message.deadline',
      'message.expiry',
      'message.details.expiration',
      'message.sigDeadline',
    ]) {
      expect(rowValues(ui.content, label).join(' ')).toContain(`${DEADLINE}`);
      expect(rowValues(ui.content, label).join(' ')).toContain(date);
    }
  });

  it('request buttons name the request and account; notices say what was approved, rejected and deleted', async () => {
    const requests = await harness.keyring(
      'keyring_listRequests',
      undefined,
      'metamask',
    );
    const savings = (await harness.keyring('keyring_listAccounts')).find(
      (account: any) => account.id === requests[0].account,
    );
    for (const request of requests) {
      await step(async (current) =>
        current.clickElement(`request-reject:${request.id}`),
      );
      expect(notice()).toBe(
        'Rejected signing typed data from dapp.example for Savings',
      );
    }
    await harness.submit(savings, 'personal_sign', [
      '0x68656c6c6f',
      savings.address,
    ]);
    await step(async (current) => current.clickElement('requests-refresh'));
    const [parked] = await harness.keyring(
      'keyring_listRequests',
      undefined,
      'metamask',
    );
    expect(buttons()[`request-approve:${parked.id}`]).toBe(
      'Approve signing a message for Savings',
    );
    expect(buttons()[`request-reject:${parked.id}`]).toBe(
      'Reject signing a message for Savings',
    );
    // what a request is, in words: no method name anywhere on the page
    expect(JSON.stringify(ui.content)).not.toMatch(/personal_sign|eth_sign/u);
    expect(rowValues(ui.content, 'Request')).toStrictEqual([
      'Signing a message',
    ]);
    await step(async (current) =>
      current.clickElement(`request-approve:${parked.id}`),
    );
    expect(notice()).toBe(
      'Approved signing a message from dapp.example for Savings',
    );
    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement(`account-delete:${savings.id}`),
    );
    expect(notice()).toBe(`Deleted Savings (${savings.address})`);
  });

  it('the IPFS removal box shows only with stored credentials; a blank URL with it ticked keeps the URL; a host key is masked in place', async () => {
    expect(elementNames(ui.content)).not.toContain('ipfs-clearCredentials');
    await saveIpfs({
      apiUrl: 'https://ipfs.example',
      apiKey: 'ipfs-key-0123456789',
      apiKeySecret: 'ipfs-secret-0123456789',
    });
    expect(rowText(ui.content, 'Credentials')).toBe('set');
    expect(elementNames(ui.content)).toContain('ipfs-clearCredentials');
    await saveIpfs({ apiUrl: '', clear: true });
    expect(rowText(ui.content, 'API URL')).toBe('https://ipfs.example');
    expect(rowText(ui.content, 'Credentials')).toBe('none');

    await saveIpfs({
      apiUrl: 'https://ipfs.example',
      apiKey: 'ipfs-key-0123456789',
      apiKeySecret: 'ipfs-secret-0123456789',
    });
    // another server with the stored key kept: refused; the keyed URL is emptied from its input
    await saveIpfs({ apiUrl: `https://other.example/${KEY}0123` });
    expect(findField(ui.content, 'ipfs-apiKey')).toBeDefined();
    expect(inputValue(ui.content, 'ipfs-apiUrl')).toBe('');

    await saveIpfs({
      apiUrl: 'https://0123456789abcdef0123.ipfs.example',
      clear: true,
    });
    expect(rowText(ui.content, 'API URL')).toBe('https://***.ipfs.example');
  });
});
