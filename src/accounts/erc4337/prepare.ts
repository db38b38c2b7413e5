import type { EthBaseUserOperation } from '@metamask/keyring-api';
import {
  decodeFunctionResult,
  encodeFunctionData,
  numberToHex,
  toHex,
} from 'viem';
import type { Hex } from 'viem';

import {
  ACCOUNT_SALT,
  DUMMY_SIGNATURE,
  EIP1967_IMPLEMENTATION_SLOT,
  entryPointAbi,
  ERC1967_PROXY_RUNTIME_CODE,
  factoryAbi,
  VERIFICATION_GAS_BASE,
} from './constants';
import { getPaymasterStubData } from './paymaster';
import { encodeCallData, encodeInitCode, preVerificationGas } from './userop';
import type { Intent } from './userop';
import type { JsonRpcError, RpcCall, RpcClient, Settled } from '../../chain';
import {
  capGas,
  ExecutionRevertedError,
  gasCapOf,
  readBlockGasLimit,
  readGasEstimate,
  readHexData,
  readUintWord,
} from '../../chain';
import { invalidParams, notFound } from '../../errors';

/**
 * What the network side of a smart account needs: never a key. `client` is the
 * embedded JSON-RPC adapter for the chain of the request's scope.
 */
export type SmartAccountChain = {
  /** The embedded JSON-RPC adapter for the chain of the request's scope. */
  client: RpcClient;
  /** The chain's id (EIP-155). */
  chainId: bigint;
  /** EntryPoint v0.6 address. */
  entryPoint: Hex;
  /** SimpleAccountFactory v0.6 address. */
  accountFactory: Hex;
  /** The SimpleAccount implementation behind the factory (`accountImplementation()`). */
  implementation: Hex;
  /** The owner EOA, whose key signs the account's operations. */
  owner: Hex;
  /** The smart account's (counterfactual) address: the operation's `sender`. */
  sender: Hex;
  /** Where MetaMask sends the operation (prepare needs it; patch and sign do not). */
  bundlerUrl?: string;
  /** ERC-7677 paymaster web service asked for stub data, when the chain or account has one. */
  paymasterUrl?: string;
};

/** Fee placeholders with realistic non-zero bytes, for preVerificationGas before the wallet sets fees. */
const FEE_PLACEHOLDER = '0xffffffffffffffff';

/**
 * The counterfactual address of the SimpleAccount of `owner` (CREATE2, computed by the
 * factory's own `getAddress(owner, salt)`), and the factory's implementation, read in one
 * batched round trip.
 *
 * @param client - The chain's RPC adapter.
 * @param accountFactory - SimpleAccountFactory v0.6 address.
 * @param owner - Owner EOA.
 * @returns `{ address, implementation }`.
 * @throws JsonRpcError -32602 when no factory is deployed there.
 */
export async function computeAccountAddress(
  client: RpcClient,
  accountFactory: Hex,
  owner: Hex,
): Promise<{ address: Hex; implementation: Hex }> {
  const [code, address, implementation] = await client.batch([
    { method: 'eth_getCode', params: [accountFactory, 'latest'] },
    {
      method: 'eth_call',
      params: [
        {
          to: accountFactory,
          data: encodeFunctionData({
            abi: factoryAbi,
            functionName: 'getAddress',
            args: [owner, ACCOUNT_SALT],
          }),
        },
        'latest',
      ],
    },
    {
      method: 'eth_call',
      params: [
        {
          to: accountFactory,
          data: encodeFunctionData({
            abi: factoryAbi,
            functionName: 'accountImplementation',
          }),
        },
        'latest',
      ],
    },
  ]);
  if (code === '0x' || code === '0x0') {
    throw invalidParams(
      `No SimpleAccountFactory is deployed at ${accountFactory} on this chain`,
    );
  }
  return {
    address: decodeFunctionResult({
      abi: factoryAbi,
      functionName: 'getAddress',
      data: address as Hex,
    }),
    implementation: decodeFunctionResult({
      abi: factoryAbi,
      functionName: 'accountImplementation',
      data: implementation as Hex,
    }),
  };
}

