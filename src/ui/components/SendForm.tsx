import {
  Button,
  Dropdown,
  Field,
  Form,
  Input,
  Option,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { PayGasWith } from './PayGasWith';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * The Send form of a smart account: one intent (to, value in ETH, optional data) on one of its chains.
 *
 * @param props - The component's props.
 * @param props.id - The account's id, the suffix of the form's and inputs' names.
 * @param props.label - How the page names the account (accountLabel), in the button's text.
 * @param props.scopes - The account's chains (CAIP-2), offered in the chain dropdown.
 * @param props.model - The page's model (values and errors to show).
 * @returns The form.
 */
export const SendForm: SnapComponent<{
  id: string;
  label: string;
  scopes: string[];
  model: HomeModel;
}> = ({ id, label, scopes, model }) => {
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
      <Text>Send from this account (a user operation, ERC-4337):</Text>
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
              {chainName(scope)}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <PayGasWith id={id} scopes={scopes} model={model} />
      {model.errors[form] ? (
        <Text color="error">{model.errors[form]}</Text>
      ) : null}
      <Button type="submit" name={`${form}-submit`}>
        {`Review and send from ${label}`}
      </Button>
    </Form>
  );
};
