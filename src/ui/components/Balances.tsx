import {
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import type { AccountOnChain } from '../../keyring/chainView';
import { chainName, nativeAmount } from '../chainNames';

/**
 * An account's balance on each configured chain it lives on, one row per chain (`Balance on Local
 * chain (31337)`: `1.5 ETH`), or that the chain did not answer. Nothing while the page repaints
 * during a long action (nothing was read).
 *
 * @param balances - The account on each chain (src/keyring/chainView.ts), absent when unread.
 * @returns The rows, for the account's card.
 */
export function balanceRows(balances: AccountOnChain[] = []): JSXElement[] {
  return balances.map((entry) => (
    <Row key={entry.scope} label={`Balance on ${chainName(entry.scope)}`}>
      <Text>
        {entry.balance === undefined
          ? "Couldn't read: this chain's node didn't answer"
          : nativeAmount(entry.balance, entry.scope)}
      </Text>
    </Row>
  ));
}
