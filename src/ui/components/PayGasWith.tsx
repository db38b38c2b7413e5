import {
  Dropdown,
  Field,
  Option,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import { chainName } from '../chainNames';
import { PAY_GAS_DEFAULT, UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * The Send form's *Pay gas with* dropdown (`send-gas:<id>`): the default (ETH from the account, or
 * the chain's paymaster when the chain has a paymaster service: it sponsors), or one of the tokens
 * the account's chains list (`gasTokens`), by symbol and chain; its value is the token's address.
 *
 * @param props - The component's props.
 * @param props.id - The account's id.
 * @param props.scopes - The account's chains.
 * @param props.model - The page's model (chains, gas tokens, values).
 * @returns The field.
 */
export const PayGasWith: SnapComponent<{
  id: string;
  scopes: string[];
  model: HomeModel;
}> = ({ id, scopes, model }) => {
  const name = `${UI.sendGas}:${id}`;
  const sponsored = model.chains.some(
    (config) => scopes.includes(config.scope) && config.paymasterUrl,
  );
  const tokens = (model.gasTokens?.tokens ?? []).filter((option) =>
    scopes.includes(option.scope),
  );
  return (
    <Field label="Pay gas with">
      <Dropdown name={name} value={model.values[name] ?? PAY_GAS_DEFAULT}>
        <Option value={PAY_GAS_DEFAULT}>
          {sponsored
            ? 'The paymaster (sponsored, on a chain that has one), else ETH'
            : 'ETH from this account'}
        </Option>
        {tokens.map((option) => (
          <Option key={`${option.scope}:${option.token}`} value={option.token}>
            {`${option.symbol || 'Token'} ${option.token} (${chainName(option.scope)})`}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
};

/**
 * The account card's token balances: each listed gas token the account holds on its chains.
 *
 * @param props - The component's props.
 * @param props.id - The account's id.
 * @param props.model - The page's model.
 * @returns The lines, or nothing when no chain lists tokens.
 */
export const TokenBalances: SnapComponent<{ id: string; model: HomeModel }> = ({
  id,
  model,
}) => {
  const balances = model.gasTokens?.balances[id] ?? [];
  return balances.length === 0 ? null : (
    <Text>
      {`Tokens: ${balances
        .map(
          (balance) =>
            `${balance.amount} ${balance.symbol || balance.token} on ${chainName(balance.scope)}`,
        )
        .join('; ')}`}
    </Text>
  );
};
