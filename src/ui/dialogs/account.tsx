// eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
import { Box, Copyable, Heading, Text } from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

/**
 * The confirmation dialog for deleting an account (content of a `snap_dialog` of type
 * `confirmation`, shown from the home page).
 *
 * @param address - The account's address.
 * @returns A snaps-sdk JSX element.
 */
export function deleteAccountDialog(address: string): JSXElement {
  return (
    <Box>
      <Heading>Delete account</Heading>
      <Text>
        Delete {address} from this snap? Its key is erased here; without a copy
        of the key (or, for a derived key, your Secret Recovery Phrase) its
        funds are out of reach.
      </Text>
    </Box>
  );
}

/**
 * An exported private key in its own dialog (content of a `snap_dialog` of type `alert`), as a
 * sensitive Copyable: hidden until the user reveals it, never in the home page's content.
 *
 * @param privateKey - 32-byte hex key.
 * @returns A snaps-sdk JSX element.
 */
export function exportedKeyDialog(privateKey: string): JSXElement {
  return (
    <Box>
      <Heading>Private key</Heading>
      <Text>
        Anyone who sees this key controls the account. Never share it.
      </Text>
      <Copyable value={privateKey} sensitive />
    </Box>
  );
}
