import {
  Banner,
  Box,
  Button,
  Checkbox,
  Copyable,
  Divider,
  Dropdown,
  Field,
  Form,
  Heading,
  Input,
  Option,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import { CHAIN_FIELDS, IPFS_FIELDS, UI } from './homeModel';
import type { HomeModel } from './homeModel';
import { HomeRequests } from './homeRequests';
import type { AccountSummary } from '../keyring/keyring';
import { displayText } from '../utils/safeText';

export { CHAIN_FIELDS, IPFS_FIELDS, UI, type HomeModel } from './homeModel';

/**
 * The home page (snaps `endowment:page-home`): accounts, account creation and import, chain and
 * IPFS settings, pending requests and the approval mode. Pure: renders `model`, reads nothing.
 * No private key, API key or secret is ever in it (URLs are shown masked).
 *
 * @param model - What to show.
 * @returns The page's JSX element.
 */
export function renderHome(model: HomeModel): JSXElement {
  return (
    <Box>
      <Heading size="lg">Keyring Snap</Heading>
      {model.notice ? (
        <Banner
          title={model.notice.severity === 'success' ? 'Done' : 'Not done'}
          severity={model.notice.severity}
        >
          <Text>{model.notice.text}</Text>
        </Banner>
      ) : null}
      <Heading>Accounts</Heading>
      {model.accounts.length === 0 ? (
        <Text>No account yet: create one below.</Text>
      ) : null}
      {model.lastSent ? (
        <Section>
          <Row label="User operation">
            <Text>{model.lastSent.userOpHash}</Text>
          </Row>
          <Row label="Status">
            <Text>{model.lastSent.status ?? 'sent to the bundler'}</Text>
          </Row>
          <Button
            name={`${UI.sendStatus}:${model.lastSent.scope}:${model.lastSent.userOpHash}`}
          >
            Refresh status
          </Button>
        </Section>
      ) : null}
      {model.accounts.map((summary) => renderAccount(summary, model))}
      <Divider />
      {renderCreate(model)}
      <Divider />
      {renderChains(model)}
      <Divider />
      {renderIpfs(model)}
      <Divider />
      <HomeRequests model={model} />
    </Box>
  );
}

/**
 * One account's section: name, type, address, chains, key source, metadata CID, the export and
 * delete buttons, and for a smart account its Send form.
 *
 * @param summary - The account.
 * @param summary.account - The keyring-api account.
 * @param summary.name - Its name (may be empty).
 * @param summary.keySource - Where its key comes from: imported, or the derivation index.
 * @param model - The page's model (the Send form's values and errors).
 * @returns The section.
 */
function renderAccount(
  { account, name, keySource }: AccountSummary,
  model: HomeModel,
): JSXElement {
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
      {smart ? renderSend(account.id, account.scopes, model) : null}
    </Section>
  );
}

/**
 * The Send form of a smart account: one intent (to, value in ETH, optional data) on one of its chains.
 *
 * @param id - The account's id, the suffix of the form's and inputs' names.
 * @param scopes - The account's chains, offered in the chain dropdown.
 * @param model - The page's model (values and errors to show).
 * @returns The form.
 */
