/** What `npm run verify` prints and writes: one line per fact, the counts, and a Markdown report. Pure. */

export type FactStatus = 'confirmed' | 'contradicted' | 'could not run';

export interface Fact {
  kind: 'history event' | 'payload' | 'hook case' | 'permission case';
  /** The fact as the project states it (an event, a scenario's payload file). */
  label: string;
  status: FactStatus;
  /** What the re-run showed, or why it could not run (the CLI's or npm's own words). */
  detail: string;
  /** Files of this run that show it (fresh captures, re-recorded payloads), and the committed file. */
  evidence: string[];
}

export interface RunSummary {
  seed: number;
  events: number;
  payloads: number;
  /** Hook behaviour cases re-recorded. */
  cases: number;
  /** Permission cases re-recorded. */
  permissions: number;
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

export function countLine(facts: readonly Fact[]): string {
  const c = counts(facts);
  return `${facts.length} fact(s): ${c.confirmed} confirmed, ${c.contradicted} contradicted, ${c['could not run']} could not run`;
}

/** The console line of a fact, with its evidence indented below. */
export function factLines(f: Fact): string[] {
  return [`${f.status.toUpperCase().padEnd(13)} ${f.kind}: ${f.label}`, `              ${f.detail}`, ...f.evidence.map((e) => `              evidence: ${e}`)];
}

/** Text for a Markdown table cell: one line, pipes escaped, code spans where asked. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  const t = cell(text);
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

/** An evidence path as the table shows it: relative to the evidence folder when inside it (the folder is named once above). */
function inFolder(path: string, folder: string): string {
  return path.startsWith(folder.replace(/\/$/, '') + '/') ? path.slice(folder.replace(/\/$/, '').length + 1) : path;
}

export function markdownReport(run: RunSummary, facts: readonly Fact[]): string {
  const c = counts(facts);
  const lines = [
    '## `npm run verify`: an independent re-run of a random sample',
    '',
    `Seed ${run.seed}: ${run.events} history event(s), ${run.payloads} payload scenario(s) ${run.cases} hook behaviour case(s) and ${run.permissions} permission case(s) drawn across the agents; repeat with ${code(run.repeat)}.`,
    `Each history event's release and the release before it were installed from scratch and captured in the event's configuration inside a loopback-only network namespace, and the claim was checked against the two captures; each payload scenario and hook behaviour case was re-recorded at the pinned release and compared with the committed file, key order included.`,
    '',
    `**${c.contradicted} contradicted**, ${c.confirmed} confirmed, ${c['could not run']} could not run (${run.seconds} s). Evidence (paths below are relative to it): ${code(run.folder)}.`,
    '',
    '| Result | Fact | What the re-run showed | Evidence |',
    '| --- | --- | --- | --- |',
    ...facts.map((f) => `| ${f.status === 'contradicted' ? '**contradicted**' : f.status} | ${f.kind}: ${cell(f.label)} | ${cell(f.detail)} | ${f.evidence.map((e) => code(inFolder(e, run.folder))).join('<br>')} |`),
    '',
  ];
  return lines.join('\n');
}
