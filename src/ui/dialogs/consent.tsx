import {
  Box,
  Heading,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';

import { describeConsent } from '../../consent';
import type { Consent } from '../../consent';

/**
 * The consent dialog for a change a site asks for (content of a `snap_dialog` of type
 * `confirmation`): a heading saying what approving does, one sentence naming the site and the
 * change, the details (URLs masked, addresses in full) and any warnings. See describeConsent.
 *
 * @param consent - The requesting site and its change.
 * @returns A snaps-sdk JSX element.
 */
export function consentDialog(consent: Consent): ReturnType<typeof Box> {
  const { title, intro, rows, warnings } = describeConsent(consent);
  return (
    <Box>
      <Heading>{title}</Heading>
      <Text>{intro}</Text>
      <Section>
        {rows.map(({ label, value }) => (
          <Row label={label}>
            <Text>{value}</Text>
          </Row>
        ))}
      </Section>
      {warnings.map((warning) => (
        <Text color="warning">{warning}</Text>
      ))}
    </Box>
  );
}
