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

import type { Anvil } from '../devnet/anvil';
import { startDevnet } from '../devnet/devnet';
import type { Devnet } from '../devnet/devnet';
import { addJson, startIpfsNode } from '../devnet/ipfs-node';
import type { IpfsNode } from '../devnet/ipfs-node';
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
import { check, say } from './lib/demo-log';
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
 * @param snap - The running snap.
 * @param anvil - The local chain.
 */
async function eoaFlow(snap: SimulatedSnap, anvil: Anvil): Promise<void> {
  const chain = defineChain({
    id: anvil.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } },
  });
  const client = createPublicClient({ chain, transport: http(anvil.url) });
  const scope = `eip155:${anvil.chainId}`;

  say(
    `The companion dapp (${COMPANION}) creates two accounts (keys derived from the SRP with snap_getEntropy)`,
  );
  const alice = await snap.keyring('keyring_createAccount', { options: {} });
  const bob = await snap.keyring('keyring_createAccount', { options: {} });
  console.log(`    alice ${alice.address}\n    bob   ${bob.address}`);
  check(
    'two notify:accountCreated events',
    snap.events.filter((event) => event.method === 'notify:accountCreated')
      .length === 2,
  );

  say('A dapp asks alice to sign a personal message (personal_sign, EIP-191)');
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

  say('A dapp asks bob to sign EIP-712 typed data (eth_signTypedData_v4)');
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
    'alice signs an EIP-1559 transaction paying bob 0.5 ETH; it is broadcast to anvil',
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
  check(
    'anvil mined it with status success',
    receipt.status === 'success',
    hash,
  );
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
 * check the intents took effect on chain.
 *
 * @param snap - The running snap.
 * @param devnet - The ERC-4337 devnet.
 * @param ipfs - The IPFS node holding the account's metadata.
 */
