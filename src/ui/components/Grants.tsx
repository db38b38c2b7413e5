import {
  Address,
  Box,
  Button,
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import type { GrantLine } from '../grantLines';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/** What each state is called on the page. */
const STATUS_TEXT: Record<GrantLine['status'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

/**
 * An address in full (never truncated, no avatar or address-book name).
 *
 * @param props - The component's props.
 * @param props.address - The address.
 * @returns The Address element.
 */
const Full: SnapComponent<{ address: `0x${string}` }> = ({ address }) => (
  <Address
    address={address}
    truncate={false}
    displayName={false}
    avatar={false}
  />
);

/**
 * An account's spending permissions (ERC-7715 grants to sites), newest first: for each, the site,
 * the session account in full, the limit and period, what is left now (read from the enforcer on
 * the chain; "not read" when the chain did not answer), the expiry and its state; an active one has
 * Revoke* (`grant-revoke:<hash>`: the account sends DelegationManager.disableDelegation after the
 * send confirmation). Nothing when the account granted none.
 *
 * @param props - The component's props.
 * @param props.id - The account's id.
 * @param props.model - The page's model (`grants`, errors).
 * @returns The list, or null.
 */
export const Grants: SnapComponent<{ id: string; model: HomeModel }> = ({
  id,
  model,
}) => {
  const grants = model.grants?.[id] ?? [];
  if (grants.length === 0) {
    return null;
  }
  return (
    <Box>
      <Text fontWeight="bold">Spending permissions given to sites</Text>
      {grants.map((grant) => {
        const error = model.errors[`${UI.grantRevoke}:${grant.hash}`];
        const active = grant.status === 'active';
        return (
          <Box key={grant.hash}>
            <Row label="Site">
              <Text>{grant.site}</Text>
            </Row>
            <Row label="Who may spend">
              <Full address={grant.delegate} />
            </Row>
            <Row label="Limit">
              <Text>{grant.limit}</Text>
            </Row>
            {grant.token ? (
              <Row label="Token contract">
                <Full address={grant.token} />
              </Row>
            ) : null}
            {active ? (
              <Row label="Left now">
                <Text>
                  {grant.left ?? 'Not read: the chain did not answer'}
                </Text>
              </Row>
            ) : null}
            <Row label={grant.status === 'expired' ? 'Ended' : 'Until'}>
              <Text>{grant.until}</Text>
            </Row>
            <Row label="State">
              <Text>{STATUS_TEXT[grant.status]}</Text>
            </Row>
            {error ? <Text color="error">{error}</Text> : null}
            {active ? (
              <Button
                name={`${UI.grantRevoke}:${grant.hash}`}
                variant="destructive"
              >
                {`Revoke the permission of ${grant.site}`}
              </Button>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
};
