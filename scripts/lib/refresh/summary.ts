/**
 * What a refresh moved, as Markdown for the body of a pull request: per agent,
 * the releases its histories newly cover and the changes credited to them
 * (the changelog excerpt of what is new), then the diff statistics. Pure: the
 * script (scripts/refresh-summary.ts) reads the history files of the working
 * tree and of the last commit, and runs git.
 *
 * Tool names, field paths and values come from captures and are untrusted: each
 * is written as an inline code span (which Markdown and the HTML it allows leave
 * as text), on one line; the diff statistics go in a fenced block longer than any
 * run of backticks inside.
 */
import { spanText } from '../../../src/lib/history/event-span.ts';
import type { HistoryFile } from '../../../src/lib/core/content-types.ts';
import { changeLine, changelog, comparison, type ChangelogRelease } from '../../../src/lib/history/history.ts';
import { compareVersions } from '../../../src/lib/core/version-order.ts';

export interface SummaryInput {
  /** History files at the last commit (none for a file that is new). */
  before: readonly HistoryFile[];
  /** History files of the working tree. */
  after: readonly HistoryFile[];
  /** Product name of each agent id. */
  products: Readonly<Record<string, string>>;
  /** `git diff --stat` output, and new files, as printed. */
  diffStat: string;
  /** Longest body (characters): changes past it are counted, not listed. */
  maxLength?: number;
}

/**
 * Text on one line as a Markdown code span that no backtick, bracket or angle bracket inside can end or turn into
 * markup.
 */
