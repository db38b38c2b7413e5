import {
  Banner,
  Box,
  Divider,
  Heading,
  // eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
  Text,
} from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

import { AccountCard } from './AccountCard';
import { Chains } from './Chains';
import { CreateAccount } from './CreateAccount';
import { Ipfs } from './Ipfs';
import { RecoverySection } from './Recovery';
import { Approval, requestCount, Requests } from './Requests';
import type { HomeModel } from '../homeModel';

/** The notice banner's title by the notice's severity (`info`: a dialog was declined). */
const NOTICE_TITLE = {
  success: 'Done',
  danger: 'Not done',
  info: 'Not done',
} as const;

/**
 * The home page (snaps `endowment:page-home`), in this order: the heading (with how many requests
 * wait), the last action's notice (its title says when it came: two identical notices differ), the waiting requests when any wait, accounts, finding and
 * restoring accounts, account creation and import, chain and IPFS settings, and the approval mode. Pure: renders `model`, reads
 * nothing. No private key, API key or secret is ever in it (URLs are shown masked).
 *
 * @param model - What to show.
 * @returns The page's JSX element.
 */
export function renderHome(model: HomeModel): JSXElement {
  const waiting = model.requests.length;
  return (
    <Box>
      <Heading size="lg">
        {waiting > 0
          ? `Tandem Keyring — ${requestCount(waiting)} waiting`
          : 'Tandem Keyring'}
      </Heading>
      {model.notice ? (
        <Banner
          title={`${NOTICE_TITLE[model.notice.severity]}${model.notice.at ? ` at ${model.notice.at}` : ''}`}
          severity={model.notice.severity}
        >
          <Text>{model.notice.text}</Text>
        </Banner>
      ) : null}
      {waiting > 0 ? <Requests model={model} /> : null}
      {waiting > 0 ? <Divider /> : null}
      <Heading>Accounts</Heading>
      {model.accounts.length === 0 ? (
        <Text>
          No account yet. This snap keeps Ethereum accounts whose keys stay
          inside it, for MetaMask to sign with: start by creating an account
          below, or import a key.
        </Text>
      ) : null}
      {model.accounts.map((summary) => (
        <AccountCard key={summary.account.id} summary={summary} model={model} />
      ))}
      <Divider />
      <CreateAccount model={model} />
      <Divider />
      <RecoverySection model={model} />
      <Divider />
      <Chains model={model} />
      <Divider />
      <Ipfs model={model} />
      <Divider />
      <Approval model={model} />
    </Box>
  );
}
