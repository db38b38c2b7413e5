import type { Domain } from '../domain';
import { renderHome } from './components/HomePage';
import { buildHomeModel } from './homeModel';

export { homeInput } from './events';

/**
 * The home page's `onHomePage` content.
 *
 * @param domain - The keyring and settings.
 * @returns `{ content }`: the page as a snaps-sdk JSX element.
 */
export async function homePage(
  domain: Domain,
): Promise<{ content: ReturnType<typeof renderHome> }> {
  return { content: renderHome(await buildHomeModel(domain)) };
}
