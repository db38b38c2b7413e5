import { rpcErrors } from '@metamask/rpc-errors';
import { encodeFunctionData, getAddress, parseAbi } from 'viem';
import type { Hex, SignedAuthorization } from 'viem';
import {
  formatUserOperationRequest,
  getUserOperationHash,
} from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';
import { sign, signMessage } from 'viem/accounts';

import { serviceClient } from './bundler';
import { bundlerRefusal, SIGNED_REFUSAL_NOTE } from './bundlerErrors';
import {
  ACCOUNT_SALT,
  DUMMY_SIGNATURE,
  entryPointAbi,
  factoryAbi,
} from './constants';
import { bundlerFees, CHAIN_FEE_READS, chainFees } from './fees';
import { balanceRead, checkedBalance } from './funds';
import { readNonceOfKey } from './nonce';
import { ABSOLUTE_GAS_CAPS } from './opBounds';
import { finishSponsorship, sponsorDraft } from './paymasterModern';
import { payInToken } from './paymasterToken';
import type { SmartAccountChain } from './prepare';
import { blockNumberOf } from './send';
import type { SendSummary } from './send';
import { SEND_NONCE_KEY } from './sendNonces';
import { prepareTokenPayment } from './tokenQuote';
import type { Intent } from './userop';
import type { Settled } from '../../chain';
import { readHexData, settledResult } from '../../chain';
import { invalidParams, notFound } from '../../utils/errors';
import {
  encodeDeleGatorCalls,
  signDeleGatorUserOperation,
} from '../deleGator/account';

/**
 * The send path of SimpleAccount on EntryPoint v0.7 and v0.8 (eth-infinitism/account-abstraction
 * v0.7.0 / v0.8.0; ERC-4337 and ERC-7769 bundler RPC in its v0.7 form: `factory` / `factoryData`,
 * `paymaster*` fields). The userOpHash, the RPC form of the operation and the EntryPoint ABIs are
 * viem's (`viem/account-abstraction` pure functions, no Client); what stays here is what viem has
 * no pure function for: the call data per version, the reads batched into one chain round trip,
 * and the bounds on every server's numbers. Network only except {@link signModernUserOperation}.
 */

/** EntryPoint versions this path serves. */
type ModernVersion = '0.7' | '0.8';

/** A v0.7 / v0.8 operation as viem types it (quantities as bigints). */
type ModernUserOperation = UserOperation<ModernVersion>;

/** SimpleAccount v0.7 `execute` and `executeBatch(address[], uint256[], bytes[])`. */
const simpleAccountV07Abi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
]);

/** SimpleAccount v0.8 (BaseAccount) `execute` and `executeBatch((address,uint256,bytes)[])`. */
const simpleAccountV08Abi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch(Call[] calls)',
]);

/**
 * The account's call data for its intents: one intent is `execute(to, value, data)`; several are
 * `executeBatch`, which carries values on both versions (v0.7: three arrays; v0.8: an array of
 * `(target, value, data)`).
 *
 * @param version - The EntryPoint version.
 * @param intents - One or more intents (`to`, value in wei, data).
 * @returns ABI-encoded call data.
 * @throws JsonRpcError -32602 for an empty list.
 */
export function encodeModernCallData(
  version: ModernVersion,
  intents: Intent[],
): Hex {
  if (intents.length === 0) {
    throw invalidParams(
      'Invalid sendUserOperation params at intents: at least one intent is required',
    );
  }
  if (intents.length === 1) {
    const [intent] = intents as [Intent];
    return encodeFunctionData({
      abi: simpleAccountV07Abi,
      functionName: 'execute',
      args: [intent.to, intent.value, intent.data],
    });
  }
  if (version === '0.7') {
    return encodeFunctionData({
      abi: simpleAccountV07Abi,
      functionName: 'executeBatch',
      args: [
        intents.map((intent) => intent.to),
        intents.map((intent) => intent.value),
        intents.map((intent) => intent.data),
      ],
    });
  }
  return encodeFunctionData({
    abi: simpleAccountV08Abi,
    functionName: 'executeBatch',
    args: [
      intents.map((intent) => ({
        target: intent.to,
        value: intent.value,
        data: intent.data,
      })),
    ],
  });
}

/** A v0.7 / v0.8 operation ready to be confirmed and signed. */
type ModernDraft = {
  /** Every field final except `signature` (the dummy one). */
  userOp: ModernUserOperation;
  /** Hex number of the latest block when the operation was prepared (receipt searches start there). */
  fromBlock: Hex;
  /** What the confirmation dialog shows about it (the caller adds who asked). */
  summary: Omit<SendSummary, 'origin'>;
};

