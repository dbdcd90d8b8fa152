/**
 * The README and the docs under docs/ name no pinned release and no figure that a refresh
 * changes: the site and the catalog give those. Checked against every release the content
 * and the pins name, so that an honest refresh never makes them wrong. What the docs do state
 * about the release histories (where the SDK history starts, the range each capture history
 * reads) is checked against the history file and the agent modules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
/** README.md and every Markdown file of docs/, by path. */
const docs = new Map(
  [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ].map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]),
);
const historyDoc = readFileSync(join(ROOT, 'docs/history.md'), 'utf8');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/** Every release the pins, the capture matrix and the agent records name, read from the files. */
function pinnedReleases(): Set<string> {
  const out = new Set<string>();
  for (const pin of Object.values(readJson('scripts/pins.json')) as { version: string }[]) out.add(pin.version);
  for (const agent of Object.values(readJson('content/capture-matrix.json').agents) as { version: string }[])
    out.add(agent.version);
  const records = join(ROOT, 'content/agents');
  if (existsSync(records)) for (const f of readdirSync(records)) out.add(readJson(`content/agents/${f}`).version);
  return out;
}

test('neither the README nor any file of docs/ names a pinned release', () => {
  const releases = pinnedReleases();
  assert.ok(releases.size > 0);
  assert.ok(docs.size > 2, 'the README and the docs are read');
  const named: string[] = [];
  for (const [path, text] of docs)
    for (const v of releases)
      if (new RegExp(`(^|[^\\d.])${v.replace(/\./g, '\\.')}(?![\\d.]*\\d)`).test(text)) named.push(`${path}: ${v}`);
  assert.deepEqual(named, [], 'pinned releases named: a refresh would make these files wrong');
});

test('the check finds a pinned release where one is written', () => {
  const [release] = pinnedReleases();
  assert.ok(
    new RegExp(`(^|[^\\d.])${release!.replace(/\./g, '\\.')}(?![\\d.]*\\d)`).test(`- **Product ${release}** — tools`),
  );
});

test('docs/history.md states where the SDK history starts: the first release of each package it was read from', () => {
  const history = readJson('content/history/claude-code.sdk.json') as {
    package: string;
    releases: { version: string; package?: string }[];
  };
  const firsts: string[] = [];
  let line: string | undefined;
  for (const r of history.releases) {
    const pkg = r.package ?? history.package;
    if (pkg !== line) firsts.push(`\`${pkg}\` ${r.version}`);
    line = pkg;
  }
  assert.ok(firsts.length > 0);
  const missing = firsts.filter(
    (f) => !new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d.]*\\d)`).test(historyDoc),
  );
  assert.deepEqual(missing, [], 'docs/history.md states each package line of the SDK history with its first release');
});

/** The ranges docs/history.md states as "<product>: <range>", by product (flattened text). */
function statedRanges(text: string, products: string[]): Map<string, string[]> {
  const flat = text.replace(/\s+/g, ' ');
  const out = new Map<string, string[]>();
  for (const product of products) {
    const escaped = product.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(
      `(?<![\\w-])${escaped}: (every release from \\S+ to the pin|the last \\d+ up to the pin)`,
      'g',
    );
    const ranges = [...flat.matchAll(pattern)].map((m) => m[1]!);
    if (ranges.length > 0) out.set(product, ranges);
  }
  return out;
}

// A new agent needs no edit of the docs: the agent page and the changelog state each history's range
// from the module. But a range the docs do state must be the module's, with the configurations it compares.
test('every capture history range docs/history.md states is the one its agent module plans', async () => {
  const { AGENT_IDS, AGENTS } = await import('../../src/lib/agents/index.ts');
  const flat = historyDoc.replace(/\s+/g, ' ');
  const stated = statedRanges(
    historyDoc,
    AGENT_IDS.map((id) => AGENTS[id].product),
  );
  assert.ok(stated.size > 0, 'docs/history.md states some ranges (else this test checks nothing)');
  const wrong: string[] = [];
  for (const id of AGENT_IDS) {
    const ranges = stated.get(AGENTS[id].product);
    if (!ranges) continue;
    const plan = AGENTS[id].captureHistory;
    if ('none' in plan) {
      wrong.push(`${AGENTS[id].product}: a range is stated, but the module plans no capture history`);
      continue;
    }
    const range =
      'last' in plan.range
        ? `the last ${plan.range.last} up to the pin`
        : `every release from ${plan.range.from} to the pin`;
    for (const r of ranges) if (r !== range) wrong.push(`${AGENTS[id].product}: "${r}", the module plans "${range}"`);
    for (const c of plan.configurations)
      if (!flat.includes(`\`${c}\``)) wrong.push(`${AGENTS[id].product}: configuration ${c} is not named`);
  }
  assert.deepEqual(wrong, [], 'docs/history.md states each capture history as "<product>: <range>", as planned');
  assert.deepEqual(
    [...statedRanges('Made-up CLI: the last 20 up to the pin.', ['Made-up CLI'])],
    [['Made-up CLI', ['the last 20 up to the pin']]],
    'the reading finds a stated range',
  );
});
