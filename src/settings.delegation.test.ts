import { CANONICAL_DELEGATION_ENVIRONMENT } from './accounts/deleGator/canonical';
import { parseChainConfig } from './accounts/erc4337';
import { Settings } from './settings';
import { assertKeyringState } from './state/schema';
import { defaultState, StateStore } from './state/store';

const OTHER = '0x1111111111111111111111111111111111111111';

/**
 * Settings over a state holding these chain configs.
 *
 * @param configs - setChainConfig params.
 * @returns The settings.
 */
function settingsWith(...configs: unknown[]): Settings {
  const state = defaultState();
  for (const params of configs) {
    const config = parseChainConfig(params);
    state.chains[config.scope] = config;
  }
  assertKeyringState(state); // what a saved state must pass when loaded again
  return new Settings(new StateStore(state, async () => undefined));
}

describe('Settings.delegationEnvironment', () => {
  it("is the chain config's environment, else the canonical v1.3.0 one where the chain has it, else undefined", () => {
    const configured = {
      ...CANONICAL_DELEGATION_ENVIRONMENT,
      DelegationManager: OTHER,
    };
    const settings = settingsWith(
      { scope: 'eip155:1', rpcUrl: 'https://rpc.example.com' },
      { scope: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545' },
      {
        scope: 'eip155:11155111',
        rpcUrl: 'https://rpc.example.com',
        delegationEnvironment: configured,
      },
    );
    expect(settings.delegationEnvironment('eip155:1')).toStrictEqual(
      CANONICAL_DELEGATION_ENVIRONMENT,
    );
    expect(settings.delegationEnvironment('eip155:31337')).toBeUndefined();
    expect(settings.delegationEnvironment('eip155:11155111')).toStrictEqual(
      configured,
    );
    expect(settings.delegationEnvironment('eip155:10')).toBeUndefined();
  });
});