/**
 * Draft a v0.7 / v0.8 operation for `intents`: one batched chain round trip (`eth_getCode` of the
 * sender, `EntryPoint.getNonce(sender, SEND_NONCE_KEY)`, the fee reads, `eth_blockNumber`) beside the
 * bundler's fee method; then the bundler's `eth_estimateUserOperationGas` of the operation with
 * its final fees and the dummy signature. With a paymaster service (`chain.paymasterUrl`, ERC-7677
 * in its v0.7 form, paymasterModern.ts): its stub data goes into the estimate, then its final data
 * (`pm_getPaymasterData`) into the operation, and the summary names the paymaster; a service that
 * refuses or answers out of bounds fails the send (it never falls back to the account paying).
 * Without one: self-paid, no paymaster fields.
 *
 * @param chain - The account's chain side (its `entryPointVersion` is 0.7 or 0.8).
 * @param scope - The request's scope, `eip155:<decimal chain id>`.
 * @param intents - Parsed intents.
 * @param floor - The least nonce to use (default 0: the EntryPoint's): the nonce after an accepted
 * operation of the account that has not landed yet (see `SendNonces`).
 * @param eip7702Auth - For an EOA not yet delegated (EIP-7702, v0.8 only): the authorization the
 * operation carries (a stub signature is enough here; the userOpHash hashes only its address); the
 * operation then has `factory: '0x7702'`, `factoryData: '0x'` instead of the SimpleAccountFactory's.
 * @param gasToken - Pay the gas in this ERC-20 token through the chain's paymaster service in ERC-20
 * mode (paymasterToken.ts: the quote, an approve batched first, bounded to the most the operation can
 * cost in the token); not with `eip7702Auth`.
 * @returns The draft.
 * @throws JsonRpcError -32001 without a bundlerUrl; the bundler's refusal (with its code) of the
 * estimate; TransportError (malformed) for chain or bundler numbers out of bounds; the paymaster
 * service's refusal, and -32602 naming the field of a reply out of bounds.
 */
export async function draftModernUserOperation(
  chain: SmartAccountChain,
  scope: string,
  intents: Intent[],
  floor = 0n,
  eip7702Auth?: SignedAuthorization,
  gasToken?: Hex,
): Promise<ModernDraft> {
  const version = modernVersion(chain);
  const bundlerUrl = requireBundler(chain);
  if (gasToken && eip7702Auth) {
    throw invalidParams(
      'Invalid sendUserOperation params at gasToken: the operation that upgrades this account cannot pay its gas in a token; send it without gasToken first',
    );
  }
  const { client, sender } = chain;
  const [reads, fromBundler, payment] = await Promise.all([
    client.batchSettled([
      { method: 'eth_getCode', params: [sender, 'latest'] },
      {
        method: 'eth_call',
        params: [
          {
            to: chain.entryPoint,
            data: encodeFunctionData({
              abi: entryPointAbi,
              functionName: 'getNonce',
              args: [sender, SEND_NONCE_KEY],
            }),
          },
          'latest',
        ],
      },
      ...CHAIN_FEE_READS,
      { method: 'eth_blockNumber', params: [] },
      balanceRead(sender),
    ]),
    bundlerFees(bundlerUrl),
    gasToken ? prepareTokenPayment(chain, gasToken) : undefined,
  ]);
  const [code, nonceWord, priority, history, block, held] = reads as [
    Settled,
    Settled,
    Settled,
    Settled,
    Settled,
    Settled,
  ];
  const balance = checkedBalance(held, intents, chain.chainId, client.origin);
  const deployed =
    readHexData(settledResult(code), 'eth_getCode', client.origin) !== '0x';
  const read = readNonceOfKey(
    settledResult(nonceWord),
    SEND_NONCE_KEY,
    client.origin,
  );
  const nonce = read > floor ? read : floor;
  const fees = fromBundler ?? chainFees(priority, history);
  /**
   * The sender's call data for calls: the DeleGator's or SimpleAccount's.
   *
   * @param calls - The calls.
   * @returns ABI-encoded call data.
   */
  const encode = (calls: Intent[]): Hex =>
    chain.deleGator
      ? encodeDeleGatorCalls(calls)
      : encodeModernCallData(version, calls);
  const token = payment
    ? payInToken(payment, fees.maxFeePerGas, (approve) =>
        encode([approve, ...intents]),
      )
    : undefined;
  const draft: ModernUserOperation = {
    sender,
    nonce,
    callData: token?.callData ?? encode(intents),
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: DUMMY_SIGNATURE,
    // a DeleGator's authorization also switches an EOA from Simple7702Account
    ...eip7702Fields(
      deployed && !chain.deleGator ? undefined : eip7702Auth,
      chain.deleGator,
    ),
    ...(deployed || eip7702Auth || chain.deleGator
      ? {}
      : {
          factory: chain.accountFactory,
          factoryData: encodeFunctionData({
            abi: factoryAbi,
            functionName: 'createAccount',
            args: [chain.owner, ACCOUNT_SALT],
          }),
        }),
  };
  const { paymasterUrl } = chain;
  const sponsored = paymasterUrl
    ? await sponsorDraft(
        paymasterUrl,
        draft,
        chain.entryPoint,
        chain.chainId,
        token?.settlement.context,
      )
    : undefined;
  token?.checkStub(sponsored?.stub.paymaster);
  const toEstimate = sponsored?.draft ?? draft;
  const estimate = await serviceClient(bundlerUrl)
    .request('eth_estimateUserOperationGas', [
      formatUserOperationRequest(toEstimate),
      chain.entryPoint,
    ])
    .catch((error: unknown) => {
      throw bundlerRefusal(error, bundlerUrl);
    });
  const estimated = { ...toEstimate, ...readEstimate(estimate) };
  const userOp =
    sponsored && paymasterUrl
      ? await finishSponsorship(
          paymasterUrl,
          estimated,
          sponsored.stub,
          estimate,
          chain.entryPoint,
          chain.chainId,
          token?.settlement,
        )
      : estimated;
  return {
    userOp,
    fromBlock: blockNumberOf(block),
    summary: {
      account: getAddress(sender),
      scope,
      nonce,
      intents: intents.map(({ to, value, data }) => ({
        to: getAddress(to),
        value,
        data,
      })),
      deploys: !deployed && !eip7702Auth,
      gas: modernPrefundGas(userOp),
      maxFeePerGas: userOp.maxFeePerGas,
      maxGasCost: modernPrefundGas(userOp) * userOp.maxFeePerGas,
      paymaster: userOp.paymaster ? getAddress(userOp.paymaster) : null,
      feeSource: fees.source,
      entryPointVersion: version,
      balance,
      ...(token ? { tokenPayment: token.summary() } : {}),
    },
  };
}

