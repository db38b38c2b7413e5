/**
 * The home page (endowment:page-home) through the built snap: every flow a person has in MetaMask
 * alone, driven with snaps-jest's interface actions. Each action is checked by what it caused
 * (keyring events, state read back through the RPC front doors, signatures recovered with viem),
 * and against the same action through the RPC path.
 */
import {
  EthEoaAccountStruct,
  EthErc4337AccountStruct,
} from '@metamask/keyring-api';
import { is } from '@metamask/superstruct';
import { getAddress, recoverMessageAddress, stringToHex } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap, METAMASK } from './harness';
import type { KeyringHarness } from './harness';
import type { HomePageUi } from './homePage';
import {
  copyables,
  findField,
  inputValue,
  nextPage,
  openHomePage,
  pageJson,
  shownTexts,
} from './homePage';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';

const IMPORTED_KEY =
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';
const IPFS_SECRET = 'ipfs-secret-never-shown-7f3a';

describe('home page', () => {
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let harness: KeyringHarness;
  let ui: HomePageUi;

  /**
   * The page's content as text, to look for what it shows (and what it must never show).
   *
   * @returns The JSON of the page's content.
   */
  const page = (): string => pageJson(ui);

  /** Open the home page afresh (as MetaMask does when the user comes back to it). */
  async function open(): Promise<void> {
    ui = await openHomePage(harness);
  }

  /**
   * Run an action that re-renders the page, and read the page it renders (bounded: an action that
   * renders nothing new fails the test after 20 s instead of hanging).
   *
   * @param action - The action, given the current page.
   */
  async function step(
    action: (current: HomePageUi) => Promise<void>,
  ): Promise<void> {
    // eslint-disable-next-line require-atomic-updates -- steps run one at a time; ui is this suite's current page
    ui = await nextPage(ui, action);
  }

  beforeAll(async () => {
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    harness = await installKeyringSnap();
    await open();
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it('starts empty and says so', () => {
    expect(page()).toContain('No account yet');
    expect(page()).toContain('No chain configured');
  });

  it('creates an EOA account like keyring_createAccount does (notify:accountCreated, derived key, same shape)', async () => {
    await step(async (current) => current.clickElement('create-eoa-submit'));
    const accounts = await harness.keyring('keyring_listAccounts');
    expect(accounts).toHaveLength(1);
    const [fromPage] = accounts;
    expect(is(fromPage, EthEoaAccountStruct)).toBe(true);
    expect(harness.events.at(-1)).toEqual({
      method: 'notify:accountCreated',
      params: { account: fromPage, accountNameSuggestion: 'Keyring Account 1' },
    });
    await open();
    expect(page()).toContain(fromPage.address);
    expect(page()).toContain('index 0');

    const fromRpc = await harness.createAccount();
    expect(fromRpc.options.name).toBe('Keyring Account 2');
    expect({
      ...fromRpc,
      id: undefined,
      address: undefined,
      options: { ...fromRpc.options, name: undefined },
    }).toEqual({
      ...fromPage,
      id: undefined,
      address: undefined,
      options: { ...fromPage.options, name: undefined },
    });
    expect(fromRpc.address).not.toBe(fromPage.address);
  });

  it('shows a bad chain config next to its field, saves nothing, then saves a good one checked with eth_chainId', async () => {
    await ui.typeInField('chain-scope', 'eip155:31337');
    await ui.typeInField('chain-rpcUrl', 'not a url');
    await step(async (current) => current.clickElement('chain-form-submit'));
    const fieldError = findField(ui.content, 'chain-rpcUrl');
    expect(fieldError).toBe(
      "Enter the RPC URL of a node of this chain (the provider's https://… address)",
    );
    expect(await harness.rpc('getChainConfigs')).toEqual([]);

    await ui.typeInField('chain-scope', 'eip155:1');
    await ui.typeInField('chain-rpcUrl', anvil.url);
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(findField(ui.content, 'chain-rpcUrl')).toMatch(
      /serves Local chain \(31337\), not Ethereum \(1\)/u,
    );
    expect(await harness.rpc('getChainConfigs')).toEqual([]);

    await ui.typeInField('chain-scope', 'eip155:31337');
    await ui.typeInField('chain-entryPoint', contracts.entryPoint);
    await ui.typeInField('chain-accountFactory', contracts.accountFactory);
    await step(async (current) => current.clickElement('chain-form-submit'));
    const stored = await harness.rpc('getChainConfigs');
    expect(stored).toEqual([
      {
        scope: 'eip155:31337',
        rpcUrl: `${anvil.url}/`,
        entryPoint: contracts.entryPoint,
        accountFactory: contracts.accountFactory,
      },
    ]);
    expect(page()).toContain('Saved Local chain (31337)');
  });

  it('edit shows the stored config masked; saving the masked URL unchanged keeps the stored one', async () => {
    const keyed = `${anvil.url}/?apikey=KEY-never-shown`;
    // The same config through the RPC path first, with a keyed URL (anvil answers on any query).
    await harness.rpcApproved('setChainConfig', {
      scope: 'eip155:31337',
      rpcUrl: keyed,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    });
    await open();
    expect(page()).not.toContain('KEY-never-shown');
    await step(async (current) =>
      current.clickElement('chain-edit:eip155:31337'),
    );
    const shown = inputValue(ui.content, 'chain-rpcUrl');
    expect(shown).not.toContain('KEY-never-shown');
    await step(async (current) => current.clickElement('chain-form-submit'));
    expect(page()).toContain('Saved Local chain (31337)');
    // The snap still reaches the chain with the stored (unmasked) URL: a smart account resolves.
    await harness.rpcApproved('setChainConfig', {
      scope: 'eip155:31337',
      rpcUrl: anvil.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
    });
  });

  it('stores the IPFS config; the key and secret are write-only and never rendered', async () => {
    await ui.typeInField('ipfs-apiUrl', 'http://127.0.0.1:5001');
    await ui.typeInField('ipfs-apiKey', 'ipfs-key-1');
    await ui.typeInField('ipfs-apiKeySecret', IPFS_SECRET);
    await step(async (current) => current.clickElement('ipfs-form-submit'));
    expect(page()).toContain('http://127.0.0.1:5001');
    expect(page()).not.toContain(IPFS_SECRET);
    expect(page()).not.toContain('ipfs-key-1');
    expect(inputValue(ui.content, 'ipfs-apiKeySecret')).toBe('');
  });

  it('creates a smart account on a chosen chain, at the factory’s address', async () => {
    await ui.clickElement('smart-scope:eip155:31337');
    await ui.selectInDropdown('smart-entryPointVersion', '0.6'); // this chain has v0.6 only
    await step(async (current) => current.clickElement('create-smart-submit'));
    const account = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(is(account, EthErc4337AccountStruct)).toBe(true);
    expect(account.scopes).toEqual(['eip155:31337']);
    expect(page()).toContain(account.address);
    expect(page()).toContain('Smart account (ERC-4337');
  });

  it('imports a private key; the key is never rendered, its card says to keep a copy of it', async () => {
    await ui.typeInField('import-privateKey', IMPORTED_KEY);
    await step(async (current) => current.clickElement('import-key-submit'));
    const account = (await harness.keyring('keyring_listAccounts')).at(-1);
    expect(account.address).toBe(privateKeyToAddress(IMPORTED_KEY));
    expect(page()).not.toContain(IMPORTED_KEY.slice(2));
    expect(page()).toContain('Imported — keep a copy of its key');
    expect(inputValue(ui.content, 'import-privateKey')).toBe('');
    // A bad key: the error is next to the field, no account, and the value is not echoed.
    const before = (await harness.keyring('keyring_listAccounts')).length;
    await ui.typeInField('import-privateKey', '0x1234secretish');
    await step(async (current) => current.clickElement('import-key-submit'));
    expect(findField(ui.content, 'import-privateKey')).toMatch(
      /Invalid private key/u,
    );
    expect(page()).not.toContain('1234secretish');
    expect(await harness.keyring('keyring_listAccounts')).toHaveLength(before);
  });

  it('exports a key only in its own dialog after confirmation', async () => {
    const [first] = await harness.keyring('keyring_listAccounts');
    harness.answerDialogs(true, null);
    await step(async (current) =>
      current.clickElement(`account-export:${first.id}`),
    );
    const shown = JSON.stringify(harness.dialogs.at(-1));
    const key = /"value":"(0x[0-9a-f]{64})"/u.exec(shown)?.[1] as Hex;
    expect(privateKeyToAddress(key)).toBe(first.address);
    expect(shown).toContain('"sensitive":true');
    expect(page()).not.toContain(key.slice(2));
  });

  it('deletes behind a confirmation: declined keeps the account, confirmed sends notify:accountDeleted', async () => {
    const accounts = await harness.keyring('keyring_listAccounts');
    const target = accounts.at(-1);
    harness.answerDialogs(false);
    await step(async (current) =>
      current.clickElement(`account-delete:${target.id}`),
    );
    expect(await harness.keyring('keyring_listAccounts')).toHaveLength(
      accounts.length,
    );
    harness.answerDialogs(true);
    await step(async (current) =>
      current.clickElement(`account-delete:${target.id}`),
    );
    expect(harness.events.at(-1)).toEqual({
      method: 'notify:accountDeleted',
      params: { id: target.id },
    });
    expect(await harness.keyring('keyring_listAccounts')).toHaveLength(
      accounts.length - 1,
    );
    expect(copyables(ui.content)).not.toContain(target.address);
    expect(page()).toMatch(
      new RegExp(`Deleted [^"]+ \\(${target.address}\\)`, 'u'),
    );
  });

  it('switches to async approval, summarises a pending request, approves and rejects it', async () => {
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'async'),
    );
    expect(await harness.rpc('getApprovalMode')).toEqual({
      mode: 'async',
    });
    const [account] = await harness.keyring('keyring_listAccounts');
    const message = 'Sign in to example.org';
    const parked = await harness.submit(
      account,
      'personal_sign',
      [stringToHex(message), account.address],
      '',
    );
    expect(parked.pending).toBe(true);
    const [request] = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    await open();
    expect(page()).toContain(message);

    await step(async (current) =>
      current.clickElement(`request-approve:${request.id}`),
    );
    const approved = harness.events.at(-1);
    expect(approved?.method).toBe('notify:requestApproved');
    expect(
      await recoverMessageAddress({
        message,
        signature: approved?.params.result,
      }),
    ).toBe(account.address);
    expect(
      await harness.keyring('keyring_listRequests', undefined, METAMASK),
    ).toEqual([]);

    await harness.submit(
      account,
      'eth_signTransaction',
      [
        {
          type: '0x2',
          nonce: '0x0',
          to: account.address,
          from: account.address,
          value: '0xde0b6b3a7640000',
          data: '0xa9059cbb',
          gasLimit: '0x5208',
          maxFeePerGas: '0x1',
          maxPriorityFeePerGas: '0x1',
          chainId: '0x7a69',
        },
      ],
      'eip155:31337',
    );
    const [second] = await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    );
    await open();
    expect(page()).toContain('1 ETH');
    expect(page()).toContain('function 0xa9059cbb');
    await step(async (current) =>
      current.clickElement(`request-reject:${second.id}`),
    );
    expect(harness.events.at(-1)).toEqual({
      method: 'notify:requestRejected',
      params: { id: second.id },
    });
    await ui.selectInDropdown('approval-mode', 'sync');
    expect(await harness.rpc('getApprovalMode')).toEqual({
      mode: 'sync',
    });
  });

  it('a parked typed-data Permit shows its spender and value in full, a 400-character message shows whole, and the site is named', async () => {
    await step(async (current) =>
      current.selectInDropdown('approval-mode', 'async'),
    );
    const [account] = await harness.keyring('keyring_listAccounts');
    const spender = getAddress(`0x${'a7'.repeat(19)}01`);
    const value = (2n ** 256n - 1n).toString();
    await harness.submit(account, 'eth_signTypedData_v4', [
      account.address,
      JSON.stringify({
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'chainId', type: 'uint256' },
          ],
          Permit: [
            { name: 'owner', type: 'address' },
            { name: 'spender', type: 'address' },
            { name: 'value', type: 'uint256' },
            { name: 'nonce', type: 'uint256' },
            { name: 'deadline', type: 'uint256' },
          ],
        },
        domain: { name: 'USD Coin', chainId: 1 },
        primaryType: 'Permit',
        message: {
          owner: account.address,
          spender,
          value,
          nonce: 0,
          deadline: 1900000000,
        },
      }),
    ]);
    const tail = `…transfer ownership of vault #42 to ${spender}`;
    const message = `${'I agree to the terms. '.repeat(20)}${tail}`.slice(-400);
    expect(message).toHaveLength(400);
    expect(message.endsWith(tail)).toBe(true);
    await harness.submit(account, 'personal_sign', [
      stringToHex(message),
      account.address,
    ]);
    await open();
    const texts = shownTexts(ui.content);
    expect(texts).toContain('message.spender');
    expect(texts[texts.indexOf('message.spender') + 1]).toBe(spender);
    // 2^256 - 1: an unlimited allowance, said so
    expect(texts[texts.indexOf('message.value') + 1]).toBe(
      'unlimited (2^256 − 1)',
    );
    expect(texts).toContain(message);
    expect(
      texts.filter((text) => text === 'https://dapp.example'),
    ).toHaveLength(2);

    for (const request of await harness.keyring(
      'keyring_listRequests',
      undefined,
      METAMASK,
    )) {
      await step(async (current) =>
        current.clickElement(`request-reject:${request.id}`),
      );
    }
    await ui.selectInDropdown('approval-mode', 'sync');
  });
});
