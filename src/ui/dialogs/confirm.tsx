// eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
import { Box, Heading, Text } from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

/**
 * A plain confirmation (content of a `snap_dialog` of type `confirmation`): a heading and one
 * paragraph, as the keyring's `confirm(title, text)` asks (metadata-chosen contracts, approvals).
 *
 * @param title - The heading.
 * @param text - The paragraph.
 * @returns A snaps-sdk JSX element.
 */
export function confirmDialog(title: string, text: string): JSXElement {
  return (
    <Box>
      <Heading>{title}</Heading>
      <Text>{text}</Text>
    </Box>
  );
}
