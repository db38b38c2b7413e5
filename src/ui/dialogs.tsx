// eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
import { Box, Copyable, Heading, Text } from '@metamask/snaps-sdk/jsx';

/**
 * Ask the user to confirm deleting an account (snap_dialog, confirmation).
 *
 * @param address - The account's address.
 * @returns True when the user confirmed.
 */
export async function confirmDelete(address: string): Promise<boolean> {
  const answer = await snap.request({
    method: 'snap_dialog',
    params: {
      type: 'confirmation',
      content: (
        <Box>
          <Heading>Delete account</Heading>
          <Text>
            Delete {address} from this snap? Its key is erased here; without a
            copy of the key (or, for a derived key, your Secret Recovery Phrase)
            its funds are out of reach.
          </Text>
        </Box>
      ),
    },
  });
  return answer === true;
}

/**
 * Show an exported private key in its own dialog (snap_dialog, alert), as a sensitive Copyable:
 * hidden until the user reveals it, never in the home page's content.
 *
 * @param privateKey - 32-byte hex key.
 */
export async function showExportedKey(privateKey: string): Promise<void> {
  await snap.request({
    method: 'snap_dialog',
    params: {
      type: 'alert',
      content: (
        <Box>
          <Heading>Private key</Heading>
          <Text>
            Anyone who sees this key controls the account. Never share it.
          </Text>
          <Copyable value={privateKey} sensitive />
        </Box>
      ),
    },
  });
}
