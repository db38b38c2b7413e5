/**
 * The home page's list of spending permissions (ERC-7715 grants to sites) through the built snap,
 * with MetaMask's Smart Accounts Kit as the dapp side: a site is granted a native-token periodic
 * permission (its dialog approved), the session key spends part of it with the kit's
 * `sendTransactionWithDelegation`, and the page shows the site, the session account in full, the
 * limit and period in words, what is left in this period (the same figure the kit reads from the
 * NativeTokenPeriodTransferEnforcer), and the state. *Revoke* on the page (its send confirmation
 * approved) disables the delegation on chain: checked with viem on the DelegationManager's
 * `disabledDelegations`, and by the session key's next redemption being refused.
 */
import { getNativeTokenPeriodTransferEnforcerAvailableAmount } from '@metamask/smart-accounts-kit/actions';
import {
  decodeDelegations,
  hashDelegation,
  overrideDeployedEnvironment,
} from '@metamask/smart-accounts-kit/utils';
import type { Json } from '@metamask/utils';
import {
  createPublicClient,
  formatEther,
  http,
  numberToHex,
  parseAbi,
  parseEther,
  toFunctionSelector,
} from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { dialogOf, installKeyringSnap } from './harness';
import type { KeyringHarness } from './harness';
import {
  cardOf,
  elementNames,
  noticeText,
  openHomePage,
  pagesDuring,
  rowText,
  walk,
} from './homePage';
import type { HomePageUi } from './homePage';
import { startDevnet } from '../../devnet/devnet';
import type { Devnet } from '../../devnet/devnet';
import { devnetChain } from '../../devnet/erc4337';
import { jsonRpc } from '../../devnet/json-rpc';
import { kitOverSnap, redeem } from '../../devnet/permissions';

jest.setTimeout(240_000);

const SITE = 'https://dapp.example';
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF';
const LIMIT = parseEther('0.5');
const SPENT = parseEther('0.2');

const MANAGER_ABI = parseAbi([
  'function disabledDelegations(bytes32 delegationHash) view returns (bool)',
]);

/** The grant as the site received it. */
type Granted = {
  /** The permission context (the encoded delegation). */
  context: Hex;
  /** The DelegationManager that redeems it. */
  delegationManager: Address;
};