/**
 * eth_prepareUserOperation (keyring-api `EthBaseUserOperation`, EntryPoint v0.6 shape).
 * All chain reads go in ONE batched round trip: `eth_getCode(sender)`, `EntryPoint.getNonce(sender, 0)`,
 * `eth_estimateGas` of the call from the EntryPoint to the sender, `eth_estimateGas` of
 * `factory.createAccount(owner, salt)`, and the latest block, whose gas limit caps the estimates.
 *
 * callGasLimit: the estimate of EntryPoint → sender with a state override that gives the sender
 * the ERC1967Proxy runtime code and the implementation in its EIP-1967 slot, so a not-yet-deployed
 * account is estimated exactly as it will run once deployed (for a deployed one the override
 * equals its real code and slot). A provider that refuses state overrides gets a second round trip:
 * the intents' own estimates from the sender plus a measured `execute` overhead.
 * verificationGasLimit: 100,000 for validation plus the factory's deployment estimate when initCode is set.
 * preVerificationGas: calldata cost of the packed operation plus fixed overhead (see `preVerificationGas`).
 *
 * @param chain - The chain side of the account.
 * @param intents - `{ to, value (wei), data }` each.
 * @returns `{ callData, initCode, nonce, gasLimits, dummySignature, dummyPaymasterAndData, bundlerUrl }`, hex quantities.
 * @throws ExecutionRevertedError (code 3) with the decoded reason when an intent reverts.
 */
export async function prepareUserOperation(
  chain: SmartAccountChain,
  intents: Intent[],
): Promise<EthBaseUserOperation> {
  return (await prepareUserOperationWith(chain, intents, [])).prepared;
}

/**
 * {@link prepareUserOperation} with `extra` read-only calls sent in the same batched round trip as
 * its own reads (sendUserOperation adds the fee reads and `eth_blockNumber`).
 *
 * @param chain - The chain side of the account.
 * @param intents - `{ to, value (wei), data }` each.
 * @param extra - Further read-only calls for the same batch.
 * @returns `{ prepared, extra }`: the prepared operation and each extra call settled, in order.
 * @throws As prepareUserOperation; the extra calls' errors are settled, never thrown.
 */
export async function prepareUserOperationWith(
  chain: SmartAccountChain,
  intents: Intent[],
  extra: readonly RpcCall[],
): Promise<{ prepared: EthBaseUserOperation; extra: Settled[] }> {
  const { client, entryPoint, accountFactory, owner, sender, bundlerUrl } =
    chain;
  if (!bundlerUrl) {
    throw notFound(
      `No bundlerUrl for eip155:${chain.chainId}: set it with setChainConfig or in the account metadata`,
    );
  }
  const callData = encodeCallData(intents);
  const override = {
    [sender]: {
      code: ERC1967_PROXY_RUNTIME_CODE,
      stateDiff: {
        [EIP1967_IMPLEMENTATION_SLOT]: toHex(BigInt(chain.implementation), {
          size: 32,
        }),
      },
    },
  };
  const createAccount = encodeFunctionData({
    abi: factoryAbi,
    functionName: 'createAccount',
    args: [owner, ACCOUNT_SALT],
  });
  const [
    code,
    nonceData,
    callEstimate,
    deployEstimate,
    latest,
    ...extraSettled
  ] = (await client.batchSettled([
    { method: 'eth_getCode', params: [sender, 'latest'] },
    {
      method: 'eth_call',
      params: [
        {
          to: entryPoint,
          data: encodeFunctionData({
            abi: entryPointAbi,
            functionName: 'getNonce',
            args: [sender, 0n],
          }),
        },
        'latest',
      ],
    },
    {
      method: 'eth_estimateGas',
      params: [
        { from: entryPoint, to: sender, data: callData },
        'latest',
        override,
      ],
    },
    {
      method: 'eth_estimateGas',
      params: [{ to: accountFactory, data: createAccount }, 'latest'],
    },
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    ...extra,
  ])) as [Settled, Settled, Settled, Settled, Settled, ...Settled[]];
  // Provider numbers are untrusted: hex checked, gas within [21,000, 10x the block gas limit], nonce key 0 below 2^64.
  const gasCap = gasCapOf(readBlockGasLimit(unwrap(latest), client.origin));
  const deployed =
    readHexData(unwrap(code), 'eth_getCode', client.origin) !== '0x';
  const nonce = readUintWord(
    unwrap(nonceData),
    'EntryPoint.getNonce',
    2n ** 64n - 1n,
    client.origin,
  );
  const callGasLimit = callEstimate.ok
    ? readGasEstimate(
        callEstimate.result,
        'eth_estimateGas',
        gasCap,
        client.origin,
      )
    : await estimateWithoutOverride(
        client,
        sender,
        intents,
        callEstimate.error,
        gasCap,
      );
  const initCode = deployed
    ? '0x'
    : encodeInitCode(accountFactory, owner, ACCOUNT_SALT);
  const verificationGasLimit =
    VERIFICATION_GAS_BASE +
    (deployed
      ? 0n
      : readGasEstimate(
          unwrap(deployEstimate),
          'eth_estimateGas',
          gasCap,
          client.origin,
        ));

  const draft = {
    sender,
    nonce: numberToHex(nonce),
    initCode,
    callData,
    callGasLimit: numberToHex(callGasLimit),
    verificationGasLimit: numberToHex(verificationGasLimit),
    maxFeePerGas: FEE_PLACEHOLDER,
    maxPriorityFeePerGas: FEE_PLACEHOLDER,
    paymasterAndData: '0x',
    signature: DUMMY_SIGNATURE,
  };
  const dummyPaymasterAndData = chain.paymasterUrl
    ? await getPaymasterStubData(
        chain.paymasterUrl,
        { ...draft, preVerificationGas: '0x0' },
        entryPoint,
        chain.chainId,
      )
    : '0x';
  const prepared = {
    callData,
    initCode,
    nonce: draft.nonce,
    gasLimits: {
      callGasLimit: draft.callGasLimit,
      verificationGasLimit: draft.verificationGasLimit,
      preVerificationGas: numberToHex(
        preVerificationGas({
          ...draft,
          paymasterAndData: dummyPaymasterAndData,
        }),
      ),
    },
    dummySignature: DUMMY_SIGNATURE,
    dummyPaymasterAndData,
    bundlerUrl,
  };
  return { prepared, extra: extraSettled };
}

