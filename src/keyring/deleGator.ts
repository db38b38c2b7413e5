import { getAddress } from 'viem';
import type { Hex } from 'viem';

import { AccountUpgrades } from './eip7702';
import type { Drafted } from './eip7702';
import { assertCanPay } from './sendReview';
import type { KeyringPlatform } from './types';
import { deleGatorChain } from '../accounts/deleGator/account';
import type { DelegationEnvironment } from '../accounts/deleGator/canonical';
import { signDelegationWithKey } from '../accounts/deleGator/delegation';
import type { UnsignedDelegation } from '../accounts/deleGator/delegation';
import { deleGatorImplementation } from '../accounts/deleGator/implementation';
import {
  draftModernUserOperation,
  stubAuthorization,
} from '../accounts/erc4337';
import type { ChainConfig } from '../accounts/erc4337';
import type { Delegation, EoaChainState } from '../accounts/erc4337/eip7702';
import type { SmartAccountChain } from '../accounts/erc4337/prepare';
import { awaitUserOperationReceipt } from '../accounts/erc4337/receipt';
import type { Settings } from '../settings';
import type { AccountRecord } from '../state/schema';
import type { StateStore } from '../state/store';
import {
  internalError,
  invalidParams,
  notFound,
  throwNotFound,
} from '../utils/errors';
import { ownEntry, quoteId } from '../utils/safeText';

/**
 * The seam between the grant flow (ERC-7715 permissions, src/sites/) and the snap's EOAs: an EOA
 * grants spending permissions once it runs MetaMask's EIP7702StatelessDeleGator (EIP-7702), so the
 * flow reads where it stands ({@link DeleGators.deleGatorStatus}), asks for what its one dialog
 * must say about the upgrade ({@link DeleGators.planDeleGator}: who pays, the most it costs),
 * upgrades it after that dialog ({@link DeleGators.ensureDeleGator}: no dialog of its own; it
 * returns once the upgrade is on chain) and signs the delegation ({@link DeleGators.signDelegation},
 * the only signer of a `Delegation`: no request path reaches it; the keyring's typed-data path
 * refuses delegations). A SimpleAccount smart account cannot be a delegator (it has no
 * `executeFromExecutor`): every method refuses it.
 */

/** The text that refuses a smart account as a delegator. */
const SMART_ACCOUNT_REFUSAL =
  'A SimpleAccount smart account cannot grant spending permissions (it cannot be a delegator of the Delegation Framework): use an account of this snap that is not a smart account (an EOA), which is upgraded to MetaMask’s DeleGator';

/** What the EOA needs before it can grant on a chain. */
export type DeleGatorNeed =
  /** It runs the chain's DeleGator: nothing. */
  | 'nothing'
  /** It has no code: an upgrade (an EIP-7702 authorization to the DeleGator in a user operation). */
  | 'upgrade'
  /** It runs Simple7702Account: a new authorization switches it to the DeleGator. */
  | 'switch';

/** Where an EOA stands on a chain, as {@link DeleGators.deleGatorStatus} reads it. */
export type DeleGatorStatus = {
  /** The EOA's address (checksummed). */
  account: Hex;
  /** `eip155:<decimal chain id>`. */
  scope: string;
  /** The chain's Delegation Framework (the kit's `SmartAccountsEnvironment`). */
  environment: DelegationEnvironment;
  /** Its code on the chain: none, Simple7702Account, the DeleGator, or other code. */
  delegation: Delegation;
  /** What it needs before it can grant. */
  needs: DeleGatorNeed;
  /** Who pays an upgrade's gas: the chain's paymaster service (sponsored) or the account. */
  payer: 'paymaster' | 'account';
};

/** What the grant dialog says about the upgrade ({@link DeleGators.planDeleGator}). */
export type DeleGatorPlan = DeleGatorStatus & {
  /** Present when `needs` is not `nothing`: the upgrading operation as drafted now. */
  upgrade?: {
    /** The paymaster contract that pays, or null when the account pays. */
    paymaster: Hex | null;
    /** The most the account pays for the upgrade, in wei (0 when a paymaster pays). */
    maxCost: bigint;
    /** The operation's gas bound (what the EntryPoint prefund counts), in gas. */
    gas: bigint;
    /** Its maxFeePerGas, in wei per gas. */
    maxFeePerGas: bigint;
    /** The EIP7702StatelessDeleGatorImpl the authorization names. */
    delegate: Hex;
  };
};

