import {
  Box,
  Button,
  Copyable,
  Field,
  Form,
  Input,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { Activity } from './Activity';
import { BalanceDetails, balanceRows } from './Balances';
import { Grants } from './Grants';
import { TokenBalances } from './PayGasWith';
import { SendForm } from './SendForm';
import { UpgradeControls } from './Upgrade';
import type { AccountOnChain } from '../../keyring/chainView';
import type { AccountSummary } from '../../keyring/keyring';
import { displayText } from '../../utils/safeText';
import { accountLabel } from '../accountLabel';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';
import { phraseName } from '../recoveryText';

/** An imported key's row: no recovery phrase finds it again (see deletionRecovery in src/consent.ts). */
const IMPORTED_KEY_TEXT = 'Imported — keep a copy of its key';

/**
 * The recovery phrase a derived key comes from, as the card names it.
 *
 * @param source - The entropy source's id, for a key not from the primary phrase.
 * @param model - The page's model (the phrases MetaMask lists).
 * @returns `your Secret Recovery Phrase` (the primary one), the other phrase's name, or `another
 * recovery phrase` when MetaMask no longer lists it.
 */
function phraseOf(source: string | undefined, model: HomeModel): string {
  if (source === undefined) {
    return 'your Secret Recovery Phrase';
  }
  const sources = model.entropySources ?? [];
  const position = sources.findIndex((entry) => entry.id === source);
  return position === -1
    ? 'another recovery phrase'
    : phraseName(sources[position], position + 1);
}

/**
 * What an EOA's Type row says.
 *
 * @param upgradedOn - The chains where it runs Simple7702Account or MetaMask's DeleGator (EIP-7702).
 * @returns `Account (EOA)`, or that it is upgraded, where and to what.
 */
function eoaType(upgradedOn: AccountOnChain[]): string {
  if (upgradedOn.length === 0) {
    return 'Account (EOA)';
  }
  /**
   * The chains where the EOA runs `code`, named.
   *
   * @param code - The delegation.
   * @returns The names, joined.
   */
  const chains = (code: AccountOnChain['code']): string =>
    upgradedOn
      .filter((entry) => entry.code === code)
      .map((entry) => chainName(entry.scope))
      .join(', ');
  return [
    ['simple7702', 'Simple7702Account'],
    [
      'deleGator',
      "MetaMask's smart-account code (EIP7702StatelessDeleGator), which can grant spending permissions",
    ],
  ]
    .filter(([code]) => chains(code as AccountOnChain['code']) !== '')
    .map(
      ([code, runs]) =>
        `Upgraded to a smart account on ${chains(code as AccountOnChain['code'])} (EIP-7702: the same address runs ${runs})`,
    )
    .join('; ');
}

/**
 * One account's section: name, type (a smart account's names its EntryPoint version), address, chains, key source, metadata CID, its rename form
 * (`account-rename:<id>`, input `account-name:<id>`), the export and delete buttons, and for a
 * smart account its Send form. Buttons say which account they act on ("Delete Savings", or the
 * short address of an unnamed account), so a screen reader's list of buttons tells them apart;
 * names are shown through displayText (control and bidirectional characters replaced). Its
 * balance on each chain (one row per chain, see balanceRows); an EOA upgraded with EIP-7702 says
 * so in its Type row and gets the Send form too, on the chains where it is upgraded.
 *
 * @param props - The component's props.
 * @param props.summary - The account, its name, key source and (smart account) owner, shown as
 * its Owner row: its key is the one exported.
 * @param props.model - The page's model (the Send form's values and errors).
 * @returns The section.
 */
export const AccountCard: SnapComponent<{
  summary: AccountSummary;
  model: HomeModel;
}> = ({ summary, model }) => {
  const { account, name, keySource } = summary;
  const smart = account.type === 'eip155:erc4337';
  const label = accountLabel(name, account.address);
  const version = summary.entryPointVersion ?? '0.6';
  const nameInput = `${UI.accountName}:${account.id}`;
  const key =
    'imported' in keySource
      ? IMPORTED_KEY_TEXT
      : `derived from ${phraseOf(keySource.entropySource, model)} (index ${keySource.derivationIndex})`;
  const onChains = model.onChains?.[account.id] ?? [];
  const upgraded = onChains.filter(
    (entry) => entry.code === 'simple7702' || entry.code === 'deleGator',
  );
  const upgradedOn = upgraded.map((entry) => entry.scope);
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
            ? `Smart account (ERC-4337, SimpleAccount v${version}, EntryPoint v${version})`
            : eoaType(upgraded)}
        </Text>
      </Row>
      <Copyable value={account.address} />
      <Row label="Chains">
        <Text>
          {smart ? account.scopes.map(chainName).join(', ') : 'every EVM chain'}
        </Text>
      </Row>
      {balanceRows(model.onChains?.[account.id])}
      <Row label="Key">
        <Text>{key}</Text>
      </Row>
      {summary.owner ? (
        <Row label="Owner">
          <Text>{summary.owner}</Text>
        </Row>
      ) : null}
      {metadataCid ? (
        <Row label="Metadata">
          <Text>{metadataCid}</Text>
        </Row>
      ) : null}
      <Form name={`${UI.accountRename}:${account.id}`}>
        <Field label="New name" error={model.errors[nameInput]}>
          <Input
            name={nameInput}
            placeholder="Savings"
            value={model.values[nameInput] ?? displayText(name)}
          />
        </Field>
        <Button type="submit" name={`${UI.accountRename}-submit:${account.id}`}>
          {`Rename ${label}`}
        </Button>
      </Form>
      <Box direction="horizontal" alignment="space-between">
        {account.options.exportable === false ? null : (
          <Button name={`${UI.accountExport}:${account.id}`}>
            {`Export key of ${label}`}
          </Button>
        )}
        <Button
          name={`${UI.accountDelete}:${account.id}`}
          variant="destructive"
        >
          {`Delete ${label}`}
        </Button>
      </Box>
      <TokenBalances id={account.id} model={model} />
      {smart || upgradedOn.length > 0 ? (
        <SendForm
          id={account.id}
          label={label}
          scopes={smart ? account.scopes : upgradedOn}
          model={model}
        />
      ) : null}
      {smart ? null : (
        <UpgradeControls
          id={account.id}
          label={label}
          model={model}
          onChains={onChains}
        />
      )}
      <Grants id={account.id} model={model} />
      <Activity summary={summary} model={model} />
      <BalanceDetails balances={model.onChains?.[account.id]} />
    </Section>
  );
};
