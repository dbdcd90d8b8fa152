/**
 * Each verb's answer as text for a terminal. Removed and added words are marked `[-…-]` and
 * `{+…+}` (as `git diff --word-diff` does), and coloured too when the output is a terminal that
 * takes colour. Upstream text is printed as it is: a terminal shows no HTML. Pure.
 */
import type { TextDiff } from '../lib/history/text-diff-parts.ts';
import type { ChangesAnswer } from './changes.ts';
import type { CheckAnswer } from './check.ts';
import type { DiffAnswer } from './diff.ts';
import type { NamesAnswer } from './names.ts';
import type { SearchAnswer } from './search.ts';
import type { ShowAnswer } from './show.ts';
import type { FieldLine } from './snapshot.ts';

export interface Style {
  colour: boolean;
}

const paint = (style: Style, code: string, text: string) => (style.colour ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = (style: Style, text: string) => paint(style, '1', text);
const dim = (style: Style, text: string) => paint(style, '2', text);

/** The first sentence of a description, on one line. */
export function firstSentence(text: string, max = 140): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](\s|$)/.exec(line);
  const sentence = end ? line.slice(0, end.index + 1) : line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

function fieldTable(title: string, rows: readonly FieldLine[], style: Style): string[] {
  const shown = rows.filter((r) => r.required !== null || r.depth > 0 || r.path !== '');
  if (shown.length === 0) return [];
  const out = [bold(style, `${title} (${shown.length} field${shown.length === 1 ? '' : 's'})`)];
  for (const row of shown) {
    const flag = row.required === true ? ' required' : '';
    const about = row.description ? `  ${dim(style, firstSentence(row.description))}` : '';
    out.push(`  ${'  '.repeat(row.depth)}${row.path || row.name}: ${row.type}${flag}${about}`);
  }
  return out;
}

/**
 * How the captured configurations offer a tool, the most common way said once:
 * `as function in every configuration but 8: as code-mode in default-model, …; absent in no-shell-tool`.
 */
export function offeredText(availability: ShowAnswer['availability']): string {
  if (availability.length === 0) return 'no captured configuration';
  const byWay = new Map<string, string[]>();
  for (const c of availability) byWay.set(c.offered, [...(byWay.get(c.offered) ?? []), c.configuration]);
  const ways = [...byWay].sort((x, y) => y[1].length - x[1].length);
  const [most, ...rest] = ways;
  const way = (how: string) => (how === 'absent' ? 'absent' : `as ${how}`);
  if (rest.length === 0) return `${way(most![0])} in every configuration (${availability.length})`;
  const others = rest.reduce((n, [, ids]) => n + ids.length, 0);
  return (
    `${way(most![0])} in every configuration but ${others}: ` +
    rest.map(([how, ids]) => `${way(how)} in ${ids.join(', ')}`).join('; ')
  );
}