/** What {@link DeleGators.ensureDeleGator} did. */
export type DeleGatorUpgraded = {
  /** Whether an upgrade was sent (false: the EOA already ran the DeleGator). */
  upgraded: boolean;
  /** The upgrading operation's userOpHash, when sent. */
  userOpHash?: Hex;
  /** The transaction that included it, when sent. */
  transactionHash?: Hex;
};

/** The EOA as read on a chain: its state, DeleGator chain side and status. */
type Read = {
  /**
   *
   */
  state: EoaChainState;
  /**
   *
   */
  chain: SmartAccountChain;
  /**
   *
   */
  status: DeleGatorStatus;
};

/**
 * The upgrading operation: a call of the account to itself, no value, no data.
 *
 * @param sender - The EOA.
 * @returns The one intent.
 */
const upgradeIntents = (
  sender: Hex,
): { to: Hex; value: bigint; data: Hex }[] => [
  { to: sender, value: 0n, data: '0x' },
];

/** The grant flow's view of the snap's EOAs as delegators (see the module's note). */
export class DeleGators {
  readonly #store: StateStore;

  readonly #settings: Settings;

  readonly #upgrades: AccountUpgrades;

  /**
   * @param parts - What the seam works with (as AccountUpgrades).
   * @param parts.store - The snap's state store (accounts, sent operations).
   * @param parts.settings - Chain settings (RPC, bundler, paymaster, Delegation Framework).
   * @param parts.platform - Unused by the seam itself (it shows no dialog); AccountUpgrades needs it.
   */
  constructor(parts: {
    store: StateStore;
    settings: Settings;
    platform: Pick<KeyringPlatform, 'confirm' | 'confirmSend'>;
  }) {
    this.#store = parts.store;
    this.#settings = parts.settings;
    this.#upgrades = new AccountUpgrades(parts);
  }

  /**
   * Where the EOA stands on a chain (one batched chain read, nothing sent or signed): its code,
   * what it needs before it can grant, and who would pay an upgrade.
   *
   * @param accountId - The account id.
   * @param scope - `eip155:<decimal chain id>` of a configured chain.
   * @returns The status.
   * @throws JsonRpcError -32602 for a smart account, an EOA running other code (undo it first),
   * a chain whose DeleGator implementation is not the environment's, or an RPC serving another
   * chain; -32001 for an unknown account, a chain without config or without a Delegation
   * Framework.
   */
  async deleGatorStatus(
    accountId: string,
    scope: string,
  ): Promise<DeleGatorStatus> {
    this.#eoa(accountId);
    const environment = this.#environment(scope);
    return this.#upgrades.locked(
      accountId,
      scope,
      async (simple) => (await this.#read(scope, simple, environment)).status,
    );
  }

