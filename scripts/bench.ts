import { benchChain } from './bench/chain';
import { benchErc4337 } from './bench/erc4337';
import { benchSize } from './bench/size';

/**
 * `npm run bench`: benchmark sections, run one after the other (not timed tests).
 * Add further sections below.
 */
async function main(): Promise<void> {
  await benchSize();
  await benchChain();
  await benchErc4337();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
