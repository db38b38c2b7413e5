/**
 * `npm run demo`: plays a dapp against the built snap in the snaps simulation, with a
 * real local chain (anvil). Every signature is checked by recovering the signer with viem,
 * and the signed transaction is broadcast to anvil. Exits 0 only if every check holds.
 */
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import {
  bytesToHex,
  createPublicClient,
  defineChain,
  http,
  numberToHex,
  parseEther,
  recoverMessageAddress,
  recoverTypedDataAddress,
  stringToHex,
} from 'viem';

import { startDevnet } from '../devnet/devnet';
import { addJson, startIpfsNode } from '../devnet/ipfs-node';
import { jsonRpc } from '../devnet/json-rpc';
import {
  installRecorder,
  readRecord,
  recordCalldata,
  RECORDERS,
} from '../devnet/targets';
import manifest from '../snap.manifest.json';
import { permissionsFlow } from './demo/permissions';
import { entryPointsFlow, waitForReceipt } from './lib/demo-entrypoints';
import { gasTokenFlow } from './lib/demo-gas-token';
import { homePageFlow, restoreFlow } from './lib/demo-home';
import { check, say } from './lib/demo-log';
import type { DemoContext } from './lib/demo-log';
import { startSimulatedSnap } from './lib/snap-sim';
import type { SimulatedSnap } from './lib/snap-sim';

const COMPANION =
  manifest.initialPermissions['endowment:keyring'].allowedOrigins[0];
let requestNumber = 0;

/**
 * Submit a dapp's request to an account through keyring_submitRequest, as MetaMask does.
 *
 * @param snap - The running snap.
 * @param account - The keyring account (its `id` is used).
 * @param method - The signing method.
 * @param params - Its params.
 * @param scope - The CAIP-2 chain.
 * @returns The request's result (synchronous approval).
 */
async function submit(
  snap: SimulatedSnap,
  account: any,
  method: string,
  params: any,
  scope: string,
): Promise<any> {
  requestNumber += 1;
  const response = await snap.keyring(
    'keyring_submitRequest',
    {
      id: `d0000000-0000-4000-8000-${String(requestNumber).padStart(12, '0')}`,
      scope,
      account: account.id,
      origin: 'https://dapp.example',
      request: { method, params },
    },
    'metamask',
  );
  return response.result;
}

/**
 * EOA accounts: create, sign (personal_sign, typed data v4, a transaction), check each
 * signature with viem and broadcast the transaction on anvil.
 *
 * @param demo - The running snap and the devnet.
 * @param demo.snap - The running snap.
 * @param demo.devnet - The devnet (its chain, anvil).
 */
