/**
 * `npm run devnet`: start the local ERC-4337 devnet (anvil + EntryPoint v0.6, v0.7, v0.8 + SimpleAccountFactory +
 * VerifyingPaymaster + Alto bundler + ERC-7677 paymaster service + MetaMask's Delegation Framework
 * deployed by the Smart Accounts Kit) and the embedded IPFS node, all on
 * 127.0.0.1, print what a person needs to use them from MetaMask (URLs, a funded test account, a
 * sample metadata CID, the snap's `setChainConfig` and `setIpfsConfig` params), and run until Ctrl-C
 * or SIGTERM (then stop everything).
 *
 * Fixed ports by default: chain 8545, bundler 4337, paymaster 4338, IPFS API 5001. Flags:
 *   --port-base <n>        chain n, bundler n+1, paymaster n+2, IPFS n+3
 *   --chain-port <n>, --bundler-port <n>, --paymaster-port <n>, --ipfs-port <n>   one part
 *   --random-ports         free ports chosen by the OS (what the tests use)
 *   --check                start, print, stop, exit 0 (a smoke test)
 *
 * Alto runs with `--enable-cors true` and the IPFS node with CORS open, so a snap in a browser can
 * reach them (anvil and the paymaster service answer CORS already).
 */
import { parseArgs } from 'node:util';
import { formatEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

import { ANVIL_KEYS } from '../devnet/anvil';
import { startDevnet } from '../devnet/devnet';
import type { Devnet } from '../devnet/devnet';
import { addJson, startIpfsNode } from '../devnet/ipfs-node';
import type { IpfsNode } from '../devnet/ipfs-node';
import { jsonRpc } from '../devnet/json-rpc';
import { probePort } from '../devnet/ports';
import manifest from '../snap.manifest.json';
import { stopOnExit } from './lib/lifetime';

const USAGE = `Usage: npm run devnet -- [--port-base <n> | --random-ports] [--chain-port <n>]
       [--bundler-port <n>] [--paymaster-port <n>] [--ipfs-port <n>] [--check]
Defaults: chain 8545, bundler 4337, paymaster 4338, IPFS API 5001, all on 127.0.0.1.`;

/** The parts that listen, in start order, with their default port and the flag that moves them. */
const PARTS = [
  { key: 'chain', label: 'chain (anvil)', port: 8545, flag: '--chain-port' },
  {
    key: 'bundler',
    label: 'bundler (Alto)',
    port: 4337,
    flag: '--bundler-port',
  },
  {
    key: 'paymaster',
    label: 'paymaster service (ERC-7677)',
    port: 4338,
    flag: '--paymaster-port',
  },
  { key: 'ipfs', label: 'IPFS HTTP API', port: 5001, flag: '--ipfs-port' },
] as const;

/** A part of the devnet that listens on a port. */
type PartKey = (typeof PARTS)[number]['key'];

/** The command line, parsed. */
type Options = {
  /** `--check`: start, print, stop. */
  check: boolean;
  /** Ports per part; a part left out gets a free port (`--random-ports`). */
  ports: Partial<Record<PartKey, number>>;
};

/** The snap id `npm run serve` installs the snap as (README, "Use it in MetaMask Flask"). */
const SNAP_ID = 'local:http://localhost:8080';
const COMPANION =
  manifest.initialPermissions['endowment:rpc'].allowedOrigins[0];

/**
 * Print a usage error and exit with code 2.
 *
 * @param message - What is wrong with the command line.
 */
function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/**
 * A port option's value.
 *
 * @param name - The option, for the error.
 * @param value - Its text, if given.
 * @returns The port, or undefined when not given; exits with a usage error when not a port.
 */
function portArg(name: string, value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    fail(`--${name} must be a port number (1-65535), got "${value}"`);
  }
  return port;
}

/**
 * Read the command line.
 *
 * @returns The options; exits with a usage error on an unknown flag or a bad port.
 */
