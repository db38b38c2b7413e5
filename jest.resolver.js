/**
 * Resolve as jest does, falling back to the "import" export condition for ESM-only packages
 * (multiformats, @ipld/dag-pb, ipfs-unixfs, ...) when jest 29's CommonJS resolution fails.
 * See docs/decisions.md, "ESM-only IPFS packages under jest 29".
 *
 * @param {string} request - The module requested.
 * @param {object} options - The resolver options jest passes.
 * @returns {string} The resolved path.
 */
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch {
    return options.defaultResolver(request, {
      ...options,
      conditions: ['import', 'default'],
    });
  }
};
