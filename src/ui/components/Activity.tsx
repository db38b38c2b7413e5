import {
  Box,
  Button,
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';
import { formatEther } from 'viem';

import type { AccountSummary } from '../../keyring/keyring';
import type { ActivityEntry } from '../../state/schema';
import { accountLabel } from '../accountLabel';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/** Entries shown per chain (the newest; more are kept and shown as newer ones replace them). */
const SHOWN = 10;

/** What each kind of entry is called on the page. */
const KIND_TEXT: Record<ActivityEntry['kind'], string> = {
  operation: 'Sent (user operation)',
  upgrade: 'Upgrade to a smart account',
  undo: 'Undo upgrade',
};

/**
 * One entry as a line of text: its outcome, block and fee in ETH (decimal), and its hash shortened
 * (userOpHash, or the transaction hash of an undo).
 *
 * @param entry - The entry.
 * @returns `Succeeded in block 23 · fee 0.0003 ETH · 0x1234abcd…89abcdef`, or the pending line.
 */
function entryText(entry: ActivityEntry): string {
  const hash = `${entry.hash.slice(0, 10)}…${entry.hash.slice(-8)}`;
  if (entry.status === 'pending' || entry.block === undefined) {
    return `Pending: sent, not in a block yet · ${hash}`;
  }
  const outcome = entry.status === 'succeeded' ? 'Succeeded' : 'Failed';
  const fee = formatEther(BigInt(entry.fee ?? '0x0'));
  return `${outcome} in block ${BigInt(entry.block).toString()} · fee ${fee} ETH · ${hash}`;
}

/**
 * An account's Activity list, per configured chain it covers, newest first: its user operations
 * (an EOA's EIP-7702 upgrade among them) and undo transactions, each with its outcome, block and
 * fee; what the snap sent and has not seen in a block is pending. Says when a chain did not answer
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
          {chain.entries.slice(0, SHOWN).map((entry) => (
            <Row key={entry.hash} label={KIND_TEXT[entry.kind]}>
              <Text>{entryText(entry)}</Text>
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
