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
  type Hex,
} from 'viem';

import manifest from '../snap.manifest.json';
import { startAnvil, type Anvil } from '../test/fixtures/anvil';
import { startSimulatedSnap, type SimulatedSnap } from './lib/snap-sim';

const COMPANION = manifest.initialPermissions['endowment:keyring'].allowedOrigins[0] as string;
let step = 0;

function say(text: string): void {
  step += 1;
  console.log(`\n${String(step).padStart(2, ' ')}. ${text}`);
}

function check(label: string, ok: boolean, detail = ''): void {
  console.log(`    ${ok ? '✔' : '✘'} ${label}${detail ? `: ${detail}` : ''}`);
  if (!ok) {
    throw new Error(`check failed: ${label}`);
  }
}

let requestNumber = 0;
async function submit(snap: SimulatedSnap, account: any, method: string, params: any, scope: string): Promise<any> {
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

async function eoaFlow(snap: SimulatedSnap, anvil: Anvil): Promise<void> {
  const chain = defineChain({ id: anvil.chainId, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [anvil.url] } } });
  const client = createPublicClient({ chain, transport: http(anvil.url) });
  const scope = `eip155:${anvil.chainId}`;

  say(`The companion dapp (${COMPANION}) creates two accounts (keys derived from the SRP with snap_getEntropy)`);
  const alice = await snap.keyring('keyring_createAccount', { options: {} });
  const bob = await snap.keyring('keyring_createAccount', { options: {} });
  console.log(`    alice ${alice.address}\n    bob   ${bob.address}`);
  check('two notify:accountCreated events', snap.events.filter((e) => e.method === 'notify:accountCreated').length === 2);

  say('A dapp asks alice to sign a personal message (personal_sign, EIP-191)');
  const message = `Sign in to dapp.example\nNonce: ${Date.now()}`;
  const personal = await submit(snap, alice, 'personal_sign', [stringToHex(message), alice.address], scope);
  const personalSigner = await recoverMessageAddress({ message, signature: personal });
  check('viem recovers alice from the signature', personalSigner === alice.address, personal.slice(0, 20) + '…');

  say('A dapp asks bob to sign EIP-712 typed data (eth_signTypedData_v4)');
  const typedData = {
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }],
      Order: [{ name: 'maker', type: 'address' }, { name: 'amount', type: 'uint256' }],
    },
    primaryType: 'Order',
    domain: { name: 'Demo Exchange', chainId: anvil.chainId },
    message: { maker: bob.address, amount: '1000' },
  };
  const typed = await submit(snap, bob, 'eth_signTypedData_v4', [bob.address, typedData], scope);
  const typedSigner = await recoverTypedDataAddress({ ...(typedData as any), signature: typed });
  check('viem recovers bob from the EIP-712 signature', typedSigner === bob.address);

  say('alice signs an EIP-1559 transaction paying bob 0.5 ETH; it is broadcast to anvil');
  await client.request({ method: 'anvil_setBalance' as never, params: [alice.address, numberToHex(parseEther('2'))] as never });
  const tx = {
    type: '0x2',
    from: alice.address,
    to: bob.address,
    chainId: numberToHex(anvil.chainId),
    nonce: numberToHex(await client.getTransactionCount({ address: alice.address })),
    gasLimit: '0x5208',
    maxFeePerGas: numberToHex(parseEther('0.00000005')),
    maxPriorityFeePerGas: '0x3b9aca00',
    value: numberToHex(parseEther('0.5')),
    data: '0x',
  };
  const signature = await submit(snap, alice, 'eth_signTransaction', [tx], scope);
  console.log(`    { v: ${signature.v}, r: ${signature.r.slice(0, 12)}…, s: ${signature.s.slice(0, 12)}… }`);
  const raw = bytesToHex(createTx({ ...tx, ...signature } as never, { common: createCustomCommon({ chainId: anvil.chainId }, Mainnet) }).serialize()) as Hex;
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 10_000 });
  check('anvil mined it with status success', receipt.status === 'success', hash);
  check('the sender is alice', receipt.from.toLowerCase() === alice.address.toLowerCase());
  check('bob received 0.5 ETH', (await client.getBalance({ address: bob.address })) === parseEther('0.5'));
}

async function main(): Promise<void> {
  console.log('Keyring snap demo: the built snap in the snaps simulation, a real anvil chain.');
  const anvil = await startAnvil();
  console.log(`anvil ${anvil.url} (pid ${anvil.pid}, chain ${anvil.chainId})`);
  const snap = await startSimulatedSnap(COMPANION);
  try {
    await eoaFlow(snap, anvil);
    console.log('\nAll checks passed.');
  } finally {
    await snap.close();
    await anvil.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`\nDemo failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
