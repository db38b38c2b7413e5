import type { TypedTxData } from '@ethereumjs/tx';
import type {
  MessageTypes,
  SignTypedDataVersion,
  TypedDataV1,
  TypedMessage,
} from '@metamask/eth-sig-util';
import {
  EthMethod,
  EthSignTransactionParamsStruct,
  EthTypedDataV1Struct,
  EthTypedMessageStruct,
} from '@metamask/keyring-api';
import {
  array,
  size,
  string,
  tuple,
  union,
  unknown,
} from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import { isAddressEqual, isHex, numberToHex } from 'viem';

import { signingError } from './signError';
import { normaliseTypedData, TYPED_DATA_LIMITS } from './typedData';
import { invalidParams, validate } from '../utils/errors';
import { parseEoaScope } from '../utils/scope';

/**
 * The signing libraries, loaded on the first signature rather than when the snap starts:
 * webpack evaluates a `require`d module on its first `require`, so installing the snap and
 * creating accounts never evaluate them. eth-sig-util is taken through its public
 * `personal-sign` and `sign-typed-data` entry points, which leave out its encryption code.
 */
type Signers = {
  /** eth-sig-util's EIP-191 `personal_sign` (version 0x45). */
  personalSign: typeof import('@metamask/eth-sig-util').personalSign;
  /** eth-sig-util's EIP-712 signer (typed data V1, V3 and V4). */
  signTypedData: typeof import('@metamask/eth-sig-util').signTypedData;
  /** `@ethereumjs/tx`'s factory for legacy, EIP-2930 and EIP-1559 transactions. */
  createTx: typeof import('@ethereumjs/tx').createTx;
  /** `@ethereumjs/common`'s factory for a chain configuration with a custom chain id. */
  createCustomCommon: typeof import('@ethereumjs/common').createCustomCommon;
  /** `@ethereumjs/common`'s Ethereum mainnet configuration, the base of the custom chain. */
  // eslint-disable-next-line @typescript-eslint/naming-convention -- the library's export name
  Mainnet: typeof import('@ethereumjs/common').Mainnet;
  /** The `buffer` polyfill's Buffer class (the snap's runtime has no global Buffer). */
  // eslint-disable-next-line @typescript-eslint/naming-convention -- the module's export name
  Buffer: typeof Buffer;
};

let signers: Signers | undefined;

/**
 * Load the signing libraries on the first call (see Signers) and keep them for the next ones.
 *
 * @returns The signing functions and classes.
 */
function loadSigners(): Signers {
  if (signers === undefined) {
    const { personalSign } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- lazy load on the first signature (see Signers)
      require('@metamask/eth-sig-util/personal-sign') as Pick<
        Signers,
        'personalSign'
      >;
    const { signTypedData } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- lazy load on the first signature (see Signers)
      require('@metamask/eth-sig-util/sign-typed-data') as Pick<
        Signers,
        'signTypedData'
      >;
    // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- lazy load on the first signature (see Signers)
    const { createTx } = require('@ethereumjs/tx') as Pick<Signers, 'createTx'>;
    const { createCustomCommon, Mainnet } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- lazy load on the first signature (see Signers)
      require('@ethereumjs/common') as Pick<
        Signers,
        'createCustomCommon' | 'Mainnet'
      >;
    // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals, import-x/no-nodejs-modules -- lazy load; the build's `buffer` polyfill serves it
    const { Buffer: NodeBuffer } = require('buffer') as Pick<Signers, 'Buffer'>;
    signers = {
      personalSign,
      signTypedData,
      createTx,
      createCustomCommon,
      Mainnet,
      Buffer: NodeBuffer,
    };
  }
  return signers;
}

/** eth-sig-util's SignTypedDataVersion values (a string enum). */
const TYPED_DATA_VERSION = { V1: 'V1', V3: 'V3', V4: 'V4' } as Record<
  'V1' | 'V3' | 'V4',
  SignTypedDataVersion
>;

/**
 * EOA signing (keyring-api `eip155:eoa` accounts), pure: no network, no state.
 * Implements personal_sign (EIP-191 0x45), eth_signTransaction (legacy with
 * EIP-155, EIP-2930, EIP-1559) and eth_signTypedData_v1/v3/v4 (EIP-712).
 * `eth_sign` is left out on purpose: it signs an arbitrary 32-byte hash, which
 * can be a transaction, so a phishing site could drain the account with it.
 */
