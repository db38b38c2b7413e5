/**
 * Bad input that used to reach code instead of validation (-32603, or a message quoting the
 * input): each case must be -32602 naming the field, short, and never echo what was sent.
 */
import { privateKeyToAddress } from 'viem/accounts';

import { parseEoaRequest, signEoaTask } from './accounts/eoa';
import { parseSmartAccountRequest } from './accounts/erc4337';
import { createDomain } from './domain';
import type { Domain } from './domain';
import type { KeyringPlatform } from './keyring/keyring';
import { defaultState } from './state/store';
import type { StateSaver } from './state/store';

const SECRET =
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const SECRET_HEX = SECRET.slice(2);
const KEY =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ADDRESS = privateKeyToAddress(KEY);

/**
 * A domain over an empty state and a fake platform that confirms everything and derives KEY.
 *
 * @returns The domain, and the keyring events it emitted.
 */
function domain(): Domain & { events: unknown[] } {
  const events: unknown[] = [];
  const platform: KeyringPlatform & { saveState: StateSaver } = {
    saveState: async () => undefined,
    emitEvent: async (event, data) => {
      events.push({ event, data });
    },
    confirm: async () => true,
    deriveKey: async () => ({ privateKey: KEY, address: ADDRESS }),
  };
  return {
    ...createDomain(defaultState(), platform, () => ({ message: 'approve' })),
    events,
  };
}

/**
 * The JSON-RPC error `run` is refused with.
 *
 * @param run - A call expected to throw.
 * @returns The error's code and message.
 * @throws Error if `run` succeeds.
 */
async function refusal(
  run: () => unknown,
): Promise<{ code: number; message: string }> {
  try {
    await run();
  } catch (error) {
    return {
      code: (error as { code: number }).code,
      message: (error as Error).message,
    };
  }
  throw new Error('expected a refusal');
}

/**
 * Expect a -32602 error naming `field`, bounded to 300 characters, that does not echo the secret.
 *
 * @param error - The refusal (see `refusal`).
 * @param error.code - Its JSON-RPC code.
 * @param error.message - Its message.
 * @param field - What the message must match (the method and failing field).
 */
function expectClean(
  error: { code: number; message: string },
  field: RegExp,
): void {
  expect(error.code).toBe(-32602);
  expect(error.message).toMatch(field);
  expect(error.message.length).toBeLessThanOrEqual(300);
  expect(error.message).not.toContain(SECRET_HEX);
}

describe('values that crash superstruct while it describes them', () => {
  it('setApprovalMode { mode: { toString: "x" } }: -32602 naming mode, not "Cannot convert object to primitive value"', async () => {
    const { settings } = domain();
    const error = await refusal(async () =>
      settings.setApprovalMode({ mode: { toString: 'x' } }),
    );
    expectClean(
      error,
      /^Invalid setApprovalMode params at mode: Expected one of `"sync","async"`$/u,
    );
    expect(settings.approvalMode()).toBe('sync');
  });

  it('a crashing value after the first failure (superstruct builds the other failures lazily)', async () => {
    const { settings } = domain();
    const params = JSON.parse('{"__proto__": {"toString": "x"}}');
    expectClean(
      await refusal(async () => settings.setApprovalMode(params)),
      /^Invalid setApprovalMode params at mode: required$/u,
    );
  });

  it('the same shape anywhere validate() runs (setChainConfig, createAccount options)', async () => {
    const { settings, keyring } = domain();
    expectClean(
      await refusal(async () =>
        settings.setChainConfig({
          scope: { valueOf: SECRET, toString: SECRET },
        }),
      ),
      /^Invalid setChainConfig params at scope: /u,
    );
    expectClean(
      await refusal(async () =>
        keyring.createAccount({ type: { toString: SECRET } }),
      ),
      /^Invalid createAccount options at type: /u,
    );
  });
});

describe('keyring_createAccount with an empty key', () => {
  it.each([
    ['empty', ''],
    ['blank', ' \t\n '],
  ])(
    'privateKey %s: -32602 naming privateKey ("enter a private key"), no account derived instead, nothing announced',
    async (_kind, privateKey) => {
      const { keyring, events } = domain();
      for (const type of ['eip155:eoa', 'eip155:erc4337']) {
        const error = await keyring
          .createAccount({ type, privateKey })
          .catch((caught: unknown) => caught);
        expect(error).toMatchObject({
          code: -32602,
          message:
            'Invalid createAccount options at privateKey: enter a private key',
          data: {
            reason: 'invalidPrivateKey',
            field: 'privateKey',
            problem: 'required',
          },
        });
      }
      expect(await keyring.listAccounts()).toHaveLength(0);
      expect(events).toHaveLength(0);
    },
  );
});

