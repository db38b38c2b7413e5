/**
 * The demo's EntryPoint v0.8 part (`npm run demo`, scripts/demo.ts): a site creates a SimpleAccount
 * on EntryPoint v0.8 and sends a two-call batch through the snap's own `sendUserOperation`, behind
 * its confirmation dialog; then an EOA of the snap sends a batch too, upgraded in place with
 * EIP-7702 to Simple7702Account v0.8 by that first operation. Alto bundles both on anvil.
 */
import { createPublicClient, http, numberToHex, parseEther } from 'viem';
import type { Hex } from 'viem';

import { check, say } from './demo-log';
import type { DemoContext } from './demo-log';
import type { SimulatedSnap } from './snap-sim';
import { jsonRpc } from '../../devnet/json-rpc';
import { readRecord, recordCalldata, RECORDERS } from '../../devnet/targets';

/**
 * Poll the snap's `getUserOperationReceipt` until the bundler or the chain knows the operation
 * (at most 20 s).
 *
 * @param snap - The running snap.
 * @param scope - The CAIP-2 chain.
 * @param userOpHash - The operation's hash.
 * @returns The receipt, or null if none came in time.
 */
export async function waitForReceipt(
  snap: SimulatedSnap,
  scope: string,
  userOpHash: string,
): Promise<any> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const receipt = await snap.rpc('getUserOperationReceipt', {
      scope,
      userOpHash,
    });
    if (receipt) {
      return receipt;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/**
 * A SimpleAccount on EntryPoint v0.8: created through `keyring_createAccount`
 * (`entryPointVersion: "0.8"`), funded, then a batch of two calls sent with `sendUserOperation`
 * (the dialog confirmed as a person would); checks the receipt, the deployment and both calls.
 *
 * @param demo - The running snap and the devnet.
 * @param demo.snap - The running snap (the chain already configured with the devnet's bundler).
 * @param demo.devnet - The devnet, started with `entryPoints: true`.
 */
export async function entryPointsFlow({
  snap,
  devnet,
}: DemoContext): Promise<void> {
  const client = createPublicClient({ transport: http(devnet.rpcUrl) });
  say('It creates a smart account on EntryPoint v0.8, the newest version');
  const account = await snap.keyring('keyring_createAccount', {
    options: {
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
      entryPointVersion: '0.8',
    },
  });
  check(
    'MetaMask lists it without the requests that carry v0.6 user operations only',
    Array.isArray(account.methods) && account.methods.length === 0,
    account.address,
  );
  await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
    account.address,
    numberToHex(parseEther('1')),
  ]);

  say(
    'It sends two calls at once from it; the person confirms the dialog (it names EntryPoint v0.8)',
  );
  const sent = await snap.rpcConfirmed('sendUserOperation', {
    account: account.id,
    scope: devnet.scope,
    intents: [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(8, 2025) },
      { to: RECORDERS[1], value: '0x0', data: recordCalldata(8, 2026) },
    ],
  });
  check(
    'sent to EntryPoint v0.8 from the account',
    sent.entryPoint?.toLowerCase() ===
      devnet.entryPoints?.['0.8'].entryPoint.toLowerCase() &&
      sent.sender === account.address,
    sent.userOpHash,
  );
  const receipt = await waitForReceipt(snap, devnet.scope, sent.userOpHash);
  check('it succeeded (the bundler’s receipt)', receipt?.success === true);
  check(
    'the account now exists on the chain, and both calls took effect',
    (await client.getCode({ address: account.address })) !== undefined &&
      (await readRecord(devnet.rpcUrl, RECORDERS[0], 8)) === 2025n &&
      (await readRecord(devnet.rpcUrl, RECORDERS[1], 8)) === 2026n,
  );

  const accounts: { id: string; type: string; address: Hex }[] =
    await snap.keyring('keyring_listAccounts');
  const eoa = accounts.find((entry) => entry.type === 'eip155:eoa');
  const delegate = devnet.entryPoints?.['0.8'].simple7702Account ?? '0x';
  say(
    `The same site sends two calls at once from alice (${eoa?.address ?? 'an EOA'}), a plain account: the dialog explains that this first operation upgrades it in place to a smart account (EIP-7702, Simple7702Account v0.8), and how to undo it`,
  );
  const upgraded = await snap.rpcConfirmed('sendUserOperation', {
    account: eoa?.id ?? '',
    scope: devnet.scope,
    intents: [
      { to: RECORDERS[0], value: '0x0', data: recordCalldata(9, 7702) },
      { to: RECORDERS[1], value: '0x0', data: recordCalldata(9, 7703) },
    ],
  });
  check(
    'sent from the EOA’s own address',
    upgraded.sender === eoa?.address,
    upgraded.userOpHash,
  );
  const upgradeReceipt = await waitForReceipt(
    snap,
    devnet.scope,
    upgraded.userOpHash,
  );
  check('it succeeded', upgradeReceipt?.success === true);
  check(
    'alice now runs Simple7702Account at her own address (code 0xef0100 followed by its address), and both calls took effect',
    (await client.getCode({ address: eoa?.address ?? '0x' }))?.toLowerCase() ===
      `0xef0100${delegate.slice(2)}`.toLowerCase() &&
      (await readRecord(devnet.rpcUrl, RECORDERS[0], 9)) === 7702n &&
      (await readRecord(devnet.rpcUrl, RECORDERS[1], 9)) === 7703n,
  );
}