export const EOA_METHODS = [
  EthMethod.PersonalSign,
  EthMethod.SignTransaction,
  EthMethod.SignTypedDataV1,
  EthMethod.SignTypedDataV3,
  EthMethod.SignTypedDataV4,
] as const;

/** A request checked against its account and scope, ready to sign. */
export type EoaTask =
  | { method: 'personal_sign'; message: string }
  | { method: 'eth_signTransaction'; tx: TypedTxData; chainId: bigint }
  | {
      method: 'eth_signTypedData';
      version: SignTypedDataVersion;
      /** V1: the request's array; V3/V4: normaliseTypedData's checked, normalised data. */
      data: unknown;
    };

/** `[message, address?]`: keyring-api's struct is a union whose error names no field. */
const PersonalSignParamsStruct = size(array(string()), 1, 2);
const TypedDataParamsStruct = tuple([string(), union([string(), unknown()])]);

/**
 * Check a signing request for the EOA `address` before anything is stored or signed.
 *
 * @param address - The account's address (20-byte hex).
 * @param scope - The request's scope: `eip155:<chain id>`, or `''` (MetaMask sends none for personal_sign
 * and for typed data without `domain.chainId`).
 * @param method - One of EOA_METHODS.
 * @param params - The request's params array.
 * @returns The validated task.
 * @throws JsonRpcError -32602 naming the malformed field, a foreign address or a chain mismatch;
 * for typed data v3/v4, any `domain` or `message` value that does not match its declared EIP-712
 * type (see normaliseTypedData), never echoing the value.
 */
export function parseEoaRequest(
  address: string,
  scope: string,
  method: string,
  params: unknown,
): EoaTask {
  const { chainId: scopeChainId } = parseEoaScope(scope);
  switch (method) {
    case EthMethod.PersonalSign: {
      const [message, from] = validate(
        params,
        PersonalSignParamsStruct,
        'personal_sign params',
      );
      if (from !== undefined) {
        assertSigner(address, from, 'personal_sign params[1]');
      }
      return { method, message };
    }
    case EthMethod.SignTransaction: {
      const [tx] = validate(
        params,
        EthSignTransactionParamsStruct,
        'eth_signTransaction params',
      );
      return { method, ...parseTransaction(address, tx, scopeChainId) };
    }
    case EthMethod.SignTypedDataV1:
    case EthMethod.SignTypedDataV3:
    case EthMethod.SignTypedDataV4: {
      const [from, raw] = validate(
        params,
        TypedDataParamsStruct,
        `${method} params`,
      );
      assertSigner(address, from, `${method} params[0]`);
      if (typeof raw === 'string' && raw.length > TYPED_DATA_LIMITS.bytes) {
        throw invalidParams(
          `Invalid ${method} params[1]: larger than ${TYPED_DATA_LIMITS.bytes} bytes`,
        );
      }
      const data =
        typeof raw === 'string' ? parseJson(raw, `${method} params[1]`) : raw;
      if (method === EthMethod.SignTypedDataV1) {
        validate(data, EthTypedDataV1Struct, `${method} typed data`);
        return {
          method: 'eth_signTypedData',
          version: TYPED_DATA_VERSION.V1,
          data,
        };
      }
      const typed = validate(
        data,
        EthTypedMessageStruct,
        `${method} typed data`,
      );
      checkDomainChain(typed.domain.chainId, scopeChainId);
      const version =
        method === EthMethod.SignTypedDataV3
          ? TYPED_DATA_VERSION.V3
          : TYPED_DATA_VERSION.V4;
      // Every value against its declared type before anything is stored or signed; what is
      // signed is the normalised data (see normaliseTypedData).
      return {
        method: 'eth_signTypedData',
        version,
        data: normaliseTypedData(
          typed,
          method === EthMethod.SignTypedDataV3 ? 'V3' : 'V4',
        ),
      };
    }
    default:
      throw invalidParams(
        `Method '${method}' is not supported by EOA accounts`,
      );
  }
}

/** What each kind of task signs, as signingError names it. */
const TASK_SUBJECTS: Record<EoaTask['method'], string> = {
  personal_sign: 'message',
  eth_signTransaction: 'transaction',
  eth_signTypedData: 'typed data',
};

/**
 * Sign a validated task.
 *
 * @param privateKey - 32-byte hex private key.
 * @param task - From parseEoaRequest.
 * @returns A 65-byte signature hex for messages and typed data; `{ v, r, s }`
 * hex strings for transactions (v is EIP-155 for legacy, the y-parity otherwise).
 * @throws JsonRpcError -32602 naming the kind of problem when the library refuses the data (see signingError).
 */