function renderSend(
  id: string,
  scopes: string[],
  model: HomeModel,
): JSXElement {
  /**
   * The name of one of this account's Send form inputs.
   *
   * @param name - The input's name prefix (a `UI.send*` name).
   * @returns `<name>:<account id>`.
   */
  const field = (name: string): string => `${name}:${id}`;
  const form = field(UI.send);
  return (
    <Form name={form}>
      <Text>Send a user operation from this account (ERC-4337):</Text>
      <Field label="To" error={model.errors[field(UI.sendTo)]}>
        <Input
          name={field(UI.sendTo)}
          placeholder="0x…"
          value={model.values[field(UI.sendTo)] ?? ''}
        />
      </Field>
      <Field label="Value (ETH)" error={model.errors[field(UI.sendValue)]}>
        <Input
          name={field(UI.sendValue)}
          placeholder="0"
          value={model.values[field(UI.sendValue)] ?? ''}
        />
      </Field>
      <Field
        label="Data (optional hex)"
        error={model.errors[field(UI.sendData)]}
      >
        <Input
          name={field(UI.sendData)}
          placeholder="0x"
          value={model.values[field(UI.sendData)] ?? ''}
        />
      </Field>
      <Field label="Chain">
        <Dropdown
          name={field(UI.sendScope)}
          value={model.values[field(UI.sendScope)] ?? scopes[0]}
        >
          {scopes.map((scope) => (
            <Option key={scope} value={scope}>
              {scope}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {model.errors[form] ? (
        <Text color="error">{model.errors[form]}</Text>
      ) : null}
      <Button type="submit" name={`${form}-submit`}>
        Review and send
      </Button>
    </Form>
  );
}

/**
 * The account creation forms: an EOA, a smart account on chosen chains (with an optional
 * metadata CID), and the import of a private key as an EOA or a smart account's owner.
 *
 * @param model - The page's model (chains, values and errors).
 * @returns The forms.
 */
function renderCreate(model: HomeModel): JSXElement {
  return (
    <Box>
      <Heading>Create an account</Heading>
      <Form name={UI.createEoa}>
        {model.errors[UI.createEoa] ? (
          <Text color="error">{model.errors[UI.createEoa]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.createEoa}-submit`}>
          Create an account (EOA)
        </Button>
      </Form>
      <Form name={UI.createSmart}>
        <Text>Smart account (ERC-4337) on these chains:</Text>
        {model.chains.length === 0 ? (
          <Text>No chain is configured yet: add one under Chains.</Text>
        ) : null}
        {model.chains.map((chain) => (
          <Checkbox
            key={chain.scope}
            name={`${UI.smartScope}:${chain.scope}`}
            label={chain.scope}
          />
        ))}
        <Field
          label="Metadata CID (optional)"
          error={model.errors[UI.smartMetadataCid]}
        >
          <Input
            name={UI.smartMetadataCid}
            placeholder="Qm… or bafy…"
            value={model.values[UI.smartMetadataCid] ?? ''}
          />
        </Field>
        {model.errors[UI.createSmart] ? (
          <Text color="error">{model.errors[UI.createSmart]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.createSmart}-submit`}>
          Create a smart account
        </Button>
      </Form>
      <Form name={UI.importKey}>
        <Field
          label="Private key (it is never shown again)"
          error={model.errors[UI.importPrivateKey]}
        >
          <Input
            name={UI.importPrivateKey}
            type="password"
            placeholder="0x…"
            value=""
          />
        </Field>
        <Field label="As">
          <Dropdown
            name={UI.importType}
            value={model.values[UI.importType] ?? 'eip155:eoa'}
          >
            <Option value="eip155:eoa">Account (EOA)</Option>
            <Option value="eip155:erc4337">
              Smart account owned by this key
            </Option>
          </Dropdown>
        </Field>
        {model.errors[UI.importKey] ? (
          <Text color="error">{model.errors[UI.importKey]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.importKey}-submit`}>
          Import
        </Button>
      </Form>
    </Box>
  );
}

/**
 * The Chains part: each configured chain with an Edit button, and the form adding or replacing one.
 *
 * @param model - The page's model (chains, values and errors).
 * @returns The part.
 */
function renderChains(model: HomeModel): JSXElement {
  return (
    <Box>
      <Heading>Chains</Heading>
      {model.chains.length === 0 ? (
        <Text>No chain configured. Smart accounts need one.</Text>
      ) : null}
      {model.chains.map((chain) => (
        <Section key={chain.scope}>
          <Row label="Chain">
            <Text>{chain.scope}</Text>
          </Row>
          <Row label="RPC URL">
            <Text>{chain.rpcUrl}</Text>
          </Row>
          <Row label="EntryPoint">
            <Text>{chain.entryPoint}</Text>
          </Row>
          <Row label="Factory">
            <Text>{chain.accountFactory}</Text>
          </Row>
          <Row label="Bundler">
            <Text>{chain.bundlerUrl ?? 'none'}</Text>
          </Row>
          <Row label="Paymaster">
            <Text>{chain.paymasterUrl ?? 'none'}</Text>
          </Row>
          <Button name={`${UI.chainEdit}:${chain.scope}`}>Edit</Button>
        </Section>
      ))}
      <Form name={UI.chainForm}>
        <Text>Add or replace a chain (the RPC URL must serve that chain):</Text>
        {CHAIN_FIELDS.map(([field, label]) => (
          <Field
            key={field}
            label={label}
            error={model.errors[`chain-${field}`]}
          >
            <Input
              name={`chain-${field}`}
              value={model.values[`chain-${field}`] ?? ''}
            />
          </Field>
        ))}
        {model.errors[UI.chainForm] ? (
          <Text color="error">{model.errors[UI.chainForm]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.chainForm}-submit`}>
          Save chain
        </Button>
      </Form>
    </Box>
  );
}

/**
 * The IPFS part: the API URL, whether credentials are set, and the settings form (key and
 * secret inputs always render empty).
 *
 * @param model - The page's model (IPFS settings, values and errors).
 * @returns The part.
 */
function renderIpfs(model: HomeModel): JSXElement {
  return (
    <Box>
      <Heading>IPFS (account metadata)</Heading>
      <Row label="API URL">
        <Text>{model.ipfs?.apiUrl ?? 'not set'}</Text>
      </Row>
      <Row label="Credentials">
        <Text>{model.ipfs?.hasCredentials ? 'set' : 'none'}</Text>
      </Row>
      <Form name={UI.ipfsForm}>
        {IPFS_FIELDS.map(([field, label, type]) => (
          <Field
            key={field}
            label={label}
            error={model.errors[`ipfs-${field}`]}
          >
            <Input
              name={`ipfs-${field}`}
              type={type}
              value={
                type === 'password' ? '' : (model.values[`ipfs-${field}`] ?? '')
              }
            />
          </Field>
        ))}
        {model.errors[UI.ipfsForm] ? (
          <Text color="error">{model.errors[UI.ipfsForm]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.ipfsForm}-submit`}>
          Save IPFS settings
        </Button>
      </Form>
    </Box>
  );
}
