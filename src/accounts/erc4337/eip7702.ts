import { rpcErrors } from '@metamask/rpc-errors';
import {
  concatHex,
  getAddress,
  isAddressEqual,
  keccak256,
  numberToHex,
  zeroAddress,
} from 'viem';
import type { Hex, SignedAuthorization } from 'viem';
import { sign } from 'viem/accounts';
import { hashAuthorization } from 'viem/utils';

import { resolveChainSettings } from './config';
import { DUMMY_SIGNATURE } from './constants';
import { CHAIN_FEE_READS, chainFees } from './fees';
import type { SmartAccountChain } from './prepare';
import type { ChainConfig } from './types';
import { CANONICAL_CONTRACTS } from './versions';
import type { RpcCall, Settled } from '../../chain';
import {
  createRpcClient,
  readHexData,
  readQuantity,
  settledResult,
} from '../../chain';
import { invalidParams } from '../../utils/errors';
import type { DelegationEnvironment } from '../deleGator/canonical';
import {
  deleGatorImplementation,
  implementationMatches,
  implementationReads,
} from '../deleGator/implementation';
import { signSetCodeTransaction } from '../eoa';

/**
 * EIP-7702 ("Set EOA account code") for this snap's EOAs: the authorization an EOA signs to run
 * the code of Simple7702Account (eth-infinitism/account-abstraction v0.8.0, EntryPoint v0.8
 * compiled in), its check on chain, and the undo, an authorization to the zero address sent by the
 * EOA itself in a type-4 transaction (EIP-7702 `SetCodeTransaction`). The authorization's hash is
 * viem's `hashAuthorization` (`keccak256(0x05 ++ rlp([chainId, address, nonce]))`); the send of a
 * user operation from an upgraded EOA is modern.ts's v0.8 path. docs/decisions.md says why the
 * undo is a transaction and not a user operation.
 */

/** Simple7702Account v0.8, the canonical deployment (CREATE2 through the deterministic deployment proxy). */
export const SIMPLE_7702_ACCOUNT: Hex =
  '0xe6Cae83BdE06E4c305530e199D7217f42808555B';

/**
 * keccak256 of Simple7702Account v0.8's runtime code (3,639 bytes, the same on every chain: no
 * immutable depends on the chain). Measured on the devnet's canonical deployment
 * (`eth_getCode` of {@link SIMPLE_7702_ACCOUNT}); test/snap/eip7702.test.ts checks it there.
 */
export const SIMPLE_7702_ACCOUNT_CODE_HASH: Hex =
  '0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3';

/** EIP-7702's delegation indicator: the code of a delegated EOA is `0xef0100 ++ address`. */
const DELEGATION_PREFIX = '0xef0100';

/**
 * Gas of the undo transaction when the chain's estimate is lower: EIP-7702's intrinsic cost of a
 * type-4 transaction with one authorization and no data (21,000 + PER_EMPTY_ACCOUNT_COST 25,000); also the estimate of an undo's cost the upgrade's dialog gives.
 */
export const UNDO_MIN_GAS = 46_000n;

/** The largest gas estimate accepted for the undo transaction (it runs no code). */
const UNDO_MAX_GAS = 200_000n;

/**
 * A stub authorization signature for estimates (viem's `prepareUserOperation` uses the same): the
 * real one is signed only after the user confirms, so nothing sent before can delegate the EOA.
 */
const STUB_SIGNATURE: { r: Hex; s: Hex; yParity: number } = {
  r: `0x${DUMMY_SIGNATURE.slice(2, 66)}`,
  s: `0x${DUMMY_SIGNATURE.slice(66, 130)}`,
  yParity: 1,
};

/**
 * What an EOA's code says about its delegation on one chain: none, Simple7702Account, the chain's
 * EIP7702StatelessDeleGatorImpl (MetaMask's DeleGator, accounts/deleGator), or anything else.
 */
export type Delegation = 'none' | 'simple7702' | 'deleGator' | 'other';

/** An EOA on one chain, as read before an upgrade, a send or an undo. */
export type EoaChainState = {
  /** Its delegation: no code, Simple7702Account, or anything else (another delegate or code). */
  delegation: Delegation;
  /** Its account nonce (`eth_getTransactionCount`, latest and pending agreeing), which its next authorization carries. */
  nonce: bigint;
  /** Whether Simple7702Account's code on this chain hashes to {@link SIMPLE_7702_ACCOUNT_CODE_HASH}. */
  canonicalDelegate: boolean;
  /**
   * With an environment: whether its EIP7702StatelessDeleGatorImpl has code and names the
   * environment's EntryPoint, DelegationManager and domain (accounts/deleGator/implementation.ts).
   */
  deleGatorReady?: boolean;
};

