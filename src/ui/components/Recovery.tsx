import {
  Box,
  Button,
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

import type { EntropySource } from '../../keyring/recovery/recoveryTypes';
import { SMART_VERSIONS, UI } from '../homeModel';
import type { HomeModel } from '../homeModel';
import {
  GAP_LIMIT,
  phraseName,
  progressText,
  reportLines,
} from '../recoveryText';

/**
 * The choice of recovery phrase for a new or restored derived key: a dropdown of the phrases
 * MetaMask holds (`snap_listEntropySources`), the primary one first selected; nothing when there
 * is only one (no choice to make).
 *
 * @param props - The component's props.
 * @param props.name - The dropdown's name (`create-eoa-source`, `smart-source`, `restore-source`).
 * @param props.model - The page's model (the sources and the typed values).
 * @returns The field, or null.
 */
export const PhraseChoice: SnapComponent<{
  name: string;
  model: HomeModel;
}> = ({ name, model }) => {
  const sources: EntropySource[] = model.entropySources ?? [];
  if (sources.length < 2) {
    return null;
  }
  const primary = sources.find((source) => source.primary) ?? sources[0];
  const chosen = model.values[name];
  return (
    <Field label="Recovery phrase">
      <Dropdown
        name={name}
        value={
          sources.some((source) => source.id === chosen) ? chosen : primary.id
        }
      >
        {sources.map((source, position) => (
          <Option value={source.id}>
            {withPrimary(phraseName(source, position + 1), source.primary)}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
};

/**
 * A phrase's name in the dropdown, marked `(primary)` unless its name says so already.
 *
 * @param name - The phrase's name as the page shows it.
 * @param primary - Whether it is the primary phrase.
 * @returns The option's text.
 */
function withPrimary(name: string, primary: boolean): string {
  return primary && !/primary/iu.test(name) ? `${name} (primary)` : name;
}

/**
 * The EntryPoint version of a smart account (SMART_VERSIONS: v0.8, the newest, first and
 * preselected, then v0.7 and v0.6): the creation, import and restore forms' dropdown.
 *
 * @param props - The component's props.
 * @param props.name - The dropdown's name (`smart-entryPointVersion`, `import-entryPointVersion`,
 * `restore-entryPointVersion`).
 * @param props.label - The field's label.
 * @param props.model - The page's model (the typed values and errors).
 * @returns The field.
 */
export const VersionChoice: SnapComponent<{
  name: string;
  label: string;
  model: HomeModel;
}> = ({ name, label, model }) => (
  <Field label={label} error={model.errors[name]}>
    <Dropdown name={name} value={model.values[name] ?? SMART_VERSIONS[0][0]}>
      {SMART_VERSIONS.map(([version, text]) => (
        <Option value={version}>{text}</Option>
      ))}
    </Dropdown>
  </Field>
);

/**
 * Getting accounts back: *Find my accounts* (`accounts-restore`), with its progress while it runs
 * and its last report (not a "no chain" report once a chain is added), and the restore-by-index
 * form (`restore-form`: `restore-index`, `restore-type`, `restore-entryPointVersion` for a smart
 * account, `restore-source` with several phrases).
 *
 * @param props - The component's props.
 * @param props.model - The page's model (recovery status, chains, sources, values, errors).
 * @returns The part.
 */
export const RecoverySection: SnapComponent<{ model: HomeModel }> = ({
  model,
}) => {
  const status = model.recovery;
  const running = status?.state === 'running';
  // a "no chain" report is stale once a chain is added
  const done =
    status?.state === 'done' &&
    !(status.report.noChain && model.chains.length > 0);
  return (
    <Box>
      <Heading>Find my accounts</Heading>
      <Text>
        {`Installed again, or on a new device? This looks for the accounts (EOA) and smart accounts your recovery ${(model.entropySources ?? []).length > 1 ? 'phrases' : 'phrase'} made with this snap, on the chains you added, and adds back each one that holds funds or has history. It stops after ${GAP_LIMIT} unused accounts in a row. Imported keys come from no phrase: it cannot bring them back.`}
      </Text>
      {model.chains.length === 0 && !running && !done ? (
        <Text>
          No chain is added yet: add one under Chains first, so the search can
          ask it which accounts were used.
        </Text>
      ) : null}
      {running ? (
        <Text>{progressText(status.progress, model.entropySources ?? [])}</Text>
      ) : null}
      {done
        ? reportLines(status.report).map((line) => <Text>{line}</Text>)
        : null}
      {model.errors[UI.accountsRestore] && !done && !running ? (
        <Text color="error">{model.errors[UI.accountsRestore]}</Text>
      ) : null}
      <Button name={UI.accountsRestore} disabled={running}>
        {running ? 'Searching…' : 'Find my accounts'}
      </Button>
      <Heading size="sm">Restore by index</Heading>
      <Form name={UI.restoreForm}>
        <Field
          label="Index (the number on the account's card)"
          error={model.errors[UI.restoreIndex]}
        >
          <Input
            name={UI.restoreIndex}
            type="number"
            placeholder="7"
            value={model.values[UI.restoreIndex] ?? ''}
          />
        </Field>
        <Field label="Kind">
          <Dropdown
            name={UI.restoreType}
            value={model.values[UI.restoreType] ?? 'eip155:eoa'}
          >
            <Option value="eip155:eoa">Account (EOA)</Option>
            <Option value="eip155:erc4337">Smart account</Option>
          </Dropdown>
        </Field>
        <VersionChoice
          name={UI.restoreVersion}
          label="EntryPoint version (a smart account only: each gives another address)"
          model={model}
        />
        <PhraseChoice name={UI.restoreSource} model={model} />
        {model.errors[UI.restoreForm] ? (
          <Text color="error">{model.errors[UI.restoreForm]}</Text>
        ) : null}
        <Button type="submit" name={`${UI.restoreForm}-submit`}>
          Restore
        </Button>
      </Form>
    </Box>
  );
};
