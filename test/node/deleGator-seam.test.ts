/**
 * The grant flow's seam (src/keyring/deleGator.ts) through the snap's own domain in Node, on real
 * parts: anvil (Prague) with MetaMask's Delegation Framework deployed by the Smart Accounts Kit on
 * the canonical EntryPoint v0.7, the Alto bundler and the paymaster service. An EOA of the snap is
 * upgraded to EIP7702StatelessDeleGator with no dialog of the seam's own, one upgraded to
 * Simple7702Account is switched, and the DeleGator then sends its own user operation and signs a
 * delegation. Checked independently: the EOA's code on anvil, the EntryPoint's UserOperationEvent,
 * the kit's own `toMetaMaskSmartAccount` signature of the same operation, and ERC-1271
 * `isValidSignature` of the delegation on the upgraded EOA.
 */
import {
  Implementation,
  toMetaMaskSmartAccount,
} from '@metamask/smart-accounts-kit';
import {
  concatHex,
  createPublicClient,
  hashTypedData,
  http,
  parseAbi,
  parseEther,
  recoverTypedDataAddress,
} from 'viem';
import type { Hex, PublicClient } from 'viem';
import { entryPoint07Abi } from 'viem/account-abstraction';
import {
  generatePrivateKey,
  privateKeyToAccount,
  privateKeyToAddress,
} from 'viem/accounts';

import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { bundlerReceipt, jsonRpc } from '../../devnet/json-rpc';
import { DELEGATION_TYPES } from '../../src/accounts/deleGator/delegation';
import { parseChainConfig } from '../../src/accounts/erc4337/config';
import { createDomain } from '../../src/domain';
import type { Domain } from '../../src/domain';
import type { KeyringPlatform } from '../../src/keyring/keyring';
import { defaultState } from '../../src/state/store';
import type { StateSaver } from '../../src/state/store';

jest.setTimeout(240_000);

const ROOT_AUTHORITY: Hex = `0x${'f'.repeat(64)}`;
const DEAD: Hex = '0x000000000000000000000000000000000000dEaD';

