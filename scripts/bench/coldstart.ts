import { formatMs, summarize } from './stats';
import type { Summary } from './stats';
import { companionOrigin, startSimulatedSnap } from '../lib/snap-sim';

/** A built keyring snap to install: this repository's, or a reference snap's folder. */
export type BenchTarget = {
  /** How the tables name it. */
  label: string;
  /** Its folder; this repository when left out. */
  root?: string;
};

/** anvil's first dev key, for the runs where both snaps import the same key. */
const IMPORTED_KEY =
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** The cold-start section of the bench, for one snap and one kind of first account. */
export type ColdStartResult = {
  /** The snap. */
  label: string;
  /** `{}`: a new key (this snap derives it with snap_getEntropy; a random key in the Simple Snap Keyring); `{ privateKey }`: the same imported key. */
  options: 'new key' | 'imported key';
  /** installSnap start -> first keyring_createAccount answer. */
  total: Summary;
  /** installSnap alone (fetch and checks, controllers, executeSnap). */
  install: Summary;
  /** executeSnap: worker thread start, SES lockdown, evaluation of the bundle. */
  execute: Summary;
  /** The first keyring_createAccount (`options: {}`), on the freshly started snap. */
  firstCreateAccount: Summary;
};

/**
 * Cold start in the snaps simulation: install the built snap, then send its first
 * keyring_createAccount (from the companion origin its manifest names) and stop it; once with
 * `options: {}` (a new key) and once importing the same private key, so that both snaps do the
 * same work. The targets alternate run by run so that both see the same machine load; the first
 * `warmup` rounds are not recorded.
 *
 * @param targets - Snaps to compare.
 * @param runs - Recorded rounds.
 * @param warmup - Unrecorded rounds first.
 * @returns Medians per target (ms), also printed.
 */
export async function benchColdStart(
  targets: BenchTarget[],
  runs = 15,
  warmup = 2,
): Promise<ColdStartResult[]> {
  const variants = [
    { name: 'new key' as const, options: {} as Record<string, string> },
    { name: 'imported key' as const, options: { privateKey: IMPORTED_KEY } },
  ];
  const cases = variants.flatMap((variant) =>
    targets.map((target) => ({ variant, target })),
  );
  const samples = cases.map(() => ({
    total: [] as number[],
    install: [] as number[],
    execute: [] as number[],
    first: [] as number[],
  }));
  for (let round = 0; round < warmup + runs; round += 1) {
    for (const [index, { variant, target }] of cases.entries()) {
      const started = performance.now();
      const snap = await startSimulatedSnap(
        companionOrigin(target.root),
        target.root,
      );
      try {
        const installed = performance.now();
        await snap.keyring('keyring_createAccount', {
          options: variant.options,
        });
        const answered = performance.now();
        if (round >= warmup) {
          const entry = samples[index];
          entry.total.push(answered - started);
          entry.install.push(snap.timings.installMs);
          entry.execute.push(snap.timings.executeMs);
          entry.first.push(answered - installed);
        }
      } finally {
        await snap.close();
      }
    }
  }
  const results = cases.map(({ variant, target }, index) => {
    const entry = samples[index];
    return {
      label: target.label,
      options: variant.name,
      total: summarize(entry.total),
      install: summarize(entry.install),
      execute: summarize(entry.execute),
      firstCreateAccount: summarize(entry.first),
    };
  });
  console.log(
    `\n## Cold start in the snaps simulation (medians of ${runs} after ${warmup} warm-up, min–max)`,
  );
  for (const result of results) {
    console.log(
      `${result.label} (${result.options}): install -> first createAccount answer ${formatMs(result.total)}`,
    );
    console.log(
      `    of which executeSnap (worker, SES, bundle evaluation) ${formatMs(result.execute)}, first createAccount ${formatMs(result.firstCreateAccount)}`,
    );
  }
  return results;
}
