import { EthMethod } from '@metamask/keyring-api';
import { array, object, optional, size, string } from '@metamask/superstruct';
import type { Json } from '@metamask/utils';
import type { Hex } from 'viem';

import { AccountUpgrades } from './eip7702';
import { ownRequest, distinct } from './requests';
import { reviewSend } from './sendReview';
import { rememberSentOperation } from './sentOperations';
import type { KeyringPlatform, SendSummary } from './types';
import { parseAccountRequest, signAccountTask } from '../accounts';
import {
  DeployingSends,
  draftModernUserOperation,
  draftUserOperation,
  lookupUserOperationReceipt,
  parseSmartAccountRequest,
  readSendNonce,
  sendNoncesOf,
  signModernUserOperation,
  smartAccountChain,
  submitModernUserOperation,
  submitUserOperation,
} from '../accounts/erc4337';
import type { SendNonces } from '../accounts/erc4337';
import { sentDetails } from '../accounts/erc4337/opDetails';
import type { SmartAccountChain } from '../accounts/erc4337/prepare';
import type { Settings } from '../settings';
import type { AccountRecord, SmartAccountData } from '../state/schema';
import type { StateStore } from '../state/store';
import {
  internalError,
  invalidParams,
  throwNotFound,
  userRejected,
  validate,
} from '../utils/errors';
import {
  AddressStruct,
  Bytes32Struct,
  ChainScopeStruct,
} from '../utils/structs';

/** The origin sendUserOperation's dialog names when the snap's home page Send form asked. */
export const HOME_PAGE_ORIGIN = 'this snap’s home page (Send form)';

const ReceiptParamsStruct = object({
  scope: ChainScopeStruct,
  userOpHash: Bytes32Struct,
});

const SendParamsStruct = object({
  account: string(),
  scope: ChainScopeStruct,
  intents: size(array(), 1, 32),
  gasToken: optional(AddressStruct),
});

/**
 * The snap's own ERC-4337 flow: sendUserOperation (prepare, paymaster, confirmation, signature,
 * bundler) and getUserOperationReceipt, over the keyring's accounts and the chain settings.
 */
export class UserOperations {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #platform: Pick<KeyringPlatform, 'confirm' | 'confirmSend'>;

  readonly #record: (id: string) => AccountRecord;

  /** Smart accounts with a deploying operation in flight (sendUserOperation refuses a second one). */
  readonly #deploying = new DeployingSends();

  /** Each account's sends one after the other, and the nonce after an accepted one (one per store). */
  readonly #nonces: SendNonces;

  /** sendUserOperation from an EOA (EIP-7702, through Simple7702Account). */
  readonly #upgrades: AccountUpgrades;

  /**
   * @param parts - What the flow works with.
   * @param parts.store - The snap's state store.
   * @param parts.settings - Chain settings (RPC, bundler, EntryPoint).
   * @param parts.platform - Shows the send confirmation (`confirmSend`, read at each send; without
   * it nothing is sent) and plain confirmations (`confirm`).
   * @param parts.record - The saved record of an account id; throws -32001 if there is none.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: Pick<KeyringPlatform, 'confirm' | 'confirmSend'>;
    record: (id: string) => AccountRecord;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#platform = parts.platform;
    this.#record = parts.record;
    this.#nonces = sendNoncesOf(parts.store);
    this.#upgrades = new AccountUpgrades(parts);
  }

  /**
   * A user operation's outcome (EntryPoint v0.6 `UserOperationEvent`) on the chain of `scope`. One
   * this snap sent: its bundler's `eth_getUserOperationReceipt`, else the EntryPoint logs from the
   * block remembered at send time. Any other: the bundlers of the chain's accounts, else the
   * EntryPoint logs of the last `RECENT_RECEIPT_BLOCKS` blocks, under every EntryPoint this snap's
   * accounts use there.
   *
   * @param params - `{ scope: "eip155:<decimal>", userOpHash: 32-byte hex }`.
   * @returns `{ userOpHash, sender, nonce, success, actualGasCost, actualGasUsed, transactionHash, blockNumber }` (hex quantities), or null while unknown.
   * @throws JsonRpcError -32602 for bad params, -32001 when the chain has no config.
   */
  async receipt(params: unknown): Promise<Json> {
    const { scope, userOpHash } = validate(
      params,
      ReceiptParamsStruct,
      'getUserOperationReceipt params',
    );
    const config =
      this.#settings.chainConfig(scope) ??
      throwNotFound(`No chain config for ${scope}: call setChainConfig first`, {
        reason: 'noChainConfig',
      });
    const hash = userOpHash.toLowerCase() as Hex;
    const sent = (this.#store.current.sentUserOperations ?? []).find(
      (entry) => entry.userOpHash === hash && entry.scope === scope,
    );
    return lookupUserOperationReceipt(
      {
        rpcUrl: config.rpcUrl,
        entryPoints: this.#entryPoints(scope),
        sent,
        bundlerUrls: this.#bundlerUrls(scope),
      },
      hash,
    );
  }

