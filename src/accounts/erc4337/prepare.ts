import type { EthBaseUserOperation } from '@metamask/keyring-api';
import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  isAddressEqual,
  numberToHex,
  pad,
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
  simpleAccountAbi,
  VERIFICATION_GAS_BASE,
} from './constants';
import { checkedBalance, balanceRead } from './funds';
import { assertPinnedImplementation } from './knownFactories';
import { assertNonceKey, readNonceOfKey } from './nonce';
import { getPaymasterStubData } from './paymaster';
import { encodeCallData, encodeInitCode, preVerificationGas } from './userop';
import type { Intent } from './userop';
import { proxyCreationCode } from './versions';
import type { EntryPointVersion } from './versions';
import type { ChainRpcError, RpcCall, RpcClient, Settled } from '../../chain';
import {
  capGas,
  ExecutionRevertedError,
  gasCapOf,
  readBlockGasLimit,
  readGasEstimate,
  readHexData,
  readUintWord,
  settledResult,
  TransportError,
} from '../../chain';
import { invalidParams, notFound } from '../../utils/errors';

/**
 * What the network side of a smart account needs: never a key. `client` is the
 * embedded JSON-RPC adapter for the chain of the request's scope.
 */
export type SmartAccountChain = {
  /** The embedded JSON-RPC adapter for the chain of the request's scope. */
  client: RpcClient;
  /** The chain's id (EIP-155). */
  chainId: bigint;
  /** The account's EntryPoint version (absent: v0.6). */
  entryPointVersion?: EntryPointVersion;
  /** EntryPoint address (of that version). */
  entryPoint: Hex;
  /** SimpleAccountFactory address (of that version). */
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
  /**
   * The sender is an EOA running MetaMask's EIP7702StatelessDeleGator (EntryPoint v0.7): its call
   * data and signature are the DeleGator's (accounts/deleGator/account.ts), never SimpleAccount's.
   */
  deleGator?: boolean;
};

/** Fee placeholders with realistic non-zero bytes, for preVerificationGas before the wallet sets fees. */
const FEE_PLACEHOLDER = '0xffffffffffffffff';

/**
 * The CREATE2 address (EIP-1014) SimpleAccountFactory v0.6 deploys the account of `owner` to,
 * computed without asking anyone: `createAccount(owner, salt)` runs
 * `new ERC1967Proxy{salt: bytes32(salt)}(implementation, abi.encodeCall(SimpleAccount.initialize, (owner)))`,
 * so the address is `keccak256(0xff ++ factory ++ salt ++ keccak256(proxyCreationCode ++
 * abi.encode(implementation, initialize(owner))))[12:]`.
 *
 * @param accountFactory - SimpleAccountFactory v0.6 address (the CREATE2 deployer).
 * @param implementation - The factory's `accountImplementation()` (immutable on the factory).
 * @param owner - Owner EOA.
 * @param salt - `createAccount` salt (uint256; the snap uses {@link ACCOUNT_SALT}).
 * @param version - The factory's EntryPoint version (v0.7 and v0.8 factories deploy the same way
 * with OpenZeppelin 5's ERC1967Proxy, whose creation code differs: see `proxyCreationCode`).
 * @returns The checksummed account address.
 */
export function counterfactualAddress(
  accountFactory: Hex,
  implementation: Hex,
  owner: Hex,
  salt: bigint = ACCOUNT_SALT,
  version: EntryPointVersion = '0.6',
): Hex {
  const initialize = encodeFunctionData({
    abi: simpleAccountAbi,
    functionName: 'initialize',
    args: [owner],
  });
  return getContractAddress({
    opcode: 'CREATE2',
    from: accountFactory,
    salt: pad(toHex(salt), { size: 32 }),
    bytecode: concat([
      proxyCreationCode(version),
      encodeAbiParameters(
        [{ type: 'address' }, { type: 'bytes' }],
        [implementation, initialize],
      ),
    ]),
  });
}

/**
 * The counterfactual address of the SimpleAccount of `owner`, computed here (CREATE2, see
 * {@link counterfactualAddress}) from the factory's immutable `accountImplementation()`, and
 * checked against the factory's own `getAddress(owner, salt)`; all three reads (factory code,
 * implementation, getAddress) in one batched round trip.
 *
 * Why computed: the address is kept for the account's life and receives its deposits, so it must
 * not be whatever the RPC says. For a known factory (knownImplementation: the canonical v0.6
 * SimpleAccountFactory) the implementation is pinned and an RPC answering another one is refused,
 * so no single RPC answer decides the address. For any other factory the implementation is read
 * from the chain: an RPC that lies about it and about getAddress alike can make the snap compute
 * an address no one can deploy to (only the factory deploys there, and only with its real
 * implementation), never one the liar controls; a lie about getAddress alone is caught by the
 * comparison.
 *
 * @param client - The chain's RPC adapter.
 * @param accountFactory - SimpleAccountFactory v0.6 address.
 * @param owner - Owner EOA.
 * @param version - The factory's EntryPoint version (default v0.6).
 * @returns `{ address, implementation }`, both checksummed.
 * @throws JsonRpcError -32602 when no factory is deployed there; -32603 when the RPC's
 * accountImplementation answer disagrees with a known factory's pinned implementation (naming the
 * factory, never the answer); TransportError (malformed, -32002 to a caller) when a reply is not a
 * 32-byte address word, or the getAddress answer disagrees with the computed address (an
 * untrusted reply, named by the factory, never by the answer).
 */
