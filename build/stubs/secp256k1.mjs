/**
 * The `@noble/curves/secp256k1.js` (2.x) of @ethereumjs/tx and @ethereumjs/util 10: the 2.x
 * contract they read (build/stubs/secp256k1-v2.js) over viem's @noble/curves 1.x copy, which
 * snap.config.ts gives this module for `@noble/curves/secp256k1.js`.
 */
// eslint-disable-next-line import-x/no-extraneous-dependencies, n/no-extraneous-import -- viem's copy, by the alias in snap.config.ts
import { secp256k1 as curve } from '@noble/curves/secp256k1.js';

// eslint-disable-next-line import-x/extensions -- webpack resolves an ES module's relative imports fully specified
import nobleV2Shaped from './secp256k1-v2.js';

export const secp256k1 = nobleV2Shaped(curve);
