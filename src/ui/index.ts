import type { Domain } from '../domain';
import { renderHome } from './components/HomePage';
import { buildHomeModel } from './homeModel';

export { homeInput } from './events';

/**
 * The home page's `onHomePage` content. Opening the page reads each account's new blocks for its
 * Activity list first (bounded; a chain that does not answer is shown as such).
 *
 * @param domain - The keyring and settings.
 * @returns `{ content }`: the page as a snaps-sdk JSX element.
 */
export async function homePage(
  domain: Domain,
): Promise<{ content: ReturnType<typeof renderHome> }> {
  await domain.activity.refresh();
  return { content: renderHome(await buildHomeModel(domain)) };
}