  /**
   * Send a user operation from a smart account without the wallet's ERC-4337 support, reusing the
   * code of the three keyring methods: prepare (with the fees in the same chain round trip) and
   * the paymaster (eth_prepareUserOperation, eth_patchUserOperation), then the confirmation dialog,
   * then the owner's signature (eth_signUserOperation), then `eth_sendUserOperation` to the
   * account's bundler. The hash, bundler and starting block are remembered for receipts. An EOA
   * of the snap sends through Simple7702Account on EntryPoint v0.8 from its own address (EIP-7702;
   * the first operation upgrades it: see AccountUpgrades.send). An account's sends run one at a
   * time (SendNonces): the next is drafted once the bundler answered the previous one, with its
   * nonce when it was refused (so at most one of them can run), else the following one.
   *
   * @param params - `{ account: <account id>, scope: "eip155:<decimal>", intents: [{ to, value?, data? }, ...],
   * gasToken? }` (1 to 32 intents; value in wei, hex or decimal; data hex bytes; gasToken: an ERC-20
   * address to pay the gas in, through the chain's paymaster service in ERC-20 mode, for EntryPoint
   * v0.7 / v0.8 accounts and EOAs already upgraded).
   * @param origin - Who asked, shown in the dialog: the site's origin as MetaMask reported it to
   * onRpcRequest; the default names the snap's own home page (its Send form).
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws JsonRpcError 4001 when the user declines (nothing signed or sent); -32003 (data.reason
   * `insufficientFunds`) when the account cannot pay the values and the gas; -32602 for bad
   * params; -32001 for an unknown account or missing
   * chain config / bundlerUrl; the bundler's code (-32500 to -32507, ...) with a readable message
   * when it refuses the operation.
   */
  async send(
    params: unknown,
    origin = HOME_PAGE_ORIGIN,
  ): Promise<{ userOpHash: string; entryPoint: string; sender: string }> {
    const {
      account: id,
      scope,
      intents,
      gasToken,
    } = validate(params, SendParamsStruct, 'sendUserOperation params');
    const token = gasToken as Hex | undefined;
    const { smartAccount } = this.#record(id);
    if (!smartAccount) {
      return this.#upgrades.send(id, scope, intents as Json[], origin, token);
    }
    if (smartAccount.entryPointVersion) {
      return this.#sendModern(id, scope, intents as Json[], origin, token);
    }
    if (token) {
      throw invalidParams(
        'Invalid sendUserOperation params at gasToken: paying gas in a token needs an EntryPoint v0.7 or v0.8 account (this one runs on v0.6)',
      );
    }
    const prepare = parseAccountRequest(
      this.#record(id),
      ownRequest(id, scope, EthMethod.PrepareUserOperation, intents as Json[]),
      this.#settings.chainConfig(scope),
    );
    if (
      prepare.type !== 'erc4337' ||
      prepare.task.method !== 'eth_prepareUserOperation'
    ) {
      throw invalidParams(
        'Invalid sendUserOperation params at account: not a smart account (eip155:erc4337)',
      );
    }
    const { chain } = prepare;
    const { intents: parsed } = prepare.task;
    // One send of the account at a time; a retry after a refusal reuses the refused nonce.
    return this.#nonces.run(
      chain,
      async (floor) => {
        const draft = await draftUserOperation(chain, scope, parsed, floor);
        return this.#confirmAndSubmit(origin, scope, chain, draft, async () => {
          const record = this.#record(id); // still there after the dialog
          const signing = parseAccountRequest(
            record,
            ownRequest(id, scope, EthMethod.SignUserOperation, [draft.userOp]),
            this.#settings.chainConfig(scope),
          );
          const signature = (await signAccountTask(
            record.privateKey,
            signing,
          )) as string;
          return submitUserOperation(chain, { ...draft.userOp, signature });
        });
      },
      async () => readSendNonce(chain),
    );
  }

  /**
   * sendUserOperation for a SimpleAccount on EntryPoint v0.7 or v0.8: draft (chain reads, the
   * bundler's fees and gas estimate), the same confirmation dialog (naming the version), the
   * owner's signature over the version's userOpHash, then `eth_sendUserOperation` in the v0.7 RPC
   * form. keyring-api's user-operation methods are v0.6 only, so this path does not go through them.
   *
   * @param id - The account id.
   * @param scope - The request's scope.
   * @param rawIntents - The intents as received.
   * @param origin - Who asked, shown in the dialog.
   * @param gasToken - The ERC-20 token to pay the gas in, if any.
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws As {@link UserOperations.send}.
   */
  async #sendModern(
    id: string,
    scope: string,
    rawIntents: Json[],
    origin: string,
    gasToken?: Hex,
  ): Promise<{ userOpHash: string; entryPoint: string; sender: string }> {
    const record = this.#record(id);
    const data = record.smartAccount as SmartAccountData;
    const chain = smartAccountChain(
      record.account,
      data,
      scope,
      this.#settings.chainConfig(scope),
    );
    const task = parseSmartAccountRequest(
      record.account.address,
      data,
      EthMethod.PrepareUserOperation,
      rawIntents,
    );
    if (task.method !== 'eth_prepareUserOperation') {
      throw invalidParams('Invalid sendUserOperation params at intents');
    }
    const { intents } = task;
    return this.#nonces.run(
      chain,
      async (floor) => {
        const draft = await draftModernUserOperation(
          chain,
          scope,
          intents,
          floor,
          undefined,
          gasToken,
        );
        return this.#confirmAndSubmit(origin, scope, chain, draft, async () => {
          const { privateKey } = this.#record(id); // still there after the dialog
          const signature = await signModernUserOperation(
            privateKey as Hex,
            chain,
            draft.userOp,
          );
          return submitModernUserOperation(chain, {
            ...draft.userOp,
            signature,
          });
        });
      },
      async () => readSendNonce(chain),
    );
  }

  /**
   * The part of a send every EntryPoint version shares: the confirmation dialog (each intent
   * described where it runs, the site named), then `signAndSubmit`, then the hash remembered for
   * getUserOperationReceipt. A deploying send is noted so a second one waits; the note is released
   * when anything before the bundler's answer fails.
   *
   * @param origin - Who asked, shown in the dialog.
   * @param scope - The request's scope.
   * @param chain - The account's chain side (RPC client, EntryPoint, bundler, sender; see reviewSend).
   * @param chain.chainId - The chain's id (with EntryPoint and sender: the account's send queue).
   * @param chain.entryPoint - The EntryPoint the operation goes to.
   * @param chain.sender - The account (its deploying sends are noted).
   * @param chain.bundlerUrl - The bundler, remembered for the receipt.
   * @param draft - The drafted operation: what the dialog shows, and the block to search receipts from.
   * @param draft.summary - What the dialog shows.
   * @param draft.fromBlock - The block number before sending (hex quantity).
   * @param signAndSubmit - Signs the drafted operation and sends it to the bundler; its userOpHash.
   * @returns `{ userOpHash, entryPoint, sender }`.
   * @throws JsonRpcError 4001 when the person declines (nothing signed); -32003 when the account
   * cannot pay it (reviewSend); -32603 on a platform without the send dialog; the errors of `signAndSubmit`.
   */
  async #confirmAndSubmit(
    origin: string,
    scope: string,
    chain: SmartAccountChain,
    draft: { summary: Omit<SendSummary, 'origin'>; fromBlock: Hex },
    signAndSubmit: () => Promise<Hex>,
  ): Promise<{ userOpHash: string; entryPoint: string; sender: string }> {
    this.#deploying.note(chain.sender, draft.summary.deploys);
    let hash: Hex;
    try {
      if (!this.#platform.confirmSend) {
        throw internalError(
          'This platform cannot show the send confirmation: nothing was signed',
        );
      }
      const name = Object.values(this.#store.current.accounts).find(
        (record) =>
          record.account.address.toLowerCase() === chain.sender.toLowerCase(),
      )?.name;
      const review = await reviewSend(
        chain,
        draft.summary,
        origin,
        name,
        this.#settings.chainConfig(draft.summary.scope)?.gasTokens,
      );
      if (!(await this.#platform.confirmSend(review))) {
        throw userRejected('The user declined to send the user operation');
      }
      hash = await signAndSubmit();
      this.#nonces.accepted(chain, draft.summary.nonce);
    } catch (error) {
      if (draft.summary.deploys) {
        this.#deploying.release(chain.sender);
      }
      throw error;
    }
    await rememberSentOperation(
      this.#store,
      chain,
      scope,
      hash,
      draft.fromBlock,
      {
        kind: 'operation',
        ...sentDetails(draft.summary.intents),
      },
    );
    return {
      userOpHash: hash,
      entryPoint: chain.entryPoint,
      sender: chain.sender,
    };
  }

  /**
   * The bundlers of `scope`: the chain config's and each smart account's own for that chain.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The bundler URLs, each once.
   */
  #bundlerUrls(scope: string): string[] {
    const own = this.#smartAccountsOn(scope).map(
      (data) => data.chains?.[scope]?.bundlerUrl,
    );
    return distinct([this.#settings.chainConfig(scope)?.bundlerUrl, ...own]);
  }

  /**
   * Every EntryPoint that may hold this snap's operations on `scope`: the chain config's and each
   * smart account's own.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The EntryPoint addresses, each once.
   */
  #entryPoints(scope: string): Hex[] {
    const own = this.#smartAccountsOn(scope).map((data) => data.entryPoint);
    return distinct([
      this.#settings.chainConfig(scope)?.entryPoint,
      ...own,
    ]) as Hex[];
  }

  /**
   * The ERC-4337 data of the smart accounts that serve `scope`.
   *
   * @param scope - A CAIP-2 chain id (`eip155:<chainId>`).
   * @returns The smart accounts' data (factory, EntryPoint, per-chain bundler).
   */
  #smartAccountsOn(scope: string): SmartAccountData[] {
    return Object.values(this.#store.current.accounts)
      .filter((record) =>
        record.account.scopes.includes(scope as `${string}:${string}`),
      )
      .flatMap((record) => (record.smartAccount ? [record.smartAccount] : []));
  }
}
