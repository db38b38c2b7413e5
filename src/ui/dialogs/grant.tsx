import {
  Banner,
  Box,
  Heading,
  Section,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import { limitWords, timeWords } from './grantWords';
import type { NativeFormatter } from './grantWords';
import { ConfirmationLine } from './sendConfirmation';
import type { ConfirmationRow } from './sendConfirmationRows';
import type { GrantReview } from '../../sites/permissions/types';
import { displayText } from '../../utils/safeText';

/**
 * The dialog of `wallet_requestExecutionPermissions` (content of a `snap_dialog` of type
 * `confirmation`), before anything is signed: the site, the account, the chain, the session account
 * in full, what it may spend in words and from when until when, the site's justification marked as
 * its own words, and, when the account is not yet MetaMask's DeleGator on that chain, that approving
 * also upgrades (or switches) it and who pays.
 */

/** The dialog's parts (pure: built by grantRows, rendered by grantDialog). */
export type GrantRows = {
  /** The heading. */
  title: string;
  /** One sentence: who asks what. */
  intro: string;
  /** Site, account, chain, session account, limit, start, expiry. */
  rows: ConfirmationRow[];
  /** The site's own words, quoted, when it gave any. */
  justification?: string;
  /** What approving also does to the account, when it is not a DeleGator yet. */
  upgrade?: string;
};

/**
 * The dialog's parts.
 *
 * @param review - What the grant flow prepared.
 * @param chain - The chain as a person knows it (`Local chain (31337)`).
 * @param native - Writes an amount of the chain's native currency.
 * @returns The title, sentence, rows, justification and upgrade note.
 */
export function grantRows(
  review: GrantReview,
  chain: string,
  native: NativeFormatter,
): GrantRows {
  const { account, terms, token, now } = review;
  const origin = displayText(review.origin);
  const accountName = account.name ? displayText(account.name) : undefined;
  const limit = limitWords(terms, native, token);
  const rows: ConfirmationRow[] = [
    { label: 'Site', text: origin },
    ...(accountName ? [{ label: 'Account', text: accountName }] : []),
    { label: accountName ? 'Address' : 'Account', address: account.address },
    { label: 'Chain', text: chain },
    { label: 'Who may spend (session account)', address: review.delegate },
    { label: 'What it may spend', text: limit },
    ...(token
      ? [
          {
            label: 'Token',
            text: `${token.symbol === '' ? 'A token without a symbol' : displayText(token.symbol)} (${token.decimals} decimals)`,
          },
          { label: 'Token contract', address: token.address },
        ]
      : []),
    { label: 'From', text: timeWords(terms.startTime, now) },
    { label: 'Until', text: timeWords(review.expiry, now) },
  ];
  const { deleGator } = review;
  return {
    title: 'Allow a site to spend from your account',
    intro: `${origin} asks that the session account below may spend ${limit} from ${accountName ?? 'your account'} on ${chain}, from ${timeWords(terms.startTime, now)} until ${timeWords(review.expiry, now)}, without asking you each time. You can revoke it on this snap's home page.`,
    rows,
    ...(review.justification
      ? { justification: `“${displayText(review.justification)}”` }
      : {}),
    ...(deleGator.ready
      ? {}
      : {
          upgrade: `${deleGator.change === 'upgrade' ? 'Approving also upgrades this account' : 'Approving also switches this account from the smart-account code it runs now'} to MetaMask's smart account (EIP7702StatelessDeleGatorImpl, EIP-7702) on ${chain}, at the same address and with the same key: only such an account can grant this permission. It is one user operation, sent before the permission is signed: ${deleGator.sponsored ? "the chain's paymaster service pays its gas, so it costs you nothing" : `this account pays its gas itself, at most ${native(deleGator.maxCost)}`}.`,
        }),
  };
}

/**
 * The dialog's content.
 *
 * @param review - What the grant flow prepared.
 * @param chain - The chain as a person knows it.
 * @param native - Writes an amount of the chain's native currency.
 * @returns A snaps-sdk JSX element.
 */
export function grantDialog(
  review: GrantReview,
  chain: string,
  native: NativeFormatter,
): JSXElement {
  const { title, intro, rows, justification, upgrade } = grantRows(
    review,
    chain,
    native,
  );
  return (
    <Box>
      <Heading>{title}</Heading>
      <Text>{intro}</Text>
      <Section>
        {rows.map((row) => (
          <ConfirmationLine {...row} />
        ))}
      </Section>
      {justification ? (
        <Section>
          <Text color="muted">The site's reason, in its own words:</Text>
          <Text>{justification}</Text>
        </Section>
      ) : null}
      {upgrade ? (
        <Banner title="This also upgrades your account" severity="warning">
          <Text>{upgrade}</Text>
        </Banner>
      ) : null}
    </Box>
  ) as JSXElement;
}
