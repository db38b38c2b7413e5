/**
 * fast-check arbitraries for hostile requests: which origin calls which method with what params.
 * A request is a recipe resolved against the snap's live state when it runs (valid account and
 * request ids change as the run creates and deletes them): a valid template for the method, then
 * zero or more mutations (a value replaced by a hostile one, a key deleted, an extra key added),
 * or raw JSON instead of the template.
 */
import { KeyringRpcMethod } from '@metamask/keyring-api';
import * as fc from 'fast-check';

/** Planted secrets: set up once, then sent in wrong places; none may ever come back. */
export const PLANTED = {
  /** A private key imported with keyring_createAccount. */
  privateKey:
    '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  /** The IPFS API key secret given to setIpfsConfig. */
  ipfsSecret: 'ipfs-secret-Zp4Q9vN2xW7kT1',
  /** An RPC provider key in the rpcUrl path. */
  rpcKey: 'rpcKeyHq83Lm29Xc71Vb40Ns',
} as const;

/** What a recipe may read from the live snap: ids, addresses and the configured chain. */
export type LiveContext = {
  /** The snap's accounts (keyring-api KeyringAccount fields). */
  accounts: {
    id: string;
    address: string;
    type: string;
    options: Record<string, unknown>;
    scopes: string[];
    methods: string[];
  }[];
  /** Ids of the requests parked in async mode. */
  requestIds: string[];
  /** Ids of the Secret Recovery Phrases (listEntropySources). */
  entropySources: string[];
  /** The chain's EntryPoint v0.7 / v0.8 contracts, for setChainConfig's `entryPoints`. */
  entryPoints: Record<
    '0.7' | '0.8',
    { entryPoint: string; accountFactory: string }
  >;
  /** The configured chain's CAIP-2 scope. */
  scope: string;
  /** Its RPC URL. */
  rpcUrl: string;
  /** An RPC URL carrying a planted API key (must never come back unmasked). */
  keyedRpcUrl: string;
  /** A URL where nothing listens. */
  closedUrl: string;
};

/** A JSON path inside params: object keys and array indexes. */
type Path = (string | number)[];

/** One change to a template's params. */
export type Mutation = {
  /** Replace the value at a path, delete it, or add a key there. */
  op: 'replace' | 'delete' | 'add';
  /** Which path of the params (modulo their count). */
  at: number;
  /** The key added by `add`. */
  key: string;
  /** The value written by `replace` and `add`. */
  value: unknown;
};

/** A generated call to the snap. */
export type Recipe = {
  /** The caller's origin. */
  origin: string;
  /** onKeyringRequest or onRpcRequest. */
  handler: 'keyring' | 'rpc';
  /** The method called. */
  method: string;
  /** `template`: the method's valid params; `none`: no params; `raw`: `value` as params. */
  shape: 'template' | 'none' | 'raw';
  /** The params sent with shape `raw`. */
  raw: unknown;
  /** Picks among the live accounts, requests and template variants. */
  pick: number;
  /** Changes applied to the template's params, in order. */
  mutations: Mutation[];
  /** Refuse the keyring events of this call (fault injection), when it emits any. */
  refuseEvents: boolean;
  /** Accept the dialogs this call opens (else each is cancelled). */
  acceptDialogs: boolean;
};

const UNKNOWN_METHODS = [
  'eth_sign',
  'keyring_fooBar',
  '',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  PLANTED.privateKey,
  'x'.repeat(300),
];
export const SNAP_METHODS = [
  'setChainConfig',
  'getChainConfigs',
  'setIpfsConfig',
  'getUserOperationReceipt',
  'setApprovalMode',
  'getApprovalMode',
  'sendUserOperation',
  'listEntropySources',
  'findAccounts',
  'restoreAccount',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'describeAccounts',
  'wallet_getSupportedExecutionPermissions',
  'wallet_requestExecutionPermissions',
  'wallet_getGrantedExecutionPermissions',
  'wallet_revokeExecutionPermission',
  'wallet_showCallsStatus',
];
export const KEYRING_METHODS: string[] = Object.values(KeyringRpcMethod);