export function signEoaTask(privateKey: string, task: EoaTask): Json {
  const {
    personalSign,
    signTypedData,
    createTx,
    createCustomCommon,
    Mainnet,
    Buffer,
  } = loadSigners();
  const key = Buffer.from(privateKey.slice(2), 'hex');
  try {
    switch (task.method) {
      case 'personal_sign':
        return personalSign({ privateKey: key, data: task.message });
      case 'eth_signTypedData':
        return signTypedData({
          privateKey: key,
          data: task.data as TypedDataV1 | TypedMessage<MessageTypes>,
          version: task.version,
        });
      case 'eth_signTransaction': {
        const common = createCustomCommon(
          { chainId: Number(task.chainId) },
          Mainnet,
          { hardfork: 'prague' },
        );
        const signed = createTx(task.tx, { common }).sign(key);
        return {
          v: numberToHex(signed.v ?? 0n),
          r: numberToHex(signed.r ?? 0n, { size: 32 }),
          s: numberToHex(signed.s ?? 0n, { size: 32 }),
        };
      }
      default:
        throw invalidParams('Unknown signing task');
    }
  } catch (error) {
    throw signingError(error, TASK_SUBJECTS[task.method]);
  }
}

/**
 * Largest chain id of a legacy transaction: its EIP-155 `v` (chainId * 2 + 35 + parity) must stay a
 * safe integer, as @ethereumjs/tx derives the chain id back from `v` in float arithmetic.
 */
const MAX_LEGACY_CHAIN_ID = (BigInt(Number.MAX_SAFE_INTEGER) - 36n) / 2n;

/** An `eth_signTransaction` transaction object as keyring-api's struct lets it through: fields not yet checked. */
type TxInput = Record<string, string | number | null | undefined | unknown[]>;

/**
 * Check an `eth_signTransaction` transaction for the EOA `address` and turn it into
 * `@ethereumjs/tx` input: the type is inferred when absent (EIP-1559 fee fields: 2, an access
 * list: 1, else legacy 0), quantities become bigints and missing nonce, value and data default
 * to zero and empty.
 *
 * @param address - The account's address (20-byte hex).
 * @param tx - The request's transaction object (`params[0]`).
 * @param scopeChainId - The request scope's chain id, or 0n when the request has no scope.
 * @returns The transaction data for `@ethereumjs/tx` and its chain id.
 * @throws JsonRpcError -32602 naming the field that is missing, malformed, out of range or
 * inconsistent with the account or the scope.
 */
function parseTransaction(
  address: string,
  tx: TxInput,
  scopeChainId: bigint,
): { tx: TypedTxData; chainId: bigint } {
  if (tx.from === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.from: the sender is required',
    );
  }
  assertSigner(address, String(tx.from), 'eth_signTransaction params[0].from');
  if (tx.chainId === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.chainId: the chain id is required',
    );
  }
  const chainId = quantity(tx.chainId, 'chainId');
  if (chainId === 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.chainId: out of range (1 to 2^53 - 1)',
    );
  }
  if (scopeChainId !== 0n && chainId !== scopeChainId) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.chainId: does not match the request scope eip155:${scopeChainId}`,
    );
  }
  const type =
    tx.type === undefined ? inferType(tx) : Number(quantity(tx.type, 'type'));
  if (![0, 1, 2].includes(type)) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.type: unsupported; legacy (0), EIP-2930 (1) and EIP-1559 (2) are supported',
    );
  }
  if (type === 0 && chainId > MAX_LEGACY_CHAIN_ID) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.chainId: a legacy transaction's chain id must be at most ${MAX_LEGACY_CHAIN_ID} (use type 1 or 2)`,
    );
  }
  const gasLimit = tx.gasLimit ?? tx.gas;
  if (gasLimit === undefined) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.gasLimit: required',
    );
  }
  const fields: Record<string, unknown> = {
    type,
    chainId,
    nonce: quantity(tx.nonce ?? '0x0', 'nonce'),
    gasLimit: quantity(gasLimit, 'gasLimit'),
    value: quantity(tx.value ?? '0x0', 'value'),
    data: tx.data === undefined ? '0x' : hexBytes(tx.data, 'data'),
    to:
      tx.to === undefined || tx.to === null ? undefined : hexBytes(tx.to, 'to'),
  };
  if (type === 2) {
    fields.maxFeePerGas = quantity(
      required(tx.maxFeePerGas, 'maxFeePerGas'),
      'maxFeePerGas',
    );
    fields.maxPriorityFeePerGas = quantity(
      required(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
      'maxPriorityFeePerGas',
    );
  } else {
    fields.gasPrice = quantity(required(tx.gasPrice, 'gasPrice'), 'gasPrice');
  }
  if (type !== 0) {
    fields.accessList = tx.accessList ?? [];
  }
  if (fields.to !== undefined && (fields.to as string).length !== 42) {
    throw invalidParams(
      'Invalid eth_signTransaction params at 0.to: expected a 20-byte address or null',
    );
  }
  return { tx: fields, chainId };
}

