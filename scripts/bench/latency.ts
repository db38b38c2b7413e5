import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import {
  SignTypedDataVersion,
  personalSign,
  signTypedData,
} from '@metamask/eth-sig-util';
import type { Json } from '@metamask/utils';
import { privateKeyToAddress } from 'viem/accounts';

import type { BenchTarget } from './coldstart';
import { formatMs, summarize, timeIt } from './stats';
import type { Summary } from './stats';
import type { SimulatedSnap } from '../lib/snap-sim';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

/** A fixed test key (anvil's first dev account); both snaps import it, so their signatures must match. */
const PRIVATE_KEY =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = privateKeyToAddress(PRIVATE_KEY).toLowerCase();
const SCOPE = 'eip155:1';

export const TYPED_DATA = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail' as const,
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: 1,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
};

const TRANSACTION = {
  from: ADDRESS,
  to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  value: '0xde0b6b3a7640000',
  gasLimit: '0x5208',
  maxFeePerGas: '0x4a817c800',
  maxPriorityFeePerGas: '0x3b9aca00',
  nonce: '0x0',
  chainId: '0x1',
  type: '0x2',
  data: '0x',
  accessList: [],
};

/** The EOA methods timed through `keyring_submitRequest`, with the same operation done by the library directly. */
const METHODS: { method: string; params: Json; direct: () => unknown }[] = [
  {
    method: 'personal_sign',
    params: ['0x48656c6c6f2c20776f726c6421', ADDRESS],
    direct: () =>
      personalSign({
        privateKey: Buffer.from(PRIVATE_KEY.slice(2), 'hex'),
        data: '0x48656c6c6f2c20776f726c6421',
      }),
  },
  {
    method: 'eth_signTypedData_v4',
    params: [ADDRESS, TYPED_DATA],
    direct: () =>
      signTypedData({
        privateKey: Buffer.from(PRIVATE_KEY.slice(2), 'hex'),
        data: TYPED_DATA,
        version: SignTypedDataVersion.V4,
      }),
  },
  {
    method: 'eth_signTransaction',
    params: [TRANSACTION],
    direct: (): unknown => {
      const common = createCustomCommon({ chainId: 1 }, Mainnet, {
        hardfork: 'prague',
      });
      const { from: _from, ...fields } = TRANSACTION;
      return createTx(fields as never, { common }).sign(
        Buffer.from(PRIVATE_KEY.slice(2), 'hex'),
      );
    },
  },
];

/** The latency section of the bench, for one snap. */
export type LatencyResult = {
  /** The snap. */
  label: string;
  /** keyring_listAccounts: the round trip through the simulation with no work. */
  floor: Summary;
  /** Per signing method, through keyring_submitRequest. */
  methods: Record<string, Summary>;
  /** The signatures, to compare the snaps (same key, same requests). */
  results: Record<string, Json>;
};

let requestCount = 0;

/**
 * Submit one request through `keyring_submitRequest` (from MetaMask's origin), as a unique id.
 *
 * @param snap - The running snap.
 * @param account - The account id.
 * @param method - The signing method.
 * @param params - Its params.
 * @param scope - The request scope.
 * @returns The result (sync approval).
 */
export async function submit(
  snap: SimulatedSnap,
  account: string,
  method: string,
  params: Json,
  scope = SCOPE,
): Promise<Json> {
  requestCount += 1;
  const id = `c0000000-0000-4000-8000-${String(requestCount).padStart(12, '0')}`;
  const response = await snap.keyring(
    'keyring_submitRequest',
    {
      id,
      scope,
      account,
      origin: 'https://dapp.example',
      request: { method, params },
    },
    'metamask',
  );
  if (response.pending !== false) {
    throw new Error(`${method}: the snap did not answer synchronously`);
  }
  return response.result;
}

/**
 * Latency per signing method through the snaps simulation (`keyring_submitRequest` from
 * MetaMask's origin, sync approval), beside the `keyring_listAccounts` floor and the same
 * operation done directly by the library in Node. Targets alternate call by call; medians of
 * `runs` after `warmup` calls each.
 *
 * @param targets - Snaps to compare (each imports the same key).
 * @param runs - Recorded calls per method.
 * @param warmup - Unrecorded calls first.
 * @returns Per-target medians (ms) and the library's, also printed.
 */
