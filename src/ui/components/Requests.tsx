import {
  Box,
  Button,
  Dropdown,
  Field,
  Heading,
  Option,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { summarizeRequest } from '../../keyring/requestSummary';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/** A summary value longer than this (characters) is shown under its label, wrapped, not in a Row. */
const LONG_VALUE = 100;

/**
 * The Requests part: the approval mode dropdown, and each pending request's summary with
 * Approve and Reject buttons.
 *
 * @param props - The component's props.
 * @param props.model - The page's model (approval mode and requests).
 * @returns The part.
 */
export const Requests: SnapComponent<{ model: HomeModel }> = ({ model }) => {
  return (
    <Box>
      <Heading>Requests</Heading>
      <Field label="Approval">
        <Dropdown name={UI.approvalMode} value={model.approvalMode}>
          <Option value="sync">Sign when MetaMask asks (sync)</Option>
          <Option value="async">Wait for my approval here (async)</Option>
        </Dropdown>
      </Field>
      {model.requests.length === 0 ? <Text>No pending request.</Text> : null}
      {model.requests.map((request) => (
        <Section key={request.id}>
          {summarizeRequest(request).map((line, index) =>
            line.value.length > LONG_VALUE ? (
              <Box key={`${index}`}>
                <Text>{`${line.label}:`}</Text>
                <Text color={line.warning ? 'error' : 'default'}>
                  {line.value}
                </Text>
              </Box>
            ) : (
              <Row
                key={`${index}`}
                label={line.label}
                variant={line.warning ? 'critical' : 'default'}
              >
                <Text color={line.warning ? 'error' : 'default'}>
                  {line.value}
                </Text>
              </Row>
            ),
          )}
          <Box direction="horizontal" alignment="space-between">
            <Button name={`${UI.requestApprove}:${request.id}`}>Approve</Button>
            <Button
              name={`${UI.requestReject}:${request.id}`}
              variant="destructive"
            >
              Reject
            </Button>
          </Box>
        </Section>
      ))}
    </Box>
  );
};