/**
 * The chain side of an EOA sending through Simple7702Account: the chain config's RPC, bundler and paymaster service,
 * the canonical EntryPoint v0.8 (Simple7702Account has it compiled in, so a chain's `entryPoints`
 * override does not apply), sender and owner the EOA itself. No I/O happens here.
 *
 * @param address - The EOA.
 * @param config - The chain config of the request's scope.
 * @returns The chain side for modern.ts's v0.8 send.
 */
export function eip7702Chain(
  address: Hex,
  config: ChainConfig,
): SmartAccountChain {
  const settings = resolveChainSettings(config);
  return {
    client: createRpcClient({ url: settings.rpcUrl }),
    chainId: settings.chainId,
    entryPointVersion: '0.8',
    entryPoint: CANONICAL_CONTRACTS['0.8'].entryPoint as Hex,
    accountFactory: SIMPLE_7702_ACCOUNT,
    implementation: SIMPLE_7702_ACCOUNT,
    owner: getAddress(address),
    sender: getAddress(address),
    ...(settings.bundlerUrl ? { bundlerUrl: settings.bundlerUrl } : {}),
    ...(settings.paymasterUrl ? { paymasterUrl: settings.paymasterUrl } : {}),
  };
}

/**
 * Read, in one batched round trip: `eth_chainId` (must be the scope's, never 0), the EOA's code,
 * its account nonce at `latest` and at `pending` (which must agree: an authorization carries the
 * nonce, and one a lying RPC set in the future would become valid later, after an undo), and
 * Simple7702Account's code (hashed here); with a Delegation Framework environment, also its
 * DeleGator implementation's code and views (implementationReads).
 *
 * @param chain - From {@link eip7702Chain} (or deleGatorChain: the same RPC and EOA).
 * @param environment - The chain's Delegation Framework, when the DeleGator is to be recognised.
 * @returns The EOA's delegation, nonce and whether the delegate's code is the canonical one.
 * @throws JsonRpcError -32602 for chain id 0, an RPC serving another chain, or latest and pending
 * nonces that differ (nothing signed); TransportError
 * (malformed) for replies that are not hex or out of bounds; the node's error for a failed read.
 */
export async function readEoaChainState(
  chain: SmartAccountChain,
  environment?: DelegationEnvironment,
): Promise<EoaChainState> {
  assertChainId(chain.chainId);
  const { client, sender } = chain;
  const [chainId, code, latest, pending, delegateCode, ...deleGator] =
    (await client.batchSettled([
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getCode', params: [sender, 'latest'] },
      { method: 'eth_getTransactionCount', params: [sender, 'latest'] },
      { method: 'eth_getTransactionCount', params: [sender, 'pending'] },
      { method: 'eth_getCode', params: [SIMPLE_7702_ACCOUNT, 'latest'] },
      ...(environment ? implementationReads(environment) : []),
    ])) as [Settled, Settled, Settled, Settled, Settled, ...Settled[]];
  const served = readQuantity(
    settledResult(chainId),
    'eth_chainId',
    {},
    client.origin,
  );
  if (served !== chain.chainId) {
    throw invalidParams(
      `The chain's RPC serves chain ${served}, not eip155:${chain.chainId}: nothing was signed`,
    );
  }
  const [mined, next] = [latest, pending].map((read) =>
    readQuantity(
      settledResult(read),
      'eth_getTransactionCount',
      { max: 2n ** 64n - 2n },
      client.origin,
    ),
  ) as [bigint, bigint];
  if (mined !== next) {
    throw invalidParams(
      `The chain's RPC reports this account's nonce as ${mined} in the latest block but ${next} pending: a transaction of the account is still pending, or the RPC is wrong. Wait until it is mined and try again; nothing was signed`,
    );
  }
  return {
    delegation: delegationOf(
      readHexData(settledResult(code), 'eth_getCode', client.origin),
      environment && deleGatorImplementation(environment),
    ),
    nonce: next,
    canonicalDelegate:
      keccak256(
        readHexData(settledResult(delegateCode), 'eth_getCode', client.origin),
      ) === SIMPLE_7702_ACCOUNT_CODE_HASH,
    ...(environment
      ? { deleGatorReady: implementationMatches(deleGator, environment) }
      : {}),
  };
}

/**
 * What an EOA's code says: empty, the delegation indicator to Simple7702Account or to the chain's
 * DeleGator implementation, or anything else (EIP-7702: a delegated EOA's code is
 * `0xef0100 ++ address`). The home page's chain view reads it too.
 *
 * @param code - `eth_getCode` of the EOA (hex bytes, checked).
 * @param deleGator - The chain's EIP7702StatelessDeleGatorImpl, if it has a Delegation Framework.
 * @returns The delegation.
 */
