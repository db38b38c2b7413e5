import { getAddress, isAddress } from 'viem';

import type { AccountSummary } from '../keyring/types';
import { displayText } from '../utils/safeText';

/**
 * How the page names an account in a button or a message: its name, shown safely (control and
 * bidirectional characters replaced by U+FFFD, so a name holding U+202E cannot pose as another),
 * or, for an unnamed account, its short address (`0x1234…abcd`).
 *
 * @param name - The account's name (may be empty).
 * @param address - Its 0x-prefixed address.
 * @returns The label.
 */
export function accountLabel(
  name: string | undefined,
  address: string,
): string {
  return name && name.trim() !== ''
    ? displayText(name)
    : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * How a notice names the site a request came from: the host of an `https://` origin
 * (`dapp.example`), `MetaMask` for MetaMask's own, else the origin as given (cleaned).
 *
 * @param origin - The request's origin (keyring-api `KeyringRequest.origin`).
 * @returns The site's name for a notice.
 */
export function siteLabel(origin: string): string {
  if (origin === 'metamask') {
    return 'MetaMask';
  }
  try {
    const { host } = new URL(origin);
    return host === '' ? displayText(origin) : displayText(host);
  } catch {
    return displayText(origin);
  }
}

/**
 * How the page names an address it shows as a recipient or a sender: one of the snap's accounts by
 * its name and full address (`Bob (0x…)`), any other by its full address (EIP-55 checksummed when
 * it is an address). Never shortened: a look-alike address must not pass for a known one.
 *
 * @param accounts - The snap's accounts (their names).
 * @param address - The address (any case).
 * @returns The label.
 */
export function addressLabel(
  accounts: readonly AccountSummary[],
  address: string,
): string {
  const own = accounts.find(
    (summary) =>
      summary.account.address.toLowerCase() === address.toLowerCase(),
  );
  const full = isAddress(address, { strict: false })
    ? getAddress(address)
    : displayText(address);
  return own ? `${accountLabel(own.name, full)} (${full})` : full;
}
