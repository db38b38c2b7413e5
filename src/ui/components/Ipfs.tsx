import {
  Box,
  Button,
  Checkbox,
  Field,
  Form,
  Heading,
  Input,
  Row,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { IPFS_FIELDS, UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * The IPFS part: the API URL (masked when keyed), whether credentials are set, and the settings
 * form (key and secret inputs always render empty; left empty they keep the stored ones; a
 * checkbox, shown only when some are stored, removes them).
 *
 * @param props - The component's props.
 * @param props.model - The page's model (IPFS settings, values and errors).
 * @returns The part.
 */
export const Ipfs: SnapComponent<{ model: HomeModel }> = ({ model }) => {
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
        {IPFS_FIELDS.map(([field, label, type, placeholder]) => (
          <Field
            key={field}
            label={label}
            error={model.errors[`ipfs-${field}`]}
          >
            <Input
              name={`ipfs-${field}`}
              type={type}
              {...(placeholder ? { placeholder } : {})}
              value={
                type === 'password' ? '' : (model.values[`ipfs-${field}`] ?? '')
              }
            />
          </Field>
        ))}
        {model.ipfs?.hasCredentials ? (
          <Checkbox
            name={UI.ipfsClearCredentials}
            label="Remove the stored key and secret (a blank API URL keeps the stored one)"
          />
        ) : null}
        {model.errors[UI.ipfsForm] ? (
          <Text color="error">{model.errors[UI.ipfsForm]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.ipfsForm}-submit`}>
          Save IPFS settings
        </Button>
      </Form>
    </Box>
  );
};
