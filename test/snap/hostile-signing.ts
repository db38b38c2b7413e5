/**
 * Signing round trips through the built snap, property-based: random transactions (legacy with
 * EIP-155, EIP-2930, EIP-1559), EIP-712 typed data (v3 and v4, nested structs and arrays) and
 * personal messages, signed by the snap and recovered with viem to the account's address; a
 * chain-id or sender mismatch is refused (-32602). Typed data of an ERC-4337 user operation (the
 * EntryPoint v0.8 shape and look-alikes, v3 and v4): refused when its sender is one of the snap's
 * accounts, signed (and recovered) when it is another.
 */
import type { Json } from '@metamask/utils';
import * as fc from 'fast-check';
import {
  numberToHex,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  serializeTransaction,
} from 'viem';
import type { Hex, TransactionSerializable } from 'viem';
import { getUserOperationTypedData } from 'viem/account-abstraction';

import { COMPANION, METAMASK } from './harness';
import { short } from './hostile-arbitraries';
import { fuzzRuns } from '../fixtures/fuzz';

/** Call the snap through one handler; resolves to its JSON-RPC result or error. */
type Send = (
  handler: 'keyring' | 'rpc',
  origin: string,
  method: string,
  params: unknown,
) => Promise<{ result: Json } | { error: { code: number; message: string } }>;
/** A keyring account, as far as these tests read it. */
type Account = {
  /** Its id. */
  id: string;
  /** Its address. */
  address: Hex;
};

/**
 * Bytes as hex.
 *
 * @param bytes - The bytes.
 * @returns `0x` and two hex digits a byte.
 */
const toHex = (bytes: Uint8Array): Hex =>
  `0x${Buffer.from(bytes).toString('hex')}`;
/**
 * Random bytes as hex.
 *
 * @param min - The fewest bytes.
 * @param max - The most bytes.
 * @returns The arbitrary.
 */
const bytes = (min: number, max: number): fc.Arbitrary<Hex> =>
  fc.uint8Array({ minLength: min, maxLength: max }).map(toHex);
const address = bytes(20, 20);
const bytes32 = bytes(32, 32);
const chainId = fc.oneof(
  fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
  fc.bigInt({ min: 1n, max: 100_000n }),
);

const transaction = fc.record({
  type: fc.constantFrom(0, 1, 2),
  chainId,
  nonce: fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
  gas: fc.bigInt({ min: 21_000n, max: 30_000_000n }),
  value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  data: bytes(0, 200),
  to: fc.option(address, { nil: null }),
  gasPrice: fc.bigInt({ min: 0n, max: 2n ** 128n }),
  tip: fc.bigInt({ min: 0n, max: 2n ** 100n }),
  feeAboveTip: fc.bigInt({ min: 0n, max: 2n ** 100n }),
  accessList: fc.array(
    fc.record({ address, storageKeys: fc.array(bytes32, { maxLength: 3 }) }),
    { maxLength: 3 },
  ),
});
/** One generated transaction. */
type RandomTx =
  typeof transaction extends fc.Arbitrary<infer Value> ? Value : never;

/**
 * The JSON the dapp sends (hex quantities) and the same transaction for viem.
 *
 * @param tx - The generated transaction.
 * @param from - The signing account's address.
 * @returns Both forms.
 */
function transactionForms(
  tx: RandomTx,
  from: Hex,
): { json: Record<string, Json>; viem: TransactionSerializable } {
  const common = {
    chainId: Number(tx.chainId),
    nonce: Number(tx.nonce),
    gas: tx.gas,
    value: tx.value,
    data: tx.data,
    ...(tx.to ? { to: tx.to } : {}),
  };
  const json: Record<string, Json> = {
    type: numberToHex(tx.type),
    from,
    chainId: numberToHex(tx.chainId),
    nonce: numberToHex(tx.nonce),
    gas: numberToHex(tx.gas),
    value: numberToHex(tx.value),
    data: tx.data,
    to: tx.to,
  };
  if (tx.type === 0) {
    return {
      json: { ...json, gasPrice: numberToHex(tx.gasPrice) },
      viem: { ...common, type: 'legacy', gasPrice: tx.gasPrice },
    };
  }
  if (tx.type === 1) {
    return {
      json: {
        ...json,
        gasPrice: numberToHex(tx.gasPrice),
        accessList: tx.accessList,
      },
      viem: {
        ...common,
        type: 'eip2930',
        gasPrice: tx.gasPrice,
        accessList: tx.accessList,
      },
    };
  }
  const maxFeePerGas = tx.tip + tx.feeAboveTip;
  return {
    json: {
      ...json,
      maxPriorityFeePerGas: numberToHex(tx.tip),
      maxFeePerGas: numberToHex(maxFeePerGas),
      accessList: tx.accessList,
    },
    viem: {
      ...common,
      type: 'eip1559',
      maxPriorityFeePerGas: tx.tip,
      maxFeePerGas,
      accessList: tx.accessList,
    },
  };
}

