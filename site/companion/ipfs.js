/**
 * The companion's "IPFS" section: the IPFS server a smart account's settings (a metadata CID) are
 * read from. The key and secret are kept by the snap and never shown again.
 */
import { invokeSnap } from '../common.js';
import { field, form, section, inputValue } from '../ui.js';

/** The form's inputs by the snap's field names. */
const FIELDS = {
  apiUrl: 'ipfs-url',
  apiKey: 'ipfs-key',
  apiKeySecret: 'ipfs-secret',
};

/**
 * The section.
 *
 * @param {any} page - The page.
 * @returns {{ element: any }} The section.
 */
export default function ipfs(page) {
  const save = form({
    id: 'ipfs',
    submit: 'Save IPFS server',
    fields: FIELDS,
    busy: 'Confirm in MetaMask…',
    children: [
      field(FIELDS.apiUrl, "IPFS server's address", {
        placeholder: 'https://…',
        autocomplete: 'off',
      }),
      field(FIELDS.apiKey, 'Key (optional)', { autocomplete: 'off' }),
      field(FIELDS.apiKeySecret, 'Secret (optional)', {
        type: 'password',
        autocomplete: 'off',
      }),
    ],
    run: async () => {
      const config = {
        apiUrl: inputValue(FIELDS.apiUrl, [
          'apiUrl',
          "Enter the IPFS server's address",
        ]),
      };
      for (const name of ['apiKey', 'apiKeySecret']) {
        const value = inputValue(FIELDS[name]);
        if (value !== undefined) {
          config[name] = value;
        }
      }
      await page.ensureConnected();
      await invokeSnap('setIpfsConfig', config);
      return 'Saved the IPFS server.';
    },
  });
  const element = section(
    'ipfs-section',
    'IPFS',
    'Only for smart accounts made from published settings (a metadata CID): where the snap reads them. Its key and secret stay in the snap.',
  );
  element.append(save);
  return { element };
}