/**
 * A value nested `depth` levels deep.
 *
 * @param depth - How many levels of objects and arrays.
 * @returns The value.
 */
const nest = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 ? [value] : { a: value };
  }
  return value;
};

/** Values a careless validator trips on. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -0,
      '',
      '0x',
      '0xzz',
      '0x123',
      '0X00',
      'eip155:',
      'eip155:01',
      'eip155:0',
      '__proto__',
      'constructor',
      'NaN',
      '💥',
      '\u0000',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.integer() },
  {
    weight: 2,
    arbitrary: fc
      .bigInt({ min: 0n, max: 2n ** 300n })
      .map((value) => `0x${value.toString(16)}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(39, 40, 41, 64, 65).chain((length) =>
      fc
        .string({
          unit: fc.constantFrom(...'0123456789abcdefABCDEFg'),
          minLength: length,
          maxLength: length,
        })
        .map((digits) => `0x${digits}`),
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      PLANTED.privateKey,
      PLANTED.privateKey.slice(2),
      PLANTED.ipfsSecret,
      PLANTED.rpcKey,
      { privateKey: PLANTED.privateKey },
      [PLANTED.ipfsSecret],
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(2_000, 40_000)
      .map((length) => 'k'.repeat(length)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(1_000, 10_000)
      .map((length) => Array.from({ length }, (_, index) => index)),
  },
  { weight: 1, arbitrary: fc.constantFrom(40, 200, 1_000).map(nest) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      { toString: 'x' },
      { toString: 'x', valueOf: 'y' },
      JSON.parse('{"__proto__":{"polluted":true}}'),
      { constructor: { prototype: { polluted: true } } },
      {},
      [],
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const extraKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'extra',
  'privateKey',
  'apiSecret',
  PLANTED.privateKey,
  PLANTED.privateKey.slice(2),
  PLANTED.ipfsSecret,
  PLANTED.rpcKey,
  'k'.repeat(100),
  '',
);

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom<'replace' | 'delete' | 'add'>(
    'replace',
    'replace',
    'delete',
    'add',
  ),
  at: fc.nat(),
  key: extraKey,
  value: hostileValue,
});

/**
 * A hostile request: any origin class, any method (keyring-api's, the snap's, unknown ones),
 * through either handler, with template params mutated 0-3 times, or raw JSON, or none.
 *
 * @param origins - The origins to draw from.
 * @returns The arbitrary.
 */
export const recipe = (origins: string[]): fc.Arbitrary<Recipe> =>
  fc
    .record({
      // the allowed origins (the first two) more often: a refusal with 4100 takes no validation
      origin: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...origins.slice(0, 2)) },
        { weight: 1, arbitrary: fc.constantFrom(...origins) },
      ),
      handler: fc.constantFrom<'keyring' | 'rpc'>('keyring', 'keyring', 'rpc'),
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...KEYRING_METHODS) },
        { weight: 3, arbitrary: fc.constantFrom(...SNAP_METHODS) },
        { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_METHODS) },
      ),
      shape: fc.constantFrom<'template' | 'none' | 'raw'>(
        'template',
        'template',
        'template',
        'template',
        'none',
        'raw',
      ),
      // mostly structured (JSON-RPC params are an object or an array); a few primitives, which the platform refuses
      raw: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, {
              maxKeys: 4,
            }),
            fc.array(hostileValue, { maxLength: 4 }),
          ),
        },
        { weight: 1, arbitrary: hostileValue },
      ),
      pick: fc.nat(),
      mutations: fc.oneof(
        { weight: 2, arbitrary: fc.constant<Mutation[]>([]) },
        {
          weight: 3,
          arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }),
        },
      ),
      refuseEvents: fc.boolean(),
      acceptDialogs: fc.boolean(),
    })
    .map((value) => ({
      ...value,
      handler:
        SNAP_METHODS.includes(value.method) && value.handler === 'keyring'
          ? 'rpc'
          : value.handler,
    }));

