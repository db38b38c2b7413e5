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

import { CHAIN_FIELDS, UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * The Chains part: each configured chain (URLs masked) with Edit and Remove buttons (Remove asks
 * first), and the form adding or replacing one (each input shows an example).
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
          <Box direction="horizontal">
            <Button name={`${UI.chainEdit}:${chain.scope}`}>Edit</Button>
            <Button name={`${UI.chainRemove}:${chain.scope}`}>Remove</Button>
          </Box>
        </Section>
      ))}
      <Form name={UI.chainForm}>
        <Text>Add or replace a chain (the RPC URL must serve that chain):</Text>
        {CHAIN_FIELDS.map(([field, label, placeholder]) => (
          <Field
            key={field}
            label={label}
            error={model.errors[`chain-${field}`]}
          >
            <Input
              name={`chain-${field}`}
              placeholder={placeholder}
              value={model.values[`chain-${field}`] ?? ''}
            />
          </Field>
        ))}
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
