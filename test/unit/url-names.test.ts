import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { elementIdProblem, reservedNames, toolSlug, urlNameProblem } from '../../src/lib/content/url-names.ts';

const ROOT = join(import.meta.dirname, '../..');

test('tool slugs are lowercase, keep namespaces and placeholders readable, and may come out empty', () => {
  assert.equal(toolSlug('TaskStop'), 'taskstop');
  assert.equal(toolSlug('multi_agent_v1.spawn_agent'), 'multi_agent_v1.spawn_agent');
  assert.equal(toolSlug('mcp__<server>__<tool>'), 'mcp__server__tool');
  assert.equal(toolSlug('a b/c'), 'a-b-c');
  for (const name of ['読む', '!!!', '<>', '']) assert.equal(toolSlug(name), '', name);
});

test('a URL segment must be non-empty, not . or .., not hidden, not a fixed page, and fit a file name', () => {
  const reserved = new Set(['index', 'jobs']);
  assert.equal(urlNameProblem('read', reserved), undefined);
  assert.equal(urlNameProblem('multi_agent_v1.spawn_agent', reserved), undefined);
  assert.match(urlNameProblem('', reserved)!, /empty/);
  assert.match(urlNameProblem('.', reserved)!, /itself or its parent/);
  assert.match(urlNameProblem('..', reserved)!, /itself or its parent/);
  assert.match(urlNameProblem('.hidden', reserved)!, /starts with a dot/);
  assert.match(urlNameProblem('index.html', reserved)!, /another page/);
  assert.match(urlNameProblem('jobs', reserved)!, /another page/);
  assert.match(urlNameProblem('Read', reserved)!, /characters other than/);
  assert.equal(urlNameProblem('a'.repeat(255), reserved), undefined);
  assert.match(urlNameProblem('a'.repeat(256), reserved)!, /256 bytes/);
});

test('reserved names are read from the routes, docs and public files', () => {
  const { top, agent } = reservedNames(ROOT);
  for (const name of ['index', 'jobs', 'about', 'favicon.svg', '_astro', 'pagefind', '404'])
    assert.ok(top.has(name), name);
  assert.ok(!top.has('[agent]'), 'dynamic routes are the content itself');
  // Derived from the files under src/pages/[agent]/ other than dynamic routes: index.astro, changelog.astro.
  const files = [
    ...new Set(
      readdirSync(join(ROOT, 'src/pages/[agent]'))
        .filter((f) => !f.startsWith('['))
        .map((f) => f.replace(/\.[^.]+$/, '')),
    ),
  ];
  assert.deepEqual([...agent].sort(), files.sort());
  assert.ok(agent.has('changelog'), 'a tool named changelog would take the changelog page');
});

test('element ids may not take an id Starlight puts on every page, or one already on the page', () => {
  assert.equal(elementIdProblem('read-file', new Set()), undefined);
  assert.match(elementIdProblem('theme-icons', new Set())!, /Starlight/);
  assert.match(elementIdProblem('read-file', new Set(['read-file']))!, /already/);
});
