import { getAddress, isAddressEqual } from 'viem';
import type { Hex } from 'viem';

import { internalError } from '../../utils/errors';

/**
 * The account implementation of each known SimpleAccountFactory, pinned so that the address of a
 * smart account made by one of them never rests on a single RPC answer. A factory deployed through
 * the deterministic deployment proxy (0x4e59b44847b379578588920cA78FbF26c0B4956C, CREATE2) has the
 * same bytecode at its address on every chain; SimpleAccountFactory's constructor deploys
 * `accountImplementation = new SimpleAccount(entryPoint)` by CREATE as the factory's first
 * contract, so the implementation is the CREATE address (Ethereum yellow paper §7) of the factory
 * at nonce 1 (EIP-161 starts a contract's nonce at 1), the same on every chain.
 *
 * Keyed by the factory's lower-case address. Add a factory here only with its implementation
 * verified on a chain: test/node/erc4337-address.test.ts (v0.6) and
 * test/node/known-factories.test.ts (v0.7, v0.8) deploy each factory at its canonical address on
 * anvil (the creation calls of the public deployments, through the deterministic deployment
 * proxy) and read `accountImplementation()`.
 */
const KNOWN_IMPLEMENTATIONS: ReadonlyMap<string, Hex> = new Map<string, Hex>([
  // SimpleAccountFactory v0.6 (eth-infinitism/account-abstraction v0.6.0,
  // @account-abstraction/contracts@0.6.0) at its canonical address: SimpleAccount v0.6.
  [
    '0x9406cc6185a346906296840746125a0e44976454',
    '0x8ABB13360b87Be5EEb1B98647A016adD927a136c',
  ],
  // SimpleAccountFactory v0.7 (eth-infinitism/account-abstraction v0.7.0) at its canonical
  // address: SimpleAccount v0.7, the address public deployment lists give for SimpleAccount v0.7.
  [
    '0x91e60e0613810449d098b0b5ec8b51a0fe8c8985',
    '0x68641DE71cfEa5a5d0D29712449Ee254bb1400C2',
  ],
  // SimpleAccountFactory v0.8 (eth-infinitism/account-abstraction v0.8.0) at its canonical
  // address: SimpleAccount v0.8.
  [
    '0x13e9ed32155810fdbd067d4522c492d6f68e5944',
    '0x28426d752372D68d34340bd94390950DcE3C9ec3',
  ],
]);

/**
 * The pinned account implementation of a known factory.
 *
 * @param factory - A SimpleAccountFactory address (20-byte hex, any case).
 * @returns The checksummed implementation address, or undefined for a factory this snap does not
 * know (its implementation is then read from the chain).
 */
export function knownImplementation(factory: string): Hex | undefined {
  const pinned = KNOWN_IMPLEMENTATIONS.get(factory.toLowerCase());
  return pinned === undefined ? undefined : getAddress(pinned);
}

/**
 * Refuse an RPC's `accountImplementation()` answer for a known factory that is not the pinned one.
 *
 * @param factory - The SimpleAccountFactory address (20-byte hex).
 * @param implementation - The implementation the chain's RPC answered.
 * @throws JsonRpcError -32603 naming the factory (never the answer) when the factory is known and
 * the answer is not its pinned implementation; nothing for a factory this snap does not know.
 */
export function assertPinnedImplementation(
  factory: Hex,
  implementation: Hex,
): void {
  const pinned = knownImplementation(factory);
  if (pinned !== undefined && !isAddressEqual(pinned, implementation)) {
    throw internalError(
      `The chain's RPC answers SimpleAccountFactory ${factory}.accountImplementation with an address that is not the implementation this known factory deploys: the account was not created (the RPC may be lying; check rpcUrl with setChainConfig)`,
    );
  }
}
