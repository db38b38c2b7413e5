import { parseAbi } from 'viem';

/**
 * ERC-4337 EntryPoint v0.6 and SimpleAccount v0.6 (eth-infinitism/account-abstraction
 * v0.6.0, `@account-abstraction/contracts@0.6.0`) facts the snap relies on.
 */

/** Canonical EntryPoint v0.6 deployment (same address on every chain). */
export const DEFAULT_ENTRY_POINT = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789';

/** Canonical SimpleAccountFactory v0.6 deployment. */
export const DEFAULT_ACCOUNT_FACTORY =
  '0x9406Cc6185a346906296840746125a0E44976454';

/** `createAccount(owner, salt)` salt of every account of this snap (one owner key per account). */
export const ACCOUNT_SALT = 0n;

export const factoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
  'function accountImplementation() view returns (address)',
]);

export const simpleAccountAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, bytes[] func)',
  'function initialize(address anOwner)',
]);

export const entryPointAbi = parseAbi([
  'function getNonce(address sender, uint192 key) view returns (uint256 nonce)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
  'event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster)',
]);

/**
 * A well-formed 65-byte ECDSA signature that recovers to no owner: SimpleAccount v0.6
 * returns SIG_VALIDATION_FAILED for it instead of reverting, so bundlers can simulate
 * and estimate (a malformed one reverts with "ECDSA: invalid signature length").
 */
export const DUMMY_SIGNATURE =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c';

/** EIP-1967 implementation slot: bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1). */
export const EIP1967_IMPLEMENTATION_SLOT =
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';

/**
 * Runtime code of the ERC1967Proxy that SimpleAccountFactory v0.6.0 deploys for every
 * account (read from an account deployed by the package's factory; a test checks it).
 * Used as a state override so a not-yet-deployed account can be estimated exactly as
 * it will run: this code plus the implementation address in the EIP-1967 slot.
 */
export const ERC1967_PROXY_RUNTIME_CODE =
  '0x60806040523661001357610011610017565b005b6100115b610027610022610074565b6100b9565b565b606061004e83836040518060600160405280602781526020016102f1602791396100dd565b9392505050565b73ffffffffffffffffffffffffffffffffffffffff163b151590565b90565b60006100b47f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc5473ffffffffffffffffffffffffffffffffffffffff1690565b905090565b3660008037600080366000845af43d6000803e8080156100d8573d6000f35b3d6000fd5b60606000808573ffffffffffffffffffffffffffffffffffffffff16856040516101079190610283565b600060405180830381855af49150503d8060008114610142576040519150601f19603f3d011682016040523d82523d6000602084013e610147565b606091505b509150915061015886838387610162565b9695505050505050565b606083156101fd5782516000036101f65773ffffffffffffffffffffffffffffffffffffffff85163b6101f6576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601d60248201527f416464726573733a2063616c6c20746f206e6f6e2d636f6e747261637400000060448201526064015b60405180910390fd5b5081610207565b610207838361020f565b949350505050565b81511561021f5781518083602001fd5b806040517f08c379a00000000000000000000000000000000000000000000000000000000081526004016101ed919061029f565b60005b8381101561026e578181015183820152602001610256565b8381111561027d576000848401525b50505050565b60008251610295818460208701610253565b9190910192915050565b60208152600082518060208401526102be816040850160208701610253565b601f017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe016919091016040019291505056fe416464726573733a206c6f772d6c6576656c2064656c65676174652063616c6c206661696c6564a26469706673582212201cd78ab6a31213989661cff2d7d05fc9b9c38b1a848e8249e2e398659a9eb7e364736f6c634300080f0033';

/**
 * Gas for validateUserOp of a deployed SimpleAccount v0.6 (ECDSA recover, nonce, prefund),
 * with margin; the factory's measured deployment gas is added when initCode is set.
 */
export const VERIFICATION_GAS_BASE = 100_000n;

/** preVerificationGas parameters of the reference bundler (EntryPoint v0.6 era defaults). */
export const PRE_VERIFICATION_GAS = {
  fixed: 21_000n,
  perUserOp: 18_300n,
  perUserOpWord: 4n,
  zeroByte: 4n,
  nonZeroByte: 16n,
} as const;
