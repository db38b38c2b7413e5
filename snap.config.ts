import type { SnapConfig } from '@metamask/snaps-cli';

/**
 * Build configuration for `mm-snap build` / `mm-snap serve` (snaps-cli 8).
 * The `buffer` and `crypto` polyfills serve @metamask/eth-sig-util and the
 * ethereumjs libraries; nothing here talks to the network at build time.
 */
const config: SnapConfig = {
  input: 'src/index.ts',
  server: { port: 8080 },
  polyfills: {
    buffer: true,
    crypto: true,
    stream: true,
    process: true,
  },
  stats: {
    builtIns: {
      ignore: ['events', 'http', 'https', 'zlib', 'util', 'url', 'string_decoder', 'punycode'],
    },
  },
};

export default config;