  /**
   * {@link deleGatorStatus}, and when the EOA needs an upgrade, the upgrading operation drafted
   * now (bundler estimate and, with a paymaster service, its sponsorship; nothing signed): what
   * the grant dialog says about who pays and the most it costs. When the account pays, its funds
   * are checked here, before the dialog.
   *
   * @param accountId - The account id.
   * @param scope - The chain.
   * @returns The plan.
   * @throws As {@link deleGatorStatus}; -32003 (`insufficientFunds`) when the account pays and
   * cannot; the bundler's or paymaster service's refusal.
   */
  async planDeleGator(
    accountId: string,
    scope: string,
  ): Promise<DeleGatorPlan> {
    this.#eoa(accountId);
    const environment = this.#environment(scope);
    return this.#upgrades.locked(accountId, scope, async (simple) => {
      const read = await this.#read(scope, simple, environment);
      if (read.status.needs === 'nothing') {
        return read.status;
      }
      const drafted = await this.#draft(scope, read, environment);
      await assertCanPay(read.chain, drafted.draft.summary);
      return {
        ...read.status,
        upgrade: upgradeFacts(drafted.draft, environment),
      };
    });
  }

  /**
   * Make the EOA a DeleGator on the chain, after the grant's dialog said so (`approved`, from
   * {@link planDeleGator}): nothing when it already is one; else the upgrading (or switching)
   * user operation, drafted again now (fresh fees and sponsorship), sent with no dialog of its
   * own, and only when it is what the dialog said: the same need, the same payer, at most the
   * cost shown. Returns once the operation is in a block and the EOA's code on chain is the
   * DeleGator's (a bounded wait: awaitUserOperationReceipt). The EOA's sends are held meanwhile.
   *
   * @param accountId - The account id.
   * @param scope - The chain.
   * @param approved - The plan the grant's dialog showed.
   * @returns Whether an upgrade was sent, and its hashes.
   * @throws JsonRpcError -32602 when the EOA, the payer or the cost changed beyond what the
   * dialog said (nothing signed); -32003 when the account cannot pay; -32603 when the operation
   * failed on chain or the code is not the DeleGator's after it; -32002 when it is not in a block
   * within the wait; the bundler's refusal; as {@link deleGatorStatus}.
   */
  async ensureDeleGator(
    accountId: string,
    scope: string,
    approved: DeleGatorPlan,
  ): Promise<DeleGatorUpgraded> {
    this.#eoa(accountId);
    const environment = this.#environment(scope);
    return this.#upgrades.locked(accountId, scope, async (simple) => {
      const read = await this.#read(scope, simple, environment);
      if (read.status.needs === 'nothing') {
        return { upgraded: false };
      }
      const drafted = await this.#draft(scope, read, environment);
      const facts = upgradeFacts(drafted.draft, environment);
      if (
        approved.needs !== read.status.needs ||
        approved.upgrade === undefined ||
        (approved.upgrade.paymaster === null) !== (facts.paymaster === null) ||
        facts.maxCost > approved.upgrade.maxCost
      ) {
        throw invalidParams(
          'The account’s upgrade is no longer what the dialog said (its code, who pays or the cost changed): nothing was signed',
        );
      }
      await assertCanPay(read.chain, drafted.draft.summary);
      const sent = await this.#upgrades.submit(
        accountId,
        scope,
        read.chain,
        drafted,
      );
      return this.#landed(scope, simple, environment, read.chain, sent);
    });
  }

  /**
   * Sign a delegation with the EOA's key (EIP-712 under the chain's DelegationManager): the only
   * signer of a `Delegation` in the snap, for the grant flow once its dialog was approved. No
   * request path reaches it.
   *
   * @param accountId - The delegator EOA's account id.
   * @param scope - The chain.
   * @param delegation - The delegation; its `delegator` must be the EOA, with caveats.
   * @returns The 65-byte signature.
   * @throws JsonRpcError -32602 for a smart account, another delegator or no caveats; -32001 for
   * an unknown account or a chain without a Delegation Framework.
   */
  async signDelegation(
    accountId: string,
    scope: string,
    delegation: UnsignedDelegation,
  ): Promise<Hex> {
    const record = this.#eoa(accountId);
    const environment = this.#environment(scope);
    const chainId = BigInt(scope.slice('eip155:'.length));
    return signDelegationWithKey(
      record.privateKey as Hex,
      record.account.address as Hex,
      environment,
      chainId,
      delegation,
    );
  }

  /**
   * Read the EOA on the chain (under the EOA's lock): its state, its DeleGator chain side and its
   * status.
   *
   * @param scope - The chain.
   * @param simple - The EOA's Simple7702Account chain side (its RPC).
   * @param environment - The chain's Delegation Framework.
   * @returns The three.
   * @throws As {@link deleGatorStatus}.
   */
  async #read(
    scope: string,
    simple: SmartAccountChain,
    environment: DelegationEnvironment,
  ): Promise<Read> {
    const state = await this.#upgrades.read(simple, environment);
    const chain = deleGatorChain(
      simple.sender,
      this.#settings.chainConfig(scope) as ChainConfig,
      environment,
      state.deleGatorReady,
    );
    if (state.delegation === 'other') {
      throw invalidParams(
        'This account runs other code on this chain (another EIP-7702 delegate): undo it first; nothing was signed',
      );
    }
    const needs: Record<Exclude<Delegation, 'other'>, DeleGatorNeed> = {
      none: 'upgrade',
      simple7702: 'switch',
      deleGator: 'nothing',
    };
    const status: DeleGatorStatus = {
      account: getAddress(simple.sender),
      scope,
      environment,
      delegation: state.delegation,
      needs: needs[state.delegation],
      payer: chain.paymasterUrl ? 'paymaster' : 'account',
    };
    return { state, chain, status };
  }

  /**
   * Draft the upgrading operation (under the EOA's lock, in the DeleGator's own send slot).
   *
   * @param scope - The chain.
   * @param read - The EOA as just read.
   * @param read.state - Its state.
   * @param read.chain - Its DeleGator chain side.
   * @param environment - The chain's Delegation Framework.
   * @returns The draft with its upgrade.
   */
  async #draft(
    scope: string,
    { state, chain }: Read,
    environment: DelegationEnvironment,
  ): Promise<Drafted> {
    const delegate = deleGatorImplementation(environment);
    const draft = await this.#upgrades.inSlot(chain, async (floor) =>
      draftModernUserOperation(
        chain,
        scope,
        upgradeIntents(chain.sender),
        floor,
        stubAuthorization(chain.chainId, state.nonce, delegate),
      ),
    );
    return { draft, upgrade: { delegate, nonce: state.nonce } };
  }

  /**
   * Wait until the sent upgrade is in a block, and check the EOA's code.
   *
   * @param scope - The chain.
   * @param simple - The EOA's Simple7702Account chain side.
   * @param environment - The chain's Delegation Framework.
   * @param chain - The DeleGator chain side the operation was sent on.
   * @param sent - The sent operation and the block it was drafted at.
   * @param sent.userOpHash - Its userOpHash.
   * @param sent.fromBlock - The block it was drafted at.
   * @returns What was done.
   * @throws As {@link ensureDeleGator}.
   */
  async #landed(
    scope: string,
    simple: SmartAccountChain,
    environment: DelegationEnvironment,
    chain: SmartAccountChain,
    sent: { userOpHash: string; fromBlock: Hex },
  ): Promise<DeleGatorUpgraded> {
    const userOpHash = sent.userOpHash as Hex;
    const receipt = await awaitUserOperationReceipt(
      {
        rpcUrl: this.#settings.chainConfig(scope)?.rpcUrl as string,
        entryPoints: [chain.entryPoint],
        sent: {
          bundlerUrl: chain.bundlerUrl as string,
          fromBlock: sent.fromBlock,
          entryPoint: chain.entryPoint,
        },
        bundlerUrls: [],
      },
      userOpHash,
    );
    if (!receipt) {
      throw notFound(
        `The upgrade of this account (user operation ${userOpHash}) is not in a block yet: nothing else was signed; try again once it is`,
      );
    }
    const state = await this.#upgrades.read(simple, environment);
    if (!receipt.success || state.delegation !== 'deleGator') {
      throw internalError(
        `The upgrade of this account (user operation ${userOpHash}) did not make it a DeleGator on ${scope}: nothing else was signed`,
      );
    }
    return {
      upgraded: true,
      userOpHash,
      transactionHash: receipt.transactionHash,
    };
  }

  /**
   * The chain's Delegation Framework.
   *
   * @param scope - The chain.
   * @returns The environment.
   * @throws JsonRpcError -32001 without a chain config or without an environment.
   */
  #environment(scope: string): DelegationEnvironment {
    if (!this.#settings.chainConfig(scope)) {
      throwNotFound(`No chain config for ${scope}: call setChainConfig first`, {
        reason: 'noChainConfig',
      });
    }
    return (
      this.#settings.delegationEnvironment(scope) ??
      throwNotFound(
        `${scope} has no Delegation Framework: MetaMask's canonical deployment is not on this chain; give its contracts as delegationEnvironment in setChainConfig`,
      )
    );
  }

  /**
   * The saved record of EOA `id`.
   *
   * @param id - The account id.
   * @returns The record.
   * @throws JsonRpcError -32001 when unknown; -32602 for a smart account.
   */
  #eoa(id: string): AccountRecord {
    const record =
      ownEntry(this.#store.current.accounts, id) ??
      throwNotFound(`Account ${quoteId(id)} not found`);
    if (record.smartAccount) {
      throw invalidParams(SMART_ACCOUNT_REFUSAL);
    }
    return record;
  }
}

/**
 * The facts of a drafted upgrade the dialog shows.
 *
 * @param draft - The draft.
 * @param environment - The chain's Delegation Framework.
 * @returns Payer, cost bound, gas, fee and delegate.
 */
function upgradeFacts(
  draft: Drafted['draft'],
  environment: DelegationEnvironment,
): NonNullable<DeleGatorPlan['upgrade']> {
  const { paymaster, maxGasCost, gas, maxFeePerGas } = draft.summary;
  return {
    paymaster,
    maxCost: paymaster === null ? maxGasCost : 0n,
    gas,
    maxFeePerGas,
    delegate: deleGatorImplementation(environment),
  };
}