export function showText(a: ShowAnswer, style: Style): string {
  const lines = [
    `${bold(style, a.tool)} — ${a.product} ${a.release}`,
    a.summary || '(no summary written)',
    '',
    `Turned on: ${offeredText(a.availability)}`,
  ];
  if (a.names.length > 1) lines.push(`Also named: ${a.names.filter((n) => n !== a.tool).join(', ')}`);
  if (a.hookNames.length > 0) lines.push(`Hook payloads name it: ${a.hookNames.join(', ')}`);
  if (a.jobs.length > 0) lines.push(`Jobs: ${a.jobs.join(', ')}`);
  for (const [section, title] of [
    ['input', 'Input'],
    ['result', 'Result'],
    ['model-input', 'Model-facing input'],
  ] as const) {
    const rows = a.fields[section];
    if (rows) lines.push('', ...fieldTable(title, rows, style));
  }
  lines.push('', `Page: ${a.page}`);
  for (const [section, url] of Object.entries(a.schemas)) lines.push(`Schema (${section}): ${url}`);
  if (a.hookSchema) lines.push(`Hook schema: ${a.hookSchema}`);
  if (a.releases.length > 0) lines.push(`Schemas published for: ${a.releases.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

export function searchText(a: SearchAnswer, style: Style): string {
  if (a.total === 0) return `Nothing is named like ${JSON.stringify(a.query)}.\n`;
  const lines = a.hits.map((h) => {
    const where = h.kind === 'field' ? `${h.product} ${h.tool}` : (h.product ?? '');
    // A tool found by an alias or by the name its hooks give it is shown under its own name.
    const name = h.kind === 'tool' && h.via !== 'name' ? `${h.tool} (${h.via} ${h.name})` : h.name;
    const about = dim(style, firstSentence(h.detail, 100));
    return `${h.kind.padEnd(10)} ${bold(style, name)}${where ? `  ${where}` : ''}  ${about}\n${' '.repeat(11)}${h.url}`;
  });
  if (a.total > a.hits.length) lines.push(`… ${a.total - a.hits.length} more (--limit N shows more)`);
  return `${lines.join('\n')}\n`;
}

export function namesText(a: NamesAnswer, style: Style): string {
  const lines: string[] = [];
  const width = Math.max(0, ...a.jobs.flatMap((j) => j.agents.map((g) => g.product.length)));
  // A rule written over several lines (a policy file) is shown as one, its breaks as \n.
  const oneLine = (text: string) => (/[\r\n]/.test(text) ? JSON.stringify(text) : text);
  for (const job of a.jobs) {
    lines.push(`${bold(style, job.title)} (${job.job})  ${job.url}`);
    for (const agent of job.agents)
      for (const tool of agent.tools) {
        const hook = tool.hookNames.length > 0 ? `hooks: ${tool.hookNames.join(', ')}` : 'hooks: none recorded';
        lines.push(`  ${agent.product.padEnd(width)}  ${bold(style, tool.name)}  ${dim(style, hook)}`);
        for (const rule of tool.rules)
          lines.push(
            `  ${''.padEnd(width)}    rule ${rule.form}: ${oneLine(rule.text)} → ${rule.outcome} (${rule.url})`,
          );
      }
    if (job.without.length > 0) lines.push(`  ${dim(style, `no tool for it: ${job.without.join(', ')}`)}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A word-for-word diff: long unchanged runs cut, removals and additions marked. */
export function diffText(diff: TextDiff, style: Style): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const body = diff.parts
    .map((p) =>
      p.op === 'skip'
        ? dim(style, `[… ${n(p.chars)} unchanged characters …]`)
        : p.op === 'same'
          ? p.text
          : p.op === 'del'
            ? paint(style, '31', `[-${p.text}-]`)
            : paint(style, '32', `{+${p.text}+}`),
    )
    .join('');
  return (
    `${n(diff.before)} → ${n(diff.after)} characters; ${n(diff.removed)} removed, ${n(diff.added)} added:\n` + body
  );
}

export function diffAnswerText(a: DiffAnswer, style: Style): string {
  const lines = [a.summary];
  for (const item of a.items) {
    const breaking = item.breaking ? `${paint(style, '31', 'breaking')} (${item.breaking}) ` : '';
    lines.push('', `- ${breaking}${bold(style, item.words)} (${item.releases.join(', ')})`);
    if (item.diff) lines.push(diffText(item.diff, style));
  }
  lines.push('', `Page: ${a.page}`);
  return `${lines.join('\n')}\n`;
}

export function checkText(a: CheckAnswer, style: Style): string {
  const lines = [a.valid ? paint(style, '32', a.headline) : paint(style, '31', a.headline)];
  for (const e of a.errors) lines.push(`  ${e.path} ${e.text}  ${dim(style, `(${e.pointer || '/'}: ${e.rule})`)}`);
  for (const note of a.notes) lines.push(dim(style, note));
  lines.push(`Schema: ${a.schema}`);
  return `${lines.join('\n')}\n`;
}

export function changesText(a: ChangesAnswer, style: Style): string {
  if (a.releases.length === 0) return 'No release with changes matches.\n';
  const lines: string[] = [];
  for (const r of a.releases) {
    lines.push(bold(style, `${r.product} ${r.release}`) + `  ${r.published.slice(0, 10)}  ${r.page}`);
    for (const g of r.groups) {
      if (g.between) lines.push(`  between ${g.between.previous} and ${r.release}, not exactly in ${r.release}`);
      for (const t of g.tools)
        for (const c of t.changes) {
          const breaking = c.breaking ? `${paint(style, '31', 'breaking')} (${c.breaking}) ` : '';
          lines.push(`  ${t.name}: ${breaking}${c.words}`);
        }
    }
    lines.push('');
  }
  lines.push(`${a.changes} change${a.changes === 1 ? '' : 's'}, ${a.breaking} breaking.`);
  return `${lines.join('\n')}\n`;
}
