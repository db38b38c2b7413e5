/**
 * The companion site: account management (create, import, rename, export, delete, Find my
 * accounts), chains, the IPFS server and approvals in async mode, through wallet_invokeKeyring and
 * wallet_invokeSnap. No framework and no build step.
 */
import {
  byId,
  connectSnap,
  invokeKeyring,
  invokeSnap,
  onClick,
  say,
  SNAP_ID,
} from './common.js';

const KINDS = { 'eip155:eoa': 'Regular', 'eip155:erc4337': 'Smart account' };

/** What a waiting request asks, in words. */
const ASKS = {
  personal_sign: 'Sign a message',
  eth_signTransaction: 'Sign a transaction',
  eth_signTypedData_v1: 'Sign structured data',
  eth_signTypedData_v3: 'Sign structured data',
  eth_signTypedData_v4: 'Sign structured data',
  eth_signUserOperation: 'Sign a smart-account operation',
  eth_prepareUserOperation: 'Prepare a smart-account operation',
  eth_patchUserOperation: 'Prepare a smart-account operation',
};

/** The addresses of the accounts last shown, by account id. */
const addresses = new Map();

/**
 * A table cell holding `text`.
 *
 * @param {string} text - Its text.
 * @returns {any} The cell.
 */
function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/**
 * A button that runs `work`, showing a failure.
 *
 * @param {string} id - Its id (how tests and people find it).
 * @param {string} text - Its label.
 * @param {() => Promise<void>} work - What it does.
 * @returns {any} The button.
 */
function button(id, text, work) {
  const element = document.createElement('button');
  element.id = id;
  element.textContent = text;
  element.addEventListener('click', () => {
    work().catch(say);
  });
  return element;
}

/** Show the snap's accounts, each with its rename, export and delete buttons. */
async function showAccounts() {
  const accounts = await invokeKeyring('keyring_listAccounts');
  accounts.forEach((account) => addresses.set(account.id, account.address));
  byId('accounts').replaceChildren(
    ...accounts.map((account) => {
      const row = document.createElement('tr');
      row.dataset.address = account.address;
      const actions = document.createElement('td');
      actions.append(
        button(`rename:${account.id}`, 'Rename', async () => {
          const name = field('rename-name');
          if (name) {
            await invokeKeyring('keyring_updateAccount', {
              account: { ...account, options: { ...account.options, name } },
            });
            say('Account renamed.');
            await showAccounts();
          }
        }),
        button(`export:${account.id}`, 'Show private key', async () => {
          const { privateKey } = await invokeKeyring('keyring_exportAccount', {
            id: account.id,
          });
          byId('secret').hidden = false;
          byId('secret').textContent =
            `Private key (never share it): ${privateKey}`;
        }),
        button(`delete:${account.id}`, 'Remove', async () => {
          await invokeKeyring('keyring_deleteAccount', { id: account.id });
          say('Account removed.');
          await showAccounts();
        }),
      );
      row.append(
        cell(String(account.options?.name ?? '')),
        cell(account.address),
        cell(KINDS[account.type] ?? account.type),
        actions,
      );
      return row;
    }),
  );
}

/** Show the configured chains. */
async function showChains() {
  const chains = await invokeSnap('getChainConfigs');
  byId('chains').replaceChildren(
    ...Object.values(chains).map((chain) => {
      const item = document.createElement('li');
      item.textContent = `${chain.scope}: node ${chain.rpcUrl}${
        chain.bundlerUrl ? `, bundler ${chain.bundlerUrl}` : ''
      }`;
      return item;
    }),
  );
}

/** Show the requests waiting for approval (async mode), each with approve and reject. */
async function showRequests() {
  const { mode } = await invokeSnap('getApprovalMode');
  byId('mode').value = mode;
  const requests = await invokeKeyring('keyring_listRequests');
  const wanted = /^#\/requests\/(.+)$/u.exec(window.location.hash)?.[1];
  byId('requests').replaceChildren(
    ...requests
      .sort((a, b) => Number(b.id === wanted) - Number(a.id === wanted))
      .map((request) => {
        const row = document.createElement('tr');
        const actions = document.createElement('td');
        actions.append(
          button(`approve:${request.id}`, 'Approve', async () => {
            await invokeKeyring('keyring_approveRequest', { id: request.id });
            say('Approved.');
            await showRequests();
          }),
          button(`reject:${request.id}`, 'Reject', async () => {
            await invokeKeyring('keyring_rejectRequest', { id: request.id });
            say('Rejected.');
            await showRequests();
          }),
        );
        row.append(
          cell(request.origin),
          cell(ASKS[request.request.method] ?? 'Sign'),
          cell(addresses.get(request.account) ?? request.account),
          actions,
        );
        return row;
      }),
  );
}

/**
 * The value of a text field, or undefined when it is empty.
 *
 * @param {string} id - The field.
 * @returns {string | undefined} Its trimmed value.
 */
function field(id) {
  const value = byId(id).value.trim();
  return value === '' ? undefined : value;
}

onClick('connect', async () => {
  await connectSnap();
  byId('connected').textContent = `Connected to ${SNAP_ID}`;
  await Promise.all([showAccounts(), showChains(), showRequests()]);
  say('Connected.');
});

onClick('create', async () => {
  const smart = byId('create-type').value === 'eip155:erc4337';
  const options = {
    type: byId('create-type').value,
    ...(smart ? { entryPointVersion: byId('create-version').value } : {}),
    ...(field('create-name') ? { name: field('create-name') } : {}),
  };
  const account = await invokeKeyring('keyring_createAccount', { options });
  say(`Account created: ${account.address}`);
  await showAccounts();
});

onClick('import', async () => {
  const privateKey = field('import-key');
  byId('import-key').value = '';
  const account = await invokeKeyring('keyring_createAccount', {
    options: { privateKey },
  });
  say(`Account imported: ${account.address}`);
  await showAccounts();
});

onClick('find', async () => {
  const report = await invokeSnap('findAccounts');
  byId('found').textContent = `Added ${report.added?.length ?? 0} account(s).`;
  await showAccounts();
});

onClick('chain-save', async () => {
  const config = Object.fromEntries(
    [
      ['scope', 'chain-scope'],
      ['rpcUrl', 'chain-rpc'],
      ['bundlerUrl', 'chain-bundler'],
      ['paymasterUrl', 'chain-paymaster'],
      ['entryPoint', 'chain-entrypoint'],
      ['accountFactory', 'chain-factory'],
    ]
      .map(([name, id]) => [name, field(id)])
      .filter(([, value]) => value !== undefined),
  );
  await invokeSnap('setChainConfig', config);
  say(`Chain ${config.scope} saved.`);
  await showChains();
});

onClick('ipfs-save', async () => {
  const config = {
    apiUrl: field('ipfs-url'),
    ...(field('ipfs-key') ? { apiKey: field('ipfs-key') } : {}),
    ...(field('ipfs-secret') ? { apiKeySecret: field('ipfs-secret') } : {}),
  };
  await invokeSnap('setIpfsConfig', config);
  say('IPFS server saved.');
});

onClick('mode-save', async () => {
  await invokeSnap('setApprovalMode', { mode: byId('mode').value });
  say('Saved.');
});

onClick('requests-refresh', showRequests);
