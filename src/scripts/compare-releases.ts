/**
 * "Compare two releases" on a tool page, loaded when the reader opens it (or when the URL
 * names a comparison: `?compare=capture:2.1.100..2.1.200`). It reads the tool's timeline
 * (src/lib/exports/tool-timeline.ts), offers the releases its histories read, and shows every
 * change after the first release up to the second: a description or definition changed
 * several times as one word-for-word diff from the first text to the last, other changes as
 * the changelog words them. The choice is written to the URL so that it can be linked.
 * Upstream text is only ever set as text, never parsed as HTML.
 */
import { partsOf, type DiffRun, type TextDiff } from '../lib/history/text-diff-parts.ts';
import {
  compareReleases,
  comparisonSummary,
  lineText,
  SOURCE_LABELS,
  type ComparedItem,
  type Timeline,
  type TimelineChange,
  type TimelineSource,
} from '../lib/history/release-compare.ts';

interface Jsdiff {
  diffWordsWithSpace(a: string, b: string): DiffRun[];
  diffLines(a: string, b: string): DiffRun[];
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** The `compare` parameter: `source:from..to`. */
export function parseChoice(value: string | null): { source: string; from: string; to: string } | undefined {
  const m = /^([a-z]+):([0-9][0-9.]*)\.\.([0-9][0-9.]*)$/.exec(value ?? '');
  return m ? { source: m[1]!, from: m[2]!, to: m[3]! } : undefined;
}

function renderDiff(diff: TextDiff, prose: boolean): HTMLElement {
  const box = el('div', undefined, 'text-diff');
  const n = (x: number) => x.toLocaleString('en-US');
  box.append(
    el(
      'p',
      `${n(diff.before)} → ${n(diff.after)} characters; ${n(diff.removed)} removed, ${n(diff.added)} added:`,
      'text-diff-sizes',
    ),
  );
  const pre = el('pre', undefined, prose ? 'text-diff-body text-diff-prose' : 'text-diff-body');
  for (const p of diff.parts) {
    if (p.op === 'skip') pre.append(el('span', `[… ${n(p.chars)} unchanged characters …]`, 'text-diff-skip'));
    else if (p.op === 'same') pre.append(document.createTextNode(p.text));
    else pre.append(el(p.op, p.text.trim() === '' ? p.text.replaceAll('\n', '↵\n').replaceAll(' ', '·') : p.text));
  }
  box.append(pre);
  return box;
}

/** The comparison of one source between two releases, as elements. */
function renderComparison(
  timeline: Timeline,
  source: TimelineSource,
  from: string,
  to: string,
  jsdiff: Jsdiff,
): HTMLElement {
  const out = el('div');
  const label = (v: string) => source.releases.find((r) => r.version === v)?.label ?? v;
  const comparison = compareReleases(timeline, source, from, to);
  out.append(el('p', comparisonSummary(timeline, source, comparison, label), 'compare-summary'));
  if (comparison.changes.length === 0) return out;
  const list = el('ul', undefined, 'version-history');
  for (const item of comparison.items)
    list.append(item.kind === 'line' ? lineItem(item.change, label) : textItem(item, label, jsdiff));
  out.append(list);
  return out;
}

/** One text's changes: in which releases, and the diff from its first text to its last. */
function textItem(
  text: Extract<ComparedItem, { kind: 'text' }>,
  label: (version: string) => string,
  jsdiff: Jsdiff,
): HTMLLIElement {
  const item = el('li');
  const all = text.changes;
  const first = all[0]!;
  item.append(
    el('strong', lineText(first), 'change-kind'),
    document.createTextNode(
      ` (${
        all.length === 1
          ? `in ${label(first.release)}`
          : `${all.length} times: ` + `${all.map((x) => label(x.release)).join(', ')}`
      })`,
    ),
  );
  const { before, after } = text;
  const runs = text.by === 'lines' ? jsdiff.diffLines(before, after) : jsdiff.diffWordsWithSpace(before, after);
  item.append(renderDiff(partsOf(runs, before, after), text.by === 'words'));
  return item;
}

/** A change that is not of a text: as the changelog words it, with its release. */
function lineItem(c: TimelineChange, label: (version: string) => string): HTMLLIElement {
  const item = el('li');
  if (c.breaking !== undefined) item.append(el('strong', 'breaking', 'breaking-badge'), document.createTextNode(' '));
  item.append(el('span', lineText(c)), el('span', ` — ${label(c.release)}`, 'evidence'));
  return item;
}

function option(value: string, text: string): HTMLOptionElement {
  const o = el('option', text);
  o.value = value;
  return o;
}

/** The timeline and jsdiff's browser build (which sets `globalThis.Diff`), or why they did not load. */
async function load(details: HTMLDetailsElement): Promise<{ timeline: Timeline; jsdiff: Jsdiff } | string> {
  try {
    const [response] = await Promise.all([
      fetch(details.dataset.timeline!),
      import(new URL('../vendor/diff.js', import.meta.url).href),
    ]);
    if (!response.ok) throw new Error(`${details.dataset.timeline} answered ${response.status}`);
    return { timeline: (await response.json()) as Timeline, jsdiff: (globalThis as unknown as { Diff: Jsdiff }).Diff };
  } catch (error) {
    return `The releases could not be loaded: ${(error as Error).message}`;
  }
}

interface Form {
  form: HTMLFormElement;
  source: HTMLSelectElement;
  from: HTMLSelectElement;
  to: HTMLSelectElement;
}

/** The form: a history to choose when there are several, and the two releases. */
function buildForm(timeline: Timeline): Form {
  const form = el('form', undefined, 'compare-form');
  const field = (text: string, select: HTMLSelectElement) => {
    const l = el('label', `${text} `);
    l.append(select);
    return l;
  };
  const select = (name: string) => Object.assign(el('select'), { name });
  const source = select('source');
  for (const s of timeline.sources)
    source.append(option(s.source, `${SOURCE_LABELS[s.source] ?? s.source} (${s.package})`));
  const from = select('from');
  const to = select('to');
  if (timeline.sources.length > 1) form.append(field('History:', source));
  form.append(field('From', from), field('to', to));
  form.addEventListener('submit', (e) => e.preventDefault());
  return { form, source, from, to };
}

/**
 * Lists a history's releases in both selects, newest first, and chooses two: those asked, else from the release before
 * the newest change to the newest release read.
 */
function fill(f: Form, s: TimelineSource, from?: string, to?: string): void {
  for (const select of [f.from, f.to]) {
    select.replaceChildren(
      ...[...s.releases]
        .reverse()
        .map((r) => option(r.version, r.label === r.version ? r.version : `${r.label} (${r.version})`)),
    );
  }
  const place = (v: string) => s.releases.findIndex((r) => r.version === v);
  const newest = s.changes.reduce<TimelineChange | undefined>(
    (n, c) => (!n || place(c.release) > place(n.release) ? c : n),
    undefined,
  );
  f.from.value = from ?? newest?.previous ?? s.releases[0]!.version;
  f.to.value = to ?? s.releases[s.releases.length - 1]!.version;
}

export async function start(details: HTMLDetailsElement): Promise<void> {
  if (details.dataset.started) return;
  details.dataset.started = '1';
  const status = details.querySelector<HTMLElement>('[data-compare-result]')!;
  status.textContent = 'Loading the releases…';
  const loaded = await load(details);
  if (typeof loaded === 'string') {
    status.textContent = loaded;
    delete details.dataset.started;
    return;
  }
  const { timeline, jsdiff } = loaded;
  const f = buildForm(timeline);
  status.before(f.form);
  const source = () => timeline.sources.find((s) => s.source === f.source.value) ?? timeline.sources[0]!;
  const show = (write: boolean) => {
    const s = source();
    status.replaceChildren(renderComparison(timeline, s, f.from.value, f.to.value, jsdiff));
    if (!write) return;
    const url = new URL(location.href);
    url.searchParams.set('compare', `${s.source}:${f.from.value}..${f.to.value}`);
    url.hash = details.id;
    history.replaceState(null, '', url);
  };
  const asked = parseChoice(new URLSearchParams(location.search).get('compare'));
  const askedSource = asked && timeline.sources.find((s) => s.source === asked.source);
  const known = (s: TimelineSource, v: string) => s.releases.some((r) => r.version === v);
  if (askedSource && known(askedSource, asked!.from) && known(askedSource, asked!.to)) {
    f.source.value = askedSource.source;
    fill(f, askedSource, asked!.from, asked!.to);
  } else fill(f, source());
  f.source.addEventListener('change', () => {
    fill(f, source());
    show(true);
  });
  f.from.addEventListener('change', () => show(true));
  f.to.addEventListener('change', () => show(true));
  show(false);
  if (asked) details.scrollIntoView();
}
