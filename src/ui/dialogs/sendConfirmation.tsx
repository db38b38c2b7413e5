import {
  Address,
  Banner,
  Box,
  Divider,
  Heading,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement, SnapComponent } from '@metamask/snaps-sdk/jsx';

import { sendConfirmationRows } from './sendConfirmationRows';
import type {
  ConfirmationRow,
  SendConfirmationRows,
} from './sendConfirmationRows';
import type { SendReview } from '../../keyring/types';

/**
 * One row of the confirmation: its address in full (never truncated, no avatar or address-book
 * name: address poisoning relies on shortened addresses), or its text; a warning row is critical.
 *
 * @param props - The row.
 * @param props.label - Its label.
 * @param props.address - Its address (20-byte hex or CAIP-10), when it shows one.
 * @param props.text - Its text otherwise.
 * @param props.warning - Whether it is a warning.
 * @returns A snaps-sdk Row.
 */
export const ConfirmationLine: SnapComponent<ConfirmationRow> = ({
  label,
  address,
  text,
  warning,
}) => (
  <Row label={label} variant={warning ? 'critical' : 'default'}>
    {address ? (
      <Address
        address={address}
        truncate={false}
        displayName={false}
        avatar={false}
      />
    ) : (
      <Text color={warning ? 'error' : 'default'}>{text ?? ''}</Text>
    )}
  </Row>
);

/**
 * The sendUserOperation confirmation (`snap_dialog` of type `confirmation`): see
 * sendConfirmationRows for what it shows.
 *
 * @param props - The rows, from sendConfirmationRows.
 * @param props.account - Who asked, the account, chain, EntryPoint and deployment.
 * @param props.intents - One group per call: recipient, value and decoded call.
 * @param props.title - What happens, and what leaves the account.
 * @param props.lead - What signing does.
 * @param props.cost - Who pays the gas, the most it costs, and the total.
 * @param props.details - The exact amounts, the full nonce and gas × fee.
 * @param props.warnings - How many rows are warnings (a banner says so first).
 * @returns The dialog's content.
 */
export const SendConfirmation: SnapComponent<SendConfirmationRows> = ({
  title,
  lead,
  account,
  intents,
  cost,
  details,
  warnings,
}) => {
  return (
    <Box>
      <Heading>{title}</Heading>
      {warnings > 0 ? (
        <Banner title="Unlimited approval" severity="danger">
          <Text>
            This operation lets another address take all of a token or a
            collection from this account. Reject unless you trust it.
          </Text>
        </Banner>
      ) : null}
      <Text>{lead}</Text>
      <Section>
        {account.map((row) => (
          <ConfirmationLine {...row} />
        ))}
      </Section>
      {intents.map((rows) => (
        <Section>
          {rows.map((row) => (
            <ConfirmationLine {...row} />
          ))}
        </Section>
      ))}
      <Divider />
      <Section>
        {cost.map((row) => (
          <ConfirmationLine {...row} />
        ))}
      </Section>
      <Text>Details</Text>
      <Section>
        {details.map((row) => (
          <ConfirmationLine {...row} />
        ))}
      </Section>
    </Box>
  );
};

/**
 * The dialog content for `snap_dialog`.
 *
 * @param summary - From sendUserOperation's draft, with the requesting origin and each intent's
 * decoded call data (`calls`, from the domain).
 * @param chain - The chain as a person knows it; default `Local chain (31337)` style, from its scope.
 * @returns The SendConfirmation element.
 */
export function sendConfirmation(
  summary: SendReview,
  chain?: string,
): JSXElement {
  // snaps-sdk's JSX runtime calls the component: the element is its Box
  return (
    <SendConfirmation {...sendConfirmationRows(summary, chain)} />
  ) as JSXElement;
}
