import { recoverMessageAddress, stringToHex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import {
  COMPANION,
  installKeyringSnap,
  METAMASK,
  expectError,
  rejection,
} from './harness';
import type { KeyringHarness } from './harness';

const REQUEST_ID = '6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40';

describe('keyring lifecycle, approvals, origins and bad input', () => {
  let harness: KeyringHarness;
  let account: any;

  beforeAll(async () => {
    harness = await installKeyringSnap();
    account = await harness.createAccount();
  });

  describe('origins', () => {
    it.each([
      ['https://evil.example', 'keyring_createAccount', { options: {} }],
      ['https://evil.example', 'keyring_listAccounts', undefined],
      [
        METAMASK,
        'keyring_discoverAccounts',
        { scopes: ['eip155:0'], entropySource: 'default', groupIndex: 0 },
      ],
      [METAMASK, 'keyring_exportAccount', { id: '' }],
      [METAMASK, 'keyring_approveRequest', { id: REQUEST_ID, data: {} }],
      [COMPANION, 'keyring_submitRequest', {}],
    ])(
      '%s may not call %s (4100) and nothing changes',
      async (origin, method, params) => {
        const before = await harness.keyring('keyring_listAccounts');
        const eventCount = harness.events.length;
        await expectError(
          harness.keyring(method, params, origin),
          4100,
          /is not allowed to call/u,
        );
        expect(await harness.keyring('keyring_listAccounts')).toEqual(before);
        expect(harness.events).toHaveLength(eventCount);
      },
    );

    it('refuses snap RPC from unknown origins', async () => {
      await expectError(
        harness.rpc('getApprovalMode', undefined, 'https://evil.example'),
        4100,
        /not allowed/u,
      );
    });
  });

  describe('bad input gets a JSON-RPC error naming what is wrong; state is unchanged', () => {
    const cases: [string, () => [string, unknown[]], RegExp][] = [
      [
        'a non-hex address in personal_sign',
        (): [string, unknown[]] => [
          'personal_sign',
          ['0x68656c6c6f', '0xnot-an-address'],
        ],
        /personal_sign params\[1\]: expected a 20-byte address/u,
      ],
      [
        'an address the account does not hold',
        (): [string, unknown[]] => [
          'personal_sign',
          ['0x68656c6c6f', '0x000000000000000000000000000000000000dEaD'],
        ],
        /is not this account's address/u,
      ],
      [
        'wrong types in personal_sign',
        (): [string, unknown[]] => ['personal_sign', [42]],
        /Invalid personal_sign params/u,
      ],
      [
        'eth_sign, which is not in the account methods',
        (): [string, unknown[]] => [
          'eth_sign',
          [account.address, `0x${'11'.repeat(32)}`],
        ],
        /^Account [0-9a-f-]{36} does not support 'eth_sign'; it supports personal_sign, eth_signTransaction, /u,
      ],
      [
        'a transaction without chainId',
        (): [string, unknown[]] => [
          'eth_signTransaction',
          [
            {
              from: account.address,
              nonce: '0x0',
              gasLimit: '0x5208',
              gasPrice: '0x1',
              to: account.address,
              value: '0x0',
            },
          ],
        ],
        /0\.chainId: the chain id is required/u,
      ],
      [
        'a transaction on another chain than the scope',
        (): [string, unknown[]] => [
          'eth_signTransaction',
          [
            {
              from: account.address,
              chainId: '0x5',
              nonce: '0x0',
              gasLimit: '0x5208',
              gasPrice: '0x1',
              to: account.address,
              value: '0x0',
            },
          ],
        ],
        /does not match the request scope eip155:1/u,
      ],
      [
        'a malformed quantity',
        (): [string, unknown[]] => [
          'eth_signTransaction',
          [
            {
              from: account.address,
              chainId: '0x1',
              nonce: 'seven',
              gasLimit: '0x5208',
              gasPrice: '0x1',
              to: account.address,
              value: '0x0',
            },
          ],
        ],
        /0\.nonce: expected a hex or decimal quantity/u,
      ],
      [
        'a blob transaction',
        (): [string, unknown[]] => [
          'eth_signTransaction',
          [
            {
              type: '0x3',
              from: account.address,
              chainId: '0x1',
              nonce: '0x0',
              gasLimit: '0x5208',
              to: account.address,
              value: '0x0',
            },
          ],
        ],
        /at 0\.type: unsupported; legacy \(0\)/u,
      ],
      [
        'typed data that is not JSON',
        (): [string, unknown[]] => [
          'eth_signTypedData_v4',
          [account.address, '{not json'],
        ],
        /params\[1\]: not valid JSON/u,
      ],
      [
        'typed data without primaryType',
        (): [string, unknown[]] => [
          'eth_signTypedData_v4',
          [account.address, { types: {}, domain: {}, message: {} }],
        ],
        /typed data at primaryType/u,
      ],
    ];

    it.each(cases)('%s', async (_name, build, message) => {
      const [method, params] = build();
      const before = JSON.stringify(
        await harness.keyring('keyring_listRequests'),
      );
      await expectError(
        harness.submit(account, method, params as never),
        -32602,
        message,
      );
      expect(
        JSON.stringify(await harness.keyring('keyring_listRequests')),
      ).toBe(before);
    });

    it('an unknown account id', async () => {
      await expectError(
        harness.submit(
          { id: '11111111-1111-4111-8111-111111111111' },
          'personal_sign',
          ['0x00'],
        ),
        -32001,
        /Account '11111111-1111-4111-8111-111111111111' not found/u,
      );
      await expectError(
        harness.keyring('keyring_getAccount', {
          id: '11111111-1111-4111-8111-111111111111',
        }),
        -32001,
        /not found/u,
      );
    });

    it('a malformed scope', async () => {
      await expectError(
        harness.submit(
          account,
          'personal_sign',
          ['0x00', account.address],
          'eip155:one',
        ),
        -32602,
        /^Invalid scope: expected a CAIP-2 EVM chain id/u,
      );
      await expectError(
        harness.submit(
          account,
          'personal_sign',
          ['0x00', account.address],
          'bip122:000000000019d6689c085ae165831e93',
        ),
        -32602,
        /^Invalid scope: expected a CAIP-2 EVM chain id(?!.*bip122)/u,
      );
    });

    it('never echoes the value of a mistyped secret field', async () => {
      const secret = 'S3CR3T-4a7f9e';
      const ipfs = await rejection(
        harness.rpcApproved('setIpfsConfig', {
          apiUrl: 'http://127.0.0.1:5001',
          apiKey: 'k',
          apiSecret: secret,
        }),
      );
      expect(ipfs.message).toMatch(
        /setIpfsConfig params at apiSecret: unknown field/u,
      );
      const key = `0x${'5a'.repeat(32)}`;
      const create = await rejection(
        harness.keyring('keyring_createAccount', {
          options: { private_key: key },
        }),
      );
      expect(create.message).toMatch(
        /createAccount options at private_key: unknown field/u,
      );
      const typed = await rejection(
        harness.keyring('keyring_createAccount', {
          options: { privateKey: 12345678901234 },
        }),
      );
      expect(typed.message).toMatch(
        /createAccount options at privateKey: Expected a string/u,
      );
      expect(
        JSON.stringify([ipfs.message, create.message, typed.message]),
      ).not.toMatch(/S3CR3T|5a5a5a|12345678901234/u);
    });

    it('a keyring request that fails keyring-api validation', async () => {
      await expectError(
        harness.keyring('keyring_getAccount', { id: 42 }),
        -32602,
        /id/u,
      );
      await expectError(
        harness.keyring('keyring_createAccount', {
          options: { type: 'eip155:nonsense' },
        }),
        -32602,
        /createAccount options at type/u,
      );
      await expectError(
        harness.keyring('keyring_createAccount', {
          options: { scopes: ['eip155:1'] },
        }),
        -32602,
        /createAccount options at scopes: EOA accounts serve every EVM chain/u,
      );
    });

    it('an unknown snap RPC method or a bad mode', async () => {
      await expectError(
        harness.rpc('noSuchMethod'),
        4100,
        /not allowed to call this method$/u,
      );
      await expectError(
        harness.rpcApproved('setApprovalMode', { mode: 'sometimes' }),
        -32602,
        /setApprovalMode params at mode/u,
      );
      expect(await harness.rpc('getApprovalMode')).toEqual({
        mode: 'sync',
      });
    });
  });

  describe('asynchronous approval', () => {
    beforeAll(async () => {
      const set = await harness.rpcApproved('setApprovalMode', {
        mode: 'async',
      });
      if (JSON.stringify(set) !== '{"mode":"async"}') {
        throw new Error(
          `setup: setApprovalMode answered ${JSON.stringify(set)}`,
        );
      }
    });

    afterAll(async () => {
      await harness.rpcApproved('setApprovalMode', { mode: 'sync' });
    });

    it('parks the request with a redirect to the companion dapp, then approves it with notify:requestApproved', async () => {
      const message = 'approve me';
      const response = await harness.submit(account, 'personal_sign', [
        stringToHex(message),
        account.address,
      ]);
      expect(response.pending).toBe(true);
      expect(new URL(response.redirect.url).origin).toBe(COMPANION);
      const [pending] = await harness.keyring('keyring_listRequests');
      expect(pending.request).toEqual({
        method: 'personal_sign',
        params: [stringToHex(message), account.address],
      });
      expect(
        await harness.keyring('keyring_getRequest', { id: pending.id }),
      ).toEqual(pending);

      await harness.keyring('keyring_approveRequest', {
        id: pending.id,
        data: {},
      });
      const approved = harness.events.at(-1);
      expect(approved?.method).toBe('notify:requestApproved');
      expect(approved?.params.id).toBe(pending.id);
      expect(
        await recoverMessageAddress({
          message,
          signature: approved?.params.result,
        }),
      ).toBe(account.address);
      expect(await harness.keyring('keyring_listRequests')).toEqual([]);
    });

    it('rejects a pending request with notify:requestRejected', async () => {
      await harness.submit(account, 'personal_sign', [
        stringToHex('no'),
        account.address,
      ]);
      const [pending] = await harness.keyring('keyring_listRequests');
      await harness.keyring(
        'keyring_rejectRequest',
        { id: pending.id },
        METAMASK,
      );
      expect(harness.events.at(-1)).toEqual({
        method: 'notify:requestRejected',
        params: { id: pending.id },
      });
      expect(await harness.keyring('keyring_listRequests')).toEqual([]);
      await expectError(
        harness.keyring('keyring_approveRequest', { id: pending.id, data: {} }),
        -32001,
        /Request '.*' not found/u,
      );
    });

    it('does not park a malformed request', async () => {
      await expectError(
        harness.submit(account, 'personal_sign', [7]),
        -32602,
        /personal_sign params/u,
      );
      expect(await harness.keyring('keyring_listRequests')).toEqual([]);
    });
  });

  describe('account management', () => {
    it('exports the key only after the user confirms the dialog', async () => {
      const request = harness.snap.onKeyringRequest({
        origin: COMPANION,
        method: 'keyring_exportAccount',
        params: { id: account.id },
      });
      const ui = await request.getInterface();
      expect(ui.type).toBe('confirmation');
      await (ui as any).ok();
      const response = await request;
      const { privateKey } = (response.response as any).result;
      expect(privateKeyToAddress(privateKey)).toBe(account.address);

      const declined = harness.snap.onKeyringRequest({
        origin: COMPANION,
        method: 'keyring_exportAccount',
        params: { id: account.id },
      });
      await ((await declined.getInterface()) as any).cancel();
      expect(((await declined).response as any).error.code).toBe(4001);
    });

    it('refuses to export an account marked exportable: false', async () => {
      const locked = await harness.createAccount();
      await harness.keyring('keyring_updateAccount', {
        account: {
          ...locked,
          options: { ...locked.options, exportable: false },
        },
      });
      await expectError(
        harness.keyring('keyring_exportAccount', { id: locked.id }),
        -32602,
        /is not exportable/u,
      );
      await harness.keyringApproved('keyring_deleteAccount', { id: locked.id });
    });

    it('updates options and emits notify:accountUpdated; refuses to change the address', async () => {
      const updated = {
        ...account,
        options: { ...account.options, label: 'savings' },
      };
      await harness.keyring('keyring_updateAccount', { account: updated });
      expect(harness.events.at(-1)).toEqual({
        method: 'notify:accountUpdated',
        params: { account: updated },
      });
      expect(
        await harness.keyring('keyring_getAccount', { id: account.id }),
      ).toEqual(updated);
      await expectError(
        harness.keyring('keyring_updateAccount', {
          account: {
            ...updated,
            address: '0x000000000000000000000000000000000000dEaD',
          },
        }),
        -32602,
        /at address: the address cannot be changed/u,
      );
      // eslint-disable-next-line require-atomic-updates -- the tests run in order; the next ones use the updated account
      account = updated;
    });

    it('filters chains, resolves the signer address and accepts the selected accounts', async () => {
      expect(
        await harness.keyring(
          'keyring_filterAccountChains',
          {
            id: account.id,
            chains: [
              'eip155:1',
              'bip122:000000000019d6689c085ae165831e93',
              'eip155:31337',
            ],
          },
          METAMASK,
        ),
      ).toEqual(['eip155:1', 'eip155:31337']);
      const resolved = await harness.keyring(
        'keyring_resolveAccountAddress',
        {
          scope: 'eip155:1',
          request: {
            jsonrpc: '2.0',
            id: 1,
            method: 'personal_sign',
            params: ['0x00', account.address.toLowerCase()],
          },
        },
        METAMASK,
      );
      expect(resolved).toEqual({
        address: `eip155:1:${account.address}`,
      });
      expect(
        await harness.keyring(
          'keyring_resolveAccountAddress',
          {
            scope: 'eip155:1',
            request: {
              jsonrpc: '2.0',
              id: 1,
              method: 'personal_sign',
              params: ['0x00', '0x000000000000000000000000000000000000dEaD'],
            },
          },
          METAMASK,
        ),
      ).toBeNull();
      expect(
        await harness.keyring(
          'keyring_setSelectedAccounts',
          { accounts: [account.id] },
          METAMASK,
        ),
      ).toBeNull();
    });

    it('deletes an account with notify:accountDeleted', async () => {
      const extra = await harness.createAccount();
      await harness.keyring(
        'keyring_deleteAccount',
        { id: extra.id },
        METAMASK,
      );
      expect(harness.events.at(-1)).toEqual({
        method: 'notify:accountDeleted',
        params: { id: extra.id },
      });
      expect(
        (await harness.keyring('keyring_listAccounts')).map((a: any) => a.id),
      ).not.toContain(extra.id);
      await expectError(
        harness.keyring('keyring_deleteAccount', { id: extra.id }),
        -32001,
        /not found/u,
      );
    });
  });

  describe('recovery', () => {
    it('a reinstall with the same Secret Recovery Phrase derives the same addresses in the same order', async () => {
      // every account this suite created was derived (none imported), in this order, deleted ones included
      const before = harness.events
        .filter((event) => event.method === 'notify:accountCreated')
        .map((event) => event.params.account.address);
      const fresh = await installKeyringSnap();
      const a = await fresh.createAccount();
      const b = await fresh.createAccount();
      expect([a.address, b.address]).toEqual(before.slice(0, 2));
    });
  });
});