/** One generated typed-data request: what the dapp sends, the same for viem, and its chain id. */
type RandomTypedData = {
  /** The JSON sent to the snap. */
  json: Record<string, Json>;
  /** The same data as viem's signTypedData takes it. */
  viem: {
    types: Record<string, unknown>;
    primaryType: string;
    domain: Record<string, unknown>;
    message: Record<string, unknown>;
  };
  /** The domain's chainId, when it has one. */
  chainId: number | undefined;
};

/** A typed-data field: its type, and a generator of [JSON value, viem value]. */
type Field = {
  /** The EIP-712 type name. */
  type: string;
  /** Generates [JSON value, viem value]. */
  value: fc.Arbitrary<[Json, unknown]>;
};

const atomic: fc.Arbitrary<Field> = fc.oneof(
  fc.integer({ min: 1, max: 32 }).map((width) => ({
    type: `uint${width * 8}`,
    value: fc
      .bigInt({ min: 0n, max: 2n ** BigInt(width * 8) - 1n })
      .map((sample): [Json, unknown] => [sample.toString(), sample]),
  })),
  fc.integer({ min: 1, max: 32 }).map((width) => ({
    type: `int${width * 8}`,
    value: fc
      .bigInt({
        min: -(2n ** BigInt(width * 8 - 1)),
        max: 2n ** BigInt(width * 8 - 1) - 1n,
      })
      .map((sample): [Json, unknown] => [sample.toString(), sample]),
  })),
  fc.integer({ min: 1, max: 32 }).map((width) => ({
    type: `bytes${width}`,
    value: bytes(width, width).map((sample): [Json, unknown] => [
      sample,
      sample,
    ]),
  })),
  fc.constant({
    type: 'address',
    value: address.map((sample): [Json, unknown] => [sample, sample]),
  }),
  fc.constant({
    type: 'bool',
    value: fc.boolean().map((sample): [Json, unknown] => [sample, sample]),
  }),
  fc.constant({
    type: 'bytes',
    value: bytes(0, 64).map((sample): [Json, unknown] => [sample, sample]),
  }),
  fc.constant({
    type: 'string',
    value: fc
      .string({ unit: 'grapheme', maxLength: 24 })
      .map((sample): [Json, unknown] => [sample, sample]),
  }),
);

/**
 * An array of a field's type.
 *
 * @param field - The element field.
 * @returns The array field.
 */
const arrayOf = (field: Field): Field => ({
  type: `${field.type}[]`,
  value: fc
    .array(field.value, { maxLength: 3 })
    .map((items): [Json, unknown] => [
      items.map(([json]) => json),
      items.map(([, viem]) => viem),
    ]),
});

/**
 * A struct type made of fields, with its generator.
 *
 * @param name - The struct's type name.
 * @param fields - Its fields, in order.
 * @returns Its type definitions and a generator of [JSON value, viem value].
 */
const structOf = (
  name: string,
  fields: Field[],
): {
  types: { name: string; type: string }[];
  value: fc.Arbitrary<[Json, unknown]>;
} => ({
  types: fields.map((field, index) => ({
    name: `${name.toLowerCase()}${index}`,
    type: field.type,
  })),
  value: fc
    .tuple(...fields.map((field) => field.value))
    .map((values): [Json, unknown] => [
      Object.fromEntries(
        values.map(([json], index) => [`${name.toLowerCase()}${index}`, json]),
      ),
      Object.fromEntries(
        values.map(([, viem], index) => [
          `${name.toLowerCase()}${index}`,
          viem,
        ]),
      ),
    ]),
});

