import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  numberToHex,
  pad,
  parseAbi,
} from 'viem';
import type { Hex } from 'viem';
import { toPackedUserOperation } from 'viem/account-abstraction';
import type { UserOperation } from 'viem/account-abstraction';
import { signTypedData } from 'viem/accounts';

import type { DelegationEnvironment } from './canonical';
import { STATELESS_DELEGATOR } from './environment';
import { createRpcClient } from '../../chain';
import { invalidParams } from '../../utils/errors';
import { resolveChainSettings } from '../erc4337/config';
import type { SmartAccountChain } from '../erc4337/prepare';
import type { ChainConfig } from '../erc4337/types';
import type { Intent } from '../erc4337/userop';

/**
 * An EOA of the snap upgraded with EIP-7702 to MetaMask's `EIP7702StatelessDeleGator`
 * (MetaMask/delegation-framework v1.3.0, `src/EIP7702/EIP7702StatelessDeleGator.sol`): ERC-4337 on
 * the EntryPoint v0.7 the implementation has compiled in, its call data the DeleGator's ERC-7579
 * `execute(bytes32 mode, bytes executionCalldata)` (ERC-7579 execution modes, single or batch,
 * revert on failure), and its user-operation signature the EOA's own 65-byte ECDSA signature of
 * the EIP-712 digest of `PackedUserOperation(..., address entryPoint)` under the domain
 * `{ name: "EIP7702StatelessDeleGator", version: "1", chainId, verifyingContract: <the EOA> }`
 * (`EIP7702DeleGatorCore.validateUserOp`, which ignores the EntryPoint's userOpHash; the Smart
 * Accounts Kit's `toMetaMaskSmartAccount` signs it the same way). No I/O here.
 */

/** The DeleGator's EIP-712 domain name (`EIP7702StatelessDeleGator.NAME`). */
export const DELEGATOR_DOMAIN_NAME = 'EIP7702StatelessDeleGator';