export async function computeAccountAddress(
  client: RpcClient,
  accountFactory: Hex,
  owner: Hex,
  version: EntryPointVersion = '0.6',
): Promise<{ address: Hex; implementation: Hex }> {
  const [code, answered, implementationWord] = await client.batch([
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
      { reason: 'noFactory', version },
    );
  }
  const implementation = readAddressWord(
    implementationWord,
    'SimpleAccountFactory.accountImplementation',
    client.origin,
  );
  assertPinnedImplementation(accountFactory, implementation);
  const address = counterfactualAddress(
    accountFactory,
    implementation,
    owner,
    ACCOUNT_SALT,
    version,
  );
  const factoryAnswer = readAddressWord(
    answered,
    'SimpleAccountFactory.getAddress',
    client.origin,
  );
  if (!isAddressEqual(factoryAnswer, address)) {
    // an untrusted reply, like a malformed one: -32002 (errorMap), never an internal error
    throw new TransportError(
      'malformed',
      `The chain's RPC answers SimpleAccountFactory ${accountFactory}.getAddress with an address that disagrees with the CREATE2 address computed from the factory's implementation: the account was not created (the RPC may be lying; check rpcUrl with setChainConfig)`,
      { url: client.origin },
    );
  }
  return { address, implementation };
}

/**
 * An ABI-encoded `address` return value (one 32-byte word, the top 12 bytes zero).
 *
 * @param value - The eth_call result as received.
 * @param what - What was read, for the error.
 * @param origin - The endpoint's origin, for the error.
 * @returns The checksummed address.
 * @throws TransportError (malformed) when it is not one word or not an address.
 */
function readAddressWord(value: unknown, what: string, origin?: string): Hex {
  return getAddress(
    toHex(readUintWord(value, what, 2n ** 160n - 1n, origin), { size: 20 }),
  );
}

/**
 * eth_prepareUserOperation (keyring-api `EthBaseUserOperation`, EntryPoint v0.6 shape).
 * All chain reads go in ONE batched round trip: `eth_getCode(sender)`, `EntryPoint.getNonce(sender, 0)`
 * (nonce key 0, the key sendUserOperation signs with too: see `SEND_NONCE_KEY`),
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
 * its own reads (sendUserOperation adds the fee reads and `eth_blockNumber`), and a nonce key.
 *
 * @param chain - The chain side of the account.
 * @param intents - `{ to, value (wei), data }` each.
 * @param extra - Further read-only calls for the same batch.
 * @param nonceKey - ERC-4337 nonce key (192 bits; default 0): the nonce is EntryPoint v0.6
 * `getNonce(sender, nonceKey)`, i.e. `nonceKey << 64 | sequence`.
 * @returns `{ prepared, extra, balance }`: the prepared operation, each extra call settled, in
 * order, and the sender's balance (wei, read in the same batch).
 * @throws As prepareUserOperation; TransportError (malformed) when the EntryPoint's nonce is not
 * one of `nonceKey` (other high 192 bits, or a sequence of 2^64 or more); RangeError for a key
 * above 192 bits; JsonRpcError -32003 (`insufficientFunds`, see checkedBalance) when the sender
 * holds less than the intents' values, before any estimate is read. The extra calls' errors are settled, never thrown.
 */
export async function prepareUserOperationWith(
  chain: SmartAccountChain,
  intents: Intent[],
  extra: readonly RpcCall[],
  nonceKey = 0n,
): Promise<{
  prepared: EthBaseUserOperation;
  extra: Settled[];
  balance: bigint;
}> {
  assertNonceKey(nonceKey);
  const { client, entryPoint, accountFactory, owner, sender, bundlerUrl } =
    chain;
  if (!bundlerUrl) {
    throw notFound(
      `No bundlerUrl for eip155:${chain.chainId}: set it with setChainConfig or in the account metadata`,
      { reason: 'noBundlerUrl' },
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
    held,
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
            args: [sender, nonceKey],
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
    balanceRead(sender),
    ...extra,
  ])) as [Settled, Settled, Settled, Settled, Settled, Settled, ...Settled[]];
  const balance = checkedBalance(held, intents, chain.chainId, client.origin);
  // Provider numbers are untrusted: hex checked, gas within [21,000, 10x the block gas limit], the
  // nonce of `nonceKey` with a sequence below 2^64.
  const gasCap = gasCapOf(
    readBlockGasLimit(settledResult(latest), client.origin),
  );
  const deployed =
    readHexData(settledResult(code), 'eth_getCode', client.origin) !== '0x';
  const nonce = readNonceOfKey(
    settledResult(nonceData),
    nonceKey,
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
          settledResult(deployEstimate),
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
  return { prepared, extra: extraSettled, balance };
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
  error: ChainRpcError,
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
