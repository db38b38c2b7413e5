/**
 * `npm run devnet`: start the local ERC-4337 devnet (anvil + EntryPoint v0.6 + SimpleAccountFactory +
 * VerifyingPaymaster + Alto bundler + ERC-7677 paymaster service, all on 127.0.0.1), print its URLs,
 * addresses and the snap's `setChainConfig` params, and run until Ctrl-C (then stop everything).
 *
 * `npm run devnet -- --check`: start, print, stop, exit 0 (a smoke test).
 * Alto runs with `--enable-cors true` here so a snap in a browser can reach it.
 */
import { startDevnet, type Devnet } from '../devnet/devnet';
import { stopOnExit } from './lib/lifetime';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const devnet: Devnet = await startDevnet({
    altoArgs: ['--enable-cors', 'true'],
  });

  stopOnExit(devnet.stop);

  const { contracts } = devnet;
  console.log(
    `ERC-4337 devnet (EntryPoint v0.6), chain ${devnet.chainId} (${devnet.scope}); started in ${devnet.timings.total} ms`,
  );
  console.log(
    `  rpcUrl (anvil)        ${devnet.rpcUrl}   pid ${devnet.anvil.pid}`,
  );
  console.log(
    `  bundlerUrl (Alto)     ${devnet.bundlerUrl}   pid ${devnet.alto.pid}`,
  );
  console.log(`  paymasterUrl (7677)   ${devnet.paymasterUrl}`);
  console.log(`  EntryPoint            ${contracts.entryPoint}`);
  console.log(`  SimpleAccountFactory  ${contracts.accountFactory}`);
  console.log(
    `  SimpleAccount impl.   ${contracts.simpleAccountImplementation}`,
  );
  console.log(
    `  VerifyingPaymaster    ${contracts.verifyingPaymaster} (signer ${contracts.paymasterSignerAddress}, key held by the paymaster service)`,
  );
  console.log(`  deployer              ${contracts.deployer}`);
  console.log('\nsetChainConfig params:');
  console.log(JSON.stringify(devnet.chainConfig, null, 2));

  if (check) {
    await devnet.stop();
    console.log('\n--check: started, printed, stopped.');
    return;
  }
  console.log('\nRunning; Ctrl-C stops everything.');
  // Keep the process alive until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
