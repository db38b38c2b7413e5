import { pendingText } from './send';
import type { Domain } from '../../domain';
import { accountLabel } from '../accountLabel';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { SentOperation } from '../homeModel';
import { attempt } from '../outcome';
import type { Outcome } from '../outcome';

/**
 * The chain an EOA's EIP-7702 buttons act on: the card's chain dropdown
 * (`account-upgrade-chain:<id>`, shown when two or more chains are configured), else the first
 * configured chain, which is what the card names.
 *
 * @param domain - The keyring and settings.
 * @param chosen - The dropdown's value in the interface state, if any.
 * @returns The chain's CAIP-2 scope, or `''` when none is configured.
 */
export function upgradeScope(domain: Domain, chosen: unknown): string {
  return typeof chosen === 'string' && chosen !== ''
    ? chosen
    : (domain.settings.chainConfigs()[0]?.scope ?? '');
}

/**
 * The button Upgrade to a smart account (`account-upgrade:<id>`): the EOA's first user operation through
 * Simple7702Account on EntryPoint v0.8, carrying its EIP-7702 authorization, after the send
 * confirmation explains the upgrade (AccountUpgrades.upgrade).
 *
 * @param domain - The keyring and settings.
 * @param id - The EOA's id.
 * @param scope - The chain.
 * @returns The outcome: the sent operation (`lastSent`, which the page follows), that the
 * account is upgraded already, cancelled, or the error next to the button.
 */
export async function upgradeAccount(
  domain: Domain,
  id: string,
  scope: string,
): Promise<Outcome> {
  let sent: SentOperation | undefined;
  const outcome = await attempt(`${UI.accountUpgrade}:${id}`, async () => {
    const result = await domain.upgrades.upgrade(id, scope);
    if (!result) {
      return `Already upgraded on ${chainName(scope)}: this account runs Simple7702Account there`;
    }
    const summary = domain.keyring
      .describeAccounts()
      .find((entry) => entry.account.id === id);
    sent = {
      scope,
      userOpHash: result.userOpHash,
      what: `Upgrade sent on ${chainName(scope)} for ${accountLabel(summary?.name, result.sender)} (${result.sender})`,
      account: id,
    };
    return pendingText(sent);
  });
  return sent ? { ...outcome, lastSent: sent } : outcome;
}

/**
 * The button Undo upgrade (`account-undo-upgrade:<id>`): the EOA's type-4 transaction with an authorization
 * to the zero address, after a dialog showing its fee (AccountUpgrades.undo).
 *
 * @param domain - The keyring and settings.
 * @param id - The EOA's id.
 * @param scope - The chain.
 * @returns The outcome: the transaction hash, cancelled, or the error next to the button.
 */
export async function undoUpgrade(
  domain: Domain,
  id: string,
  scope: string,
): Promise<Outcome> {
  return attempt(`${UI.accountUndoUpgrade}:${id}`, async () => {
    const { transactionHash } = await domain.upgrades.undo(id, scope);
    return `Undo sent on ${chainName(scope)}: transaction ${transactionHash}`;
  });
}
