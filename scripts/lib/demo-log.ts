/**
 * The demo's output: numbered steps and checks (`npm run demo`, scripts/demo.ts), and what every
 * part of it is given.
 */
import type { SimulatedSnap } from './snap-sim';
import type { Devnet } from '../../devnet/devnet';
import type { IpfsNode } from '../../devnet/ipfs-node';

/** What every part of the demo is given: the running snap, the devnet and the IPFS node. */
export type DemoContext = {
  /** The snap in the simulation. */
  snap: SimulatedSnap;
  /** Anvil, the EntryPoints, Alto and the paymaster services. */
  devnet: Devnet;
  /** The IPFS node. */
  ipfs: IpfsNode;
};

let step = 0;

/**
 * Print the next numbered step.
 *
 * @param text - What happens in it.
 */
export function say(text: string): void {
  step += 1;
  console.log(`\n${String(step).padStart(2, ' ')}. ${text}`);
}

/**
 * Print a check's outcome; a failed check ends the demo.
 *
 * @param label - What is checked.
 * @param ok - Whether it held.
 * @param detail - Shown after the label.
 * @throws If it did not hold.
 */
export function check(label: string, ok: boolean, detail = ''): void {
  console.log(`    ${ok ? '✔' : '✘'} ${label}${detail ? `: ${detail}` : ''}`);
  if (!ok) {
    throw new Error(`check failed: ${label}`);
  }
}