export function delegationOf(code: Hex, deleGator?: Hex): Delegation {
  if (code === '0x') {
    return 'none';
  }
  /**
   * The code of an EOA delegating to `delegate`, lower case.
   *
   * @param delegate - The delegate.
   * @returns `0xef0100 ++ delegate`.
   */
  const indicator = (delegate: Hex): string =>
    concatHex([DELEGATION_PREFIX, delegate]).toLowerCase();
  if (code.toLowerCase() === indicator(SIMPLE_7702_ACCOUNT)) {
    return 'simple7702';
  }
  return deleGator && code.toLowerCase() === indicator(deleGator)
    ? 'deleGator'
    : 'other';
}

/**
 * Refuse an upgrade the snap cannot vouch for: Simple7702Account's code on the chain must hash to
 * the canonical one (an RPC that lies, or a chain where another contract sits at that address, is
 * refused), and the EOA must have no code or already delegate to it.
 *
 * @param state - From {@link readEoaChainState}.
 * @throws JsonRpcError -32602 naming what is wrong; nothing is signed.
 */
export function assertUpgradable(state: EoaChainState): void {
  if (!state.canonicalDelegate) {
    throw invalidParams(
      `Simple7702Account's code at ${SIMPLE_7702_ACCOUNT} on this chain is not the canonical v0.8 code: the account is not upgraded and nothing was signed`,
    );
  }
  if (state.delegation === 'other') {
    throw invalidParams(
      'This account already has other code on this chain (another EIP-7702 delegate): undo it first; nothing was signed',
    );
  }
}

/**
 * The EIP-7702 authorization to Simple7702Account (or the DeleGator) with a stub signature, for
 * the bundler's estimate (the userOpHash of EntryPoint v0.8 hashes only its address, v0.7's none
 * of it, so it is the same hash the real one gives).
 *
 * @param chainId - The chain's id (never 0).
 * @param nonce - The EOA's current nonce.
 * @param delegate - The delegate (default Simple7702Account).
 * @returns The stub authorization.
 */
export function stubAuthorization(
  chainId: bigint,
  nonce: bigint,
  delegate: Hex = SIMPLE_7702_ACCOUNT,
): SignedAuthorization {
  assertChainId(chainId);
  return {
    address: delegate,
    chainId: Number(chainId),
    nonce: Number(nonce),
    ...STUB_SIGNATURE,
  };
}

/**
 * Sign an EIP-7702 authorization with the EOA's key: `keccak256(0x05 ++ rlp([chainId, address,
 * nonce]))` (viem's `hashAuthorization`), signed raw (secp256k1, `yParity`). Only three delegates
 * are ever signed: Simple7702Account (the upgrade), the chain's EIP7702StatelessDeleGatorImpl when
 * the caller names it (the DeleGator upgrade, from the chain's settings) and the zero address (the
 * undo, which EIP-7702 treats as clearing the code); and never chain id 0, which would be valid on
 * every chain.
 *
 * @param privateKey - The EOA's 32-byte key.
 * @param authorization - `{ address, chainId, nonce }`.
 * @param authorization.address - Simple7702Account, `deleGator`, or the zero address.
 * @param authorization.chainId - The chain's id (1 to 2^53 - 1).
 * @param authorization.nonce - The EOA's nonce when the authorization is processed.
 * @param deleGator - The chain's EIP7702StatelessDeleGatorImpl, when it may be signed.
 * @returns The signed authorization (viem's `SignedAuthorization`).
 * @throws JsonRpcError -32602 for another delegate or chain id 0.
 */
export async function signEip7702Authorization(
  privateKey: Hex,
  authorization: { address: Hex; chainId: bigint; nonce: bigint },
  deleGator?: Hex,
): Promise<SignedAuthorization> {
  assertChainId(authorization.chainId);
  if (
    !isAddressEqual(authorization.address, SIMPLE_7702_ACCOUNT) &&
    !isAddressEqual(authorization.address, zeroAddress) &&
    !(deleGator && isAddressEqual(authorization.address, deleGator))
  ) {
    throw invalidParams(
      "Refused: an EIP-7702 authorization is signed only to Simple7702Account v0.8, the chain's DeleGator or the zero address",
    );
  }
  const unsigned = {
    address: getAddress(authorization.address),
    chainId: Number(authorization.chainId),
    nonce: Number(authorization.nonce),
  };
  const { r, s, yParity } = await sign({
    hash: hashAuthorization(unsigned),
    privateKey,
  });
  return { ...unsigned, r, s, yParity: yParity ?? 0 };
}

/**
 * Refuse chain id 0 (an authorization valid on every chain) and ids beyond what a JavaScript
 * number holds exactly.
 *
 * @param chainId - The chain's id.
 * @throws JsonRpcError -32602.
 */
