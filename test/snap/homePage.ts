/**
 * Reading and driving the home page (endowment:page-home) in the snaps-jest suites
 * (test/snap/home*.test.ts): open it, run an action that re-renders it, and read what its JSX tree
 * shows (texts, field errors, input values, element names). The tree is the snaps-sdk JSX element
 * tree snaps-jest hands over as `ui.content`: `{ type, props: { children, ... } }`.
 */
import type { KeyringHarness } from './harness';

/** The home page interface, as snaps-jest hands it to the test. */
export type HomePageUi = Awaited<
  ReturnType<
    Awaited<ReturnType<KeyringHarness['snap']['onHomePage']>>['getInterface']
  >
>;

/** How long {@link nextPage} waits for a re-render before failing the test, in milliseconds. */
const RENDER_TIMEOUT_MS = 20_000;

/**
 * Open the home page afresh (as MetaMask does when the user comes back to it).
 *
 * @param harness - The installed snap.
 * @returns The page as rendered now.
 */
export async function openHomePage(
  harness: KeyringHarness,
): Promise<HomePageUi> {
  return (await harness.snap.onHomePage()).getInterface();
}

/**
 * Run an action that re-renders the page, and read the page it renders. Bounded: an action that
 * renders nothing new rejects after 20 s instead of hanging the suite.
 *
 * @param ui - The current page (whose next update is awaited).
 * @param action - The action, given the current page.
 * @returns The re-rendered page.
 * @throws {Error} `the page did not re-render` when no update comes within 20 s.
 */