/**
 * A version-4 UUID made from a counter.
 *
 * @param index - The counter.
 * @returns The UUID.
 */
const UUID = (index: number): string =>
  `00000000-0000-4000-8000-${(index % 1e12).toString().padStart(12, '0')}`;
let requestCounter = 0;

/**
 * The valid params of `method` against the live state (a variant chosen by `pick`).
 *
 * @param method - The method.
 * @param pick - Chooses the account, request and variant.
 * @param live - The live ids and URLs.
 * @returns The params, or undefined for a method without params.
 */
export function template(
  method: string,
  pick: number,
  live: LiveContext,
): unknown {
  const account =
    live.accounts.length > 0
      ? live.accounts[pick % live.accounts.length]
      : undefined;
  const id = account?.id ?? UUID(pick);
  const requestId =
    live.requestIds.length > 0
      ? live.requestIds[pick % live.requestIds.length]
      : UUID(pick + 7);
  const variant = Math.floor(pick / 7) % 8;
  const source =
    live.entropySources[pick % Math.max(1, live.entropySources.length)] ??
    '01JQZ0000000000000000000000';
  switch (method) {
    case 'keyring_getAccount':
    case 'keyring_deleteAccount':
    case 'keyring_exportAccount':
      return { id };
    case 'keyring_createAccount':
      return {
        options: [
          {},
          { name: 'fuzz' },
          { type: 'eip155:erc4337', scopes: [live.scope] },
          {
            privateKey: `0x${(BigInt(pick) + 1n).toString(16).padStart(64, '0')}`,
          },
          {
            metadataCid:
              'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
          },
          { type: 'eip155:erc4337' },
          {
            type: 'eip155:erc4337',
            scopes: [live.scope],
            entryPointVersion: ['0.6', '0.7', '0.8'][pick % 3],
          },
          { entropySource: source, name: 'fuzz' },
        ][variant],
      };
    case 'keyring_filterAccountChains':
      return {
        id,
        chains: [
          'eip155:1',
          live.scope,
          'bip122:000000000019d6689c085ae165831e93',
        ],
      };
    case 'keyring_updateAccount':
      return account
        ? {
            account: {
              ...account,
              options: { ...account.options, label: `l${pick % 100}` },
            },
          }
        : {
            account: {
              id,
              type: 'eip155:eoa',
              address: '0x0000000000000000000000000000000000000001',
              scopes: ['eip155:0'],
              options: {},
              methods: [],
            },
          };
    case 'keyring_getRequest':
    case 'keyring_rejectRequest':
      return { id: requestId };
    case 'keyring_approveRequest':
      return { id: requestId, data: {} };
    case 'keyring_setSelectedAccounts':
      return { accounts: live.accounts.slice(0, 2).map((entry) => entry.id) };
    case 'keyring_resolveAccountAddress':
      return {
        scope: 'eip155:1',
        request: {
          jsonrpc: '2.0',
          id: 1,
          method: 'personal_sign',
          params: [
            '0x00',
            account?.address ?? '0x0000000000000000000000000000000000000001',
          ],
        },
      };
    case 'keyring_submitRequest':
      requestCounter += 1;
      return {
        id: UUID(1e9 + requestCounter),
        scope:
          account?.type === 'eip155:erc4337'
            ? live.scope
            : ['', 'eip155:1', live.scope][variant % 3],
        account: id,
        origin: 'https://dapp.example',
        request: innerRequest(account, variant),
      };
    case 'keyring_listAccounts':
    case 'keyring_listRequests':
      return undefined;
    case 'setChainConfig':
      return [
        { scope: live.scope, rpcUrl: live.rpcUrl, bundlerUrl: live.closedUrl },
        {
          scope: live.scope,
          rpcUrl: live.keyedRpcUrl,
          bundlerUrl: live.closedUrl,
        },
        { scope: 'eip155:1', rpcUrl: live.closedUrl },
        { scope: live.scope, rpcUrl: 'http://rpc.example.com' },
        {
          scope: live.scope,
          rpcUrl: live.keyedRpcUrl,
          bundlerUrl: live.closedUrl,
          entryPoints: live.entryPoints,
        },
      ][variant % 5];
    case 'setIpfsConfig':
      return {
        apiUrl: [
          live.closedUrl,
          `${live.closedUrl}/api/v0/`,
          'https://127.0.0.1:1',
        ][variant % 3],
        apiKey: 'fuzz',
        apiKeySecret: PLANTED.ipfsSecret,
      };
    case 'getUserOperationReceipt':
      return {
        scope: live.scope,
        userOpHash: `0x${(pick % 256).toString(16).padStart(2, '0').repeat(32)}`,
      };
    case 'setApprovalMode':
      return { mode: variant % 2 ? 'async' : 'sync' };
    case 'sendUserOperation':
      return {
        account: variant % 3 === 2 ? account?.address : id,
        scope: live.scope,
        intents: [
          {
            to:
              account?.address ?? '0x000000000000000000000000000000000000dEaD',
            value: '0x0',
            data: '0x',
          },
          ...(variant % 2
            ? [
                {
                  to: '0x000000000000000000000000000000000000dEaD',
                  value: '0x1',
                  data: '0x',
                },
              ]
            : []),
        ],
      };
    case 'wallet_getCapabilities':
      return [
        [account?.address ?? '0x000000000000000000000000000000000000dEaD'],
        [
          account?.address,
          [`0x${BigInt(live.scope.split(':')[1] ?? '1').toString(16)}`, '0x1'],
        ],
        [account?.address, 'eip155:31337'],
      ][variant % 3];
    case 'wallet_sendCalls':
      return [
        {
          version: ['2.0.0', '1.0', '2.0.0'][variant % 3],
          ...(variant % 2 ? { id: `fuzz-${pick % 7}` } : {}),
          from:
            account?.address ?? '0x000000000000000000000000000000000000dEaD',
          chainId:
            variant % 4
              ? `0x${BigInt(live.scope.split(':')[1] ?? '1').toString(16)}`
              : '0x1',
          atomicRequired: variant % 2 === 0,
          calls: [
            { to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
            ...(variant % 3
              ? [{ to: account?.address, data: '0x', value: '0x0' }]
              : []),
          ],
          ...(variant % 5 === 0
            ? { capabilities: { paymasterService: { url: live.closedUrl } } }
            : {}),
        },
      ];
    case 'wallet_getCallsStatus':
    case 'wallet_showCallsStatus':
      return [
        variant % 2
          ? `fuzz-${pick % 7}`
          : `0x${(pick % 256).toString(16).padStart(2, '0').repeat(32)}`,
      ];
    case 'wallet_getSupportedExecutionPermissions':
    case 'wallet_getGrantedExecutionPermissions':
      return variant % 2 ? [] : undefined;
    case 'wallet_requestExecutionPermissions':
      return [executionPermissionRequest(account?.address, variant, live)];
    case 'wallet_revokeExecutionPermission':
      return {
        permissionContext: [
          '0x00',
          `0x${'00'.repeat(31)}20${'00'.repeat(32)}`,
          `0x${(pick % 256).toString(16).padStart(2, '0').repeat(96)}`,
        ][variant % 3],
      };
    case 'listEntropySources':
    case 'findAccounts':
      return variant % 2 ? {} : undefined;
    case 'restoreAccount':
      return [
        { type: 'eip155:eoa', index: pick % 40 },
        { type: 'eip155:erc4337', index: pick % 40 },
        { type: 'eip155:eoa', index: pick % 40, entropySource: source },
        { type: 'eip155:erc4337', index: pick % 40, scheme: 'legacy' },
        { type: 'eip155:eoa', index: pick % 40, scheme: 'eoa' },
        {
          type: 'eip155:erc4337',
          index: pick % 40,
          entryPointVersion: ['0.6', '0.7', '0.8'][pick % 3],
        },
        { type: 'eip155:erc4337', index: 2 ** 31, entropySource: source },
        { type: 'eip155:eoa', index: pick % 40, scheme: 'erc4337-owner' },
      ][variant];
    default:
      return variant % 2 ? {} : undefined;
  }
}

/**
 * An ERC-7715 permission request (`@metamask/7715-permission-types` shape) from `from`: one of the
 * permission types, a far expiry (or a passed one), a session account that is not the granter.
 *
 * @param from - The granting account (an unknown address when there is none).
 * @param variant - Picks the type and its details.
 * @param live - The configured chain.
 * @returns The request.
 */
function executionPermissionRequest(
  from: string | undefined,
  variant: number,
  live: LiveContext,
): Record<string, unknown> {
  const token = '0x000000000000000000000000000000000000dEaD';
  const data = [
    { periodAmount: '0x6f05b59d3b20000', periodDuration: 3600 },
    { periodAmount: '0x1', periodDuration: 86_400, tokenAddress: token },
    { amountPerSecond: '0x1', maxAmount: '0x100', startTime: 1 },
    { amountPerSecond: '0x1', maxAmount: '0x10', tokenAddress: token },
  ][variant % 4];
  return {
    chainId: `0x${BigInt(live.scope.split(':')[1] ?? '1').toString(16)}`,
    from: from ?? '0x000000000000000000000000000000000000dEaD',
    to: '0x000000000000000000000000000000000000bEEF',
    permission: {
      type: [
        'native-token-periodic',
        'erc20-token-periodic',
        'native-token-stream',
        'erc20-token-stream',
      ][variant % 4],
      isAdjustmentAllowed: variant % 2 === 0,
      data: { ...data, justification: 'fuzz' },
    },
    rules: [
      {
        type: 'expiry',
        data: { timestamp: variant % 5 === 4 ? 1 : 4_102_444_800 },
      },
    ],
  };
}

/**
 * A request for keyring_submitRequest, fitting the account's type.
 *
 * @param account - The account (an EOA request when there is none).
 * @param variant - Picks among the methods and their params.
 * @returns The inner request.
 */
function innerRequest(
  account: LiveContext['accounts'][number] | undefined,
  variant: number,
): { method: string; params: unknown[] } {
  const address =
    account?.address ?? '0x0000000000000000000000000000000000000001';
  if (account?.type === 'eip155:erc4337') {
    const op = {
      sender: address,
      nonce: '0x0',
      initCode: '0x',
      callData: '0x',
      callGasLimit: '0x5208',
      verificationGasLimit: '0x5208',
      preVerificationGas: '0x5208',
      maxFeePerGas: '0x1',
      maxPriorityFeePerGas: '0x1',
      paymasterAndData: '0x',
      signature: '0x',
    };
    return [
      {
        method: 'eth_prepareUserOperation',
        params: [{ to: address, value: '0x0', data: '0x' }],
      },
      { method: 'eth_patchUserOperation', params: [op] },
      { method: 'eth_signUserOperation', params: [op] },
    ][variant % 3];
  }
  return [
    { method: 'personal_sign', params: ['0x68656c6c6f', address] },
    {
      method: 'eth_signTransaction',
      params: [
        {
          from: address,
          to: address,
          chainId: '0x1',
          nonce: '0x0',
          gasLimit: '0x5208',
          gasPrice: '0x1',
          value: '0x0',
        },
      ],
    },
    {
      method: 'eth_signTypedData_v4',
      params: [
        address,
        {
          types: { EIP712Domain: [], M: [{ name: 'a', type: 'uint256' }] },
          primaryType: 'M',
          domain: {},
          message: { a: '1' },
        },
      ],
    },
    {
      // a user operation of this account as typed data (EntryPoint v0.8's shape): always refused
      method: 'eth_signTypedData_v4',
      params: [
        address,
        {
          types: {
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'version', type: 'string' },
              { name: 'chainId', type: 'uint256' },
              { name: 'verifyingContract', type: 'address' },
            ],
            PackedUserOperation: [
              { name: 'sender', type: 'address' },
              { name: 'nonce', type: 'uint256' },
              { name: 'initCode', type: 'bytes' },
              { name: 'callData', type: 'bytes' },
              { name: 'accountGasLimits', type: 'bytes32' },
              { name: 'preVerificationGas', type: 'uint256' },
              { name: 'gasFees', type: 'bytes32' },
              { name: 'paymasterAndData', type: 'bytes' },
            ],
          },
          primaryType: 'PackedUserOperation',
          domain: {
            name: 'ERC4337',
            version: '1',
            chainId: '31337',
            verifyingContract: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
          },
          message: {
            sender: address,
            nonce: '0',
            initCode: '0x',
            callData: '0x',
            accountGasLimits: `0x${'00'.repeat(32)}`,
            preVerificationGas: '0',
            gasFees: `0x${'00'.repeat(32)}`,
            paymasterAndData: '0x',
          },
        },
      ],
    },
  ][variant % 4];
}