export function codeSpan(text: string): string {
  const t =
    text
      .replace(/[\u0000-\u001F\u007F]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || ' ';
  const longest = Math.max(0, ...[...t.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // A space on each side keeps a span that starts or ends with a backtick closed.
  return longest === 0 ? `${fence}${t}${fence}` : `${fence} ${t} ${fence}`;
}

/** A fenced block that holds `text` as written, whatever backticks it contains. */
export function fencedBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.replace(/\n+$/, '')}\n${fence}`;
}

const eventKey = (file: HistoryFile, event: HistoryFile['events'][number]) =>
  `${file.source}\u0000${JSON.stringify(event)}`;
const releaseLabel = (r: HistoryFile['releases'][number]) => r.cliVersion ?? r.version;

export interface AgentMoves {
  agent: string;
  /** Releases (as the changelog names them) the histories cover now and did not before, oldest first. */
  newReleases: string[];
  /** The changes found since the last commit, by release, newest first (as the changelog page lists them). */
  releases: ChangelogRelease[];
}

/** Per agent whose histories moved: the releases newly covered and the changes newly found. */
export function historyMoves(before: readonly HistoryFile[], after: readonly HistoryFile[]): AgentMoves[] {
  const known = new Set(before.flatMap((file) => file.events.map((e) => eventKey(file, e))));
  const covered = new Set(before.flatMap((file) => file.releases.map((r) => `${file.agent}\u0000${releaseLabel(r)}`)));
  const agents = [...new Set(after.map((f) => f.agent))];
  const moves: AgentMoves[] = [];
  for (const agent of agents) {
    const files = after.filter((f) => f.agent === agent);
    const newOnly = files.map((file) => ({
      ...file,
      events: file.events.filter((e) => !known.has(eventKey(file, e))),
    }));
    const newReleases = [
      ...new Set(files.flatMap((f) => f.releases.map(releaseLabel)).filter((r) => !covered.has(`${agent}\u0000${r}`))),
    ].sort(compareVersions);
    const releases = changelog(agent, newOnly);
    if (newReleases.length > 0 || releases.length > 0) moves.push({ agent, newReleases, releases });
  }
  return moves;
}

function changeMarkdown(change: ChangelogRelease['changes'][number]): string {
  const line = changeLine(change.event, change.folded);
  const parts = [`${codeSpan(change.tool)}: ${line.kind}`];
  if (line.path !== undefined) parts.push(` ${codeSpan(line.path)}`);
  if (line.configuration !== undefined) parts.push(` in ${codeSpan(line.configuration)}`);
  if (line.from !== undefined && line.to !== undefined) parts.push(`: ${codeSpan(line.from)} → ${codeSpan(line.to)}`);
  else if (line.to !== undefined) parts.push(`: ${codeSpan(line.to)}`);
  else if (line.from !== undefined) parts.push(` (was ${codeSpan(line.from)})`);
  if (line.folded > 0) parts.push(` (and ${line.folded} field${line.folded === 1 ? '' : 's'} below it)`);
  // Where releases before it were not read or failed, the release heading is only the first known with it.
  if (!change.span.exact) parts.push(` (${spanText(change.event.kind, change.span)})`);
  return `- ${parts.join('')}`;
}

/** Releases oldest first: all of them when they are few, else the first and the last. */
function releaseList(releases: readonly string[]): string {
  return releases.length <= 10 ? releases.join(', ') : `${releases[0]} to ${releases[releases.length - 1]}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The body's lines, added block by block while they fit in its length; once one block does not fit, none after it is
 * added, and the changes left out are counted instead.
 */
class Body {
  readonly lines: string[] = ['# Refresh', ''];
  omitted = 0;
  private full = false;
  private length: number;
  private readonly maxLength: number;

  constructor(reserved: number, maxLength: number) {
    this.length = reserved;
    this.maxLength = maxLength;
  }

  /** Adds the lines if they fit (and everything before them did); says whether they were added. */
  fits(block: string[]): boolean {
    const n = block.reduce((sum, l) => sum + l.length + 1, 0);
    if (this.full || this.length + n > this.maxLength) this.full = true;
    else {
      this.lines.push(...block);
      this.length += n;
    }
    return !this.full;
  }
}

/** One release's changes, grouped by comparison as on the changelog page (the comparison said once). */
function addRelease(body: Body, product: string, release: ChangelogRelease): void {
  if (!body.fits([`### ${product} ${release.release}: ${plural(release.changes.length, 'change')}`, ''])) {
    body.omitted += release.changes.length;
    return;
  }
  const byComparison = new Map<string, ChangelogRelease['changes']>();
  for (const change of release.changes)
    byComparison.set(comparison(change), [...(byComparison.get(comparison(change)) ?? []), change]);
  for (const [compared, changes] of byComparison) {
    if (!body.fits([`Compared ${codeSpan(compared)}:`, ''])) {
      body.omitted += changes.length;
      continue;
    }
    for (const change of changes) if (!body.fits([changeMarkdown(change)])) body.omitted++;
    body.fits(['']);
  }
}

/** One agent's section: the releases newly compared and the count of changes, then each release's changes. */
function addAgent(body: Body, move: AgentMoves, product: string): void {
  const changes = move.releases.reduce((n, r) => n + r.changes.length, 0);
  const header = [
    `## ${product}`,
    '',
    move.newReleases.length > 0
      ? `Newly compared: ${plural(move.newReleases.length, 'release')} (${releaseList(move.newReleases)}); ` +
        `${plural(changes, 'change')} found.`
      : `${plural(changes, 'change')} found in releases compared before.`,
    '',
  ];
  if (!body.fits(header)) {
    body.omitted += changes;
    return;
  }
  for (const release of move.releases) addRelease(body, product, release);
}

/** The pull request body: what moved, per agent, then the files changed. */
export function refreshSummary(input: SummaryInput): string {
  const moves = historyMoves(input.before, input.after);
  const tail = [
    '',
    '## Files changed',
    '',
    fencedBlock(input.diffStat.replace(/^\n+/, '').trimEnd() || '(no change)'),
    '',
  ].join('\n');
  // Room is kept for the tail and for the line that counts what was left out.
  const body = new Body(tail.length + 200, input.maxLength ?? 60_000);
  if (moves.length === 0) body.lines.push('No release history moved.', '');
  for (const move of moves) addAgent(body, move, input.products[move.agent] ?? move.agent);
  if (body.omitted > 0)
    body.lines.push(
      '',
      `… and ${plural(body.omitted, 'more change')}, left out to keep this description short: the changelog pages ` +
        `list every change.`,
      '',
    );
  return `${body.lines.join('\n').replace(/\n+$/, '\n')}${tail}`;
}
