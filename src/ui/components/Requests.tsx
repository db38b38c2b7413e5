import type { KeyringRequest } from '@metamask/keyring-api';
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
import type { SummaryLine } from '../../keyring/requestSummary';
import { requestWords } from '../../keyring/requestWords';
import { displayText } from '../../utils/safeText';
import { accountLabel } from '../accountLabel';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/** A summary value longer than this (characters) is shown under its label, wrapped, not in a Row. */
const LONG_VALUE = 100;

/**
 * A count of requests in words.
 *
 * @param count - How many requests.
 * @returns `1 request`, `2 requests`.
 */
export function requestCount(count: number): string {
  return `${count} ${count === 1 ? 'request' : 'requests'}`;
}

/**
 * The account that signs a request, as summary lines: its name (cleaned for display, see
 * displayText) and its full address; `unknown account` when it is not in the model.
 *
 * @param request - The pending request.
 * @param model - The page's model (its accounts).
 * @returns Two lines: `Account` and `Address`.
 */
function signerLines(request: KeyringRequest, model: HomeModel): SummaryLine[] {
  const summary = model.accounts.find(
    (entry) => entry.account.id === request.account,
  );
  if (!summary) {
    return [{ label: 'Account', value: 'unknown account', warning: true }];
  }
  return [
    {
      label: 'Account',
      value: summary.name ? displayText(summary.name) : 'unnamed',
    },
    { label: 'Address', value: summary.account.address },
  ];
}

/**
 * How a request's buttons name it, as the account buttons name their account: what it does and
 * the account that signs (`signing a message for Savings`).
 *
 * @param request - The pending request.
 * @param model - The page's model (its accounts).
 * @returns What it does and the account's label (name, or short address; `unknown account`).
 */
function requestLabel(request: KeyringRequest, model: HomeModel): string {
  const summary = model.accounts.find(
    (entry) => entry.account.id === request.account,
  );
  return `${requestWords(request.request.method)} for ${
    summary
      ? accountLabel(summary.name, summary.account.address)
      : 'unknown account'
  }`;
}

/**
 * One summary line: a Row, or for a long value its label with the value wrapped below.
 *
 * @param props - The component's props.
 * @param props.line - The line.
 * @returns The line's element.
 */
const Line: SnapComponent<{ line: SummaryLine }> = ({ line }) =>
  line.value.length > LONG_VALUE ? (
    <Box>
      <Text>{`${line.label}:`}</Text>
      <Text color={line.warning ? 'error' : 'default'}>{line.value}</Text>
    </Box>
  ) : (
    <Row label={line.label} variant={line.warning ? 'critical' : 'default'}>
      <Text color={line.warning ? 'error' : 'default'}>{line.value}</Text>
    </Row>
  );

/**
 * The waiting-requests part, shown first on the page (right after the notice) when any request
 * waits: how many, in sync mode that they still wait here, and for each request the account that
 * will sign (name and full address), its summary, and Approve and Reject; then Refresh.
 *
 * @param props - The component's props.
 * @param props.model - The page's model (approval mode, accounts and requests).
 * @returns The part.
 */
export const Requests: SnapComponent<{ model: HomeModel }> = ({ model }) => {
  const count = model.requests.length;
  return (
    <Box>
      <Heading>{`Requests waiting (${count})`}</Heading>
      {model.approvalMode === 'sync' ? (
        <Text>
          {`${requestCount(count)} still ${count === 1 ? 'waits' : 'wait'} below: approve or reject ${count === 1 ? 'it' : 'them'} here. New requests are signed when MetaMask asks (sync).`}
        </Text>
      ) : (
        <Text>
          Approve or reject each request below; its site waits for it.
        </Text>
      )}
      {model.requests.map((request) => {
        const what = requestLabel(request, model);
        return (
          <Section key={request.id}>
            {[...signerLines(request, model), ...summarizeRequest(request)].map(
              (line, index) => (
                <Line key={`${index}`} line={line} />
              ),
            )}
            <Box direction="horizontal" alignment="space-between">
              <Button name={`${UI.requestApprove}:${request.id}`}>
                {`Approve ${what}`}
              </Button>
              <Button
                name={`${UI.requestReject}:${request.id}`}
                variant="destructive"
              >
                {`Reject ${what}`}
              </Button>
            </Box>
          </Section>
        );
      })}
      <Button name={UI.requestsRefresh}>Refresh requests</Button>
    </Box>
  );
};

/**
 * The approval part, near the bottom of the page: the approval-mode dropdown, and either where
 * the waiting requests are (the top of the page) or that none waits, with Refresh in async mode
 * (a request that arrives while the page is open shows after Refresh or the next action).
 *
 * @param props - The component's props.
 * @param props.model - The page's model (approval mode and requests).
 * @returns The part.
 */
export const Approval: SnapComponent<{ model: HomeModel }> = ({ model }) => {
  const count = model.requests.length;
  return (
    <Box>
      <Heading>Requests</Heading>
      <Field label="Approval">
        <Dropdown name={UI.approvalMode} value={model.approvalMode}>
          <Option value="sync">Sign when MetaMask asks (sync)</Option>
          <Option value="async">Wait for my approval here (async)</Option>
        </Dropdown>
      </Field>
      {count > 0 ? (
        <Text>{`${requestCount(count)} waiting: see the top of this page.`}</Text>
      ) : (
        <Text>No pending request.</Text>
      )}
      {count === 0 && model.approvalMode === 'async' ? (
        <Button name={UI.requestsRefresh}>Refresh requests</Button>
      ) : null}
    </Box>
  );
};
