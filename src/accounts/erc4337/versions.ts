import type { Hex } from 'viem';

import { DEFAULT_ACCOUNT_FACTORY, DEFAULT_ENTRY_POINT } from './constants';
import { ERC1967_PROXY_CREATION_CODE } from './proxyCode';
import {
  ERC1967_PROXY_CREATION_CODE_V07,
  ERC1967_PROXY_CREATION_CODE_V08,
} from './proxyCodeV07V08';

/**
 * The ERC-4337 EntryPoint versions a smart account of this snap can run on: SimpleAccount of
 * eth-infinitism/account-abstraction releases v0.6.0, v0.7.0 and v0.8.0.
 */
export type EntryPointVersion = '0.6' | '0.7' | '0.8';

/** An EntryPoint and the SimpleAccountFactory built for it (checksummed 20-byte addresses). */
export type EntryPointContracts = {
  /** The EntryPoint. */
  entryPoint: string;
  /** Its SimpleAccountFactory. */
  accountFactory: string;
};

/**
 * The canonical deployments, the same address on every chain (CREATE2 through the deterministic
 * deployment proxy): eth-infinitism/account-abstraction releases v0.6.0, v0.7.0 and v0.8.0.
 */
export const CANONICAL_CONTRACTS: Readonly<
  Record<EntryPointVersion, EntryPointContracts>
> = {
  '0.6': {
    entryPoint: DEFAULT_ENTRY_POINT,
    accountFactory: DEFAULT_ACCOUNT_FACTORY,
  },
  '0.7': {
    entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
    accountFactory: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
  },
  '0.8': {
    entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
    accountFactory: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
  },
};

/**
 * The creation code of the ERC1967Proxy a version's SimpleAccountFactory deploys for each account
 * (what its CREATE2 address hashes).
 *
 * @param version - The EntryPoint version.
 * @returns The proxy's creation code (without constructor arguments).
 */
export function proxyCreationCode(version: EntryPointVersion): Hex {
  switch (version) {
    case '0.7':
      return ERC1967_PROXY_CREATION_CODE_V07;
    case '0.8':
      return ERC1967_PROXY_CREATION_CODE_V08;
    default:
      return ERC1967_PROXY_CREATION_CODE;
  }
}