/**
 * Every path of a JSON value, objects and arrays included.
 *
 * @param value - The value.
 * @param prefix - The path of the value itself.
 * @returns The paths (the root is `[]`), at most 6 levels deep.
 */
export function paths(value: unknown, prefix: Path = []): Path[] {
  const own: Path[] = [prefix];
  if (typeof value !== 'object' || value === null || prefix.length > 6) {
    return own;
  }
  const entries = Array.isArray(value)
    ? value.slice(0, 20).map((item, index) => [index, item] as const)
    : Object.entries(value).slice(0, 20);
  return [
    ...own,
    ...entries.flatMap(([key, item]) => paths(item, [...prefix, key])),
  ];
}

/**
 * Apply a mutation to a copy of `params`.
 *
 * @param params - JSON params (or undefined).
 * @param change - What to do where.
 * @returns The changed copy.
 */
export function mutate(params: unknown, change: Mutation): unknown {
  const copy: unknown =
    params === undefined ? undefined : JSON.parse(JSON.stringify(params));
  const all = paths(copy);
  const path = all[change.at % all.length];
  if (path.length === 0) {
    if (
      change.op === 'add' &&
      typeof copy === 'object' &&
      copy !== null &&
      !Array.isArray(copy)
    ) {
      Object.defineProperty(copy, change.key, {
        value: change.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return copy;
    }
    // a hostile value replaces the whole params inside an array: params stay structured JSON-RPC
    return change.op === 'delete' ? undefined : [change.value];
  }
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const last = path[path.length - 1];
  if (change.op === 'delete') {
    if (Array.isArray(parent)) {
      parent.splice(Number(last), 1);
    } else {
      delete parent[last];
    }
  } else if (
    change.op === 'add' &&
    typeof parent[last] === 'object' &&
    parent[last] !== null &&
    !Array.isArray(parent[last])
  ) {
    Object.defineProperty(parent[last], change.key, {
      value: change.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    parent[last] = change.value;
  }
  return copy;
}

/**
 * fast-check reporter that fails with a bounded message: counterexamples hold 40 kB strings and
 * 1,000-level objects, which would flood the log.
 *
 * @param details - The run details.
 */
export function short<Value>(details: fc.RunDetails<Value>): void {
  if (details.failed) {
    const message = fc.defaultReportMessage(details) ?? 'property failed';
    const cause =
      details.errorInstance instanceof Error
        ? details.errorInstance.message
        : String(details.errorInstance);
    throw new Error(
      `${message.replace(/Counterexample: [\s\S]*?\n(?=\S)/u, (text) => `${text.slice(0, 3000)}…\n`).slice(0, 6000)}\n${cause.slice(0, 3000)}`,
    );
  }
}