export async function nextPage(
  ui: HomePageUi,
  action: (current: HomePageUi) => Promise<void>,
): Promise<HomePageUi> {
  const next = ui.waitForUpdate();
  await action(ui);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error('the page did not re-render')),
      RENDER_TIMEOUT_MS,
    );
  });
  return Promise.race([next, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Run an action that re-renders the page several times (a long action showing its progress), and
 * read every page it renders, in order: each update is awaited from the page before it, so none
 * is missed while the action runs. Bounded: the action itself must end (the suite's timeout).
 *
 * @param ui - The current page.
 * @param action - The action, given the current page; the pages are collected until it ends.
 * @returns The pages rendered while the action ran, the last one being what it left.
 */
export async function pagesDuring(
  ui: HomePageUi,
  action: (current: HomePageUi) => Promise<void>,
): Promise<HomePageUi[]> {
  const pages: HomePageUi[] = [];
  let ended!: () => void;
  const done = new Promise<undefined>((resolve) => {
    ended = (): void => resolve(undefined);
  });
  const watching = (async (): Promise<void> => {
    let current = ui;
    for (;;) {
      const next = await Promise.race([current.waitForUpdate(), done]);
      if (next === undefined) {
        return;
      }
      pages.push(next);
      current = next;
    }
  })();
  try {
    await action(ui);
  } finally {
    ended();
    await watching;
  }
  return pages;
}

/**
 * The page's content as text, to look for what it shows (and what it must never show).
 *
 * @param ui - The page.
 * @returns The JSON of the page's content.
 */
export function pageJson(ui: HomePageUi): string {
  return JSON.stringify(ui.content);
}

/**
 * Walk a JSX tree, depth first.
 *
 * @param node - The root.
 * @yields Every element, the root first.
 */
export function* walk(node: any): Generator<any> {
  if (node === null || typeof node !== 'object') {
    return;
  }
  yield node;
  const children = node.props?.children;
  for (const child of Array.isArray(children)
    ? children.flat(Infinity)
    : [children]) {
    yield* walk(child);
  }
}

/**
 * The error shown on the Field holding an input.
 *
 * @param tree - The page.
 * @param name - The input's name.
 * @returns The error, or undefined when there is none.
 */
export function findField(tree: any, name: string): string | undefined {
  for (const node of walk(tree)) {
    if (
      node.type === 'Field' &&
      [...walk(node.props.children)].some((child) => child.props?.name === name)
    ) {
      return node.props.error;
    }
  }
  return undefined;
}

/**
 * The values of every Copyable (the accounts' addresses).
 *
 * @param tree - The page.
 * @returns The values, in page order.
 */
export function copyables(tree: any): string[] {
  return [...walk(tree)]
    .filter((node) => node.type === 'Copyable')
    .map((node) => node.props.value);
}

/**
 * The names of every named element (buttons, inputs, dropdowns), in page order.
 *
 * @param tree - The page.
 * @returns The names.
 */
export function elementNames(tree: any): string[] {
  return [...walk(tree)]
    .map((node) => node.props?.name)
    .filter((name): name is string => typeof name === 'string');
}

/**
 * The first Input (or Dropdown) element of a name.
 *
 * @param tree - The page.
 * @param name - The input's name.
 * @returns Its props, or undefined when there is no such input.
 */
function input(tree: any, name: string): Record<string, any> | undefined {
  return [...walk(tree)].find(
    (node) =>
      (node.type === 'Input' || node.type === 'Dropdown') &&
      node.props?.name === name,
  )?.props;
}

/**
 * The value an input renders with.
 *
 * @param tree - The page.
 * @param name - The input's name.
 * @returns Its value, or undefined when there is no such input.
 */
export function inputValue(tree: any, name: string): string | undefined {
  return input(tree, name)?.value;
}

/**
 * The example an input shows while empty.
 *
 * @param tree - The page.
 * @param name - The input's name.
 * @returns Its placeholder, or undefined when there is no such input.
 */
export function placeholder(tree: any, name: string): string | undefined {
  return input(tree, name)?.placeholder;
}

/**
 * Every text a JSX tree shows, in tree order: text children and row labels, and with
 * `titles: true` banner titles too (each element's `title`, before its label and children).
 *
 * @param node - The tree (an element, an array of them, a string, or nothing).
 * @param options - What to collect besides text children and labels.
 * @param options.titles - Whether to collect `title` props (banner titles). Defaults to false.
 * @returns The strings.
 */
export function shownTexts(
  node: unknown,
  options: { titles?: boolean } = {},
): string[] {
  if (typeof node === 'string') {
    return [node];
  }
  if (Array.isArray(node)) {
    return node.flatMap((child) => shownTexts(child, options));
  }
  if (typeof node !== 'object' || node === null) {
    return [];
  }
  const props =
    ((node as Record<string, unknown>).props as
      Record<string, unknown> | undefined) ?? {};
  return [
    ...(options.titles ? [props.title] : []),
    props.label,
    props.children,
  ].flatMap((child) => shownTexts(child, options));
}

/**
 * The text of every Row labelled `label`, in page order.
 *
 * @param tree - The page.
 * @param label - The row's label (`Name`).
 * @returns The rows' texts.
 */
export function rowValues(tree: any, label: string): string[] {
  return [...walk(tree)]
    .filter((node) => node.type === 'Row' && node.props?.label === label)
    .map((node) => shownTexts(node.props.children).join(''));
}

/**
 * The text of the first Row labelled `label`.
 *
 * @param tree - The page.
 * @param label - The row's label.
 * @returns The row's text, or undefined when no row has this label.
 */
export function rowText(tree: any, label: string): string | undefined {
  return rowValues(tree, label)[0];
}

/**
 * The text of the page's notice (the banner at its top).
 *
 * @param ui - The page.
 * @returns The notice's text, or undefined when the page shows none.
 */
export function noticeText(ui: HomePageUi): string | undefined {
  const banner = [...walk(ui.content)].find((node) => node.type === 'Banner');
  return banner ? shownTexts(banner.props.children).join('') : undefined;
}

/**
 * One account's card: the Section showing its address.
 *
 * @param ui - The page.
 * @param address - The account's address.
 * @returns The card, or undefined when the page shows no such account.
 */
export function cardOf(ui: HomePageUi, address: string): any {
  return [...walk(ui.content)].find(
    (node) =>
      node.type === 'Section' &&
      [...walk(node)].some(
        (child) => child.type === 'Copyable' && child.props.value === address,
      ),
  );
}
