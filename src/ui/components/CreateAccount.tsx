import {
  Box,
  Button,
  Checkbox,
  Dropdown,
  Field,
  Form,
  Heading,
  Input,
  Option,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { PhraseChoice, VersionChoice } from './Recovery';
import { nonCanonicalEntryPoints } from '../../consent';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * The account creation forms: an EOA, a smart account on chosen chains and a chosen EntryPoint
 * version (v0.8, the newest, preselected; `smart-entryPointVersion`), with an optional metadata CID, each from the chosen recovery phrase when MetaMask holds more than one (the
 * primary by default), and the import of a private key as an EOA or a smart account's owner.
 * Every EntryPoint of a configured chain that is not the canonical one of its version is named
 * there, with its address.
 *
 * @param props - The component's props.
 * @param props.model - The page's model (chains, values and errors).
 * @returns The forms.
 */
export const CreateAccount: SnapComponent<{ model: HomeModel }> = ({
  model,
}) => {
  return (
    <Box>
      <Heading>Create an account</Heading>
      <Form name={UI.createEoa}>
        {model.errors[UI.createEoa] ? (
          <Text color="error">{model.errors[UI.createEoa]}</Text>
        ) : null}
        <PhraseChoice name={UI.createEoaSource} model={model} />
        <Button type="submit" name={`${UI.createEoa}-submit`}>
          Create an account (EOA)
        </Button>
      </Form>
      <Form name={UI.createSmart}>
        <Text>Smart account (ERC-4337) on these chains:</Text>
        {model.chains.length === 0 ? (
          <Text>No chain is configured yet: add one under Chains.</Text>
        ) : (
          <Text>
            None ticked: the account is made on every configured chain.
          </Text>
        )}
        {model.chains.map((chain) => (
          <Checkbox
            key={chain.scope}
            name={`${UI.smartScope}:${chain.scope}`}
            label={chainName(chain.scope)}
          />
        ))}
        <VersionChoice
          name={UI.smartVersion}
          label="Contract version: each gives the account a different address (SimpleAccount and its EntryPoint)"
          model={model}
        />
        {model.chains.flatMap((chain) =>
          nonCanonicalEntryPoints(chain).map(({ version, entryPoint }) => (
            <Text color="warning">
              {`On ${chainName(chain.scope)}, EntryPoint v${version} is ${entryPoint}: not the canonical EntryPoint v${version}. Create a v${version} account there only if you trust who set it.`}
            </Text>
          )),
        )}
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
        <PhraseChoice name={UI.smartSource} model={model} />
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
        <VersionChoice
          name={UI.importVersion}
          label="EntryPoint version (a smart account only)"
          model={model}
        />
        {model.errors[UI.importKey] ? (
          <Text color="error">{model.errors[UI.importKey]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.importKey}-submit`}>
          Import
        </Button>
      </Form>
    </Box>
  );
};