describe('home page: a site’s spending permission, what is left of it, and Revoke', () => {
  let devnet: Devnet;
  let client: PublicClient;
  let harness: KeyringHarness;
  let eoa: Address;
  let permission: Granted;
  let hash: Hex;
  const sessionKey = generatePrivateKey();
  const session = privateKeyToAccount(sessionKey).address;

  /** The dapp's kit: each call sent to the snap as the site; the grant's dialog approved. */
  const kit = kitOverSnap(async (method, params) => {
    const pending = harness.snap.request({
      origin: SITE,
      method,
      params: params as Json[],
    });
    await (await dialogOf(pending))?.ok();
    const { response } = (await pending) as {
      response: { result?: Json; error?: { message: string; code: number } };
    };
    if (response.error) {
      throw Object.assign(new Error(response.error.message), {
        code: response.error.code,
      });
    }
    return response.result;
  });

  beforeAll(async () => {
    devnet = await startDevnet({ delegation: true });
    client = createPublicClient({
      chain: devnetChain(devnet.chainId, devnet.rpcUrl),
      transport: http(devnet.rpcUrl),
    });
    overrideDeployedEnvironment(
      devnet.chainId,
      '1.3.0',
      devnet.delegationEnvironment as never,
    );
    harness = await installKeyringSnap();
    const { paymasterUrl: _sponsor, ...selfPaid } = devnet.chainConfig;
    await harness.rpcApproved('setChainConfig', {
      ...selfPaid,
      delegationEnvironment: devnet.delegationEnvironment as unknown as Json,
    });
    eoa = (await harness.createAccount({})).address as Address;
    for (const address of [eoa, session]) {
      await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [
        address,
        numberToHex(parseEther('10')),
      ]);
    }
    const block = await client.getBlock();
    const [granted] = await kit.requestExecutionPermissions([
      {
        chainId: devnet.chainId,
        from: eoa,
        to: session,
        expiry: Number(block.timestamp) + 86_400,
        permission: {
          type: 'native-token-periodic',
          isAdjustmentAllowed: false,
          data: {
            periodAmount: LIMIT,
            periodDuration: 3600,
            justification: 'Top up your game credits',
          },
        },
      },
    ]);
    permission = granted;
    const [delegation] = decodeDelegations(permission.context);
    hash = hashDelegation(delegation);
    const spent = await redeem(
      devnet.rpcUrl,
      sessionKey,
      { to: RECIPIENT, value: SPENT },
      permission,
    );
    if (spent !== 'success') {
      throw new Error(`the session key could not spend: ${spent}`);
    }
  });

  afterAll(async () => {
    await devnet?.stop();
  });

  /**
   * The account's card on the page (the grants are listed in it).
   *
   * @param ui - The page.
   * @returns The card.
   */
  const card = (ui: HomePageUi): any => {
    const found = cardOf(ui, eoa);
    expect(found).toBeDefined();
    return found;
  };

  /**
   * What the enforcer itself says is left in this period, read with the kit (not through the snap).
   *
   * @returns Wei.
   */
  async function enforcerLeft(): Promise<bigint> {
    const [delegation] = decodeDelegations(permission.context);
    const { availableAmount } =
      await getNativeTokenPeriodTransferEnforcerAvailableAmount(
        client,
        devnet.delegationEnvironment as never,
        { delegation },
      );
    return availableAmount;
  }

  it('shows the site, the session account in full, the limit and period, what the enforcer says is left, and Active', async () => {
    const left = await enforcerLeft();
    expect(left).toBe(LIMIT - SPENT);
    const grant = card(await openHomePage(harness));
    expect(rowText(grant, 'Site')).toBe(SITE);
    const who = [...walk(grant)].find(
      (node) => node.type === 'Row' && node.props?.label === 'Who may spend',
    );
    const shown = [...walk(who)].find((node) => node.type === 'Address');
    expect(shown?.props).toMatchObject({ address: session, truncate: false });
    expect(rowText(grant, 'Limit')).toBe(
      'up to 0.5 ETH every hour on Local chain (31337)',
    );
    expect(rowText(grant, 'Left now')).toBe(`${formatEther(left)} ETH`);
    expect(rowText(grant, 'Until')).toMatch(/UTC/u);
    expect(rowText(grant, 'State')).toBe('Active');
    expect(elementNames(grant)).toContain(`grant-revoke:${hash}`);
    // not disabled on chain yet
    expect(
      await client.readContract({
        address: permission.delegationManager,
        abi: MANAGER_ABI,
        functionName: 'disabledDelegations',
        args: [hash],
      }),
    ).toBe(false);
  });

  it('revoke (its confirmation approved) disables the delegation on chain, the page says revoked, and the session key is refused', async () => {
    const ui = await openHomePage(harness);
    const dialogsBefore = harness.dialogs.length;
    harness.answerDialogs(true);
    const pages = await pagesDuring(ui, async (current) =>
      current.clickElement(`grant-revoke:${hash}`),
    );
    const after = pages.at(-1) as HomePageUi;
    // the send confirmation was shown (and approved) before anything was sent
    expect(harness.dialogs.length).toBeGreaterThan(dialogsBefore);
    expect(noticeText(after)).toMatch(/revoked/iu);
    expect(
      await client.readContract({
        address: permission.delegationManager,
        abi: MANAGER_ABI,
        functionName: 'disabledDelegations',
        args: [hash],
      }),
    ).toBe(true);
    // the page as re-rendered, and afresh: Revoked, nothing left to spend, no Revoke
    for (const page of [after, await openHomePage(harness)]) {
      const grant = card(page);
      expect(rowText(grant, 'Site')).toBe(SITE);
      expect(rowText(grant, 'State')).toBe('Revoked');
      expect(rowText(grant, 'Left now')).toBeUndefined();
      expect(elementNames(grant)).not.toContain(`grant-revoke:${hash}`);
    }
    expect(
      await redeem(
        devnet.rpcUrl,
        sessionKey,
        { to: RECIPIENT, value: 1n },
        permission,
      ),
    ).toMatch(toFunctionSelector('CannotUseADisabledDelegation()'));
  });
});
