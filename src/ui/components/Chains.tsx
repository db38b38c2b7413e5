import {
  Box,
  Button,
  Field,
  Form,
  Heading,
  Input,
  Row,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { chainContractRows } from '../../consent';
import { chainName } from '../chainNames';
import { CHAIN_ADVANCED_FIELDS, CHAIN_FIELDS, UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * One input of the chain form.
 *
 * @param props - The component's props.
 * @param props.field - The field's name (`rpcUrl`: input `chain-rpcUrl`).
 * @param props.label - Its label.
 * @param props.placeholder - Its example.
 * @param props.model - The page's model (values and errors).
 * @returns The field.
 */
const ChainField: SnapComponent<{
  field: string;
  label: string;
  placeholder: string;
  model: HomeModel;
}> = ({ field, label, placeholder, model }) => (
  <Field label={label} error={model.errors[`chain-${field}`]}>
    <Input
      name={`chain-${field}`}
      placeholder={placeholder}
      value={model.values[`chain-${field}`] ?? ''}
    />
  </Field>
);

/**
 * The Chains part: each configured chain (named when well known, `Sepolia (11155111)`; URLs
 * masked; the EntryPoint and factory of each version v0.6, v0.7, v0.8 in full, flagged when not
 * canonical) with Edit and Remove buttons that name it (Remove, destructive, asks first), and the
 * form adding or replacing one (each input shows an example; the contracts and the paymaster
 * under *Advanced*).
 *
 * @param props - The component's props.
 * @param props.model - The page's model (chains, values and errors).
 * @returns The part.
 */
export const Chains: SnapComponent<{ model: HomeModel }> = ({ model }) => {
  return (
    <Box>
      <Heading>Chains</Heading>
      {model.chains.length === 0 ? (
        <Text>No chain configured. Smart accounts need one.</Text>
      ) : null}
      {model.chains.map((chain) => (
        <Section key={chain.scope}>
          <Row label="Chain">
            <Text>{chainName(chain.scope)}</Text>
          </Row>
          <Row label="RPC URL">
            <Text>{chain.rpcUrl}</Text>
          </Row>
          {chainContractRows(chain).map((row) => (
            <Row key={row.label} label={row.label}>
              <Text>{row.value}</Text>
            </Row>
          ))}
          <Row label="Bundler">
            <Text>{chain.bundlerUrl ?? 'none'}</Text>
          </Row>
          <Row label="Paymaster">
            <Text>{chain.paymasterUrl ?? 'none'}</Text>
          </Row>
          <Box direction="horizontal">
            <Button name={`${UI.chainEdit}:${chain.scope}`}>
              {`Edit ${chainName(chain.scope)}`}
            </Button>
            <Button
              name={`${UI.chainRemove}:${chain.scope}`}
              variant="destructive"
            >
              {`Remove ${chainName(chain.scope)}`}
            </Button>
          </Box>
        </Section>
      ))}
      <Form name={UI.chainForm}>
        <Text>Add or replace a chain (the RPC URL must serve that chain):</Text>
        {CHAIN_FIELDS.filter(
          ([field]) => !CHAIN_ADVANCED_FIELDS.includes(field),
        ).map((entry) => (
          <ChainField
            key={entry[0]}
            field={entry[0]}
            label={entry[1]}
            placeholder={entry[2]}
            model={model}
          />
        ))}
        <Text>Advanced (leave empty for the standard contracts):</Text>
        {CHAIN_FIELDS.filter(([field]) =>
          CHAIN_ADVANCED_FIELDS.includes(field),
        ).map((entry) => (
          <ChainField
            key={entry[0]}
            field={entry[0]}
            label={entry[1]}
            placeholder={entry[2]}
            model={model}
          />
        ))}
        <Text>
          EntryPoint v0.7 and v0.8 use their canonical contracts unless a site
          or script set others for this chain (shown above); saving here keeps
          them.
        </Text>
        {model.errors[UI.chainForm] ? (
          <Text color="error">{model.errors[UI.chainForm]}</Text>
        ) : null}
        {model.errors[UI.chainRemove] ? (
          <Text color="error">{model.errors[UI.chainRemove]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.chainForm}-submit`}>
          Save chain
        </Button>
      </Form>
    </Box>
  );
};
