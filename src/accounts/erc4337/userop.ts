import { EthMethod } from '@metamask/keyring-api';
import type { EthUserOperation } from '@metamask/keyring-api';
import {
  encodeAbiParameters,
  encodeFunctionData,
  hexToBytes,
  keccak256,
  numberToHex,
  parseAbiParameters,
} from 'viem';
import type { Hex } from 'viem';
import type { UserOperation } from 'viem/account-abstraction';
import { signMessage } from 'viem/accounts';

import {
  factoryAbi,
  PRE_VERIFICATION_GAS,
  simpleAccountAbi,
} from './constants';
import { invalidParams } from '../../utils/errors';

/** The three ERC-4337 methods a SimpleAccount v0.6 account serves (no ERC-1271, so no message signing). */
export const ERC4337_METHODS = [
  EthMethod.PrepareUserOperation,
  EthMethod.PatchUserOperation,
  EthMethod.SignUserOperation,
] as const;

/** A transaction intent of eth_prepareUserOperation: `to` (20-byte), `value` (wei), `data` (hex bytes). */
export type Intent = {
  /** The called address (20-byte). */
  to: Hex;
  /** The value sent (wei). */
  value: bigint;
  /** The call's data (hex bytes, `0x` for a plain transfer). */
  data: Hex;
};

/**
 * The account's call data for its intents: one intent encodes SimpleAccount v0.6
 * `execute(dest, value, func)`; several encode `executeBatch(dest[], func[])`, which
 * carries no value, so a batch with value is refused rather than silently dropped.
 *
 * @param intents - One or more intents.
 * @returns ABI-encoded call data.
 * @throws JsonRpcError -32602 for an empty list or a batch that sends value.
 */
export function encodeCallData(intents: Intent[]): Hex {
  if (intents.length === 0) {
    throw invalidParams(
      'Invalid eth_prepareUserOperation params: at least one intent is required',
    );
  }
  if (intents.length === 1) {
    const [intent] = intents as [Intent];
    return encodeFunctionData({
      abi: simpleAccountAbi,
      functionName: 'execute',
      args: [intent.to, intent.value, intent.data],
    });
  }
  const withValue = intents.findIndex((intent) => intent.value !== 0n);
  if (withValue !== -1) {
    throw invalidParams(
      `Invalid eth_prepareUserOperation params at ${withValue}.value: SimpleAccount v0.6 executeBatch cannot send value; send a transfer in its own user operation`,
    );
  }
  return encodeFunctionData({
    abi: simpleAccountAbi,
    functionName: 'executeBatch',
    args: [
      intents.map((intent) => intent.to),
      intents.map((intent) => intent.data),
    ],
  });
}

/**
 * initCode of a not-yet-deployed account: factory address ++ `createAccount(owner, salt)`.
 *
 * @param factory - SimpleAccountFactory address.
 * @param owner - Owner EOA address.
 * @param salt - CREATE2 salt.
 * @returns The initCode bytes.
 */
export function encodeInitCode(factory: Hex, owner: Hex, salt: bigint): Hex {
  const call = encodeFunctionData({
    abi: factoryAbi,
    functionName: 'createAccount',
    args: [owner, salt],
  });
  return `${factory}${call.slice(2)}` as Hex;
}

const USER_OP_TUPLE = parseAbiParameters(
  '(address sender, uint256 nonce, bytes initCode, bytes callData, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes paymasterAndData, bytes signature)',
);

/**
 * An EntryPoint v0.6 `UserOperation` with quantities as bigints, every field present (ABI-encodable):
 * viem's own v0.6 type.
 */
export type BigIntUserOperation = Required<
  Omit<UserOperation<'0.6'>, 'authorization'>
>;

/**
 * The operation with quantities as bigints (viem's EntryPoint v0.6 `UserOperation` shape).
 *
 * @param op - keyring-api user operation, hex strings.
 * @returns The same fields, quantities as bigint.
 */
