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
import { numberToHex } from 'viem';

import { assertSigner, parseTransaction } from './eoaTransaction';
import { signingError } from './signError';
import { normaliseTypedData, TYPED_DATA_LIMITS } from './typedData';
import { assertNotOwnInstruction } from './typedDataGuard';
import { normaliseTypedDataV1 } from './typedDataV1';
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
  /**
   * `@ethereumjs/tx`'s `createTx` for the types this snap signs: legacy (0), EIP-2930 (1),
   * EIP-1559 (2) and EIP-7702 (4), each through the library's own constructor for its type. The
   * library's factory also reaches the EIP-4844 blob transaction (type 3), which the snap never
   * signs (eoaTransaction.ts refuses it first): built from the constructors, the blob code stays
   * out of the bundle.
   */
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
    const {
      createLegacyTx,
      createAccessList2930Tx,
      createFeeMarket1559Tx,
      createEOACode7702Tx,
    } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-restricted-globals -- lazy load on the first signature (see Signers)
      require('@ethereumjs/tx') as typeof import('@ethereumjs/tx');
    const byType = new Map<number, Signers['createTx']>([
      [0, createLegacyTx as Signers['createTx']],
      [1, createAccessList2930Tx as Signers['createTx']],
      [2, createFeeMarket1559Tx as Signers['createTx']],
      [4, createEOACode7702Tx as Signers['createTx']],
    ]);
    const createTx = ((txData, options) => {
      const type = Number(txData.type ?? 0);
      const create = byType.get(type);
      if (create === undefined) {
        throw new Error(`Tx instantiation with type ${type} not supported`);
      }
      return create(txData, options);
    }) as Signers['createTx'];
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
      /** V1: normaliseTypedDataV1's checked fields; V3/V4: normaliseTypedData's checked, normalised data. */
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
 * @param own - The addresses of the snap's other accounts (the signing one is always counted):
 * typed data that is an instruction to one of them is refused (see assertNotOwnInstruction).
 * @param delegationManagers - DelegationManagers under which typed data of a `Delegation` is
 * refused (see assertNotOwnInstruction).
 * @returns The validated task.
 * @throws JsonRpcError -32602 naming the malformed field, a foreign address or a chain mismatch;
 * for typed data, any value that does not match its declared type (v3/v4: see normaliseTypedData;
 * v1: see normaliseTypedDataV1), never echoing the value, and v3/v4 typed data that is a user
 * operation of one of the snap's accounts or is addressed to one of them (assertNotOwnInstruction).
 */
export function parseEoaRequest(
  address: string,
  scope: string,
  method: string,
  params: unknown,
  own: readonly string[] = [],
  delegationManagers: readonly string[] = [],
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
        // Every value against its declared type, as for v3/v4 (see normaliseTypedDataV1).
        return {
          method: 'eth_signTypedData',
          version: TYPED_DATA_VERSION.V1,
          data: normaliseTypedDataV1(
            validate(data, EthTypedDataV1Struct, `${method} typed data`),
          ),
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
      const normalised = normaliseTypedData(
        typed,
        method === EthMethod.SignTypedDataV3 ? 'V3' : 'V4',
      );
      assertNotOwnInstruction(
        normalised,
        [address, ...own],
        delegationManagers,
      );
      return { method: 'eth_signTypedData', version, data: normalised };
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
 * Sign an EIP-7702 transaction (type 4, `SetCodeTransaction`) with the EOA's key, through the same
 * lazily loaded `@ethereumjs/tx` as eth_signTransaction (Prague rules on a custom chain id).
 *
 * @param privateKey - The EOA's 32-byte key.
 * @param tx - The transaction: `chainId`, `nonce`, fees (wei per gas), `gasLimit` (gas), `to`,
 * `value` (wei), `data` and `authorizationList` (items of hex `chainId`, `address`, `nonce`,
 * `yParity`, `r`, `s`).
 * @returns The signed transaction's bytes (`raw`, what eth_sendRawTransaction takes) and hash.
 */
export function signSetCodeTransaction(
  privateKey: string,
  tx: TypedTxData & { chainId: bigint },
): { raw: `0x${string}`; hash: `0x${string}` } {
  const { createTx, createCustomCommon, Mainnet, Buffer } = loadSigners();
  const common = createCustomCommon({ chainId: Number(tx.chainId) }, Mainnet, {
    hardfork: 'prague',
  });
  const signed = createTx({ ...tx, type: 4 }, { common }).sign(
    Buffer.from(privateKey.slice(2), 'hex'),
  );
  return {
    raw: `0x${Buffer.from(signed.serialize()).toString('hex')}`,
    hash: `0x${Buffer.from(signed.hash()).toString('hex')}`,
  };
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