/**
 * The transaction type a transaction object without `type` has, from the fields it carries.
 *
 * @param tx - The request's transaction object.
 * @returns 2 (EIP-1559) with a fee cap or tip, 1 (EIP-2930) with an access list, else 0 (legacy).
 */
function inferType(tx: TxInput): number {
  if (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined) {
    return 2;
  }
  return tx.accessList === undefined ? 0 : 1;
}

/**
 * A field the transaction's type requires.
 *
 * @param value - The field's value.
 * @param field - The field's name, for the error.
 * @returns The value, when present.
 * @throws JsonRpcError -32602 when the value is undefined or null.
 */
function required<Value>(value: Value | undefined, field: string): Value {
  if (value === undefined || value === null) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.${field}: required for this transaction type`,
    );
  }
  return value;
}

/**
 * A transaction quantity (wei, gas, nonce, chain id or type).
 *
 * @param value - A non-negative safe integer, a `0x` hex string or a decimal string.
 * @param field - The field's name, for the error.
 * @returns The quantity.
 * @throws JsonRpcError -32602 for any other value.
 */
function quantity(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    return BigInt(value);
  }
  if (
    typeof value === 'string' &&
    (/^0x[0-9a-fA-F]+$/u.test(value) || /^[0-9]+$/u.test(value))
  ) {
    return BigInt(value);
  }
  throw invalidParams(
    `Invalid eth_signTransaction params at 0.${field}: expected a hex or decimal quantity`,
  );
}

/**
 * A transaction bytes field (`data`, `to`).
 *
 * @param value - The field's value.
 * @param field - The field's name, for the error.
 * @returns The value: `0x` followed by an even number of hex digits.
 * @throws JsonRpcError -32602 for anything else.
 */
function hexBytes(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isHex(value) || value.length % 2 !== 0) {
    throw invalidParams(
      `Invalid eth_signTransaction params at 0.${field}: expected hex bytes`,
    );
  }
  return value;
}

/**
 * Check that EIP-712 typed data is for the request's chain.
 *
 * @param domainChainId - The typed data's `domain.chainId`, if any.
 * @param scopeChainId - The request scope's chain id, or 0n when the request has no scope.
 * @throws JsonRpcError -32602 when `domain.chainId` is not a number or names another chain.
 */
function checkDomainChain(domainChainId: unknown, scopeChainId: bigint): void {
  if (domainChainId === undefined || scopeChainId === 0n) {
    return;
  }
  let chainId: bigint;
  try {
    chainId = BigInt(domainChainId as string | number);
  } catch {
    throw invalidParams(
      'Invalid typed data at domain.chainId: expected a number',
    );
  }
  if (chainId !== scopeChainId) {
    throw invalidParams(
      `Invalid typed data at domain.chainId: does not match the request scope eip155:${scopeChainId}`,
    );
  }
}

/**
 * Check that a request's signer address is the account's.
 *
 * @param address - The account's address (20-byte hex).
 * @param candidate - The address the request names.
 * @param where - Where the request names it, for the error.
 * @throws JsonRpcError -32602 when the candidate is not a 20-byte hex address or is another address.
 */
function assertSigner(address: string, candidate: string, where: string): void {
  if (!isHex(candidate) || candidate.length !== 42) {
    throw invalidParams(`Invalid ${where}: expected a 20-byte address`);
  }
  if (!isAddressEqual(address as `0x${string}`, candidate)) {
    throw invalidParams(
      `Invalid ${where}: ${candidate} is not this account's address`,
    );
  }
}

/**
 * Parse typed data sent as a JSON string.
 *
 * @param raw - The JSON text.
 * @param where - Where the request has it, for the error.
 * @returns The parsed value.
 * @throws JsonRpcError -32602 when the text is not valid JSON.
 */
function parseJson(raw: string, where: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidParams(`Invalid ${where}: not valid JSON`);
  }
}
