/**
 * A state written by schema version 1 (test/fixtures/state-v1.json, saved by the build of commit
 * 7a32df5 in snaps-jest with its signatures) still signs the same after the migration: the same
 * keys, the same signatures, the same recovered addresses (viem as the reference).
 */
import { hashMessage, recoverAddress, recoverMessageAddress } from 'viem';
import type { Hex } from 'viem';
import { getUserOperationHash } from 'viem/account-abstraction';

import { createDomain } from '../domain';
import { migrate } from './store';
import type { KeyringState } from './store';
import fixture from '../../test/fixtures/state-v1.json';

/**
 * The keyring over the migrated fixture state.
 *
 * @returns The keyring and the migrated state.
 */
function load(): {
  keyring: ReturnType<typeof createDomain>['keyring'];
  state: KeyringState;
} {
  const state = migrate(JSON.parse(JSON.stringify(fixture.state)));
  const { keyring } = createDomain(
    state,
    {
      saveState: async () => undefined,
      emitEvent: async () => undefined,
      confirm: async () => true,
      deriveKey: async () => {
        throw new Error('no derivation expected');
      },
    },
    () => ({ message: '' }),
  );
  return { keyring, state };
}

/**
 * Sign through keyring_submitRequest (sync approval mode).
 *
 * @param keyring - The keyring.
 * @param account - The account id.
 * @param method - The method.
 * @param params - Its params.
 * @param scope - The CAIP-2 scope.
 * @returns The signature.
 */
async function sign(
  keyring: ReturnType<typeof createDomain>['keyring'],
  account: string,
  method: string,
  params: any[],
  scope = 'eip155:1',
): Promise<Hex> {
  const response = await keyring.submitRequest({
    id: '00000000-0000-4000-8000-000000000001',
    scope,
    account,
    origin: 'https://dapp.example',
    request: { method, params },
  });
  expect(response.pending).toBe(false);
  return (response as { result: Hex }).result;
}

describe('state written by schema version 1', () => {
  it('migrates to the current schema, marking each derived account as the legacy scheme', () => {
    const { state } = load();
    const { eoa, smart, imported } = fixture.accounts;
    expect(state.accounts[eoa]).toStrictEqual({
      ...fixture.state.accounts[eoa as keyof typeof fixture.state.accounts],
      derivationScheme: 'legacy',
    });
    expect(state.accounts[smart]?.derivationScheme).toBe('legacy');
    expect(state.accounts[smart]?.derivationIndex).toBe(1);
    expect(state.accounts[imported]).toStrictEqual(
      fixture.state.accounts[imported as keyof typeof fixture.state.accounts],
    );
    expect(state.nextDerivationIndex).toStrictEqual({
      legacy: 2,
      eoa: 0,
      'erc4337-owner': 0,
    });
  });

  it('signs as before: the same personal_sign and user-operation signatures, the same signers', async () => {
    const { keyring } = load();
    const { eoa, smart, imported } = fixture.accounts;
    const eoaAccount = await keyring.getAccount(eoa);
    const importedAccount = await keyring.getAccount(imported);
    for (const [id, address, expected] of [
      [eoa, eoaAccount.address, fixture.signatures.eoa],
      [imported, importedAccount.address, fixture.signatures.imported],
    ] as const) {
      const signature = await sign(keyring, id, 'personal_sign', [
        fixture.message,
        address,
      ]);
      expect(signature).toBe(expected);
      expect(
        await recoverMessageAddress({
          message: { raw: fixture.message as Hex },
          signature,
        }),
      ).toBe(address);
    }

    const signature = await sign(
      keyring,
      smart,
      'eth_signUserOperation',
      [fixture.userOp, fixture.entryPoint],
      fixture.scope,
    );
    expect(signature).toBe(fixture.signatures.userOp);
    const { userOp } = fixture;
    const hash = getUserOperationHash({
      chainId: 31337,
      entryPointAddress: fixture.entryPoint as Hex,
      entryPointVersion: '0.6',
      userOperation: {
        sender: userOp.sender as Hex,
        nonce: BigInt(userOp.nonce),
        initCode: userOp.initCode as Hex,
        callData: userOp.callData as Hex,
        callGasLimit: BigInt(userOp.callGasLimit),
        verificationGasLimit: BigInt(userOp.verificationGasLimit),
        preVerificationGas: BigInt(userOp.preVerificationGas),
        maxFeePerGas: BigInt(userOp.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(userOp.maxPriorityFeePerGas),
        paymasterAndData: userOp.paymasterAndData as Hex,
        signature: '0x',
      },
    });
    // SimpleAccount v0.6 checks an EIP-191 signature of the userOpHash by its owner
    expect(
      await recoverAddress({ hash: hashMessage({ raw: hash }), signature }),
    ).toBe(
      (
        fixture.state.accounts[
          smart as keyof typeof fixture.state.accounts
        ] as { smartAccount: { owner: string } }
      ).smartAccount.owner,
    );
  });
});
