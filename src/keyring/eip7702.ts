import type { Json } from '@metamask/utils';
import { zeroAddress } from 'viem';
import type { Hex } from 'viem';

import { notePendingActivity } from './accountActivity';
import { assertCanPay, reviewSend } from './sendReview';
import { rememberSentOperation } from './sentOperations';
import type { KeyringPlatform } from './types';
import { deleGatorChain } from '../accounts/deleGator/account';
import type { DelegationEnvironment } from '../accounts/deleGator/canonical';
import {
  assertUpgradable,
  draftModernUserOperation,
  draftUndoTransaction,
  eip7702Chain,
  parseIntents,
  readEoaChainState,
  readSendNonce,
  sendUndoTransaction,
  sendNoncesOf,
  signEip7702Authorization,
  signModernUserOperation,
  SIMPLE_7702_ACCOUNT,
  stubAuthorization,
  UNDO_MIN_GAS,
  submitModernUserOperation,
} from '../accounts/erc4337';
import type { ChainConfig, SendNonces } from '../accounts/erc4337';
import type { Delegation, EoaChainState } from '../accounts/erc4337/eip7702';
import { sentDetails } from '../accounts/erc4337/opDetails';
import type { SmartAccountChain } from '../accounts/erc4337/prepare';
import type { Settings } from '../settings';
import type { AccountRecord } from '../state/schema';
import type { StateStore } from '../state/store';
import { chainName, nativeAmount, readableAmount } from '../utils/chainNames';
import {
  internalError,
  invalidParams,
  throwNotFound,
  userRejected,
} from '../utils/errors';
import { ownEntry, quoteId } from '../utils/safeText';

/** The origin the confirmation names when the home page's *Upgrade to a smart account* asked. */
const UPGRADE_ORIGIN = 'this snap’s home page (Upgrade to a smart account)';

/** What a send returns (sendUserOperation's result). */
export type Sent = {
  /** The operation's userOpHash (of its EntryPoint). */
  userOpHash: string;
  /** EntryPoint v0.8 (Simple7702Account), or the chain's DeleGator EntryPoint (v0.7). */
  entryPoint: string;
  /** The EOA. */
  sender: string;
};

/** A drafted operation of an EOA, and the EIP-7702 upgrade it carries, if any. */
export type Drafted = {
  /** From draftModernUserOperation. */
  draft: Awaited<ReturnType<typeof draftModernUserOperation>>;
  /** The delegate its authorization names and the EOA's account nonce it carries. */
  upgrade?: { delegate: Hex; nonce: bigint };
};

/** What the undo dialog says the EOA stops running. */
const UNDONE_CODE: Record<Delegation, string> = {
  none: 'nothing',
  simple7702: 'Simple7702Account',
  deleGator: "MetaMask's smart-account code (EIP7702StatelessDeleGator)",
  other: 'the code it delegates to',
};

/**
 * EIP-7702 for the snap's EOAs: a user operation sent from the EOA's own address through
 * Simple7702Account v0.8 (the first one carries the authorization that upgrades it), the home
 * page's upgrade (such an operation calling the account itself, no value), and the undo (an
 * authorization to the zero address in a type-4 transaction the EOA sends itself). Every step is
 * confirmed in a dialog before anything is signed; the chain is read first (chain id, the EOA's code
 * and nonce, Simple7702Account's code hash).
 */
export class AccountUpgrades {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #platform: Pick<KeyringPlatform, 'confirm' | 'confirmSend'>;

  readonly #nonces: SendNonces;