function parseOptions(): Options {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        check: { type: 'boolean', default: false },
        'random-ports': { type: 'boolean', default: false },
        'port-base': { type: 'string' },
        'chain-port': { type: 'string' },
        'bundler-port': { type: 'string' },
        'paymaster-port': { type: 'string' },
        'ipfs-port': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const base = portArg('port-base', values['port-base']);
  if (base !== undefined && values['random-ports']) {
    fail('--port-base and --random-ports exclude each other');
  }
  if (base !== undefined && base + PARTS.length - 1 > 65535) {
    fail(`--port-base ${base} leaves no room for ${PARTS.length} ports`);
  }
  const ports: Partial<Record<PartKey, number>> = {};
  PARTS.forEach((part, index) => {
    const own = portArg(`${part.key}-port`, values[`${part.key}-port`]);
    if (own !== undefined) {
      ports[part.key] = own;
    } else if (base !== undefined) {
      ports[part.key] = base + index;
    } else if (!values['random-ports']) {
      ports[part.key] = part.port;
    }
  });
  const fixed = Object.values(ports);
  if (new Set(fixed).size !== fixed.length) {
    fail(`two parts cannot share a port: ${JSON.stringify(ports)}`);
  }
  return { check: values.check, ports };
}

/**
 * Refuse to start when a fixed port cannot be bound on 127.0.0.1 (checked before anything starts,
 * so a server already listening there is never mistaken for ours).
 *
 * @param ports - The fixed ports.
 */
