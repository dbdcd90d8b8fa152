/** What `npm run verify` prints and writes: one line per fact, the counts, and a Markdown report. Pure. */

export type FactStatus = 'confirmed' | 'contradicted' | 'could not run';

export interface Fact {
  kind: 'history event' | 'payload' | 'hook case' | 'permission case' | 'capture';
  /** The fact as the project states it (an event, a scenario's payload file). */
  label: string;
  status: FactStatus;
  /** What the re-run showed, or why it could not run (the CLI's or npm's own words). */
  detail: string;
  /** Files of this run that show it (fresh captures, re-recorded payloads), and the committed file. */
  evidence: string[];
  /**
   * For a fact that could not run: whose failure it was. `ours`: a limit of this run, the time
   * budget, a crash of our script, the network; `release`: the release itself (it would not
   * install or run, in its own words). Derived from the detail when absent (blameOf).
   */
  blame?: Blame;
}

export type Blame = 'ours' | 'release';

/** Failures that are this run's, not the release's: our limits and budget, our scripts, the network and disk. */
const OURS =
  /did not finish within \d+|time budget|inside the namespace|could not be read|not checkable|names no configuration|no configuration .* any more|Node\.js v\d|\bat [\w.<>]+ \(|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|ECONNRESET|ECONNREFUSED|ENOSPC|ENOMEM|killed by (?:SIG|signal)/;

/** Whose failure a fact that could not run was, as its detail says it. */
export function blameOf(f: Pick<Fact, 'detail' | 'blame'>): Blame {
  return f.blame ?? (OURS.test(f.detail) ? 'ours' : 'release');
}

export interface RunSummary {
  seed: number;
  events: number;
  payloads: number;
  /** Hook behaviour cases re-recorded. */
  cases: number;
  /** Permission cases re-recorded. */
  permissions: number;
  /** Pinned configurations captured again. */
  captures: number;
  /** The folder holding this run's evidence. */
  folder: string;
  /** The command that repeats the run. */
  repeat: string;
  seconds: number;
}

export function counts(facts: readonly Fact[]): Record<FactStatus, number> {
  const out: Record<FactStatus, number> = { confirmed: 0, contradicted: 0, 'could not run': 0 };
  for (const f of facts) out[f.status]++;
  return out;
}

/** How many facts could not run for our reasons and for the release's. */
export function blameCounts(facts: readonly Fact[]): Record<Blame, number> {
  const out: Record<Blame, number> = { ours: 0, release: 0 };
  for (const f of facts) if (f.status === 'could not run') out[blameOf(f)]++;
  return out;
}

export function countLine(facts: readonly Fact[]): string {
  const c = counts(facts);
  const b = blameCounts(facts);
  const settled = c.confirmed + c.contradicted + b.release;
  return (
    `${facts.length} fact(s): ${c.confirmed} confirmed, ${c.contradicted} contradicted, ` +
    `${c['could not run']} could not run ` +
    (`(${b.ours} for our reasons: a limit, the budget, a crash; ${b.release} for the release's own); ${settled} ` +
      `settled (${facts.length === 0 ? 100 : Math.round((settled / facts.length) * 100)} %)`)
  );
}

/** A fact's result as printed: whose failure a "could not run" was. */
function resultText(f: Fact): string {
  if (f.status !== 'could not run') return f.status;
  return blameOf(f) === 'ours' ? 'could not run (ours)' : 'could not run (the release)';
}

/** The console line of a fact, with its evidence indented below. */
export function factLines(f: Fact): string[] {
  return [
    `${resultText(f).toUpperCase()} ${f.kind}: ${f.label}`,
    `              ${f.detail}`,
    ...f.evidence.map((e) => `              evidence: ${e}`),
  ];
}

/** Text for a Markdown table cell: one line, pipes escaped, code spans where asked. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  const t = cell(text);
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

/**
 * An evidence path as the table shows it: relative to the evidence folder when inside it (the folder is named once
 * above).
 */
function inFolder(path: string, folder: string): string {
  return path.startsWith(folder.replace(/\/$/, '') + '/') ? path.slice(folder.replace(/\/$/, '').length + 1) : path;
}

export function markdownReport(run: RunSummary, facts: readonly Fact[]): string {
  const c = counts(facts);
  const lines = [
    '## `npm run verify`: an independent re-run of a random sample',
    '',
    `Seed ${run.seed}: ${run.events} history event(s), ${run.payloads} payload scenario(s), ${run.cases} hook ` +
      `behaviour case(s), ${run.permissions} permission case(s) and ${run.captures} pinned configuration(s) drawn ` +
      `across the agents; repeat with ${code(run.repeat)}.`,
    `Each history event's release and the release before it were installed from scratch and captured in the ` +
      `event's configuration inside a loopback-only network namespace, and the claim was checked against the two ` +
      `captures; each payload scenario, hook behaviour case, permission case and pinned configuration was ` +
      `re-recorded at the pinned release and compared with the committed file, key order included.`,
    '',
    `**${c.contradicted} contradicted**, ${c.confirmed} confirmed, ${c['could not run']} could not run: ` +
      `${blameCounts(facts).ours} for our reasons (a limit, the time budget, a crash of ours), ` +
      `${blameCounts(facts).release} for the release's own (${run.seconds} s). A release's own failure settles its ` +
      `fact; ours does not. Evidence (paths below are relative to it): ${code(run.folder)}.`,
    '',
    '| Result | Fact | What the re-run showed | Evidence |',
    '| --- | --- | --- | --- |',
    ...facts.map(
      (f) =>
        `| ${f.status === 'contradicted' ? '**contradicted**' : resultText(f)} | ${f.kind}: ${cell(f.label)} | ` +
        `${cell(f.detail)} | ${f.evidence.map((e) => code(inFolder(e, run.folder))).join('<br>')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