async function eoaFlow({ snap, devnet }: DemoContext): Promise<void> {
  const { anvil } = devnet;
  const chain = defineChain({
    id: anvil.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const client = createPublicClient({ chain, transport: http(anvil.url) });
  const scope = `eip155:${anvil.chainId}`;

  say(
    `The companion site (${COMPANION}) creates two accounts, alice and bob, whose keys come from the recovery phrase`,
  );
  const alice = await snap.keyring('keyring_createAccount', { options: {} });
  const bob = await snap.keyring('keyring_createAccount', { options: {} });
  console.log(`    alice ${alice.address}\n    bob   ${bob.address}`);
  check(
    'MetaMask was told of both',
    snap.events.filter((event) => event.method === 'notify:accountCreated')
      .length === 2,
  );

  say('A site asks alice to sign a message (personal_sign, EIP-191)');
  const message = `Sign in to dapp.example\nNonce: ${Date.now()}`;
  const personal = await submit(
    snap,
    alice,
    'personal_sign',
    [stringToHex(message), alice.address],
    scope,
  );
  const personalSigner = await recoverMessageAddress({
    message,
    signature: personal,
  });
  check(
    'viem recovers alice from the signature',
    personalSigner === alice.address,
    `${personal.slice(0, 20)}…`,
  );

  say('A site asks bob to sign typed data (EIP-712)');
  const typedData = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Order: [
        { name: 'maker', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
    },
    primaryType: 'Order',
    domain: { name: 'Demo Exchange', chainId: anvil.chainId },
    message: { maker: bob.address, amount: '1000' },
  };
  const typed = await submit(
    snap,
    bob,
    'eth_signTypedData_v4',
    [bob.address, typedData],
    scope,
  );
  const typedSigner = await recoverTypedDataAddress({
    ...(typedData as any),
    signature: typed,
  });
  check(
    'viem recovers bob from the EIP-712 signature',
    typedSigner === bob.address,
  );

  say(
    'alice signs a transaction paying bob 0.5 ETH; it is sent to the local chain',
  );
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [alice.address, numberToHex(parseEther('2'))] as never,
  });
  const tx = {
    type: '0x2',
    from: alice.address,
    to: bob.address,
    chainId: numberToHex(anvil.chainId),
    nonce: numberToHex(
      await client.getTransactionCount({ address: alice.address }),
    ),
    gasLimit: '0x5208',
    maxFeePerGas: numberToHex(parseEther('0.00000005')),
    maxPriorityFeePerGas: '0x3b9aca00',
    value: numberToHex(parseEther('0.5')),
    data: '0x',
  };
  const signature = await submit(
    snap,
    alice,
    'eth_signTransaction',
    [tx],
    scope,
  );
  console.log(
    `    { v: ${signature.v}, r: ${signature.r.slice(0, 12)}…, s: ${signature.s.slice(0, 12)}… }`,
  );
  const raw = bytesToHex(
    createTx({ ...tx, ...signature } as never, {
      common: createCustomCommon({ chainId: anvil.chainId }, Mainnet),
    }).serialize(),
  );
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await client.waitForTransactionReceipt({
    hash,
    timeout: 10_000,
  });
  check('it is in a block, and succeeded', receipt.status === 'success', hash);
  check(
    'the sender is alice',
    receipt.from.toLowerCase() === alice.address.toLowerCase(),
  );
  check(
    'bob received 0.5 ETH',
    (await client.getBalance({ address: bob.address })) === parseEther('0.5'),
  );
}

/**
 * A smart account: metadata from IPFS, prepare, patch (paymaster), sign, send through Alto, and
 * check both calls took effect on chain.
 *
 * @param demo - The running snap, the devnet and the IPFS node.
 * @param demo.snap - The running snap.
 * @param demo.devnet - The ERC-4337 devnet.
 * @param demo.ipfs - The IPFS node holding the account's metadata.
 */