const DOMAIN_FIELDS = [
  {
    name: 'name',
    type: 'string',
    value: fc
      .string({ maxLength: 16 })
      .map((sample): [Json, unknown] => [sample, sample]),
  },
  {
    name: 'version',
    type: 'string',
    value: fc
      .constantFrom('1', '2.0')
      .map((sample): [Json, unknown] => [sample, sample]),
  },
  {
    name: 'chainId',
    type: 'uint256',
    value: chainId.map((sample): [Json, unknown] => [
      Number(sample),
      Number(sample),
    ]),
  },
  {
    name: 'verifyingContract',
    type: 'address',
    value: address.map((sample): [Json, unknown] => [sample, sample]),
  },
  {
    name: 'salt',
    type: 'bytes32',
    value: bytes32.map((sample): [Json, unknown] => [sample, sample]),
  },
];

/**
 * Random EIP-712 typed data: `Main` with atomic fields, a nested `Sub`, and (v4) arrays; a
 * random domain.
 *
 * @param v4 - Whether arrays may appear (eth_signTypedData_v4) or not (v3).
 * @returns The arbitrary of the JSON sent and the same data for viem.
 */
const typedData = (v4: boolean): fc.Arbitrary<RandomTypedData> =>
  fc
    .record({
      sub: fc.array(atomic, { minLength: 1, maxLength: 3 }),
      main: fc.array(
        fc.oneof(
          atomic,
          fc.constant<'sub'>('sub'),
          ...(v4 ? [atomic.map(arrayOf), fc.constant<'subs'>('subs')] : []),
        ),
        { minLength: 1, maxLength: 5 },
      ),
      domain: fc.subarray(DOMAIN_FIELDS, { minLength: 0 }),
    })
    .chain(({ sub, main, domain }) => {
      const subStruct = structOf('Sub', sub);
      const subField: Field = { type: 'Sub', value: subStruct.value };
      const mainFields = main.map((field) => {
        if (field === 'sub') {
          return subField;
        }
        return field === 'subs' ? arrayOf(subField) : field;
      });
      const mainStruct = structOf('Main', mainFields);
      const usesSub = mainFields.some((field) => field.type.startsWith('Sub'));
      return fc
        .record({
          message: mainStruct.value,
          domain: fc
            .tuple(...domain.map((field) => field.value))
            .map((values) =>
              values.map(
                (value, index) => [domain[index]?.name, value] as const,
              ),
            ),
        })
        .map(({ message, domain: entries }) => {
          const types = {
            EIP712Domain: domain.map(({ name, type }) => ({ name, type })),
            Main: mainStruct.types,
            ...(usesSub ? { Sub: subStruct.types } : {}),
          };
          return {
            json: {
              types,
              primaryType: 'Main',
              domain: Object.fromEntries(
                entries.map(([name, [json]]) => [name, json]),
              ),
              message: message[0],
            },
            viem: {
              types,
              primaryType: 'Main',
              domain: Object.fromEntries(
                entries.map(([name, [, viem]]) => [name, viem]),
              ),
              message: message[1] as Record<string, unknown>,
            },
            chainId: entries.find(([name]) => name === 'chainId')?.[1][0] as
              number | undefined,
          };
        });
    });

/**
 * Random typed data of an ERC-4337 user operation: the EntryPoint v0.8 shape (viem's
 * getUserOperationTypedData) on a random chain and EntryPoint, its primary type possibly renamed
 * and its domain name possibly changed (look-alikes), and who its sender is.
 */
const userOperationTypedData = fc.record({
  sender: fc.constantFrom<'signer' | 'other' | 'foreign'>(
    'signer',
    'other',
    'foreign',
  ),
  foreign: address,
  entryPoint: address,
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  nonce: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
  callData: bytes(0, 100),
  gas: fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }),
  typeName: fc.constantFrom('PackedUserOperation', 'UserOperation', 'UserOp'),
  domainName: fc.constantFrom('ERC4337', 'ERC-4337', 'EntryPoint', 'Other'),
  v4: fc.boolean(),
});

