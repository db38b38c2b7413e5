import { benchChain } from './bench/chain';

/**
 * `npm run bench`: benchmark sections, run one after the other (not timed tests).
 * Add further sections below.
 */
async function main(): Promise<void> {
  await benchChain();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
