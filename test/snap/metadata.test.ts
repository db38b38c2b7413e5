/**
 * Accounts created from IPFS-hosted metadata, end to end through the built snap: the embedded
 * IPFS node (helia behind the HTTP API fixture) serves the document; the snap fetches it through
 * its own client, verifies it against the CID, validates the schema and applies it.
 */
import {
  COMPANION,
  dialogOf,
  dialogText,
  installKeyringSnap,
  rejection,
} from './harness';
import type { KeyringHarness } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';
import { deployErc4337 } from '../../devnet/erc4337';
import type { Erc4337Deployment } from '../../devnet/erc4337';
import { addJson, startIpfsNode } from '../../devnet/ipfs-node';
import type { IpfsNode } from '../../devnet/ipfs-node';

const API_KEY = 'ipfs-key-3f9a';
const API_SECRET = 'ipfs-secret-71c0e2';

describe('account metadata on IPFS through the built snap', () => {
  let ipfs: IpfsNode;
  let anvil: Anvil;
  let contracts: Erc4337Deployment;
  let harness: KeyringHarness;

  beforeAll(async () => {
    ipfs = await startIpfsNode({ apiKey: API_KEY, apiKeySecret: API_SECRET });
    anvil = await startAnvil();
    contracts = await deployErc4337(anvil.url);
    harness = await installKeyringSnap();
  });

  afterAll(async () => {
    await ipfs?.close();
    await anvil?.stop();
  });

  it('needs an IPFS config first', async () => {
    const cid = await addJson(ipfs, { version: 1, name: 'Early' });
    expect(
      (await rejection(harness.createAccount({ metadataCid: cid }))).message,
    ).toMatch(/No IPFS API is configured/u);
  });

  it('setIpfsConfig keeps the credentials secret', async () => {
    const reply = await harness.rpcApproved('setIpfsConfig', {
      apiUrl: ipfs.apiUrl,
      apiKey: API_KEY,
      apiKeySecret: API_SECRET,
    });
    expect(reply).toEqual({ apiUrl: ipfs.apiUrl });
  });

  it.each(['v0', 'v1-raw'] as const)(
    'creates an EOA named by its metadata (CID %s) and keeps the CID in its options',
    async (variant) => {
      const cid = await addJson(
        ipfs,
        { version: 1, name: `Savings ${variant}` },
        variant,
      );
      const account = await harness.createAccount({ metadataCid: cid });
      expect(account.options.metadataCid).toBe(cid);
      expect(harness.events.at(-1)).toEqual({
        method: 'notify:accountCreated',
        params: { account, accountNameSuggestion: `Savings ${variant}` },
      });
    },
  );

  it('applies per-chain ERC-4337 settings to a smart account: its bundler URL wins over the chain config', async () => {
    const scope = `eip155:${anvil.chainId}`;
    await harness.rpcApproved('setChainConfig', {
      scope,
      rpcUrl: anvil.url,
      entryPoint: contracts.entryPoint,
      accountFactory: contracts.accountFactory,
      bundlerUrl: 'http://127.0.0.1:1/chain-bundler',
    });
    const cid = await addJson(ipfs, {
      version: 1,
      name: 'Vault',
      chains: {
        [scope]: {
          bundlerUrl: 'https://bundler.invalid/v1/my-bundler-key',
          accountFactory: contracts.accountFactory,
        },
      },
    });
    const creating = harness.snap.onKeyringRequest({
      origin: COMPANION,
      method: 'keyring_createAccount',
      params: {
        options: { type: 'eip155:erc4337', scopes: [scope], metadataCid: cid },
      },
    });
    // a bundler named by metadata receives the account's operations: the user confirms it
    const dialog = await dialogOf(creating);
    expect(dialog?.type).toBe('confirmation');
    const text = dialogText(dialog as NonNullable<typeof dialog>);
    expect(text).toContain('https://bundler.invalid/***');
    expect(text).not.toContain('my-bundler-key');
    expect(text).toContain(`${COMPANION} asks to create this smart account`);
    await dialog?.ok();
    const account = ((await creating).response as any).result;
    expect(harness.events.at(-1)?.params.accountNameSuggestion).toBe('Vault');
    const prepared = (
      await harness.submit(
        account,
        'eth_prepareUserOperation',
        [{ to: account.address, value: '0x0', data: '0x' }],
        scope,
      )
    ).result;
    expect(prepared.bundlerUrl).toBe(
      'https://bundler.invalid/v1/my-bundler-key',
    );
  });

  describe('bad metadata creates no account and names what failed', () => {
    let before: string;

    beforeEach(async () => {
      before = JSON.stringify([
        await harness.keyring('keyring_listAccounts'),
        harness.events.length,
      ]);
    });

    /** The accounts and the events are as they were before the test. */
    async function expectNothingCreated(): Promise<void> {
      expect(
        JSON.stringify([
          await harness.keyring('keyring_listAccounts'),
          harness.events.length,
        ]),
      ).toBe(before);
    }

    afterEach(async () => {
      await expectNothingCreated();
    });

    it('an invalid CID', async () => {
      expect(
        (await rejection(harness.createAccount({ metadataCid: 'not-a-cid' })))
          .message,
      ).toMatch(
        /^Invalid createAccount options at metadataCid: expected a CID/u,
      );
    });

    it('a document that violates the schema (an RPC URL)', async () => {
      const cid = await addJson(ipfs, {
        version: 1,
        name: 'Sneaky',
        chains: { 'eip155:1': { rpcUrl: 'https://evil.example' } },
      });
      expect(
        (await rejection(harness.createAccount({ metadataCid: cid }))).message,
      ).toMatch(/chains\.eip155:1\.rpcUrl: unknown field/u);
    });

    it('a loopback bundler URL (never from metadata)', async () => {
      const cid = await addJson(ipfs, {
        version: 1,
        name: 'Local',
        chains: { 'eip155:1': { bundlerUrl: 'http://127.0.0.1:4337/rpc' } },
      });
      const error = await rejection(
        harness.createAccount({ type: 'eip155:erc4337', metadataCid: cid }),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(
        /chains\.eip155:1\.bundlerUrl: a loopback URL/u,
      );
    });

    it('a document that is not JSON', async () => {
      const cid = await ipfs.add('name: not json');
      const error = await rejection(
        harness.createAccount({ metadataCid: cid }),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(
        new RegExp(`Account metadata ${cid}: .*JSON`, 'u'),
      );
    });

    it('content the node tampered with (ContentVerificationError)', async () => {
      const cid = await addJson(ipfs, { version: 1, name: 'Honest' }, 'v1-raw');
      await ipfs.tamper(
        cid,
        new TextEncoder().encode(
          JSON.stringify({ version: 1, name: 'Forged' }),
        ),
      );
      try {
        expect(
          (await rejection(harness.createAccount({ metadataCid: cid })))
            .message,
        ).toMatch(/does not match|verif/iu);
      } finally {
        await ipfs.tamper(cid, null);
      }
    });

    it('a wrong API secret (HTTP 403), never echoed', async () => {
      const cid = await addJson(ipfs, { version: 1, name: 'Locked' });
      await harness.rpcApproved('setIpfsConfig', {
        apiUrl: ipfs.apiUrl,
        apiKey: API_KEY,
        apiKeySecret: 'wrong-password',
      });
      try {
        const error = await rejection(
          harness.createAccount({ metadataCid: cid }),
        );
        expect(error.message).toMatch(/403/u);
        expect(error.message).not.toMatch(/wrong-password|ipfs-key/u);
      } finally {
        await harness.rpcApproved('setIpfsConfig', {
          apiUrl: ipfs.apiUrl,
          apiKey: API_KEY,
          apiKeySecret: API_SECRET,
        });
      }
    });
  });
});