describe('keyring_updateAccount', () => {
  it('a malformed address: -32602 naming address, not viem’s "Address … is invalid"', async () => {
    const { keyring } = domain();
    const account = await keyring.createAccount();
    for (const address of ['nope', SECRET, '0x1234']) {
      expectClean(
        await refusal(async () =>
          keyring.updateAccount({ ...account, address }),
        ),
        /^Invalid account at address: the address cannot be changed$/u,
      );
    }
    expect(await keyring.getAccount(account.id)).toStrictEqual(account);
  });

  it('accepts the address in another letter case and a new label', async () => {
    const { keyring } = domain();
    const account = await keyring.createAccount();
    const updated = {
      ...account,
      address: account.address.toLowerCase(),
      options: { ...account.options, label: 'savings' },
    };
    await keyring.updateAccount(updated);
    expect((await keyring.getAccount(account.id)).options).toStrictEqual({
      exportable: true,
      entropy: { type: 'custom' },
      label: 'savings',
      name: 'Keyring Account 1',
    });
  });

  it.each([
    ['turning export back on', { exportable: true }, 'exportable'],
    ['dropping exportable: false', { exportable: undefined }, 'exportable'],
    ['changing entropy', { entropy: { type: 'private-key' } }, 'entropy'],
    ['dropping entropy', { entropy: undefined }, 'entropy'],
    [
      'setting a metadataCid',
      {
        metadataCid:
          'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      },
      'metadataCid',
    ],
  ])(
    'refuses %s (-32602), the stored options unchanged',
    async (_name, change, field) => {
      const { keyring } = domain();
      const account = await keyring.createAccount();
      await keyring.updateAccount({
        ...account,
        options: { ...account.options, exportable: false },
      });
      const locked = await keyring.getAccount(account.id);
      const options = JSON.parse(
        JSON.stringify({ ...locked.options, ...change }),
      );
      expectClean(
        await refusal(async () =>
          keyring.updateAccount({ ...locked, options: options as never }),
        ),
        new RegExp(
          `^Invalid account at options\\.${field}: cannot be changed$`,
          'u',
        ),
      );
      expect(await keyring.getAccount(account.id)).toStrictEqual(locked);
      await expect(keyring.exportAccount(account.id)).rejects.toThrow(
        'is not exportable',
      );
    },
  );

  it('names unsupported methods by count, not by the names sent', async () => {
    const { keyring } = domain();
    const account = await keyring.createAccount();
    expectClean(
      await refusal(async () =>
        keyring.updateAccount({
          ...account,
          methods: [...account.methods, SECRET],
        }),
      ),
      /^Invalid account at methods: 1 method\(s\) not supported/u,
    );
  });
});

describe('messages never quote what was sent', () => {
  it('an unknown account id given as a free string (setSelectedAccounts) is not echoed', async () => {
    const { keyring } = domain();
    const error = await refusal(async () =>
      keyring.setSelectedAccounts([SECRET]),
    );
    expect(error).toStrictEqual({
      code: -32001,
      message: 'Account with this id not found',
    });
    expect(
      (await refusal(async () => keyring.setSelectedAccounts(['__proto__'])))
        .code,
    ).toBe(-32001);
  });

  it('an unknown method name in a request is not echoed', async () => {
    const { keyring } = domain();
    const account = await keyring.createAccount();
    const error = await refusal(async () =>
      keyring.submitRequest({
        id: '6a1e0f3c-8d4b-4c2a-9e57-0b8c1d2e3f40',
        scope: 'eip155:1',
        account: account.id,
        origin: 'https://dapp.example',
        request: { method: SECRET, params: [] },
      }),
    );
    expectClean(
      error,
      /^Account [0-9a-f-]{36} does not support the requested method \(not an Ethereum method of keyring-api\); it supports personal_sign, /u,
    );
  });

  it('a metadataCid that is not a CID is refused by validation, not echoed by the IPFS error', async () => {
    const { keyring, settings } = domain();
    await settings.setIpfsConfig({ apiUrl: 'http://127.0.0.1:1' });
    expectClean(
      await refusal(async () => keyring.createAccount({ metadataCid: SECRET })),
      /^Invalid createAccount options at metadataCid: expected a CID/u,
    );
  });

  it.each([
    [
      'a chain id of 256 bits',
      { chainId: SECRET },
      /at 0\.chainId: out of range/u,
    ],
    [
      'a transaction type of 256 bits',
      { chainId: '0x1', type: SECRET },
      /at 0\.type: unsupported/u,
    ],
    [
      'a gas limit above 2^64 (rejected by @ethereumjs/tx)',
      { chainId: '0x1', gasLimit: SECRET },
      /^Cannot sign the transaction: a value is out of range$/u,
    ],
    [
      'a storage key that is not 32 bytes (rejected by @ethereumjs/tx)',
      {
        chainId: '0x1',
        accessList: [{ address: ADDRESS, storageKeys: [`0x${SECRET_HEX}00`] }],
      },
      /^Cannot sign the transaction: /u,
    ],
  ])('eth_signTransaction with %s', async (_name, fields, message) => {
    const tx = {
      from: ADDRESS,
      to: ADDRESS,
      nonce: '0x0',
      gasLimit: '0x5208',
      gasPrice: '0x1',
      value: '0x0',
      ...fields,
    };
    expectClean(
      await refusal(() =>
        signEoaTask(
          KEY,
          parseEoaRequest(ADDRESS, '', 'eth_signTransaction', [tx]),
        ),
      ),
      message,
    );
  });

  it.each([
    [
      'an unknown type named by the request',
      { Mail: [{ name: 'x', type: SECRET }] },
      { x: 1 },
      /^Invalid typed data at types\.Mail\[0\]\.type: unknown or unsupported type$/u,
    ],
    [
      'a field without a value',
      { Mail: [{ name: `f${SECRET_HEX}`, type: 'uint256' }] },
      {},
      /^Invalid typed data at message\.<key>: required$/u,
    ],
    [
      'a number that is not one',
      { Mail: [{ name: 'x', type: 'uint256' }] },
      { x: SECRET_HEX },
      /^Invalid typed data at message\.x: expected uint256 /u,
    ],
    [
      'a value out of its type’s range',
      { Mail: [{ name: 'x', type: 'int8' }] },
      { x: BigInt(SECRET).toString() },
      /^Invalid typed data at message\.x: expected int8 /u,
    ],
  ])(
    'eth_signTypedData_v4 with %s',
    async (_name, types, message, expected) => {
      const data = {
        types: { EIP712Domain: [], ...types },
        primaryType: 'Mail',
        domain: {},
        message,
      };
      expectClean(
        await refusal(() =>
          signEoaTask(
            KEY,
            parseEoaRequest(ADDRESS, '', 'eth_signTypedData_v4', [
              ADDRESS,
              data,
            ]),
          ),
        ),
        expected,
      );
    },
  );
});

describe('ERC-4337 values the ABI encoder would refuse later (-32603 before)', () => {
  const sender = '0x2222222222222222222222222222222222222222';
  const data = {
    owner: ADDRESS,
    accountFactory: sender,
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    salt: '0',
    implementations: {},
  };
  const op = {
    sender,
    nonce: '0x0',
    initCode: '0x',
    callData: '0x',
    callGasLimit: '0x1',
    verificationGasLimit: '0x1',
    preVerificationGas: '0x1',
    maxFeePerGas: '0x1',
    maxPriorityFeePerGas: '0x1',
    paymasterAndData: '0x',
    signature: '0x',
  };

  it.each([
    [
      'an intent value of 2^256',
      'eth_prepareUserOperation',
      [{ to: sender, value: `0x1${'0'.repeat(64)}` }],
      /^Invalid eth_prepareUserOperation params at 0\.value: .*at most 2\^256 - 1$/u,
    ],
    [
      'a nonce above 2^256 - 1',
      'eth_signUserOperation',
      [{ ...op, nonce: `0x1${'0'.repeat(64)}` }],
      /^Invalid eth_signUserOperation params\[0\] at nonce: above 2\^256 - 1$/u,
    ],
    [
      'callData of odd hex length',
      'eth_patchUserOperation',
      [{ ...op, callData: '0x123' }],
      /^Invalid eth_patchUserOperation params\[0\] at callData: expected whole bytes/u,
    ],
  ])('%s: -32602 naming the field', async (_name, method, params, message) => {
    expectClean(
      await refusal(() =>
        parseSmartAccountRequest(sender, data, method, params),
      ),
      message,
    );
  });
});
