import type { DerivationScheme } from '../keyring/keys';
import type {
  EntropySource,
  LaneEnd,
  RecoveredAccount,
  RecoveryProgress,
  RecoveryReport,
  SkippedAccount,
  SkipReason,
} from '../keyring/recovery/recoveryTypes';
import { displayText } from '../utils/safeText';

/**
 * What the home page says about *Find my accounts*, in its own words: the progress while it runs
 * and, when it ends, what it found and added, what it skipped and why, and where it stopped. Pure:
 * built from the domain's RecoveryReport (src/keyring/recoveryTypes.ts). Names from outside (an
 * account's, a recovery phrase's as MetaMask labels it) are shown through displayText.
 */

/** BIP-44's gap limit, which the search uses: how many unused indices in a row end a kind. */
export const GAP_LIMIT = 20;

/** What the page says when no chain is configured: a search needs one. */
export const NO_CHAIN_TEXT =
  'Add a chain under Chains first: Find my accounts asks a chain which accounts were used. An account whose index you know can be restored below without one.';

/** How the page names the kind of key each salt scheme derives. */
const SCHEME_TEXT: Record<DerivationScheme, string> = {
  eoa: 'accounts (EOA)',
  'erc4337-owner': 'smart accounts',
  legacy: 'accounts made before version 2',
};

/** Why a found account was not added, as the page says it. */
const SKIP_TEXT: Record<SkipReason, string> = {
  exists: 'already on this page',
  keyInUse: 'its key already backs another account here (one key, one account)',
  declined: 'MetaMask did not add it (its dialog was cancelled)',
  failed:
    "its smart account's address could not be confirmed on the chain: try again",
};

/** Why the search of one kind stopped before the gap limit, as the page says it. */
const END_TEXT: Record<Exclude<LaneEnd, 'gap'>, string> = {
  indexLimit: 'it reached its highest index',
  callLimit: 'it reached its most chain calls',
  timeLimit: 'it ran out of time',
  chainError: 'no chain answered',
};

/** The two kinds a person picks from: what restore by index and the report call them. */
const TYPE_TEXT = {
  'eip155:eoa': 'Account (EOA)',
  'eip155:erc4337': 'Smart account',
} as const;

/**
 * How the page names a recovery phrase: MetaMask's name for it (cleaned), or, unnamed, `your
 * primary recovery phrase` / `recovery phrase <n>`.
 *
 * @param source - The entropy source.
 * @param position - Its 1-based position in MetaMask's list.
 * @returns The name.
 */
export function phraseName(source: EntropySource, position: number): string {
  if (source.name.trim() !== '') {
    return displayText(source.name);
  }
  return source.primary
    ? 'your primary recovery phrase'
    : `recovery phrase ${position}`;
}

/**
 * Name a source by id within a list of sources (only when there is more than one: with a single
 * phrase the page never names it).
 *
 * @param sources - The sources the search covered.
 * @param id - A source id.
 * @returns ` of <name>`, or an empty string for a single source or an unknown id.
 */
function ofPhrase(sources: EntropySource[], id: string): string {
  if (sources.length < 2) {
    return '';
  }
  const position = sources.findIndex((source) => source.id === id);
  return position === -1
    ? ''
    : ` of ${phraseName(sources[position], position + 1)}`;
}

/**
 * The progress line while the search runs: `Searching… index 37 (accounts (EOA)); 2 used accounts
 * found so far`.
 *
 * @param progress - The last progress the search reported, if any.
 * @param sources - The recovery phrases MetaMask holds (to name the one searched).
 * @returns The line.
 */
export function progressText(
  progress: RecoveryProgress | undefined,
  sources: EntropySource[],
): string {
  if (!progress) {
    return 'Searching…';
  }
  const found =
    progress.found === 0
      ? 'none found yet'
      : `${count(progress.found, 'used account')} found so far`;
  return `Searching… index ${progress.index} (${SCHEME_TEXT[progress.scheme]}${ofPhrase(sources, progress.source)}); ${found}`;
}

/**
 * The one-line outcome of a search, for the notice at the top of the page.
 *
 * @param report - The search's report.
 * @returns The summary: what to add first (no chain), or found / added / skipped counts.
 */
export function reportSummary(report: RecoveryReport): string {
  if (report.noChain) {
    return NO_CHAIN_TEXT;
  }
  const found = report.added.length + report.skipped.length;
  const where = report.chains.join(', ');
  if (found === 0) {
    return `No used account found on ${where}`;
  }
  const here = report.skipped.filter(({ reason }) => reason === 'exists');
  const parts = [
    `added ${report.added.length}`,
    ...(here.length > 0
      ? [`${here.length} ${here.length === 1 ? 'was' : 'were'} here already`]
      : []),
    ...(report.skipped.length > here.length
      ? [`${report.skipped.length - here.length} not added`]
      : []),
  ];
  return `Found ${count(found, 'used account')} on ${where}: ${parts.join(', ')}`;
}

/**
 * The details of a search's report, one line each: every account added (name, address, kind,
 * index), every one skipped and why, unreachable chains, kinds that stopped before the gap limit,
 * and what the gap limit means.
 *
 * @param report - The search's report.
 * @returns The lines to show under *Find my accounts*.
 */
export function reportLines(report: RecoveryReport): string[] {
  if (report.noChain) {
    return [NO_CHAIN_TEXT];
  }
  const { sources } = report;
  const lines = [
    reportSummary(report),
    ...report.added.map(
      (account) =>
        `Added ${displayText(account.name)} (${account.address}): ${which(account, sources)}`,
    ),
    ...report.skipped.map(
      (account) =>
        `Not added ${account.address} (${which(account, sources)}): ${SKIP_TEXT[account.reason]}`,
    ),
    ...report.unreachable.map(
      (chain) =>
        `Couldn't reach ${chain}: accounts used only there were not looked for. Try again when it answers.`,
    ),
    ...report.searched
      .filter((lane) => lane.end !== 'gap')
      .map(
        (lane) =>
          `Stopped early in ${SCHEME_TEXT[lane.scheme]}${ofPhrase(sources, lane.source)}: ${END_TEXT[lane.end as Exclude<LaneEnd, 'gap'>]} after ${count(lane.indices, 'index', 'indices')}; accounts further on may exist: run it again, or restore them by index.`,
      ),
    `Each kind stops after ${GAP_LIMIT} unused indices in a row: an account past such a gap is missed: restore it by index.`,
  ];
  return lines;
}

/**
 * Which key an account has: its kind, index and (with several phrases) its phrase.
 *
 * @param account - A found account.
 * @param sources - The phrases searched.
 * @returns `Account (EOA) #3`, `Smart account #0 of Wallet 2`, with `, made before version 2` for
 * the legacy salts.
 */
function which(
  account: RecoveredAccount | SkippedAccount,
  sources: EntropySource[],
): string {
  const legacy = account.scheme === 'legacy' ? ', made before version 2' : '';
  return `${TYPE_TEXT[account.type]} #${account.index}${legacy}${ofPhrase(sources, account.source)}`;
}

/**
 * A count with its noun.
 *
 * @param value - The count.
 * @param singular - The noun for one.
 * @param plural - The noun for several (default: singular + `s`).
 * @returns `1 used account`, `3 used accounts`.
 */
function count(
  value: number,
  singular: string,
  plural = `${singular}s`,
): string {
  return `${value} ${value === 1 ? singular : plural}`;
}
