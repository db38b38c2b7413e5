import {
  Box,
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement, SnapComponent } from '@metamask/snaps-sdk/jsx';

import type { AccountOnChain } from '../../keyring/chainView';
import { readableAmount, roundedWei } from '../chainNames';
import { chainName, nativeAmount } from '../chainNames';

/**
 * An account's balance on each configured chain it lives on, one row per chain (`Balance on Local
 * chain (31337)`: `0.9896 ETH`, rounded for reading: the exact amount is under Details, see
 * {@link BalanceDetails}), or that the chain did not answer. Nothing before the chains were first
 * read.
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
          : readableAmount(entry.balance, entry.scope)}
      </Text>
    </Row>
  ));
}

/**
 * The card's Details: each balance that reads rounded, exactly (`Exact balance on Local chain
 * (31337)`: `0.989634217 ETH`). Nothing when every balance reads exactly.
 *
 * @param props - The component's props.
 * @param props.balances - The account on each chain, absent when unread.
 * @returns The Details part, or null.
 */
export const BalanceDetails: SnapComponent<{
  balances?: AccountOnChain[] | undefined;
}> = ({ balances = [] }) => {
  const rounded = balances.filter(
    (entry): entry is AccountOnChain & { balance: string } =>
      entry.balance !== undefined &&
      roundedWei(BigInt(entry.balance)) !== BigInt(entry.balance),
  );
  if (rounded.length === 0) {
    return null;
  }
  return (
    <Box>
      <Text fontWeight="bold">Details</Text>
      {rounded.map((entry) => (
        <Row
          key={entry.scope}
          label={`Exact balance on ${chainName(entry.scope)}`}
        >
          <Text>{nativeAmount(entry.balance, entry.scope)}</Text>
        </Row>
      ))}
    </Box>
  );
};