/** Measured: `execute`/`executeBatch` through the proxy costs at most this much above the inner calls (gas). */
export const EXECUTE_OVERHEAD = 30_000n;

/**
 * The call gas of an operation when the provider refused the estimate with the state override
 * (the sender's code set to the SimpleAccount proxy, for an account not yet deployed): each
 * intent is estimated as a plain call from the sender, and {@link EXECUTE_OVERHEAD} is added.
 *
 * @param client - The chain's RPC adapter.
 * @param sender - The smart account's address.
 * @param intents - `{ to, value (wei), data }` each.
 * @param error - The provider's refusal of the estimate with the override.
 * @param gasCap - Largest gas estimate accepted (from the block gas limit).
 * @returns The call gas limit (gas): the estimates' sum plus the overhead.
 * @throws The original error when it is a revert or does not look like an unsupported override;
 * an estimate's error when it fails or is malformed; TransportError (malformed) when the sum
 * is above `gasCap`.
 */
async function estimateWithoutOverride(
  client: RpcClient,
  sender: Hex,
  intents: Intent[],
  error: JsonRpcError,
  gasCap: bigint,
): Promise<bigint> {
  if (error instanceof ExecutionRevertedError) {
    throw error;
  }
  if (
    !/override|-32602|invalid params|unsupported|not supported/iu.test(
      `${error.code} ${error.message}`,
    )
  ) {
    throw error;
  }
  const estimates = await client.batch(
    intents.map((intent) => ({
      method: 'eth_estimateGas',
      params: [
        {
          from: sender,
          to: intent.to,
          value: numberToHex(intent.value),
          data: intent.data,
        },
        'latest',
      ],
    })),
  );
  const total = estimates.reduce<bigint>(
    (sum, estimate) =>
      sum + readGasEstimate(estimate, 'eth_estimateGas', gasCap, client.origin),
    EXECUTE_OVERHEAD,
  );
  return capGas(total, 'eth_estimateGas', gasCap, client.origin);
}

/**
 * The result of a settled batch call.
 *
 * @param item - The settled call.
 * @returns Its result.
 * @throws Its JsonRpcError when the call failed.
 */
function unwrap(item: Settled): unknown {
  if (!item.ok) {
    throw item.error;
  }
  return item.result;
}