/**
 * The fields of an operation that delegates its EOA sender (ERC-7769's `eip7702Auth`): v0.8 marks
 * it with `factory: 0x7702`; v0.7 (the DeleGator's) knows no marker: no factory.
 *
 * @param authorization - The EIP-7702 authorization, if any.
 * @param deleGator - Whether the sender is a DeleGator (EntryPoint v0.7).
 * @returns The fields, or none without an authorization.
 */
function eip7702Fields(
  authorization: SignedAuthorization | undefined,
  deleGator = false,
): Partial<ModernUserOperation> {
  if (!authorization) {
    return {};
  }
  return deleGator
    ? { authorization }
    : { factory: '0x7702', factoryData: '0x', authorization };
}

/**
 * The gas an EntryPoint v0.7 / v0.8 prefund counts (`_getRequiredPrefund`):
 * `verificationGasLimit + callGasLimit + paymasterVerificationGasLimit + paymasterPostOpGasLimit +
 * preVerificationGas`.
 *
 * @param op - The operation.
 * @returns Gas units.
 */
export function modernPrefundGas(op: ModernUserOperation): bigint {
  return (
    op.verificationGasLimit +
    op.callGasLimit +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n) +
    op.preVerificationGas
  );
}

/**
 * Sign a v0.7 / v0.8 operation as SimpleAccount validates it: v0.7 signs the userOpHash with the
 * EIP-191 `personal_sign` prefix; v0.8 (EIP-712 userOpHash) signs the raw digest. The hash is
 * viem's `getUserOperationHash`, which equals the EntryPoint's `getUserOpHash`. A DeleGator
 * (`chain.deleGator`) signs its own EIP-712 typed data instead (signDeleGatorUserOperation).
 *
 * @param privateKey - The owner's 32-byte key.
 * @param chain - The account's chain side.
 * @param userOp - The operation (its signature field is ignored).
 * @returns The 65-byte signature.
 */
export async function signModernUserOperation(
  privateKey: Hex,
  chain: SmartAccountChain,
  userOp: ModernUserOperation,
): Promise<Hex> {
  if (chain.deleGator) {
    return signDeleGatorUserOperation(privateKey, chain, userOp);
  }
  const hash = modernUserOpHash(chain, userOp);
  return modernVersion(chain) === '0.7'
    ? signMessage({ privateKey, message: { raw: hash } })
    : sign({ hash, privateKey, to: 'hex' });
}

