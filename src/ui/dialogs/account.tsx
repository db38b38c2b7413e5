// eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
import { Box, Copyable, Heading, Row, Text } from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import { deletionRecovery } from '../../consent';
import { displayText } from '../../utils/safeText';

/**
 * The confirmation dialog for deleting an account (content of a `snap_dialog` of type
 * `confirmation`, shown from the home page): the account's name (cleaned, see displayText) and
 * full address, what can bring it back (deletionRecovery: *Find my accounts* for a derived key, only
 * a copy for an imported one), and how many of its requests wait and will be rejected with it (the
 * keyring's deleteAccount drops them and sends `notify:requestRejected` for each).
 *
 * @param account - The account.
 * @param account.name - Its name (may be empty).
 * @param account.address - Its address, shown in full.
 * @param account.waiting - How many of its signing requests wait for approval.
 * @param account.imported - Whether its key was imported (not derived from a recovery phrase).
 * @returns A snaps-sdk JSX element.
 */
export function deleteAccountDialog(account: {
  name: string;
  address: string;
  waiting: number;
  imported: boolean;
}): JSXElement {
  const { waiting } = account;
  return (
    <Box>
      <Heading>Delete account</Heading>
      <Row label="Account">
        <Text>{account.name ? displayText(account.name) : 'unnamed'}</Text>
      </Row>
      <Row label="Address">
        <Text>{account.address}</Text>
      </Row>
      <Text>Delete this account from this snap? Its key is erased here.</Text>
      <Text>{deletionRecovery(account.imported)}</Text>
      {waiting > 0 ? (
        <Text>
          {`Its ${waiting} waiting ${waiting === 1 ? 'request' : 'requests'} will be rejected.`}
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * An exported private key in its own dialog (content of a `snap_dialog` of type `alert`), as a
 * sensitive Copyable: hidden until the user reveals it, never in the home page's content. For a
 * smart account, the key is its owner's: the dialog says so and shows the owner's address.
 *
 * @param privateKey - 32-byte hex key.
 * @param account - The account it was exported for.
 * @param account.label - How the page names the account (its button's name).
 * @param account.owner - A smart account's owner address (the key's address); absent for an EOA.
 * @returns A snaps-sdk JSX element.
 */
export function exportedKeyDialog(
  privateKey: string,
  account: { label: string; owner?: string },
): JSXElement {
  return (
    <Box>
      <Heading>
        {account.owner === undefined ? 'Private key' : "Owner's private key"}
      </Heading>
      {account.owner === undefined ? (
        <Text>
          {`The private key of ${account.label || 'this account'}. Anyone who sees this key controls the account. Never share it.`}
        </Text>
      ) : (
        <Text>
          {`The key of the owner of the smart account ${account.label}: it controls the owner's address below, and through it the smart account. Anyone who sees it controls both. Never share it.`}
        </Text>
      )}
      {account.owner === undefined ? null : (
        <Row label="Owner">
          <Text>{account.owner}</Text>
        </Row>
      )}
      <Copyable value={privateKey} sensitive />
    </Box>
  );
}
