import { chainName } from './chainNames';
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
  legacy: 'accounts from an older version of this snap',
};

/** Why a found account was not added, as the page says it. */
const SKIP_TEXT: Record<SkipReason, string> = {
  exists: 'already on this page',
  keyInUse: 'its key already backs another account here (one key, one account)',
  declined:
    'MetaMask did not add it (you cancelled it, or one before it: the rest were not asked)',
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
 * The progress line while the search runs: `Searching your accounts (EOA): 40 checked; 2 used
 * accounts found so far`.
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
  return `Searching your ${SCHEME_TEXT[progress.scheme]}${ofPhrase(sources, progress.source)}: ${progress.index + 1} checked; ${found}`;
}

/**
 * The outcome of a search, for the notice at the top of the page: first each chain it could not
 * read (`Couldn't search Local chain (31337): it didn't answer. Nothing was checked.`), then what
 * it found on the chains it read (never "No used account found" for a chain it could not read).
 *
 * @param report - The search's report.
 * @returns The summary: what to add first (no chain), or the chains not read and the found /
 * added / skipped counts.
 */
export function reportSummary(report: RecoveryReport): string {
  if (report.noChain) {
    return NO_CHAIN_TEXT;
  }
  const failed = report.unreachable.map((chain) =>
    report.interrupted.includes(chain)
      ? `Couldn't finish searching ${chainName(chain)}: it stopped answering, so accounts used only there may be missing. Try again when it answers.`
      : `Couldn't search ${chainName(chain)}: it didn't answer. Nothing was checked.`,
  );
  const read = report.chains.filter(
    (chain) => !report.unreachable.includes(chain),
  );
  const where = read.length > 0 ? ` on ${read.map(chainName).join(', ')}` : '';
  const found = report.added.length + report.skipped.length;
  if (found === 0) {
    return [
      ...failed,
      ...(where ? [`No used account found${where}`] : []),
    ].join(' ');
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
  return [
    ...failed,
    `Found ${count(found, 'used account')}${where}: ${parts.join(', ')}`,
  ].join(' ');
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
    // a lane no chain answered is said once above, per chain
    ...report.searched
      .filter((lane) => lane.end !== 'gap' && lane.end !== 'chainError')
      .map(
        (lane) =>
          `Stopped early searching your ${SCHEME_TEXT[lane.scheme]}${ofPhrase(sources, lane.source)}: ${END_TEXT[lane.end as Exclude<LaneEnd, 'gap'>]} ${lane.indices > 0 ? `after checking ${count(lane.indices, 'account')}` : 'before checking any'}; accounts further on may exist: run it again, or restore them by index.`,
      ),
    `Each kind stops after ${GAP_LIMIT} unused accounts in a row: an account past such a gap is missed: restore it by index.`,
  ];
  return lines;
}

/**
 * Which key an account has: its kind, index and (with several phrases) its phrase.
 *
 * @param account - A found account.
 * @param sources - The phrases searched.
 * @returns `Account (EOA) #3`, `Smart account #0 of Wallet 2`, with `, from an older version of
 * this snap` for the legacy salts.
 */
function which(
  account: RecoveredAccount | SkippedAccount,
  sources: EntropySource[],
): string {
  const legacy =
    account.scheme === 'legacy' ? ', from an older version of this snap' : '';
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
