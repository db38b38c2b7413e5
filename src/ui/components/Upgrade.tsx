import {
  Box,
  Button,
  Dropdown,
  Field,
  Option,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { SnapComponent } from '@metamask/snaps-sdk/jsx';

import type { AccountOnChain } from '../../keyring/chainView';
import { chainName } from '../chainNames';
import { UI } from '../homeModel';
import type { HomeModel } from '../homeModel';

/**
 * An EOA's EIP-7702 controls: what the upgrade does, in plain words, the chain it acts on (a
 * dropdown `account-upgrade-chain:<id>` when two or more chains are configured), *Upgrade to a
 * smart account* (`account-upgrade:<id>`) and *Undo upgrade* (`account-undo-upgrade:<id>`), and
 * the error of the last attempt under them; only the button that applies where the EOA's code was
 * read (Upgrade where it has none, Undo where it has some; both when no chain answered). Shown only when a chain is configured.
 *
 * @param props - The component's props.
 * @param props.id - The account's id.
 * @param props.label - The account's name or short address, for the buttons.
 * @param props.model - The page's model (chains, errors).
 * @param props.onChains - The EOA on each chain (its code), as read for the page.
 * @returns The controls, or null without a configured chain.
 */
export const UpgradeControls: SnapComponent<{
  id: string;
  label: string;
  model: HomeModel;
  onChains: AccountOnChain[];
}> = ({ id, label, model, onChains }) => {
  const scopes = model.chains.map((chain) => chain.scope);
  if (scopes.length === 0) {
    return null;
  }
  const code = onChains.flatMap((entry) => entry.code ?? []);
  // where no chain's code could be read, both are offered
  const upgrade =
    code.length === 0 ||
    code.some(
      (delegation) => delegation !== 'simple7702' && delegation !== 'deleGator',
    );
  const undo =
    code.length === 0 || code.some((delegation) => delegation !== 'none');
  const error =
    model.errors[`${UI.accountUpgrade}:${id}`] ??
    model.errors[`${UI.accountUndoUpgrade}:${id}`];
  return (
    <Box>
      <Text>
        {`Upgrade to a smart account (EIP-7702): the same address runs the code of Simple7702Account v0.8 on ${scopes.length === 1 ? chainName(scopes[0]) : 'the chosen chain'}, so it can send several calls at once. Undo upgrade removes that code: a transaction this account pays itself, never a paymaster.`}
      </Text>
      {scopes.length > 1 ? (
        <Field label="Chain">
          <Dropdown name={`${UI.accountUpgradeChain}:${id}`} value={scopes[0]}>
            {scopes.map((scope) => (
              <Option key={scope} value={scope}>
                {chainName(scope)}
              </Option>
            ))}
          </Dropdown>
        </Field>
      ) : null}
      {error ? <Text color="error">{error}</Text> : null}
      <Box direction="horizontal" alignment="space-between">
        {upgrade ? (
          <Button name={`${UI.accountUpgrade}:${id}`}>
            {`Upgrade ${label} to a smart account`}
          </Button>
        ) : null}
        {undo ? (
          <Button name={`${UI.accountUndoUpgrade}:${id}`}>
            {`Undo upgrade of ${label}`}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
};