/**
 * The JSON a dapp sends for one generated user operation, with the domain type declared.
 *
 * @param op - The generated operation.
 * @param sender - Its sender's address.
 * @returns `{ types, primaryType, domain, message }`, integers as decimal strings.
 */
function userOperationJson(
  op: typeof userOperationTypedData extends fc.Arbitrary<infer Value>
    ? Value
    : never,
  sender: Hex,
): Record<string, any> {
  const typed = getUserOperationTypedData({
    chainId: op.chainId,
    entryPointAddress: op.entryPoint,
    userOperation: {
      sender,
      nonce: op.nonce,
      callData: op.callData,
      callGasLimit: op.gas,
      verificationGasLimit: op.gas,
      preVerificationGas: op.gas,
      maxFeePerGas: op.gas,
      maxPriorityFeePerGas: op.gas,
      signature: '0x',
    },
  });
  return JSON.parse(
    JSON.stringify(
      {
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
          [op.typeName]: typed.types.PackedUserOperation,
        },
        primaryType: op.typeName,
        domain: { ...typed.domain, name: op.domainName },
        message: typed.message,
      },
      (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
    ),
  );
}

/**
 * The full-size run counts of the signing properties (each scaled by `fuzzRuns`): transactions,
 * messages, typed data v4 and v3, user-operation typed data.
 */
const SIGNING_RUNS = {
  transactions: 150,
  messages: 100,
  typedDataV4: 150,
  typedDataV3: 60,
  userOperations: 60,
};

/**
 * How many rounds {@link assertSigningProperties} runs at most (one round sends at most three
 * requests together), its set-up included: the bound its caller's timeout is computed from.
 */
export const SIGNING_ROUNDS =
  3 +
  Object.values(SIGNING_RUNS).reduce((sum, runs) => sum + fuzzRuns(runs), 0);

/**
 * Run the signing properties.
 *
 * @param send - Sends one request to the built snap and returns its reply.
 * @returns Requests sent.
 */
