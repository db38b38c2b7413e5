import { getAddress } from 'viem';
import type { Hex } from 'viem';

import { grantStatus, grantTerms } from './grantRecords';
import type { GrantView } from './types';
import { readGrantsOnChain } from '../../accounts/delegation/grantReads';
import type { GrantProbe } from '../../accounts/delegation/grantReads';
import type { PermissionGrant } from '../../state/grants';

/**
 * The home page's view of the grants: each account's, with what is left now and its state, read
 * from the chain in one round trip per chain (the enforcers' views and the DelegationManager's
 * `disabledDelegations`). A chain that does not answer leaves "what is left" unknown; the state then
 * comes from the snap's own record and the wall clock.
 *
 * @param grants - The stored grants.
 * @param rpcUrl - A chain's RPC URL, when configured.
 * @param clock - Unix seconds now, for a chain that does not answer.
 * @returns The views by account id, newest first.
 */
export async function readGrantViews(
  grants: readonly PermissionGrant[],
  rpcUrl: (scope: string) => string | undefined,
  clock: number,
): Promise<Record<string, GrantView[]>> {
  const groups = new Map<string, PermissionGrant[]>();
  for (const grant of grants) {
    const key = `${grant.scope} ${grant.delegationManager}`;
    groups.set(key, [...(groups.get(key) ?? []), grant]);
  }
  const views = (
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const [first] = group as [PermissionGrant];
        const url = rpcUrl(first.scope);
        const read = url
          ? await readGrantsOnChain(
              url,
              first.delegationManager as Hex,
              group.map(probeOf),
            ).catch(() => undefined)
          : undefined;
        const now = read?.now ?? clock;
        return group.map((grant, index): GrantView => {
          const state = read?.states[index];
          const status = grantStatus(grant, now, state?.disabled);
          return {
            hash: grant.hash as Hex,
            origin: grant.origin,
            accountId: grant.accountId,
            scope: grant.scope,
            delegate: getAddress(grant.delegation.delegate),
            terms: grantTerms(grant),
            ...(grant.token && grant.permission.data.tokenAddress
              ? {
                  token: {
                    address: getAddress(grant.permission.data.tokenAddress),
                    ...grant.token,
                  },
                }
              : {}),
            expiry: grant.expiry,
            ...(status === 'active' && state?.available !== undefined
              ? { available: state.available }
              : {}),
            status,
          };
        });
      }),
    )
  ).flat();
  const byAccount: Record<string, GrantView[]> = {};
  for (const view of views.reverse()) {
    byAccount[view.accountId] = [...(byAccount[view.accountId] ?? []), view];
  }
  return byAccount;
}

/**
 * What to read of a grant: its permission enforcer (the first caveat) and terms.
 *
 * @param grant - The stored grant.
 * @returns The probe.
 */
function probeOf(grant: PermissionGrant): GrantProbe {
  const [caveat] = grant.delegation.caveats as [
    PermissionGrant['delegation']['caveats'][number],
  ];
  const terms = grantTerms(grant);
  return {
    hash: grant.hash as Hex,
    enforcer: caveat.enforcer as Hex,
    terms: caveat.terms as Hex,
    kind: 'periodAmount' in terms ? 'periodic' : 'stream',
    ...('amountPerSecond' in terms
      ? {
          stream: {
            initialAmount: terms.initialAmount,
            maxAmount: terms.maxAmount,
            amountPerSecond: terms.amountPerSecond,
            startTime: terms.startTime,
          },
        }
      : {}),
  };
}