function toUserOperation(op: EthUserOperation): BigIntUserOperation {
  return {
    sender: op.sender as Hex,
    nonce: BigInt(op.nonce),
    initCode: op.initCode as Hex,
    callData: op.callData as Hex,
    callGasLimit: BigInt(op.callGasLimit),
    verificationGasLimit: BigInt(op.verificationGasLimit),
    preVerificationGas: BigInt(op.preVerificationGas),
    maxFeePerGas: BigInt(op.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
    paymasterAndData: op.paymasterAndData as Hex,
    signature: op.signature as Hex,
  };
}

/**
 * preVerificationGas of a v0.6 user operation: the calldata cost of its ABI-packed form
 * (4 gas per zero byte, 16 per non-zero byte) plus the reference bundler's fixed overhead
 * (21,000 per bundle of one, 18,300 per operation, 4 per 32-byte word).
 *
 * @param op - The operation with its final-length fields (dummy signature and paymasterAndData).
 * @returns Gas.
 */
export function preVerificationGas(
  op: Omit<EthUserOperation, 'preVerificationGas'>,
): bigint {
  const packed = hexToBytes(
    encodeAbiParameters(USER_OP_TUPLE, [
      toUserOperation({
        ...op,
        preVerificationGas: numberToHex(PRE_VERIFICATION_GAS.fixed),
      }),
    ]),
  ).slice(32); // drop the tuple's head offset word, as the reference packUserOp does
  const { fixed, perUserOp, perUserOpWord, zeroByte, nonZeroByte } =
    PRE_VERIFICATION_GAS;
  const calldataCost = packed.reduce(
    (sum, byte) => sum + (byte === 0 ? zeroByte : nonZeroByte),
    0n,
  );
  const words = BigInt(Math.ceil(packed.length / 32));
  return calldataCost + fixed + perUserOp + perUserOpWord * words;
}

const PACKED_USER_OP = parseAbiParameters(
  'address sender, uint256 nonce, bytes32 initCodeHash, bytes32 callDataHash, uint256 callGasLimit, uint256 verificationGasLimit, uint256 preVerificationGas, uint256 maxFeePerGas, uint256 maxPriorityFeePerGas, bytes32 paymasterAndDataHash',
);

/**
 * userOpHash exactly as EntryPoint v0.6 `getUserOpHash`:
 * keccak256(abi.encode(keccak256(pack(userOp)), entryPoint, block.chainid)), where `pack` is
 * UserOperationLib.pack: the static fields with initCode, callData and paymasterAndData replaced by
 * their keccak256. The chain id stays a bigint (uint256): chain ids above 2^53 keep every bit.
 *
 * @param op - The user operation (hex strings).
 * @param entryPoint - EntryPoint address.
 * @param chainId - Chain id of the request's scope.
 * @returns The 32-byte userOpHash.
 */
export function userOpHash(
  op: EthUserOperation,
  entryPoint: Hex,
  chainId: bigint,
): Hex {
  const operation = toUserOperation(op);
  const packed = encodeAbiParameters(PACKED_USER_OP, [
    operation.sender,
    operation.nonce,
    keccak256(operation.initCode),
    keccak256(operation.callData),
    operation.callGasLimit,
    operation.verificationGasLimit,
    operation.preVerificationGas,
    operation.maxFeePerGas,
    operation.maxPriorityFeePerGas,
    keccak256(operation.paymasterAndData),
  ]);
  return keccak256(
    encodeAbiParameters(parseAbiParameters('bytes32, address, uint256'), [
      keccak256(packed),
      entryPoint,
      chainId,
    ]),
  );
}

/**
 * Sign a user operation as SimpleAccount v0.6 validates it: an EIP-191 personal
 * signature of the userOpHash by the owner (`hash.toEthSignedMessageHash()` then ECDSA).
 *
 * @param privateKey - The owner's 32-byte key.
 * @param op - The user operation.
 * @param entryPoint - EntryPoint address.
 * @param chainId - Chain id.
 * @returns The 65-byte signature hex.
 */
export async function signUserOperation(
  privateKey: Hex,
  op: EthUserOperation,
  entryPoint: Hex,
  chainId: bigint,
): Promise<Hex> {
  return signMessage({
    privateKey,
    message: { raw: userOpHash(op, entryPoint, chainId) },
  });
}