export async function assertSigningProperties(send: Send): Promise<void> {
  expect(
    await send('rpc', COMPANION, 'setApprovalMode', { mode: 'sync' }),
  ).toEqual({ result: { mode: 'sync' } });
  const created = await Promise.all(
    [0, 1].map(async () =>
      send('keyring', COMPANION, 'keyring_createAccount', { options: {} }),
    ),
  );
  const [signer, other] = created.map(
    (reply) => (reply as { result: Account }).result,
  ) as [Account, Account];
  let counter = 0;
  /**
   * Submit a dapp's request to the signer through keyring_submitRequest.
   *
   * @param method - The signing method.
   * @param params - Its params.
   * @param scope - The CAIP-2 chain.
   * @returns The snap's reply.
   */
  const submit = async (
    method: string,
    params: Json[],
    scope: string,
  ): Promise<Awaited<ReturnType<Send>>> => {
    counter += 1;
    return send('keyring', METAMASK, 'keyring_submitRequest', {
      id: `00000000-0000-4000-9000-${String(counter).padStart(12, '0')}`,
      scope,
      account: signer.id,
      origin: 'https://dapp.example',
      request: { method, params },
    });
  };
  /**
   * Expect a synchronous signature.
   *
   * @param reply - The snap's reply.
   * @returns The signature (or signed transaction).
   */
  const signed = (reply: Awaited<ReturnType<Send>>): any => {
    expect(reply).toEqual({
      result: { pending: false, result: expect.anything() },
    });
    return (reply as { result: { result: unknown } }).result.result;
  };
  /**
   * Expect an invalid-params refusal.
   *
   * @param reply - The snap's reply.
   * @param message - What its message must match.
   */
  const refused = (reply: Awaited<ReturnType<Send>>, message: RegExp): void => {
    expect(reply).toEqual({
      error: expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(message),
      }),
    });
  };

  await fc.assert(
    fc.asyncProperty(transaction, async (tx) => {
      const { json, viem } = transactionForms(tx, signer.address);
      if (
        tx.type === 0 &&
        tx.chainId * 2n + 36n > BigInt(Number.MAX_SAFE_INTEGER)
      ) {
        // EIP-155 v would not be a safe integer: refused, not signed wrongly
        refused(
          await submit('eth_signTransaction', [json], `eip155:${tx.chainId}`),
          /at 0\.chainId: a legacy transaction's chain id must be at most/u,
        );
        return;
      }
      // The signing and the two mismatches are independent (sync mode parks nothing): sent
      // together, checked in order.
      const [signedReply, wrongScope, wrongSender] = await Promise.all([
        submit('eth_signTransaction', [json], `eip155:${tx.chainId}`),
        submit('eth_signTransaction', [json], `eip155:${tx.chainId + 1n}`),
        submit(
          'eth_signTransaction',
          [{ ...json, from: other.address }],
          `eip155:${tx.chainId}`,
        ),
      ]);
      const { v, r, s } = signed(signedReply);
      const signature =
        tx.type === 0
          ? { r, s, v: BigInt(v) }
          : { r, s, yParity: Number(BigInt(v)) };
      if (tx.type === 0) {
        expect(BigInt(v) - tx.chainId * 2n - 35n).toBeLessThan(2n); // EIP-155 v
      }
      expect(
        await recoverTransactionAddress({
          serializedTransaction: serializeTransaction(viem, signature),
        }),
      ).toBe(signer.address);
      refused(wrongScope, /at 0\.chainId: does not match the request scope/u);
      refused(wrongSender, /is not this account's address/u);
    }),
    { numRuns: fuzzRuns(SIGNING_RUNS.transactions), reporter: short },
  );

  await fc.assert(
    fc.asyncProperty(bytes(0, 300), async (message) => {
      const [signedReply, wrongSender] = await Promise.all([
        submit('personal_sign', [message, signer.address], ''),
        submit('personal_sign', [message, other.address], ''),
      ]);
      const signature = signed(signedReply);
      expect(
        await recoverMessageAddress({ message: { raw: message }, signature }),
      ).toBe(signer.address);
      refused(
        wrongSender,
        /personal_sign params\[1\]: .* is not this account's address/u,
      );
    }),
    { numRuns: fuzzRuns(SIGNING_RUNS.messages), reporter: short },
  );

  for (const [method, v4, runs] of [
    ['eth_signTypedData_v4', true, SIGNING_RUNS.typedDataV4],
    ['eth_signTypedData_v3', false, SIGNING_RUNS.typedDataV3],
  ] as const) {
    await fc.assert(
      fc.asyncProperty(
        typedData(v4),
        async ({ json, viem, chainId: domainChain }) => {
          const scope =
            domainChain === undefined ? '' : `eip155:${domainChain}`;
          const [signedReply, wrongSender, wrongScope] = await Promise.all([
            submit(method, [signer.address, json], scope),
            submit(method, [other.address, json], scope),
            domainChain === undefined
              ? undefined
              : submit(
                  method,
                  [signer.address, json],
                  `eip155:${BigInt(domainChain) + 1n}`,
                ),
          ]);
          const signature = signed(signedReply);
          expect(
            await recoverTypedDataAddress({
              ...(viem as object),
              signature,
            } as never),
          ).toBe(signer.address);
          refused(
            wrongSender,
            /params\[0\]: .* is not this account's address/u,
          );
          if (wrongScope !== undefined) {
            refused(
              wrongScope,
              /at domain\.chainId: does not match the request scope/u,
            );
          }
        },
      ),
      { numRuns: fuzzRuns(runs), reporter: short },
    );
  }

  await fc.assert(
    fc.asyncProperty(userOperationTypedData, async (op) => {
      const sender =
        { signer: signer.address, other: other.address }[
          op.sender as 'signer'
        ] ?? op.foreign;
      const json = userOperationJson(op, sender);
      const method = op.v4 ? 'eth_signTypedData_v4' : 'eth_signTypedData_v3';
      const reply = await submit(
        method,
        [signer.address, json],
        `eip155:${op.chainId}`,
      );
      if (op.sender === 'foreign') {
        expect(
          await recoverTypedDataAddress({
            ...(json as object),
            signature: signed(reply),
          } as never),
        ).toBe(signer.address);
      } else {
        refused(
          reply,
          /^Invalid typed data: it is a user operation \(ERC-4337\) for account 0x/u,
        );
      }
    }),
    { numRuns: fuzzRuns(SIGNING_RUNS.userOperations), reporter: short },
  );
}