function assertChainId(chainId: bigint): void {
  if (chainId <= 0n || chainId > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidParams(
      'Refused: an EIP-7702 authorization is signed only for one chain (chain id 1 to 2^53 - 1), never chain id 0',
    );
  }
}

/** The undo transaction, before its signature: what its dialog shows. */
export type UndoDraft = {
  /** The EOA's transaction nonce; its authorization carries `nonce + 1` (EIP-7702: the sender's nonce is raised first). */
  nonce: bigint;
  /** Gas limit, in gas. */
  gas: bigint;
  /** `maxFeePerGas`, wei per gas. */
  maxFeePerGas: bigint;
  /** `maxPriorityFeePerGas`, wei per gas. */
  maxPriorityFeePerGas: bigint;
  /** The most it can cost: `gas × maxFeePerGas`, in wei. */
  maxCost: bigint;
};

/**
 * Draft the undo: a type-4 transaction from the EOA to itself, no value, no data, whose one
 * authorization (to the zero address) clears its code. One batched round trip: the chain's fee
 * reads (as user operations use them) and `eth_estimateGas` with a stub authorization, taken as at
 * least {@link UNDO_MIN_GAS} and at most {@link UNDO_MAX_GAS}.
 *
 * @param chain - From {@link eip7702Chain}.
 * @param nonce - The EOA's pending nonce (from {@link readEoaChainState}).
 * @returns The draft.
 * @throws The node's error for a failed read; JsonRpcError -32603 / TransportError for fees or an
 * estimate out of bounds.
 */
export async function draftUndoTransaction(
  chain: SmartAccountChain,
  nonce: bigint,
): Promise<UndoDraft> {
  const { client, sender } = chain;
  const estimate: RpcCall = {
    method: 'eth_estimateGas',
    params: [
      {
        from: sender,
        to: sender,
        authorizationList: [
          {
            address: zeroAddress,
            chainId: `0x${chain.chainId.toString(16)}`,
            nonce: `0x${(nonce + 1n).toString(16)}`,
            r: STUB_SIGNATURE.r,
            s: STUB_SIGNATURE.s,
            yParity: '0x1',
          },
        ],
      },
    ],
  };
  const [priority, history, estimated] = (await client.batchSettled([
    ...CHAIN_FEE_READS,
    estimate,
  ])) as [Settled, Settled, Settled];
  const fees = chainFees(priority, history);
  const gas = readQuantity(
    settledResult(estimated),
    'eth_estimateGas',
    { max: UNDO_MAX_GAS },
    client.origin,
  );
  const limit = gas > UNDO_MIN_GAS ? gas : UNDO_MIN_GAS;
  return {
    nonce,
    gas: limit,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    maxCost: limit * fees.maxFeePerGas,
  };
}

/**
 * Sign and send the undo: the authorization to the zero address (nonce `draft.nonce + 1`), then the
 * type-4 transaction (`@ethereumjs/tx`, signed with the EOA's key: see signSetCodeTransaction), through the
 * chain's `eth_sendRawTransaction` (never retried).
 *
 * @param privateKey - The EOA's 32-byte key.
 * @param chain - From {@link eip7702Chain}.
 * @param draft - From {@link draftUndoTransaction}, as the user confirmed it.
 * @returns The transaction hash (computed here; the node must answer the same).
 * @throws The node's error when it refuses the transaction; JsonRpcError -32603 when it answers
 * another hash.
 */
export async function sendUndoTransaction(
  privateKey: Hex,
  chain: SmartAccountChain,
  draft: UndoDraft,
): Promise<Hex> {
  const authorization = await signEip7702Authorization(privateKey, {
    address: zeroAddress,
    chainId: chain.chainId,
    nonce: draft.nonce + 1n,
  });
  const { raw, hash: expected } = signSetCodeTransaction(privateKey, {
    chainId: chain.chainId,
    nonce: draft.nonce,
    maxPriorityFeePerGas: draft.maxPriorityFeePerGas,
    maxFeePerGas: draft.maxFeePerGas,
    gasLimit: draft.gas,
    to: chain.sender,
    value: 0n,
    data: '0x',
    accessList: [],
    authorizationList: [
      {
        chainId: numberToHex(authorization.chainId),
        address: authorization.address,
        nonce: numberToHex(authorization.nonce),
        yParity: numberToHex(authorization.yParity ?? 0),
        r: authorization.r,
        s: authorization.s,
      },
    ],
  });
  const answered = await chain.client.request('eth_sendRawTransaction', [raw]);
  if (
    typeof answered !== 'string' ||
    answered.toLowerCase() !== expected.toLowerCase()
  ) {
    throw rpcErrors.internal({
      message: `The chain's RPC answered another transaction hash than the undo transaction's (${expected})`,
    });
  }
  return expected;
}
