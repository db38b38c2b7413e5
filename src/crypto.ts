/**
 * The viem pure utilities the snap uses (hashing, ABI, addresses, secp256k1),
 * imported from one place so the bundle keeps a single copy and no viem client
 * or transport ever enters the snap (TOOLCHAIN.md: viem 2.53.1 pinned).
 */
export {
  bytesToHex,
  concatHex,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  hexToBigInt,
  isAddress,
  isAddressEqual,
  isHex,
  keccak256,
  numberToHex,
  size,
  toHex,
} from 'viem';
export type { Address, Hex } from 'viem';
export { privateKeyToAddress, sign, signMessage } from 'viem/accounts';