async function smartAccountFlow({
  snap,
  devnet,
  ipfs,
}: DemoContext): Promise<void> {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  say(
    "The site publishes a smart account's name on IPFS (a small JSON document)",
  );
  // The local bundler listens on loopback, which metadata may never name (a published document
  // must not point the snap at the user's own machine): the chain config below names it instead.
  const metadata = { version: 1, name: 'Demo Vault' };
  const cid = await addJson(ipfs, metadata);
  console.log(`    ${cid}: ${JSON.stringify(metadata)}`);
  await snap.rpcConfirmed('setIpfsConfig', {
    apiUrl: ipfs.apiUrl,
    apiKey: 'demo-key',
    apiKeySecret: 'demo-secret',
  });

  say(
    'It adds the local chain (its node, EntryPoint v0.6 and account factory, the bundler and a paymaster that pays gas), after the dialog that names the site',
  );
  const stored = await snap.rpcConfirmed('setChainConfig', devnet.chainConfig);
  console.log(
    `    entryPoint ${stored.entryPoint}, accountFactory ${stored.accountFactory}`,
  );

  say(
    'It creates a smart account (ERC-4337) named by that document (fetched from IPFS and checked against its hash)',
  );
  const vault = await snap.keyring('keyring_createAccount', {
    options: {
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      metadataCid: cid,
    },
  });
  const created = snap.events.at(-1);
  check(
    'named from the metadata',
    created?.params.accountNameSuggestion === 'Demo Vault',
    vault.address,
  );
  check(
    'its address is known before it exists on the chain',
    (await client.getCode({ address: vault.address })) === undefined,
  );

  say(
    'MetaMask prepares a user operation making two calls, has the paymaster pay its gas, and the snap signs it',
  );
  await installRecorder(devnet.rpcUrl, RECORDERS[0]);
  await installRecorder(devnet.rpcUrl, RECORDERS[1]);
  const calls = [
    { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 2026) },
    { to: RECORDERS[1], value: '0x0', data: recordCalldata(2, 4337) },
  ];
  const prepared = await submit(
    snap,
    vault,
    'eth_prepareUserOperation',
    calls,
    devnet.scope,
  );
  console.log(
    `    nonce ${BigInt(prepared.nonce)}; it creates the account first (its factory ${prepared.initCode.slice(0, 42)}); gas limits ${Object.values(
      prepared.gasLimits as Record<string, string>,
    )
      .map((gas) => BigInt(gas).toString())
      .join(' / ')}`,
  );
  check(
    'it goes to the bundler of the chain settings',
    prepared.bundlerUrl === devnet.bundlerUrl,
  );
  const block = await client.getBlock();
  const userOp: Record<string, string> = {
    sender: vault.address,
    nonce: prepared.nonce,
    initCode: prepared.initCode,
    callData: prepared.callData,
    ...prepared.gasLimits,
    maxFeePerGas: numberToHex(
      (block.baseFeePerGas ?? 0n) * 2n + 1_000_000_000n,
    ),
    maxPriorityFeePerGas: numberToHex(1_000_000_000n),
    paymasterAndData: prepared.dummyPaymasterAndData,
    signature: prepared.dummySignature,
  };
  Object.assign(
    userOp,
    await submit(snap, vault, 'eth_patchUserOperation', [userOp], devnet.scope),
  );
  check(
    'the paymaster sponsors it',
    userOp.paymasterAndData
      ?.toLowerCase()
      .startsWith(devnet.contracts.verifyingPaymaster.toLowerCase()),
  );
  userOp.signature = await submit(
    snap,
    vault,
    'eth_signUserOperation',
    [userOp],
    devnet.scope,
  );

  say('The bundler (Alto) puts the operation in a block');
  const userOpHash = await jsonRpc<string>(
    devnet.bundlerUrl,
    'eth_sendUserOperation',
    [userOp, devnet.contracts.entryPoint],
  );
  const receipt = await waitForReceipt(snap, devnet.scope, userOpHash);
  check(
    'it succeeded (the bundler’s receipt)',
    receipt?.success === true,
    userOpHash,
  );
  check(
    'the account now exists on the chain',
    (await client.getCode({ address: vault.address })) !== undefined,
  );
  check(
    'both calls took effect',
    (await readRecord(devnet.rpcUrl, RECORDERS[0], 1)) === 2026n &&
      (await readRecord(devnet.rpcUrl, RECORDERS[1], 2)) === 4337n,
  );
}

/**
 * The spending-permissions step (scripts/demo/permissions.ts) in the steps' shape.
 *
 * @param demo - The demo's snap and devnet.
 * @returns When the step has run.
 */
async function permissionsStep(demo: DemoContext): Promise<void> {
  await permissionsFlow(demo.snap, demo.devnet);
}

/**
 * The demo's steps, in order: each one a function of its own (here or in scripts/lib/demo-*.ts),
 * so a new part is a module and one line here.
 */
const STEPS: ((demo: DemoContext) => Promise<void>)[] = [
  eoaFlow,
  smartAccountFlow,
  entryPointsFlow,
  gasTokenFlow,
  permissionsStep,
  homePageFlow,
  restoreFlow,
];

/**
 * Start the devnet and the IPFS node, run the steps, stop everything.
 */
async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    'Keyring snap demo: the built snap in the snaps simulation; a local chain (anvil) with ERC-4337 EntryPoints v0.6, v0.7 and v0.8, a bundler (Alto), paymasters and an IPFS node, all on 127.0.0.1.',
  );
  const devnet = await startDevnet({ tokenPaymaster: true });
  const ipfs = await startIpfsNode({
    apiKey: 'demo-key',
    apiKeySecret: 'demo-secret',
  }).catch(async (error: unknown) => {
    await devnet.stop();
    throw error;
  });
  console.log(
    `anvil ${devnet.rpcUrl} (chain ${devnet.chainId}), Alto ${devnet.bundlerUrl}, paymaster ${devnet.paymasterUrl}, IPFS API ${ipfs.apiUrl}`,
  );
  const snap = await startSimulatedSnap(COMPANION);
  try {
    for (const step of STEPS) {
      await step({ snap, devnet, ipfs });
    }
    console.log(
      `\nAll checks passed in ${Math.round((Date.now() - started) / 1000)} s (after the build).`,
    );
  } finally {
    await snap.close();
    await ipfs.close();
    await devnet.stop();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(`\nDemo failed: ${(error as Error).message}`);
    process.exit(1);
  });