export async function benchLatency(
  targets: BenchTarget[],
  runs = 50,
  warmup = 10,
): Promise<{ targets: LatencyResult[]; library: Record<string, Summary> }> {
  const snaps: { target: BenchTarget; snap: SimulatedSnap; account: string }[] =
    [];
  try {
    for (const target of targets) {
      const snap = await startSimulatedSnap(
        companionOrigin(target.root),
        target.root,
      );
      snaps.push({ target, snap, account: '' });
      const account = await snap.keyring('keyring_createAccount', {
        options: { privateKey: PRIVATE_KEY },
      });
      (snaps.at(-1) as (typeof snaps)[number]).account = account.id;
    }
    const samples = snaps.map(() => new Map<string, number[]>());
    const results = snaps.map((): Record<string, Json> => ({}));
    const operations: [
      string,
      (entry: (typeof snaps)[number]) => Promise<Json>,
    ][] = [
      [
        'keyring_listAccounts',
        async ({ snap }): Promise<Json> =>
          snap.keyring('keyring_listAccounts', undefined, 'metamask'),
      ],
      ...METHODS.map(
        ({ method, params }) =>
          [
            method,
            async ({ snap, account }: (typeof snaps)[number]): Promise<Json> =>
              submit(snap, account, method, params),
          ] as [string, (entry: (typeof snaps)[number]) => Promise<Json>],
      ),
    ];
    for (const [name, operation] of operations) {
      for (let call = 0; call < warmup + runs; call += 1) {
        for (const [index, entry] of snaps.entries()) {
          const started = performance.now();
          const result = await operation(entry);
          const elapsed = performance.now() - started;
          if (call >= warmup) {
            const list = samples[index].get(name) ?? [];
            list.push(elapsed);
            samples[index].set(name, list);
          }
          results[index][name] =
            name === 'keyring_listAccounts' ? null : result;
        }
      }
    }
    const library: Record<string, Summary> = {};
    for (const { method, direct } of METHODS) {
      library[method] = await timeIt(direct, runs, warmup);
    }
    const perTarget = snaps.map(({ target }, index) => {
      const map = samples[index];
      const methods: Record<string, Summary> = {};
      for (const { method } of METHODS) {
        methods[method] = summarize(map.get(method) ?? []);
      }
      return {
        label: target.label,
        floor: summarize(map.get('keyring_listAccounts') ?? []),
        methods,
        results: results[index],
      };
    });
    print(perTarget, library, runs, warmup);
    return { targets: perTarget, library };
  } finally {
    for (const { snap } of snaps) {
      await snap.close();
    }
  }
}

/**
 * A signature in a comparable form.
 *
 * @param result - A signing method's result.
 * @returns A string result lower-cased; a transaction's `{ v, r, s }` as `r:s:v` in hex.
 */
function signatureOf(result: Json | undefined): string {
  if (typeof result === 'string') {
    return result.toLowerCase();
  }
  const { v, r, s } = (result ?? {}) as Record<string, string>;
  return [r, s, v]
    .map((value) => (value === undefined ? '?' : BigInt(value).toString(16)))
    .join(':');
}

/**
 * Print the latency table.
 *
 * @param perTarget - Each snap's figures.
 * @param library - The libraries alone, per method.
 * @param runs - Recorded calls per method.
 * @param warmup - Calls before recording.
 */
function print(
  perTarget: LatencyResult[],
  library: Record<string, Summary>,
  runs: number,
  warmup: number,
): void {
  console.log(
    `\n## Signing latency through keyring_submitRequest (snaps simulation; medians of ${runs} after ${warmup} warm-up, min–max)`,
  );
  for (const result of perTarget) {
    console.log(
      `${result.label}: floor (keyring_listAccounts) ${formatMs(result.floor)}`,
    );
    for (const [method, summary] of Object.entries(result.methods)) {
      const above = summary.median - result.floor.median;
      console.log(
        `  ${method.padEnd(22)} ${formatMs(summary)}  floor +${above.toFixed(2)} ms`,
      );
    }
  }
  console.log('library alone in Node (eth-sig-util, @ethereumjs/tx):');
  for (const [method, summary] of Object.entries(library)) {
    console.log(`  ${method.padEnd(22)} ${formatMs(summary)}`);
  }
  if (perTarget.length > 1) {
    const [first, ...others] = perTarget as [LatencyResult, ...LatencyResult[]];
    for (const other of others) {
      const differ = METHODS.filter(
        ({ method }) =>
          signatureOf(first.results[method]) !==
          signatureOf(other.results[method]),
      ).map(({ method }) => method);
      console.log(
        `signatures of ${first.label} and ${other.label} for the same key and requests: ${differ.length === 0 ? 'identical' : `DIFFERENT for ${differ.join(', ')}`}`,
      );
    }
  }
}