describe('the DeleGator seam: upgrade, switch, send, sign a delegation (anvil, Alto, the kit)', () => {
  let devnet: Devnet;
  let client: PublicClient;
  /** One domain per chain config (with and without the paymaster service). */
  const domains: Record<'sponsored' | 'selfPaid', Domain> = {} as never;
  const keys: Hex[] = [];
  let sends = 0;
  /**
   * Record a send confirmation and approve it.
   *
   * @returns True.
   */
  const approveSend = async (): Promise<boolean> => {
    sends += 1;
    return true;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    for (const kind of ['sponsored', 'selfPaid'] as const) {
      const { paymasterUrl, ...rest } = devnet.chainConfig;
      const config = parseChainConfig({
        ...rest,
        ...(kind === 'sponsored' ? { paymasterUrl } : {}),
        delegationEnvironment: devnet.delegationEnvironment,
      });
      const state = defaultState();
      state.chains[config.scope] = config;
      const platform: KeyringPlatform & { saveState: StateSaver } = {
        saveState: async () => undefined,
        emitEvent: async () => undefined,
        confirm: async () => true,
        confirmSend: approveSend,
        deriveKey: async () => {
          const key = generatePrivateKey();
          keys.push(key);
          return { privateKey: key, address: privateKeyToAddress(key) };
        },
      };
      domains[kind] = createDomain(state, platform, () => ({ message: '' }));
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * The DeleGator's delegation indicator (EIP-7702).
   *
   * @returns `0xef0100 ++ EIP7702StatelessDeleGatorImpl`, lower case.
   */
  const deleGatorCode = (): string =>
    concatHex([
      '0xef0100',
      devnet.delegationEnvironment?.implementations
        .EIP7702StatelessDeleGatorImpl as Hex,
    ]).toLowerCase();

  /**
   * A new EOA of the snap in `domain`, funded with 1 ETH on anvil.
   *
   * @param domain - The domain.
   * @returns Its id, address and key.
   */
  async function newEoa(
    domain: Domain,
  ): Promise<{ id: string; address: Hex; key: Hex }> {
    const account = await domain.keyring.createAccount({});
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
      account.address,
      `0x${parseEther('1').toString(16)}`,
    ]);
    return {
      id: account.id,
      address: account.address as Hex,
      key: keys.at(-1) as Hex,
    };
  }

  /**
   * The EOA's code on anvil, lower case.
   *
   * @param address - The EOA.
   * @returns Its code.
   */
  const codeOf = async (address: Hex): Promise<string> =>
    ((await client.getCode({ address })) ?? '0x').toLowerCase();

  it('upgrades a plain EOA with no dialog, sponsored by the paymaster service, and returns once its code is the DeleGator', async () => {
    const domain = domains.sponsored;
    const eoa = await newEoa(domain);
    const status = await domain.deleGators.deleGatorStatus(
      eoa.id,
      devnet.scope,
    );
    expect(status).toMatchObject({
      needs: 'upgrade',
      delegation: 'none',
      payer: 'paymaster',
    });
    const plan = await domain.deleGators.planDeleGator(eoa.id, devnet.scope);
    expect(plan.upgrade?.paymaster).not.toBeNull();
    expect(plan.upgrade?.maxCost).toBe(0n);
    const before = sends;
    const balance = await client.getBalance({ address: eoa.address });
    const done = await domain.deleGators.ensureDeleGator(
      eoa.id,
      devnet.scope,
      plan,
    );
    expect(sends).toBe(before); // no dialog of its own
    expect(done.upgraded).toBe(true);
    expect(await codeOf(eoa.address)).toBe(deleGatorCode());
    expect(await client.getBalance({ address: eoa.address })).toBe(balance);
    const events = await client.getContractEvents({
      address: devnet.delegationEnvironment?.EntryPoint as Hex,
      abi: entryPoint07Abi,
      eventName: 'UserOperationEvent',
      args: { userOpHash: done.userOpHash as Hex },
      fromBlock: 0n,
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.args.sender).toBe(eoa.address);
    expect(events[0]?.args.success).toBe(true);
    // a second time: nothing to do
    const again = await domain.deleGators.planDeleGator(eoa.id, devnet.scope);
    expect(again.needs).toBe('nothing');
    expect(
      await domain.deleGators.ensureDeleGator(eoa.id, devnet.scope, again),
    ).toStrictEqual({ upgraded: false });
  });

  it('switches an EOA from Simple7702Account to the DeleGator with a new authorization, the account paying at most what the plan said', async () => {
    const domain = domains.selfPaid;
    const eoa = await newEoa(domain);
    await domain.upgrades.upgrade(eoa.id, devnet.scope);
    await waitFor(
      async () => (await codeOf(eoa.address)) !== '0x',
      'the Simple7702Account upgrade',
    );
    const plan = await domain.deleGators.planDeleGator(eoa.id, devnet.scope);
    expect(plan).toMatchObject({
      needs: 'switch',
      delegation: 'simple7702',
      payer: 'account',
    });
    expect(plan.upgrade?.paymaster).toBeNull();
    const cost = plan.upgrade?.maxCost as bigint;
    expect(cost).toBeGreaterThan(0n);
    const balance = await client.getBalance({ address: eoa.address });
    const done = await domain.deleGators.ensureDeleGator(
      eoa.id,
      devnet.scope,
      plan,
    );
    expect(done.upgraded).toBe(true);
    expect(await codeOf(eoa.address)).toBe(deleGatorCode());
    const spent = balance - (await client.getBalance({ address: eoa.address }));
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(cost);
  });

  it('a DeleGator EOA sends its own user operation on the DeleGator EntryPoint, signed as the kit signs it', async () => {
    const domain = domains.selfPaid;
    const eoa = await newEoa(domain);
    await domain.deleGators.ensureDeleGator(
      eoa.id,
      devnet.scope,
      await domain.deleGators.planDeleGator(eoa.id, devnet.scope),
    );
    const dead = await client.getBalance({ address: DEAD });
    const sent = await domain.upgrades.send(
      eoa.id,
      devnet.scope,
      [
        { to: DEAD, value: '0x1', data: '0x' },
        { to: DEAD, value: '0x2', data: '0x' },
      ],
      'test',
    );
    expect(sent.entryPoint).toBe(devnet.delegationEnvironment?.EntryPoint);
    const receipt = await bundlerReceipt(
      devnet.bundlerUrl,
      sent.userOpHash as Hex,
    );
    expect(receipt.success).toBe(true);
    expect(await client.getBalance({ address: DEAD })).toBe(dead + 3n);
    // the kit's own signature of the very operation Alto holds
    const held = await jsonRpc<any>(
      devnet.bundlerUrl,
      'eth_getUserOperationByHash',
      [sent.userOpHash],
    );
    const kit = await toMetaMaskSmartAccount({
      client,
      implementation: Implementation.Stateless7702,
      address: eoa.address,
      signer: { account: privateKeyToAccount(eoa.key) },
      environment: devnet.delegationEnvironment,
    });
    const op = held.userOperation;
    /**
     * A hex quantity of Alto's reply as a bigint.
     *
     * @param value - The quantity, if any.
     * @returns It, or undefined.
     */
    const big = (value?: Hex): bigint | undefined =>
      value === undefined || value === null ? undefined : BigInt(value);
    expect(
      await kit.signUserOperation({
        sender: op.sender,
        nonce: BigInt(op.nonce),
        callData: op.callData,
        callGasLimit: BigInt(op.callGasLimit),
        verificationGasLimit: BigInt(op.verificationGasLimit),
        preVerificationGas: BigInt(op.preVerificationGas),
        maxFeePerGas: BigInt(op.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(op.maxPriorityFeePerGas),
        ...(op.paymaster
          ? {
              paymaster: op.paymaster,
              paymasterData: op.paymasterData,
              paymasterVerificationGasLimit: big(
                op.paymasterVerificationGasLimit,
              ),
              paymasterPostOpGasLimit: big(op.paymasterPostOpGasLimit),
            }
          : {}),
        signature: '0x',
        chainId: devnet.chainId,
      } as never),
    ).toBe(op.signature);
  });

  it('signs a delegation the upgraded EOA accepts (ERC-1271), and refuses one without caveats or of another delegator', async () => {
    const domain = domains.sponsored;
    const eoa = await newEoa(domain);
    await domain.deleGators.ensureDeleGator(
      eoa.id,
      devnet.scope,
      await domain.deleGators.planDeleGator(eoa.id, devnet.scope),
    );
    const environment = devnet.delegationEnvironment as NonNullable<
      Devnet['delegationEnvironment']
    >;
    const delegation = {
      delegate: privateKeyToAddress(generatePrivateKey()),
      delegator: eoa.address,
      authority: ROOT_AUTHORITY,
      caveats: [
        {
          enforcer: environment.caveatEnforcers.TimestampEnforcer,
          terms: `0x${'0'.repeat(64)}` as const,
        },
      ],
      salt: 7n,
    };
    const signature = await domain.deleGators.signDelegation(
      eoa.id,
      devnet.scope,
      delegation,
    );
    const typed = {
      domain: {
        name: 'DelegationManager',
        version: '1',
        chainId: devnet.chainId,
        verifyingContract: environment.DelegationManager,
      },
      types: DELEGATION_TYPES,
      primaryType: 'Delegation',
      message: delegation,
    } as const;
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(
      eoa.address,
    );
    const magic = await client.readContract({
      address: eoa.address,
      abi: parseAbi([
        'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
      ]),
      functionName: 'isValidSignature',
      args: [hashTypedData(typed), signature],
    });
    expect(magic).toBe('0x1626ba7e');
    await expect(
      domain.deleGators.signDelegation(eoa.id, devnet.scope, {
        ...delegation,
        caveats: [],
      }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      domain.deleGators.signDelegation(eoa.id, devnet.scope, {
        ...delegation,
        delegator: DEAD,
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses a SimpleAccount smart account as a delegator, clearly, before anything is read or signed', async () => {
    const domain = domains.selfPaid;
    const smart = await domain.keyring.createAccount({
      type: 'eip155:erc4337',
      scopes: [devnet.scope],
    });
    await expect(
      domain.deleGators.deleGatorStatus(smart.id, devnet.scope),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/smart account cannot grant/u),
    });
  });

  /**
   * Wait, bounded to 60 s, until `done()` holds (polled every 200 ms).
   *
   * @param done - The condition.
   * @param what - What is awaited, for the error.
   */
  async function waitFor(
    done: () => Promise<boolean>,
    what: string,
  ): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      if (await done()) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`not after 60 s: ${what}`);
  }
});