async function smartAccountFlow(
  snap: SimulatedSnap,
  devnet: Devnet,
  ipfs: IpfsNode,
): Promise<void> {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  say(
    'The dapp publishes account metadata on IPFS (embedded helia node behind the IPFS HTTP API)',
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
    `It configures the chain (setChainConfig ${devnet.scope}: RPC, EntryPoint v0.6, SimpleAccountFactory, Alto, ERC-7677 paymaster), confirmed in the dialog that names the site`,
  );
  const stored = await snap.rpcConfirmed('setChainConfig', devnet.chainConfig);
  console.log(
    `    entryPoint ${stored.entryPoint}, accountFactory ${stored.accountFactory}`,
  );

  say(
    'It creates an ERC-4337 smart account from the metadata CID (fetched, verified against the CID, validated)',
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
    'not deployed yet (counterfactual address)',
    (await client.getCode({ address: vault.address })) === undefined,
  );

  say(
    'MetaMask prepares, patches (paymaster) and signs a user operation with two intents',
  );
  await installRecorder(devnet.rpcUrl, RECORDERS[0]);
  await installRecorder(devnet.rpcUrl, RECORDERS[1]);
  const intents = [
    { to: RECORDERS[0], value: '0x0', data: recordCalldata(1, 2026) },
    { to: RECORDERS[1], value: '0x0', data: recordCalldata(2, 4337) },
  ];
  const prepared = await submit(
    snap,
    vault,
    'eth_prepareUserOperation',
    intents,
    devnet.scope,
  );
  console.log(
    `    nonce ${prepared.nonce}, initCode ${prepared.initCode.slice(0, 42)}…, gas ${JSON.stringify(prepared.gasLimits)}`,
  );
  check(
    'the bundler (Alto) comes from the chain config',
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

  say('The operation goes to the Alto bundler, which bundles it on anvil');
  const userOpHash = await jsonRpc<string>(
    devnet.bundlerUrl,
    'eth_sendUserOperation',
    [userOp, devnet.contracts.entryPoint],
  );
  const receipt = await waitForReceipt(snap, devnet.scope, userOpHash);
  check(
    'UserOperationEvent reports success (getUserOperationReceipt)',
    receipt?.success === true,
    userOpHash,
  );
  check(
    'the account is deployed',
    (await client.getCode({ address: vault.address })) !== undefined,
  );
  check(
    'both intents took effect',
    (await readRecord(devnet.rpcUrl, RECORDERS[0], 1)) === 2026n &&
      (await readRecord(devnet.rpcUrl, RECORDERS[1], 2)) === 4337n,
  );
}

/**
 * The text a person reads on a JSX page.
 *
 * @param node - A JSX element (or text) of the page.
 * @param lines - Lines found so far.
 * @returns Each Heading, Row (label: value), Text and Copyable, one per line.
 */
function pageText(node: any, lines: string[] = []): string[] {
  if (node === null || typeof node !== 'object') {
    return lines;
  }
  if (Array.isArray(node)) {
    node.forEach((child) => pageText(child, lines));
    return lines;
  }
  const { type, props } = node;
  if (type === 'Heading') {
    lines.push(`\n    ## ${props.children}`);
  } else if (type === 'Row') {
    lines.push(`    ${props.label}: ${props.children?.props?.children ?? ''}`);
    return lines;
  } else if (type === 'Text' && typeof props.children === 'string') {
    lines.push(`    ${props.children}`);
  } else if (type === 'Copyable') {
    lines.push(`    [copy] ${props.value}`);
  } else if (
    type === 'Form' ||
    type === 'Field' ||
    type === 'Button' ||
    type === 'Dropdown'
  ) {
    return lines; // controls: not printed
  }
  return pageText(props?.children, lines);
}

/**
 * The home page: create an account there and print what it shows (each account's card, with its
 * Activity list read from the chain when the page opened).
 *
 * @param snap - The running snap.
 */
async function homePageFlow(snap: SimulatedSnap): Promise<void> {
  say(
    "A person opens the snap's home page in MetaMask and creates an account there (no dapp)",
  );
  const before = (await snap.keyring('keyring_listAccounts')).length;
  const page = await snap.homePage();
  const next = page.waitForUpdate();
  await page.clickElement('create-eoa-submit');
  const updated = await next;
  const accounts = await snap.keyring('keyring_listAccounts');
  check(
    'the home page created an account (notify:accountCreated)',
    accounts.length === before + 1 &&
      snap.events.at(-1)?.method === 'notify:accountCreated',
  );
  const created = accounts.at(-1);
  const text = pageText(updated.content);
  check(
    'the page shows it',
    text.some((line) => line.includes(created.address)),
    created.address,
  );
  check(
    'each account that sent user operations lists them under Activity, read from the chain (outcome, block, fee in ETH)',
    text.some((line) =>
      /Sent \(user operation\): Succeeded in block \d+ · fee [0-9.]+ ETH/u.test(
        line,
      ),
    ),
  );
  console.log('    What the home page shows now (accounts part):');
  const end = text.findIndex((line) => line.includes('## Find my accounts'));
  console.log(text.slice(0, end === -1 ? undefined : end).join('\n'));
}

/**
 * A restore on the home page: the snap installed again with the same recovery phrase and an empty
 * state (a new device), the chain added, then *Find my accounts*; print what the page shows.
 *
 * @param snap - The running snap (its accounts: alice and bob used on the chain, the smart
 * account deployed, the home page's account never used).
 * @param devnet - The devnet (its chain config).
 */
async function restoreFlow(snap: SimulatedSnap, devnet: Devnet): Promise<void> {
  say(
    'The snap is installed again with the same recovery phrase and an empty state (a new device); on its home page the person adds the chain and presses Find my accounts',
  );
  const before: { address: string; type: string }[] = await snap.keyring(
    'keyring_listAccounts',
  );
  const again = await snap.installAgain();
  try {
    check(
      'the new install starts empty',
      (await again.keyring('keyring_listAccounts')).length === 0,
    );
    await again.rpcConfirmed('setChainConfig', devnet.chainConfig);
    const page = await again.homePage();
    // Every page it renders while it runs, each update awaited from the one before.
    const pages: any[] = [];
    let ended: ((value: undefined) => void) | undefined;
    const done = new Promise<undefined>((resolve) => {
      ended = resolve;
    });
    const watching = (async (): Promise<void> => {
      for (let current = page; ;) {
        const next = await Promise.race([current.waitForUpdate(), done]);
        if (next === undefined) {
          return;
        }
        pages.push(next);
        current = next;
      }
    })();
    await page
      .clickElement('accounts-restore')
      .finally(() => ended?.(undefined));
    await watching;
    const progress = pages
      .flatMap((shown) => pageText(shown.content))
      .filter((line) => line.includes('Searching… index'));
    console.log(
      `    While it ran the page said: ${progress.length > 0 ? progress.map((line) => line.trim()).join(' / ') : '(no progress shown: it ended at once)'}`,
    );
    const text = pageText(pages.at(-1)?.content ?? page.content);
    const start = text.findIndex((line) =>
      line.includes('## Find my accounts'),
    );
    const stop = text.findIndex((line) => line.includes('## Restore by index'));
    console.log('    What the home page shows when it ends:');
    console.log(text.slice(start, stop === -1 ? undefined : stop).join('\n'));
    const restored: { address: string; type: string }[] = await again.keyring(
      'keyring_listAccounts',
    );
    /**
     * An account's identity for comparison: its type and address.
     *
     * @param account - A keyring account.
     * @param account.address - Its address.
     * @param account.type - Its type.
     * @returns `<type> <address in lower case>`.
     */
    const key = (account: { address: string; type: string }): string =>
      `${account.type} ${account.address.toLowerCase()}`;
    const had = new Set(before.map(key));
    check(
      'every account it added is one the first install had, at the same address and type',
      restored.length > 0 && restored.every((account) => had.has(key(account))),
      `${restored.length} of ${before.length}`,
    );
    check(
      'the accounts used on the chain came back (alice, bob, the deployed v0.6 and v0.8 smart accounts); the unused one did not',
      restored.length === before.length - 1 &&
        !restored.some((account) => key(account) === key(before.at(-1) as any)),
    );
  } finally {
    await again.close();
  }
}

/**
 * Start the devnet and the IPFS node, run the three flows, stop everything.
 */
async function main(): Promise<void> {
  console.log(
    'Keyring snap demo: the built snap in the snaps simulation; anvil, ERC-4337 EntryPoints v0.6, v0.7 and v0.8, Alto and an IPFS node, all on 127.0.0.1.',
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
    await eoaFlow(snap, devnet.anvil);
    await smartAccountFlow(snap, devnet, ipfs);
    await entryPointsFlow(snap, devnet);
    await gasTokenFlow(snap, devnet);
    await permissionsFlow(snap, devnet);
    await homePageFlow(snap);
    await restoreFlow(snap, devnet);
    console.log('\nAll checks passed.');
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
