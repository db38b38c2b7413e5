import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import {
  recoverTypedSignature,
  SignTypedDataVersion,
} from '@metamask/eth-sig-util';
import { EthEoaAccountStruct } from '@metamask/keyring-api';
import { is } from '@metamask/superstruct';
import {
  bytesToHex,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  stringToHex,
} from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';

import { installKeyringSnap, expectError } from './harness';
import type { KeyringHarness } from './harness';

const TYPED_DATA = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

/**
 * Rebuild the signed transaction from `{ v, r, s }` as MetaMask's bridge does, and serialize it.
 *
 * @param tx - The transaction as sent to the snap.
 * @param signature - The snap's signature.
 * @returns The serialized signed transaction.
 */
function rebuild(
  tx: Record<string, unknown>,
  signature: Record<'v' | 'r' | 's', string>,
): Hex {
  const common = createCustomCommon({ chainId: Number(tx.chainId) }, Mainnet);
  const signed = createTx(
    { ...tx, gasLimit: tx.gasLimit, ...signature } as never,
    { common },
  );
  return bytesToHex(signed.serialize());
}

describe('EOA accounts through the built snap', () => {
  let harness: KeyringHarness;
  let first: any;
  let second: any;

  beforeAll(async () => {
    harness = await installKeyringSnap();
    first = await harness.createAccount();
    second = await harness.createAccount();
  });

  it('creates accounts with distinct addresses and emits notify:accountCreated after saving', async () => {
    expect(first.address).not.toBe(second.address);
    expect(first.type).toBe('eip155:eoa');
    expect(first.scopes).toStrictEqual(['eip155:0']);
    expect(first.methods).not.toContain('eth_sign');
    // MetaMask's bridge validates accounts against keyring-api's struct
    expect(is(first, EthEoaAccountStruct)).toBe(true);
    const created = harness.events.filter(
      (event) => event.method === 'notify:accountCreated',
    );
    expect(created.map((event) => event.params.account.id)).toStrictEqual([
      first.id,
      second.id,
    ]);
    expect(await harness.keyring('keyring_listAccounts')).toStrictEqual([
      first,
      second,
    ]);
    expect(
      await harness.keyring('keyring_getAccount', { id: second.id }),
    ).toStrictEqual(second);
  });

  it('personal_sign: the signature recovers to the account (viem)', async () => {
    const message = 'Sign in to example.com\nNonce: 42';
    const response = await harness.submit(first, 'personal_sign', [
      stringToHex(message),
      first.address,
    ]);
    expect(response.pending).toBe(false);
    const recovered = await recoverMessageAddress({
      message,
      signature: response.result,
    });
    expect(recovered).toBe(first.address);
  });

  it('eth_signTypedData_v4: the EIP-712 signature recovers to the account (viem)', async () => {
    const response = await harness.submit(second, 'eth_signTypedData_v4', [
      second.address,
      TYPED_DATA as never,
    ]);
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it('signs requests MetaMask sends without a chain (scope ""): personal_sign, typed data v4 without chainId, v1', async () => {
    const message = 'no chain here';
    const personal = await harness.submit(
      first,
      'personal_sign',
      [stringToHex(message), first.address],
      '',
    );
    expect(
      await recoverMessageAddress({ message, signature: personal.result }),
    ).toBe(first.address);

    const { chainId: _chainId, ...domain } = TYPED_DATA.domain;
    const chainless = {
      ...TYPED_DATA,
      types: {
        ...TYPED_DATA.types,
        EIP712Domain: TYPED_DATA.types.EIP712Domain.filter(
          (field) => field.name !== 'chainId',
        ),
      },
      domain,
    };
    const typed = await harness.submit(
      first,
      'eth_signTypedData_v4',
      [first.address, chainless as never],
      '',
    );
    expect(
      await recoverTypedDataAddress({
        ...(chainless as any),
        signature: typed.result,
      }),
    ).toBe(first.address);

    const v1 = [
      { type: 'string', name: 'greeting', value: 'hello' },
      { type: 'uint32', name: 'n', value: '42' },
    ];
    const signature = (
      await harness.submit(
        first,
        'eth_signTypedData_v1',
        [first.address, v1],
        '',
      )
    ).result;
    expect(
      recoverTypedSignature({
        data: v1,
        signature,
        version: SignTypedDataVersion.V1,
      }),
    ).toBe(first.address.toLowerCase());
  });

  it('accepts the hex chain reference MetaMask copies from a hex domain.chainId (eip155:0x1)', async () => {
    const response = await harness.submit(
      second,
      'eth_signTypedData_v4',
      [
        second.address,
        {
          ...TYPED_DATA,
          domain: { ...TYPED_DATA.domain, chainId: '0x1' },
        } as never,
      ],
      'eip155:0x1',
    );
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it('eth_signTypedData_v4 accepts the typed data as a JSON string, as some dapps send it', async () => {
    const response = await harness.submit(second, 'eth_signTypedData_v4', [
      second.address,
      JSON.stringify(TYPED_DATA),
    ]);
    const recovered = await recoverTypedDataAddress({
      ...(TYPED_DATA as any),
      signature: response.result,
    });
    expect(recovered).toBe(second.address);
  });

  it.each([
    [
      'legacy on chain 1 (EIP-155 v)',
      { type: '0x0', chainId: '0x1', gasPrice: '0x3b9aca00' },
      'eip155:1',
    ],
    [
      'EIP-2930',
      {
        type: '0x1',
        chainId: '0x7a69',
        gasPrice: '0x3b9aca00',
        accessList: [],
      },
      'eip155:31337',
    ],
    [
      'EIP-1559',
      {
        type: '0x2',
        chainId: '0x7a69',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x3b9aca00',
      },
      'eip155:31337',
    ],
  ])(
    'eth_signTransaction %s: { v, r, s } rebuild into a transaction signed by the account',
    async (_name, fields, scope) => {
      const tx = {
        ...fields,
        from: first.address,
        to: second.address,
        nonce: '0x0',
        value: '0xde0b6b3a7640000',
        data: '0x',
        gasLimit: '0x5208',
      };
      const { result } = await harness.submit(
        first,
        'eth_signTransaction',
        [tx],
        scope,
      );
      expect(Object.keys(result).sort()).toStrictEqual(['r', 's', 'v']);
      // legacy: EIP-155 v for chain 1; typed: the y parity
      const validV = fields.type === '0x0' ? ['0x25', '0x26'] : ['0x0', '0x1'];
      expect(validV).toContain(result.v);
      const serialized = rebuild(tx, result);
      expect(
        await recoverTransactionAddress({
          serializedTransaction: serialized as never,
        }),
      ).toBe(first.address);
    },
  );

  it('imports a private key without keeping it in the account options or any reply', async () => {
    const privateKey =
      '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
    const imported = await harness.createAccount({ privateKey });
    expect(imported.address).toBe(privateKeyToAddress(privateKey));
    const everything = JSON.stringify([
      await harness.keyring('keyring_listAccounts'),
      harness.events,
    ]);
    expect(everything).not.toContain(privateKey.slice(2));
    await expectError(
      harness.createAccount({ privateKey }),
      -32602,
      /an account with this address exists already/u,
    );
    await harness.keyring('keyring_deleteAccount', { id: imported.id });
  });

  it('refuses malformed private keys without echoing them', async () => {
    await expectError(
      harness.createAccount({ privateKey: '0x1234' }),
      -32602,
      /Invalid private key/u,
    );
    await expectError(
      harness.createAccount({ privateKey: `0x${'0'.repeat(64)}` }),
      -32602,
      /out of the secp256k1 range/u,
    );
    await expectError(
      harness.createAccount({ privateKey: `0x${'zz'.repeat(32)}` }),
      -32602,
      /^Invalid private key: expected 32 bytes of hex$/u,
    );
  });
});
