/**
 * README names no pinned release and no figure that a refresh changes: the
 * site and the catalog give those. Checked against every release the content
 * and the pins name, so that an honest refresh never makes the README wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
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

test('README names none of the pinned releases', () => {
  const releases = pinnedReleases();
  assert.ok(releases.size > 0);
  const named = [...releases].filter((v) =>
    new RegExp(`(^|[^\\d.])${v.replace(/\./g, '\\.')}(?![\\d.]*\\d)`).test(readme),
  );
  assert.deepEqual(named, [], 'README names pinned releases: a refresh would make it wrong');
});

test('the check finds a pinned release where one is written', () => {
  const [release] = pinnedReleases();
  assert.ok(
    new RegExp(`(^|[^\\d.])${release!.replace(/\./g, '\\.')}(?![\\d.]*\\d)`).test(`- **Product ${release}** — tools`),
  );
});

test('README states where the SDK history starts: the first release of each package it was read from', () => {
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
    (f) => !new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d.]*\\d)`).test(readme),
  );
  assert.deepEqual(missing, [], 'README states each package line of the SDK history with its first release');
});

test('README states the range of every capture history an agent module plans', async () => {
  const { AGENT_IDS, AGENTS } = await import('../../src/lib/agents/index.ts');
  const flat = readme.replace(/\s+/g, ' ');
  const stated = (product: string, range: string) => flat.includes(`${product}: ${range}`);
  const missing: string[] = [];
  for (const id of AGENT_IDS) {
    const plan = AGENTS[id].captureHistory;
    if ('none' in plan) continue;
    const range =
      'last' in plan.range
        ? `the last ${plan.range.last} up to the pin`
        : `every release from ${plan.range.from} to the pin`;
    if (!stated(AGENTS[id].product, range)) missing.push(`${AGENTS[id].product}: ${range}`);
    for (const c of plan.configurations)
      if (!flat.includes(`\`${c}\``)) missing.push(`${AGENTS[id].product} configuration ${c}`);
  }
  assert.deepEqual(missing, [], 'README names each capture history range as "<product>: <range>"');
  assert.ok(!stated('Made-up CLI', 'the last 20 up to the pin'), 'the check can fail');
});