  /**
   * @param parts - What the flow works with.
   * @param parts.store - The snap's state store (accounts, sent operations).
   * @param parts.settings - Chain settings (RPC, bundler).
   * @param parts.platform - Shows the confirmations (`confirmSend`, `confirm`).
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: Pick<KeyringPlatform, 'confirm' | 'confirmSend'>;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#platform = parts.platform;
    // one per state store: the keyring's sendUserOperation and the home page share it
    this.#nonces = sendNoncesOf(parts.store);
  }

  /**
   * sendUserOperation for an EOA of the snap: its intents as one operation of Simple7702Account on
   * EntryPoint v0.8, `sender` the EOA's own address. When the EOA has no code on the chain yet, the
   * operation upgrades it (`factory: '0x7702'`, `eip7702Auth`), and the confirmation says so and how
   * to undo it; the authorization is signed only after the user confirms.
   *
   * @param id - The EOA's account id.
   * @param scope - `eip155:<decimal chain id>` of a configured chain with a bundlerUrl.
   * @param rawIntents - 1 to 32 intents `{ to, value?, data? }`, as received.
   * @param origin - Who asked, shown in the dialog.
   * @param gasToken - The ERC-20 token to pay the gas in (an upgraded EOA only: the upgrading
   * operation is refused with it, before anything is signed).
   * @returns `{ userOpHash, entryPoint, sender }` (sender: the EOA).
   * @throws JsonRpcError 4001 when the user declines (nothing signed); -32602 for bad intents, an
   * RPC serving another chain, Simple7702Account's code not the canonical one, or other code on the
   * EOA; -32001 without chain config or bundlerUrl; the bundler's code when it refuses.
   */
  async send(
    id: string,
    scope: string,
    rawIntents: Json[],
    origin: string,
    gasToken?: Hex,
  ): Promise<Sent> {
    const intents = parseIntents(rawIntents);
    return this.locked(id, scope, async (simple) => {
      const environment = this.#settings.delegationEnvironment(scope);
      const state = await this.read(simple, environment);
      const deleGator = state.delegation === 'deleGator' && environment;
      if (!deleGator) {
        assertUpgradable(state);
      }
      const chain = deleGator
        ? deleGatorChain(
            simple.sender,
            this.#config(scope),
            deleGator,
            state.deleGatorReady,
          )
        : simple;
      const upgrading = state.delegation === 'none';
      return this.#nonces.run(
        chain,
        async (floor) =>
          this.#confirmAndSend(id, scope, chain, origin, {
            draft: await draftModernUserOperation(
              chain,
              scope,
              intents,
              floor,
              upgrading
                ? stubAuthorization(chain.chainId, state.nonce)
                : undefined,
              gasToken,
            ),
            ...(upgrading
              ? {
                  upgrade: {
                    delegate: SIMPLE_7702_ACCOUNT,
                    nonce: state.nonce,
                  },
                }
              : {}),
          }),
        async () => readSendNonce(chain),
      );
    });
  }

  /**
   * Show the send confirmation of a drafted operation, then sign and send it (see {@link send}).
   *
   * @param id - The EOA's account id.
   * @param scope - The chain.
   * @param chain - The chain side the draft was made for.
   * @param origin - Who asked, shown in the dialog.
   * @param drafted - The draft, and the upgrade it carries if any.
   * @returns The sent operation.
   * @throws JsonRpcError 4001 when the user declines (nothing signed); as {@link submit}.
   */
  async #confirmAndSend(
    id: string,
    scope: string,
    chain: SmartAccountChain,
    origin: string,
    drafted: Drafted,
  ): Promise<Sent> {
    if (!this.#platform.confirmSend) {
      throw internalError(
        'This platform cannot show the send confirmation: nothing was signed',
      );
    }
    const { draft, upgrade } = drafted;
    const review = await reviewSend(
      chain,
      draft.summary,
      origin,
      this.#eoa(id).name,
      this.#settings.chainConfig(scope)?.gasTokens,
    );
    const confirmed = await this.#platform.confirmSend({
      ...review,
      eoa: true,
      ...(upgrade
        ? {
            upgrade: {
              ...upgrade,
              undoCost: UNDO_MIN_GAS * draft.summary.maxFeePerGas,
            },
          }
        : {}),
    });
    if (!confirmed) {
      throw userRejected('The user declined to send the user operation');
    }
    const { userOpHash, entryPoint, sender } = await this.submit(
      id,
      scope,
      chain,
      drafted,
    );
    return { userOpHash, entryPoint, sender };
  }

  /**
   * Sign and send a drafted operation, with no dialog of its own: {@link send} calls it after its
   * confirmation, and the DeleGator upgrade of the grant flow (keyring/deleGator.ts) after the
   * grant's dialog. The authorization an upgrading draft carries is signed here, for this
   * operation only, and travels inside it; the EOA's account nonce it carries is noted as used.
   *
   * @param id - The EOA's account id.
   * @param scope - The chain.
   * @param chain - The chain side the draft was made for.
   * @param drafted - The draft, and the upgrade it carries if any (`delegate`: Simple7702Account or
   * the chain's DeleGator, which `chain.deleGator` marks).
   * @returns `{ userOpHash, entryPoint, sender }` and the block the draft was made at.
   * @throws The bundler's code when it refuses; JsonRpcError -32602 for a delegate not allowed.
   */
  async submit(
    id: string,
    scope: string,
    chain: SmartAccountChain,
    drafted: Drafted,
  ): Promise<Sent & { fromBlock: Hex }> {
    const { draft, upgrade } = drafted;
    const privateKey = this.#eoa(id).privateKey as Hex; // still there after any dialog
    const userOp = upgrade
      ? {
          ...draft.userOp,
          authorization: await signEip7702Authorization(
            privateKey,
            {
              address: upgrade.delegate,
              chainId: chain.chainId,
              nonce: this.#used(chain, upgrade.nonce),
            },
            chain.deleGator ? chain.implementation : undefined,
          ),
        }
      : draft.userOp;
    const signature = await signModernUserOperation(privateKey, chain, userOp);
    const userOpHash = await submitModernUserOperation(chain, {
      ...userOp,
      signature,
    });
    this.#nonces.accepted(chain, draft.summary.nonce);
    await rememberSentOperation(
      this.#store,
      chain,
      scope,
      userOpHash,
      draft.fromBlock,
      {
        kind: upgrade ? 'upgrade' : 'operation',
        ...sentDetails(draft.summary.intents),
      },
    );
    return {
      userOpHash,
      entryPoint: chain.entryPoint,
      sender: chain.sender,
      fromBlock: draft.fromBlock,
    };
  }

  /**
   * The home page's *Upgrade to a smart account*: a user operation from the EOA that calls the
   * account itself with no value and no data, carrying the authorization (see {@link send}).
   *
   * @param id - The EOA's account id.
   * @param scope - The chain.
   * @returns The sent operation, or `null` when the EOA already runs Simple7702Account (or the
   * chain's DeleGator) there.
   * @throws As {@link send}.
   */
  async upgrade(id: string, scope: string): Promise<Sent | null> {
    const chain = this.#chain(id, scope);
    const state = await this.read(
      chain,
      this.#settings.delegationEnvironment(scope),
    );
    if (
      (state.delegation === 'simple7702' && state.canonicalDelegate) ||
      state.delegation === 'deleGator'
    ) {
      return null;
    }
    return this.send(
      id,
      scope,
      [{ to: chain.sender, value: '0x0', data: '0x' }],
      UPGRADE_ORIGIN,
    );
  }

  /**
   * The home page's *Undo upgrade*: after a dialog showing the chain, the nonce and the most the
   * transaction can cost, the EOA signs an EIP-7702 authorization to the zero address and sends it
   * in a type-4 transaction to itself (no value, no data) through the chain's RPC; its code on that
   * chain is then empty. A user operation cannot carry it: bundlers take `eip7702Auth` only to a
   * delegate (docs/decisions.md).
   *
   * @param id - The EOA's account id.
   * @param scope - The chain.
   * @returns `{ transactionHash }`.
   * @throws JsonRpcError 4001 when the user declines (nothing signed); -32003 (`insufficientFunds`,
   * before the dialog) when it cannot pay the most the fee can cost; -32602 when the EOA has no
   * code there or the RPC serves another chain; -32001 without chain config; the node's error when
   * it refuses the transaction.
   */
  async undo(id: string, scope: string): Promise<{ transactionHash: Hex }> {
    const chain = this.#chain(id, scope);
    const state = await this.read(
      chain,
      this.#settings.delegationEnvironment(scope),
    );
    if (state.delegation === 'none') {
      throw invalidParams(
        `This account has no code on ${scope}: there is no upgrade to undo`,
      );
    }
    const draft = await draftUndoTransaction(chain, state.nonce);
    await assertCanPay(chain, {
      intents: [],
      maxGasCost: draft.maxCost,
      paymaster: null,
      scope,
    });
    const confirmed = await this.#platform.confirm(
      'Undo the upgrade',
      `Account ${chain.sender} on ${chainName(scope)} stops running ${UNDONE_CODE[state.delegation]} and is a plain account again, at the same address.${state.delegation === 'deleGator' ? ' Spending permissions it granted stop working while it has no code, but they are not revoked: they work again if it runs that code again.' : ''} It signs an EIP-7702 authorization to the zero address and sends it itself, in a transaction to its own address with no value (nonce ${draft.nonce}). This account pays the fee itself (never a paymaster): at most ${readableAmount(draft.maxCost, scope, true)} (exactly ${nativeAmount(draft.maxCost, scope)}: ${draft.gas} gas × ${draft.maxFeePerGas} wei per gas).`,
    );
    if (!confirmed) {
      throw userRejected('The user declined to undo the upgrade');
    }
    const privateKey = this.#eoa(id).privateKey as Hex; // still there after the dialog
    this.#used(chain, draft.nonce);
    const transactionHash = await sendUndoTransaction(privateKey, chain, draft);
    await this.#store
      .run(async () => {
        const next = this.#store.draft();
        notePendingActivity(next, chain.sender, scope, {
          kind: 'undo',
          hash: transactionHash,
        });
        await this.#store.commit(next);
      })
      .catch(() => undefined); // best effort: the transaction is sent either way
    return { transactionHash };
  }

  /**
   * {@link readEoaChainState} (with the chain's Delegation Framework, the DeleGator recognised and
   * its implementation checked), and refuse an account nonce below one the snap already signed with
   * for this EOA on this chain (nonces never go down).
   *
   * @param chain - The EOA's chain side.
   * @param environment - The chain's Delegation Framework, so its DeleGator is recognised.
   * @returns The EOA's state on the chain.
   * @throws As readEoaChainState; JsonRpcError -32602 for a nonce below one already used (nothing
   * signed).
   */
  async read(
    chain: SmartAccountChain,
    environment?: DelegationEnvironment,
  ): Promise<EoaChainState> {
    const state = await readEoaChainState(chain, environment);
    const seen = this.#nonces.lastAccountNonce(chain.chainId, chain.sender);
    if (seen !== undefined && state.nonce < seen) {
      throw invalidParams(
        `The chain's RPC reports this account's nonce as ${state.nonce}, below ${seen}, which this snap already signed with: the RPC is wrong or the chain went back; nothing was signed`,
      );
    }
    return state;
  }

  /**
   * Note that the snap signs with the EOA's account nonce `nonce` on this chain (see {@link #read}).
   *
   * @param chain - The EOA's chain side.
   * @param nonce - The account nonce signed with.
   * @returns `nonce`.
   */
  #used(chain: SmartAccountChain, nonce: bigint): bigint {
    this.#nonces.signedAccountNonce(chain.chainId, chain.sender, nonce);
    return nonce;
  }

  /**
   * Run `task` with the EOA's sends, upgrades and undos on `scope` held one after the other: a
   * SendNonces slot of its own (the zero address for EntryPoint), inside which each send takes
   * the slot of the EntryPoint it uses ({@link inSlot}).
   *
   * @param id - The EOA's account id.
   * @param scope - The chain.
   * @param task - Gets the Simple7702Account chain side (the EOA's RPC).
   * @returns What `task` returns.
   * @throws As {@link #chain}, and whatever `task` throws.
   */
  async locked<Result>(
    id: string,
    scope: string,
    task: (simple: SmartAccountChain) => Promise<Result>,
  ): Promise<Result> {
    const simple = this.#chain(id, scope);
    return this.#nonces.run({ ...simple, entryPoint: zeroAddress }, async () =>
      task(simple),
    );
  }

  /**
   * Run `task` in the send slot of `chain` (SendNonces), with its nonce floor.
   *
   * @param chain - A chain side of the EOA.
   * @param task - Gets the floor.
   * @returns What `task` returns.
   */
  async inSlot<Result>(
    chain: SmartAccountChain,
    task: (floor: bigint) => Promise<Result>,
  ): Promise<Result> {
    return this.#nonces.run(chain, task, async () => readSendNonce(chain));
  }

  /**
   * The chain side of an EOA on `scope`.
   *
   * @param id - The account id.
   * @param scope - The chain.
   * @returns The chain side (no I/O yet).
   * @throws JsonRpcError -32001 for an unknown account or chain; -32602 for a smart account.
   */
  #chain(id: string, scope: string): SmartAccountChain {
    const record = this.#eoa(id);
    return eip7702Chain(record.account.address as Hex, this.#config(scope));
  }

  /**
   * The stored config of `scope`.
   *
   * @param scope - The chain.
   * @returns The config.
   * @throws JsonRpcError -32001 when there is none.
   */
  #config(scope: string): ChainConfig {
    return (
      this.#settings.chainConfig(scope) ??
      throwNotFound(`No chain config for ${scope}: call setChainConfig first`, {
        reason: 'noChainConfig',
      })
    );
  }

  /**
   * The saved record of EOA `id`.
   *
   * @param id - The account id.
   * @returns The record.
   * @throws JsonRpcError -32001 when unknown; -32602 for a smart account (it has its own path).
   */
  #eoa(id: string): AccountRecord {
    const record =
      ownEntry(this.#store.current.accounts, id) ??
      throwNotFound(`Account ${quoteId(id)} not found`);
    if (record.smartAccount) {
      throw invalidParams(
        'Invalid account: an EIP-7702 upgrade is for an EOA (eip155:eoa), not a smart account',
      );
    }
    return record;
  }
}
