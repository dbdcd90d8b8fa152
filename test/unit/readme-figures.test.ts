/**
 * The coverage figures in README's "Covered today" are checked against the
 * content, so that no number there goes stale when content changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContent } from '../../src/lib/content/load.ts';

const ROOT = join(import.meta.dirname, '../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
const site = loadContent({ root: ROOT });
const count = (agent: string, source?: string) => site.tools.filter((t) => t.agent === agent && (!source || t.source === source)).length;

test('the Claude Code figures of the README are the content', () => {
  const m = /\*\*Claude Code ([\d.]+)\*\* — (\d+) tools: the (\d+) declared in .*?plus (\d+) that only the running CLI shows.*?; (\d+) captured configurations/.exec(readme);
  assert.ok(m, 'the Claude Code line is where it was');
  const agent = site.agents.find((a) => a.id === 'claude-code')!;
  assert.deepEqual(m.slice(1).map(String), [
    agent.version,
    String(count('claude-code')),
    String(count('claude-code', 'sdk')),
    String(count('claude-code', 'capture')),
    String(site.matrix!.agents['claude-code']!.configurations.length),
  ]);
});

test('the Codex figures of the README are the content', () => {
  const m = /\*\*Codex CLI ([\d.]+)\*\* .*?— (\d+) tools: (\d+) that at least one of (\d+) captured configurations advertises.*?and (\d+) that public documentation names/.exec(readme);
  assert.ok(m, 'the Codex line is where it was');
  assert.deepEqual(m.slice(1).map(String), [
    site.matrix!.agents.codex!.version,
    String(count('codex')),
    String(site.tools.filter((t) => t.agent === 'codex' && t.captured).length),
    String(site.matrix!.agents.codex!.configurations.length),
    String(count('codex', 'documented')),
  ]);
});

test('the figures of the README for every other agent are the content', () => {
  const others = site.agents.filter((a) => a.id !== 'claude-code' && a.id !== 'codex');
  assert.ok(others.length > 0);
  for (const agent of others) {
    const product = agent.product.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`\\*\\*${product} ([\\d.]+)\\*\\* \\(\`([^\`]+)\`\\) — (\\d+) tools from (\\d+) captured configurations`).exec(readme);
    assert.ok(m, `no README line for ${agent.product}`);
    const matrix = site.matrix!.agents[agent.id]!;
    assert.deepEqual(m.slice(1).map(String), [matrix.version, matrix.package, String(count(agent.id)), String(matrix.configurations.length)], agent.product);
  }
});
