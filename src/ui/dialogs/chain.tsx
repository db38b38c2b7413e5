// eslint-disable-next-line @typescript-eslint/no-shadow -- snaps-sdk's component name; the DOM Text global is not used in a snap
import { Box, Heading, Text } from '@metamask/snaps-sdk/jsx';
import type { JSXElement } from '@metamask/snaps-sdk/jsx';

/**
 * The confirmation dialog for removing a chain config (content of a `snap_dialog` of type
 * `confirmation`, shown from the home page), naming the smart accounts on that chain.
 *
 * @param chain - The chain as the page names it (`Local chain (31337)`).
 * @param smartAccounts - Addresses of the smart accounts whose scopes include it.
 * @returns A snaps-sdk JSX element.
 */
export function removeChainDialog(
  chain: string,
  smartAccounts: string[],
): JSXElement {
  return (
    <Box>
      <Heading>Remove chain</Heading>
      <Text>
        {`Remove the settings of ${chain} (RPC URL, EntryPoint, factory, bundler and paymaster)? Nothing is sent on this chain until it is added again.`}
      </Text>
      {smartAccounts.length > 0 ? (
        <Text>
          {`Smart accounts on this chain: ${smartAccounts.join(', ')}. They keep their address; sending from them on ${chain} needs the chain added again.`}
        </Text>
      ) : (
        <Text>No smart account uses this chain.</Text>
      )}
    </Box>
  );
}
