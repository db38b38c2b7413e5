/**
 * The `secp256k1` contract of @noble/curves 2.x, as @ethereumjs/tx and @ethereumjs/util 10 read it,
 * on top of a @noble/curves 1.x `secp256k1` (viem's copy, which the bundle has anyway). Glue
 * only, no curve arithmetic: the 1.x copy signs, recovers and checks; this file renames
 * (`Point.fromBytes` for `ProjectivePoint.fromHex`, `toBytes` for `toRawBytes`,
 * `utils.isValidSecretKey` for `utils.isValidPrivateKey`, `Point.CURVE()` for `CURVE`) and
 * builds 2.x's byte formats: a "compact" signature is r ++ s (64 bytes), a "recovered" one is
 * the recovery id ++ r ++ s (65 bytes). As 2.x does, it takes byte arrays only (1.x also takes
 * hex strings and bigints). What 2.x offers and those packages never ask for is refused:
 * `prehash` other than `false` (they always sign a Keccak-256 hash they computed) and DER.
 * build/stubs/secp256k1.mjs applies it to viem's copy; snap.config.ts gives the packages that
 * module for `@noble/curves/secp256k1.js`, so the bundle holds one copy of the curve instead of
 * two. test/build/secp256k1.test.ts checks that they read nothing else, and that every answer is
 * 2.x's, byte for byte.
 */

/**
 * Whether a value is a byte array, as 2.x's `isBytes` decides.
 *
 * @param {unknown} value - An argument.
 * @returns {boolean} Whether it is a Uint8Array (from any realm).
 */
function isBytes(value) {
  return (
    value instanceof Uint8Array ||
    (ArrayBuffer.isView(value) && value.constructor.name === 'Uint8Array')
  );
}

/**
 * A byte array, as 2.x's `abytes` requires.
 *
 * @param {unknown} value - An argument.
 * @param {string} name - Its name, for the error.
 * @returns {Uint8Array} The same value.
 * @throws {TypeError} When it is not a Uint8Array.
 */
function bytes(value, name) {
  if (!isBytes(value)) {
    throw new TypeError(`"${name}" expected Uint8Array`);
  }
  return value;
}

/**
 * A format 2.x takes and this file builds.
 *
 * @param {string} format - `compact` (the default) or `recovered`.
 * @returns {string} The same format.
 * @throws {Error} For `der` or anything else.
 */
function sigFormat(format = 'compact') {
  if (format !== 'compact' && format !== 'recovered') {
    throw new Error(`signature format "${format}" is not bundled in this snap`);
  }
  return format;
}

/**
 * The 2.x contract over a 1.x curve.
 *
 * @param {object} curve - A @noble/curves 1.x `secp256k1`.
 * @returns {object} `{ sign, getPublicKey, Signature, Point, utils }` in 2.x's shape.
 */
function nobleV2Shaped(curve) {
  /**
   * A 1.x point in 2.x's shape.
   *
   * @param {object} point - A 1.x ProjectivePoint.
   * @returns {object} `{ toBytes(compressed = true) }`: its SEC 1 encoding.
   */
  const shapedPoint = (point) => ({
    toBytes: (compressed = true) => point.toRawBytes(compressed),
  });

  /**
   * A 1.x signature in 2.x's shape.
   *
   * @param {object} signature - A 1.x Signature.
   * @returns {object} `{ r, s, recovery, addRecoveryBit, recoverPublicKey, toBytes }`.
   */
  const shapedSignature = (signature) => ({
    r: signature.r,
    s: signature.s,
    recovery: signature.recovery,
    addRecoveryBit: (recovery) => {
      if (![0, 1, 2, 3].includes(recovery)) {
        throw new Error('invalid recovery id');
      }
      return shapedSignature(signature.addRecoveryBit(recovery));
    },
    recoverPublicKey: (hash) =>
      shapedPoint(signature.recoverPublicKey(bytes(hash, 'msgHash'))),
    toBytes: (format) => {
      const compact = signature.toCompactRawBytes();
      if (sigFormat(format) === 'compact') {
        return compact;
      }
      if (signature.recovery === undefined) {
        throw new Error('invalid recovery id: must be present');
      }
      const recovered = new Uint8Array(65);
      recovered[0] = signature.recovery;
      recovered.set(compact, 1);
      return recovered;
    },
  });

  return {
    /**
     * Sign a message hash: RFC 6979 nonce (hedged with `extraEntropy`), low-s.
     *
     * @param {Uint8Array} hash - The 32-byte hash.
     * @param {Uint8Array} secretKey - The 32-byte private key.
     * @param {object} [options] - `{ prehash: false, format, extraEntropy, lowS }`.
     * @returns {Uint8Array} The signature in `format` (64 or 65 bytes).
     */
    sign: (hash, secretKey, options = {}) => {
      const { prehash, format, extraEntropy, lowS } = options;
      if (prehash !== false) {
        throw new Error('prehash is not bundled in this snap');
      }
      sigFormat(format);
      return shapedSignature(
        curve.sign(bytes(hash, 'message'), bytes(secretKey, 'secretKey'), {
          extraEntropy,
          lowS,
        }),
      ).toBytes(format);
    },
    /**
     * The public key of a private key.
     *
     * @param {Uint8Array} secretKey - The 32-byte private key.
     * @param {boolean} [compressed] - 33 bytes when true (the default), 65 when false.
     * @returns {Uint8Array} Its SEC 1 encoding.
     */
    getPublicKey: (secretKey, compressed = true) =>
      curve.getPublicKey(bytes(secretKey, 'secretKey'), compressed),
    Signature: {
      /**
       * A signature from its bytes.
       *
       * @param {Uint8Array} signature - Its bytes: r ++ s, or the recovery id ++ r ++ s.
       * @param {string} [format] - `compact` (the default) or `recovered`.
       * @returns {object} The signature; r and s checked to be in [1, n-1].
       */
      fromBytes: (signature, format) => {
        const raw = bytes(signature, 'signature');
        if (sigFormat(format) === 'compact') {
          return shapedSignature(curve.Signature.fromCompact(raw));
        }
        if (raw.length !== 65) {
          throw new Error('invalid signature length');
        }
        return shapedSignature(
          curve.Signature.fromCompact(raw.subarray(1)),
        ).addRecoveryBit(raw[0]);
      },
    },
    Point: {
      /**
       * The curve's parameters.
       *
       * @returns {object} `{ p, n, h, a, b, Gx, Gy }` (bigints).
       */
      CURVE: () => {
        const { Fp, n, h, a, b, Gx, Gy } = curve.CURVE;
        return { p: Fp.ORDER, n, h, a, b, Gx, Gy };
      },
      /**
       * A point from its SEC 1 encoding, checked to be on the curve.
       *
       * @param {Uint8Array} encoded - 33 or 65 bytes.
       * @returns {object} The point.
       */
      fromBytes: (encoded) =>
        shapedPoint(curve.ProjectivePoint.fromHex(bytes(encoded, 'publicKey'))),
    },
    utils: {
      /**
       * Whether bytes are a private key: 32 bytes, in [1, n-1].
       *
       * @param {unknown} secretKey - The candidate.
       * @returns {boolean} Whether it is one.
       */
      isValidSecretKey: (secretKey) =>
        isBytes(secretKey) && curve.utils.isValidPrivateKey(secretKey),
    },
  };
}

module.exports = nobleV2Shaped;