/**
 * The userOpHash of a v0.7 / v0.8 operation (viem's `getUserOperationHash`: packed hashing for
 * v0.7, the EIP-712 digest for v0.8).
 *
 * @param chain - The account's chain side.
 * @param userOp - The operation.
 * @returns The 32-byte hash.
 */
function modernUserOpHash(
  chain: SmartAccountChain,
  userOp: ModernUserOperation,
): Hex {
  return getUserOperationHash({
    userOperation: userOp,
    entryPointAddress: chain.entryPoint,
    entryPointVersion: modernVersion(chain),
    chainId: Number(chain.chainId),
  });
}

/**
 * Send a signed v0.7 / v0.8 operation to the bundler (`eth_sendUserOperation`, v0.7 RPC form).
 *
 * @param chain - The account's chain side.
 * @param userOp - The signed operation.
 * @returns The userOpHash, computed here and equal to the bundler's answer.
 * @throws JsonRpcError with the bundler's code for a refusal; -32603 when it answers another hash.
 */
export async function submitModernUserOperation(
  chain: SmartAccountChain,
  userOp: ModernUserOperation,
): Promise<Hex> {
  const bundlerUrl = requireBundler(chain);
  const expected = modernUserOpHash(chain, userOp);
  const answered = await serviceClient(bundlerUrl)
    .request('eth_sendUserOperation', [
      formatUserOperationRequest(userOp),
      chain.entryPoint,
    ])
    .catch((error: unknown) => {
      throw bundlerRefusal(error, bundlerUrl, true);
    });
  if (
    typeof answered !== 'string' ||
    answered.toLowerCase() !== expected.toLowerCase()
  ) {
    throw rpcErrors.internal({
      message: `The bundler answered another userOpHash than EntryPoint v${modernVersion(chain)} gives (${expected}) for this operation: the bundler may serve another chain or EntryPoint. ${SIGNED_REFUSAL_NOTE}`,
    });
  }
  return expected;
}

/**
 * The chain side's version, which must be 0.7 or 0.8 here.
 *
 * @param chain - The account's chain side.
 * @returns The version.
 * @throws JsonRpcError -32602 for a v0.6 account.
 */
function modernVersion(chain: SmartAccountChain): ModernVersion {
  if (chain.entryPointVersion === '0.7' || chain.entryPointVersion === '0.8') {
    return chain.entryPointVersion;
  }
  throw invalidParams('This smart account runs on EntryPoint v0.6');
}

/**
 * The bundler URL of the chain side.
 *
 * @param chain - The account's chain side.
 * @returns The URL.
 * @throws JsonRpcError -32001 when there is none.
 */
function requireBundler(chain: SmartAccountChain): string {
  if (!chain.bundlerUrl) {
    throw notFound(
      `No bundlerUrl for eip155:${chain.chainId}: set it with setChainConfig or in the account metadata`,
      { reason: 'noBundlerUrl' },
    );
  }
  return chain.bundlerUrl;
}

const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
] as const;

/**
 * The gas limits of an untrusted `eth_estimateUserOperationGas` reply: each a hex quantity of at
 * most {@link ABSOLUTE_GAS_CAPS} `perField` gas, their sum at most its `total`; paymaster limits
 * in the reply are read by paymasterModern.ts (`finishSponsorship`), for a sponsored operation only.
 *
 * @param reply - The bundler's reply.
 * @returns `{ callGasLimit, verificationGasLimit, preVerificationGas }` (gas).
 * @throws JsonRpcError -32603 naming the field out of bounds.
 */
function readEstimate(
  reply: unknown,
): Pick<ModernUserOperation, (typeof GAS_FIELDS)[number]> {
  const fields = (reply ?? {}) as Record<string, unknown>;
  const gas = {} as Record<(typeof GAS_FIELDS)[number], bigint>;
  for (const field of GAS_FIELDS) {
    const value = fields[field];
    if (
      typeof value !== 'string' ||
      !/^0x[0-9a-fA-F]{1,16}$/u.test(value) ||
      BigInt(value) > ABSOLUTE_GAS_CAPS.perField
    ) {
      throw rpcErrors.internal({
        message: `The bundler's eth_estimateUserOperationGas ${field} is not a gas amount up to ${ABSOLUTE_GAS_CAPS.perField}`,
      });
    }
    gas[field] = BigInt(value);
  }
  if (
    gas.callGasLimit + gas.verificationGasLimit + gas.preVerificationGas >
    ABSOLUTE_GAS_CAPS.total
  ) {
    throw rpcErrors.internal({
      message: `The bundler's gas estimate is above the absolute cap of ${ABSOLUTE_GAS_CAPS.total} gas`,
    });
  }
  return gas;
}