/** The struct the DeleGator's user-operation signature covers (`PACKED_USER_OP_TYPEHASH`). */
export const DELEGATOR_USER_OP_TYPES = {
  PackedUserOperation: [
    { name: 'sender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'accountGasLimits', type: 'bytes32' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'gasFees', type: 'bytes32' },
    { name: 'paymasterAndData', type: 'bytes' },
    { name: 'entryPoint', type: 'address' },
  ],
} as const;

/** ERC-7579 mode: single call, revert on failure (`CALLTYPE_SINGLE`, `EXECTYPE_DEFAULT`). */
const SINGLE_DEFAULT = pad('0x00', { dir: 'right', size: 32 });

/** ERC-7579 mode: batch of calls, revert on failure (`CALLTYPE_BATCH`, `EXECTYPE_DEFAULT`). */
const BATCH_DEFAULT = pad('0x01', { dir: 'right', size: 32 });

const executeAbi = parseAbi([
  'function execute(bytes32 mode, bytes executionCalldata)',
]);

/**
 * The DeleGator's call data for its intents: one intent is ERC-7579 single mode with
 * `abi.encodePacked(target, value, callData)`; several are batch mode with
 * `abi.encode((address target, uint256 value, bytes callData)[])` (ERC-7579 `ExecutionLib`).
 *
 * @param intents - One or more intents (`to`, value in wei, data).
 * @returns ABI-encoded `execute(bytes32, bytes)` call data.
 */
export function encodeDeleGatorCalls(intents: Intent[]): Hex {
  if (intents.length === 1) {
    const [{ to, value, data }] = intents as [Intent];
    return encodeFunctionData({
      abi: executeAbi,
      functionName: 'execute',
      args: [
        SINGLE_DEFAULT,
        concat([to, numberToHex(value, { size: 32 }), data]),
      ],
    });
  }
  return encodeFunctionData({
    abi: executeAbi,
    functionName: 'execute',
    args: [
      BATCH_DEFAULT,
      encodeAbiParameters(
        [
          {
            type: 'tuple[]',
            components: [
              { name: 'target', type: 'address' },
              { name: 'value', type: 'uint256' },
              { name: 'callData', type: 'bytes' },
            ],
          },
        ],
        [
          intents.map(({ to, value, data }) => ({
            target: to,
            value,
            callData: data,
          })),
        ],
      ),
    ],
  });
}

/**
 * The EIP-712 typed data the DeleGator's user-operation signature covers (see the module's note).
 *
 * @param chain - The DeleGator's chain side ({@link deleGatorChain}).
 * @param userOp - The operation (v0.7; its signature is ignored).
 * @returns viem's typed-data definition.
 */
export function deleGatorUserOpTypedData(
  chain: Pick<SmartAccountChain, 'chainId' | 'entryPoint' | 'sender'>,
  userOp: UserOperation<'0.7'>,
): {
  domain: {
    name: string;
    version: string;
    chainId: number;
    verifyingContract: Hex;
  };
  types: typeof DELEGATOR_USER_OP_TYPES;
  primaryType: 'PackedUserOperation';
  message: ReturnType<typeof toPackedUserOperation> & { entryPoint: Hex };
} {
  const packed = toPackedUserOperation({ ...userOp, signature: '0x' });
  return {
    domain: {
      name: DELEGATOR_DOMAIN_NAME,
      version: '1',
      chainId: Number(chain.chainId),
      verifyingContract: chain.sender,
    },
    types: DELEGATOR_USER_OP_TYPES,
    primaryType: 'PackedUserOperation',
    message: { ...packed, entryPoint: chain.entryPoint },
  };
}

/**
 * Sign a DeleGator operation with the EOA's key: the raw 65-byte ECDSA signature of the digest of
 * {@link deleGatorUserOpTypedData} (the DeleGator recovers it and compares with its own address).
 *
 * @param privateKey - The EOA's 32-byte key.
 * @param chain - The DeleGator's chain side.
 * @param userOp - The operation.
 * @returns The 65-byte signature.
 */
export async function signDeleGatorUserOperation(
  privateKey: Hex,
  chain: Pick<SmartAccountChain, 'chainId' | 'entryPoint' | 'sender'>,
  userOp: UserOperation<'0.7'>,
): Promise<Hex> {
  return signTypedData({
    privateKey,
    ...deleGatorUserOpTypedData(chain, userOp),
  });
}

/**
 * The chain side of an EOA sending through the DeleGator: the chain config's RPC, bundler and
 * paymaster service, the environment's EntryPoint (v0.7, compiled into the implementation, so a
 * chain's `entryPoints` override does not apply), sender and owner the EOA itself. Only once the
 * implementation on the chain was checked (`readEoaChainState`'s `deleGatorReady`).
 *
 * @param address - The EOA.
 * @param config - The chain config of the request's scope.
 * @param environment - The chain's Delegation Framework (`Settings.delegationEnvironment`).
 * @param ready - Whether the implementation on the chain is the environment's DeleGator.
 * @returns The chain side for modern.ts's v0.7 send, marked `deleGator`.
 * @throws JsonRpcError -32602 when it is not (nothing signed).
 */
export function deleGatorChain(
  address: Hex,
  config: ChainConfig,
  environment: DelegationEnvironment,
  ready: boolean | undefined,
): SmartAccountChain {
  if (!ready) {
    throw invalidParams(
      `The DeleGator implementation of ${config.scope}'s settings is not MetaMask's EIP7702StatelessDeleGator for that delegation manager and EntryPoint on this chain: nothing was signed`,
    );
  }
  const settings = resolveChainSettings(config);
  const implementation = getAddress(
    environment.implementations[STATELESS_DELEGATOR],
  );
  return {
    client: createRpcClient({ url: settings.rpcUrl }),
    chainId: settings.chainId,
    entryPointVersion: '0.7',
    entryPoint: getAddress(environment.EntryPoint),
    accountFactory: implementation,
    implementation,
    owner: getAddress(address),
    sender: getAddress(address),
    deleGator: true,
    ...(settings.bundlerUrl ? { bundlerUrl: settings.bundlerUrl } : {}),
    ...(settings.paymasterUrl ? { paymasterUrl: settings.paymasterUrl } : {}),
  };
}
