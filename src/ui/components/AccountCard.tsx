import {
  Box,
  Button,
  Copyable,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { SendForm } from './SendForm';
import type { AccountSummary } from '../../keyring/keyring';
import { displayText } from '../../utils/safeText';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * One account's section: name, type, address, chains, key source, metadata CID, the export and
 * delete buttons, and for a smart account its Send form.
 *
 * @param props - The component's props.
 * @param props.summary - The account, its name and key source.
 * @param props.model - The page's model (the Send form's values and errors).
 * @param props.summary.account - The keyring-api account.
 * @param props.summary.name - Its name (may be empty).
 * @param props.summary.keySource - Where its key comes from: imported, or the derivation index.
 * @returns The section.
 */
export const AccountCard: SnapComponent<{
  summary: AccountSummary;
  model: HomeModel;
}> = ({ summary: { account, name, keySource }, model }) => {
  const smart = account.type === 'eip155:erc4337';
  const key =
    'imported' in keySource
      ? 'imported'
      : `derived from your Secret Recovery Phrase (index ${keySource.derivationIndex})`;
  const metadataCid =
    typeof account.options.metadataCid === 'string'
      ? account.options.metadataCid
      : undefined;
  return (
    <Section key={account.id}>
      <Row label="Name">
        <Text>{name ? displayText(name) : 'unnamed'}</Text>
      </Row>
      <Row label="Type">
        <Text>
          {smart
            ? 'Smart account (ERC-4337, SimpleAccount v0.6)'
            : 'Account (EOA)'}
        </Text>
      </Row>
      <Copyable value={account.address} />
      <Row label="Chains">
        <Text>{smart ? account.scopes.join(', ') : 'every EVM chain'}</Text>
      </Row>
      <Row label="Key">
        <Text>{key}</Text>
      </Row>
      {metadataCid ? (
        <Row label="Metadata">
          <Text>{metadataCid}</Text>
        </Row>
      ) : null}
      <Box direction="horizontal" alignment="space-between">
        {account.options.exportable === false ? null : (
          <Button name={`${UI.accountExport}:${account.id}`}>
            Export private key
          </Button>
        )}
        <Button
          name={`${UI.accountDelete}:${account.id}`}
          variant="destructive"
        >
          Delete
        </Button>
      </Box>
      {smart ? (
        <SendForm id={account.id} scopes={account.scopes} model={model} />
      ) : null}
    </Section>
  );
};