async function checkPorts(ports: Options['ports']): Promise<void> {
  const problems: string[] = [];
  for (const part of PARTS) {
    const port = ports[part.key];
    if (port === undefined) {
      continue;
    }
    const state = await probePort(port);
    if (state === 'EADDRINUSE') {
      problems.push(
        `port ${port} (${part.label}) is already in use on 127.0.0.1: stop what holds it, or choose another port with ${part.flag} <n> (or --port-base <n>, or --random-ports)`,
      );
    } else if (state !== 'free') {
      problems.push(
        `port ${port} (${part.label}) cannot be bound on 127.0.0.1 (${state}): choose another port with ${part.flag} <n>`,
      );
    }
  }
  if (problems.length > 0) {
    console.error(
      `npm run devnet: nothing started.\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
}

/** The sample account metadata published on the IPFS node (the schema: README, "Account metadata on IPFS"). */
const SAMPLE_METADATA = { version: 1, name: 'Devnet smart account' };

/**
 * Print a title and a value as indented JSON, ready to paste.
 *
 * @param title - The title.
 * @param value - The value.
 */
function block(title: string, value: unknown): void {
  console.log(`\n${title}`);
  console.log(JSON.stringify(value, null, 2));
}

let devnet: Devnet | undefined;
let ipfs: IpfsNode | undefined;
/** Stop what was started (the IPFS node, then the devnet), each by its own handle. */
async function stop(): Promise<void> {
  await ipfs?.close();
  await devnet?.stop();
}

/**
 * Start the devnet and the IPFS node, print what a person needs, and run until stopped.
 */
async function main(): Promise<void> {
  const options = parseOptions();
  await checkPorts(options.ports);
  stopOnExit(stop);

  devnet = await startDevnet({
    altoArgs: ['--enable-cors', 'true'],
    ports: options.ports,
    delegation: true,
  });
  ipfs = await startIpfsNode({ port: options.ports.ipfs, cors: true });
  const metadataCid = await addJson(ipfs, SAMPLE_METADATA);
  const funded = privateKeyToAccount(ANVIL_KEYS[0]);
  const balance = BigInt(
    await jsonRpc<string>(devnet.rpcUrl, 'eth_getBalance', [
      funded.address,
      'latest',
    ]),
  );

  const { contracts } = devnet;
  const environment = devnet.delegationEnvironment;
  const chainConfig = {
    ...devnet.chainConfig,
    delegationEnvironment: environment,
  };
  const ipfsConfig = { apiUrl: ipfs.apiUrl };
  /**
   * Print one aligned row.
   *
   * @param name - The left column.
   * @param value - The right column.
   */
  const row = (name: string, value: string): void => {
    console.log(`  ${name.padEnd(22)} ${value}`);
  };

  console.log(
    `Local ERC-4337 devnet (EntryPoint v0.6), chain ${devnet.chainId} (${devnet.scope}), started in ${devnet.timings.total} ms; everything listens on 127.0.0.1 only.\n`,
  );
  row('chain (anvil)', `${devnet.rpcUrl}   pid ${devnet.anvil.pid}`);
  row('bundler (Alto)', `${devnet.bundlerUrl}   pid ${devnet.alto.pid}`);
  row('paymaster (ERC-7677)', devnet.paymasterUrl);
  row(
    'IPFS HTTP API',
    `${ipfs.apiUrl}   pid ${ipfs.pid} (embedded helia node, offline)`,
  );
  row('EntryPoint', contracts.entryPoint);
  row('SimpleAccountFactory', contracts.accountFactory);
  row('SimpleAccount impl.', contracts.simpleAccountImplementation);
  row(
    'VerifyingPaymaster',
    `${contracts.verifyingPaymaster} (signer ${contracts.paymasterSignerAddress}, key held by the paymaster service)`,
  );
  row('deployer', contracts.deployer);
  if (environment) {
    console.log(
      "\nMetaMask's Delegation Framework v1.3.0 (deployed by the Smart Accounts Kit, NOT at the canonical addresses;\n" +
        '  setChainConfig below carries it as delegationEnvironment, all of it):',
    );
    row('DelegationManager', environment.DelegationManager);
    row(
      'EIP7702StatelessDeleG.',
      environment.implementations.EIP7702StatelessDeleGatorImpl ?? '',
    );
    row('its EntryPoint v0.7', environment.EntryPoint);
    row(
      'caveat enforcers',
      `${Object.keys(environment.caveatEnforcers).length}`,
    );
  }

  console.log(`\nFunded account: anvil's default mnemonic, account #0`);
  row('address', funded.address);
  row('private key', ANVIL_KEYS[0]);
  row('balance', `${formatEther(balance)} ETH`);
  console.log(
    '  TEST KEY, PUBLIC (every anvil and Hardhat user knows it): never use it on a real network.\n' +
      "  (Accounts #1 to #4 of that mnemonic are the bundler's and the deployers': leave them alone.)\n" +
      `  In MetaMask: add the network (RPC URL ${devnet.rpcUrl}, chain id ${devnet.chainId}, currency ETH), then\n` +
      "  import the key (MetaMask's Import account, or the snap's home page, Import).",
  );

  console.log('\nSample account metadata on the IPFS node:');
  row('CID', metadataCid);
  row('document', JSON.stringify(SAMPLE_METADATA));
  console.log(
    '  Give the CID as metadataCid (or in the home page\'s "Create a smart account" form).',
  );

  console.log(
    `\nThe snap's settings. Only the companion origin ${COMPANION} may call them\n` +
      "(the manifest's endowment:rpc allowedOrigins; a development build from `npm run serve:dev` adds a\n" +
      "local site's origin), or type the same values into the snap's home page (Chains, IPFS settings).",
  );
  block('setChainConfig params:', chainConfig);
  block('setIpfsConfig params:', ipfsConfig);
  console.log(
    `\nFor example, from a page of that origin (snap id ${SNAP_ID}, as \`npm run serve\` serves it):`,
  );
  for (const [method, params] of [
    ['setChainConfig', chainConfig],
    ['setIpfsConfig', ipfsConfig],
  ] as const) {
    console.log(
      `await ethereum.request({ method: 'wallet_invokeSnap', params: { snapId: '${SNAP_ID}', request: { method: '${method}', params: ${JSON.stringify(params)} } } })`,
    );
  }

  if (options.check) {
    await stop();
    console.log('\n--check: started, printed, stopped.');
    process.exit(0);
  }
  console.log('\nRunning; Ctrl-C (or SIGTERM) stops everything.');
  // Keep the process alive until a signal arrives.
  setInterval(() => undefined, 2 ** 30);
}

main().catch(async (error: unknown) => {
  console.error(error);
  try {
    await stop();
  } catch (stopError: unknown) {
    console.error(stopError);
  }
  process.exit(1);
});
