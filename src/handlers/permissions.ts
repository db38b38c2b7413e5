import { KeyringRpcMethod } from '@metamask/keyring-api';

import { METAMASK_ORIGIN } from '../consent';

export { METAMASK_ORIGIN };

/**
 * The companion dapp's origins: the manifest's `endowment:keyring.allowedOrigins`, compiled in at
 * build time (snap.config.ts sets `process.env.COMPANION_ORIGINS`; the Node tests' jest setup does
 * the same from the manifest), so the two lists cannot disagree. A development build
 * (`npm run build:dev`) adds the local site's origin to its own manifest, not to the shipped one.
 */
export const COMPANION_ORIGINS: readonly string[] =
  // eslint-disable-next-line no-restricted-globals -- replaced with a string literal at build time (webpack), not read at run time
  (process.env.COMPANION_ORIGINS ?? '')
    .split(',')
    .filter((origin) => origin !== '');

/** The snap's own JSON-RPC methods (onRpcRequest, reached through wallet_invokeSnap). */
export enum SnapRpcMethod {
  SetChainConfig = 'setChainConfig',
  GetChainConfigs = 'getChainConfigs',
  SetIpfsConfig = 'setIpfsConfig',
  GetUserOperationReceipt = 'getUserOperationReceipt',
  SetApprovalMode = 'setApprovalMode',
  GetApprovalMode = 'getApprovalMode',
  SendUserOperation = 'sendUserOperation',
  ListEntropySources = 'listEntropySources',
  FindAccounts = 'findAccounts',
  RestoreAccount = 'restoreAccount',
  GetCapabilities = 'wallet_getCapabilities',
  SendCalls = 'wallet_sendCalls',
  GetCallsStatus = 'wallet_getCallsStatus',
  DescribeAccounts = 'describeAccounts',
  GetSupportedExecutionPermissions = 'wallet_getSupportedExecutionPermissions',
  RequestExecutionPermissions = 'wallet_requestExecutionPermissions',
  GetGrantedExecutionPermissions = 'wallet_getGrantedExecutionPermissions',
  RevokeExecutionPermission = 'wallet_revokeExecutionPermission',
  ShowCallsStatus = 'wallet_showCallsStatus',
}

/**
 * What any other https site may call (the manifest's `endowment:rpc` has `dapps: true`): EIP-5792,
 * ERC-7715 execution permissions, and the snap's own send and receipt. Accounts, keys, settings,
 * recovery and approvals stay with MetaMask, the home page and the companion.
 */
const DAPP_METHODS: ReadonlySet<string> = new Set([
  SnapRpcMethod.GetCapabilities,
  SnapRpcMethod.SendCalls,
  SnapRpcMethod.GetCallsStatus,
  SnapRpcMethod.GetSupportedExecutionPermissions,
  SnapRpcMethod.RequestExecutionPermissions,
  SnapRpcMethod.GetGrantedExecutionPermissions,
  SnapRpcMethod.RevokeExecutionPermission,
  SnapRpcMethod.ShowCallsStatus,
  SnapRpcMethod.SendUserOperation,
  SnapRpcMethod.GetUserOperationReceipt,
]);

/**
 * What MetaMask's keyring bridge (eth-snap-keyring) calls. It creates accounts itself
 * (`keyring_createAccount`, from its own account menu), under the same rules as the companion
 * site (the same options, checks and MetaMask confirmation; no site to name).
 */
const METAMASK_METHODS: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.FilterAccountChains,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.UpdateAccount,
  KeyringRpcMethod.ListRequests,
  KeyringRpcMethod.GetRequest,
  KeyringRpcMethod.SubmitRequest,
  KeyringRpcMethod.RejectRequest,
  KeyringRpcMethod.SetSelectedAccounts,
  KeyringRpcMethod.ResolveAccountAddress,
];

/** What the companion dapp may call: account management, approvals, configuration. */
const COMPANION_METHODS: readonly string[] = [
  KeyringRpcMethod.ListAccounts,
  KeyringRpcMethod.GetAccount,
  KeyringRpcMethod.CreateAccount,
  KeyringRpcMethod.FilterAccountChains,
  KeyringRpcMethod.UpdateAccount,
  KeyringRpcMethod.DeleteAccount,
  KeyringRpcMethod.ExportAccount,
  KeyringRpcMethod.ListRequests,
  KeyringRpcMethod.GetRequest,
  KeyringRpcMethod.ApproveRequest,
  KeyringRpcMethod.RejectRequest,
  ...Object.values(SnapRpcMethod),
];

/** Every method name this snap knows (keyring-api's and its own): the ones an error may name. */
export const KNOWN_METHODS: readonly string[] = [
  ...Object.values(KeyringRpcMethod),
  ...Object.values(SnapRpcMethod),
];

/** Per-origin allow-list: which methods each caller may use. Anything else is refused (4100). */
export const ORIGIN_PERMISSIONS: ReadonlyMap<
  string,
  ReadonlySet<string>
> = new Map([
  [METAMASK_ORIGIN, new Set(METAMASK_METHODS)],
  ...COMPANION_ORIGINS.map(
    (origin) => [origin, new Set(COMPANION_METHODS)] as const,
  ),
]);

/**
 * Whether `origin` may call `method`: MetaMask and the companion by their own lists; any other
 * https origin the dapp methods.
 *
 * @param origin - The caller's origin as the snaps platform reports it.
 * @param method - The JSON-RPC method name.
 * @returns True when the allow-list grants it.
 */
export function isAllowed(origin: string, method: string): boolean {
  return (
    ORIGIN_PERMISSIONS.get(origin)?.has(method) ??
    (/^https:\/\/[^/?#]+$/u.test(origin) && DAPP_METHODS.has(method))
  );
}
