import {
  Box,
  Button,
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import type { AccountSummary } from '../../keyring/keyring';
import type { ActivityEntry } from '../../state/schema';
import { accountLabel, addressLabel } from '../accountLabel';
import { readableAmount } from '../chainNames';
import { chainName, nativeAmount } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/** Entries shown per chain (the newest; more are kept and shown as newer ones replace them). */
const SHOWN = 10;

/** What each kind of entry is called on the page. */
const KIND_TEXT: Record<ActivityEntry['kind'], string> = {
  operation: 'Sent',
  transaction: 'Sent',
  upgrade: 'Upgrade to a smart account',
  undo: 'Undo upgrade',
  received: 'Received',
};

/**
 * What an entry moved, in words: the amount and to whom (a single call), the number of calls, or
 * the amount received and from whom (when a transaction to the account paid it). Amounts are
 * rounded for reading; addresses are in full (the snap's own accounts by name too).
 *
 * @param entry - The entry.
 * @param accounts - The snap's accounts (their names).
 * @param scope - The chain (its currency).
 * @param own - The account's own address (an empty call to itself moves nothing).
 * @returns The words, or `''` when nothing moved or the entry does not say (read before these
 * details were kept).
 */
function movedText(
  entry: ActivityEntry,
  accounts: readonly AccountSummary[],
  scope: string,
  own: string,
): string {
  const value = BigInt(entry.value ?? '0x0');
  const amount = readableAmount(value, scope);
  if (entry.kind === 'received') {
    return entry.from
      ? `${amount} from ${addressLabel(accounts, entry.from)}`
      : amount;
  }
  if (entry.calls !== undefined) {
    return `${entry.calls} calls${value > 0n ? `, ${amount} in all` : ''}`;
  }
  if (
    entry.to === undefined ||
    entry.kind === 'undo' ||
    // nothing sent: an upgrade's empty call to the account itself
    (entry.to.toLowerCase() === own.toLowerCase() &&
      value === 0n &&
      !entry.call)
  ) {
    return '';
  }
  const who = addressLabel(accounts, entry.to);
  return entry.call
    ? `a call to ${who}${value > 0n ? ` with ${amount}` : ''}`
    : `${amount} to ${who}`;
}

/**
 * One entry as a line of text: what moved, its outcome, block and fee (rounded for reading), and
 * its hash shortened (a userOpHash, or a transaction's; none for ETH a contract sent).
 *
 * @param entry - The entry.
 * @param accounts - The snap's accounts (their names).
 * @param scope - The chain (its currency).
 * @param own - The account's own address.
 * @returns `0.5 ETH to Bob (0x…) · Succeeded in block 23 · fee 0.0003 ETH · 0x1234abcd…89abcdef`,
 * `0.1 ETH · in block 40` (received), or the pending line.
 */
function entryText(
  entry: ActivityEntry,
  accounts: readonly AccountSummary[],
  scope: string,
  own: string,
): string {
  const byBlockHash = entry.kind === 'received' && entry.from === undefined;
  const hash = byBlockHash
    ? ''
    : `${entry.hash.slice(0, 10)}…${entry.hash.slice(-8)}`;
  let outcome: string;
  if (entry.status === 'pending' || entry.block === undefined) {
    outcome = 'Pending: sent, not in a block yet';
  } else if (entry.kind === 'received') {
    outcome = `in block ${BigInt(entry.block).toString()}`;
  } else {
    outcome = `${entry.status === 'succeeded' ? 'Succeeded' : 'Failed'} in block ${BigInt(entry.block).toString()} · fee ${readableAmount(entry.fee ?? '0x0', scope)}`;
  }
  return [movedText(entry, accounts, scope, own), outcome, hash]
    .filter((part) => part !== '')
    .join(' · ');
}

/**
 * An entry's exact figures, for its tooltip: the amount and fee unrounded, and its full hash.
 *
 * @param entry - The entry.
 * @param scope - The chain (its currency).
 * @returns `Exact: 0.5 ETH, fee 0.000021 ETH. Transaction 0x…`.
 */
function exactText(entry: ActivityEntry, scope: string): string {
  const figures = [
    entry.value === undefined || BigInt(entry.value) === 0n
      ? ''
      : nativeAmount(BigInt(entry.value), scope),
    entry.fee === undefined
      ? ''
      : `fee ${nativeAmount(BigInt(entry.fee), scope)}`,
  ].filter((figure) => figure !== '');
  const what =
    entry.kind === 'operation' || entry.kind === 'upgrade'
      ? 'User operation'
      : 'Transaction';
  const key =
    entry.kind === 'received' && entry.from === undefined
      ? `Block ${entry.hash}`
      : `${what} ${entry.hash}`;
  return `${figures.length > 0 ? `Exact: ${figures.join(', ')}. ` : ''}${key}`;
}

/**
 * An account's Activity list, per configured chain it covers, newest first: what it sent (user
 * operations, an EOA's EIP-7702 upgrade and undo among them, and its plain transactions) and the
 * ETH it received, each with the amount and to or from whom, its outcome, block and fee (rounded
 * for reading; the exact figures and the full hash in the entry's tooltip); what the snap sent and
 * has not seen in a block is pending. Says when a chain did not answer
 * (what was read before stays) and when older blocks are still to be read; a *Refresh activity*
 * button (`activity-refresh:<id>`) reads the new blocks. Nothing when no chain is configured.
 *
 * @param props - The component's props.
 * @param props.summary - The account.
 * @param props.model - The page's model (`activity`).
 * @returns The list, or null.
 */
export const Activity: SnapComponent<{
  summary: AccountSummary;
  model: HomeModel;
}> = ({ summary, model }) => {
  const { account, name } = summary;
  const chains = model.activity?.[account.id] ?? [];
  if (chains.length === 0) {
    return null;
  }
  return (
    <Box>
      {chains.map((chain) => (
        <Box key={chain.scope}>
          <Text fontWeight="bold">{`Activity on ${chainName(chain.scope)}`}</Text>
          {chain.failed ? (
            <Text color="warning">
              {`Couldn't read the activity on ${chainName(chain.scope)}: it didn't answer, or its latest block number can't be right. Shown: what was read before.`}
            </Text>
          ) : null}
          {chain.entries.length === 0 ? (
            <Text>
              {chain.readTo === undefined
                ? 'Not read yet: it is read each time this page opens.'
                : `Nothing yet (read up to block ${BigInt(chain.readTo).toString()}).`}
            </Text>
          ) : null}
          {chain.transfers ? null : (
            <Text color="warning">
              {`ETH sent and received by transaction is not listed on ${chainName(chain.scope)}: its node keeps no past balances.`}
            </Text>
          )}
          {chain.entries.slice(0, SHOWN).map((entry) => (
            <Row
              key={entry.hash}
              label={KIND_TEXT[entry.kind]}
              tooltip={exactText(entry, chain.scope)}
            >
              <Text>
                {entryText(entry, model.accounts, chain.scope, account.address)}
              </Text>
            </Row>
          ))}
          {chain.behind && chain.readTo !== undefined ? (
            <Text>
              {`Read up to block ${BigInt(chain.readTo).toString()}: newer blocks are read the next time this page opens.`}
            </Text>
          ) : null}
        </Box>
      ))}
      <Button name={`${UI.activityRefresh}:${account.id}`}>
        {`Refresh activity of ${accountLabel(name, account.address)}`}
      </Button>
    </Box>
  );
};
