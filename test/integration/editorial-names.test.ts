/**
 * Every field-like name that editorial prose puts in code style is backed by
 * the evidence (a field or value of the tool in some table, configuration or
 * release; a tool, namespace, alias or feature flag), or listed by the file
 * itself under `namesNotInSchema` with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agentNames,
  checkEditorialNames,
  establishedNames,
  mentionedNames,
} from '../../src/lib/content/editorial-names.ts';
import type { ToolModel } from '../../src/lib/model/model.ts';
import { realContent } from '../helpers/real-content.ts';

const ROOT = join(import.meta.dirname, '../..');
const site = realContent();
const EDITORIAL = join(ROOT, 'content/editorial');

/**
 * Backticked snake_case or camelCase identifiers (`file_path`, `runInBackground`) in every string of a raw JSON value,
 * outside `skip` keys.
 */
function codeNames(value: unknown, skip: ReadonlySet<string>): string[] {
  if (typeof value === 'string')
    return [...value.matchAll(/`([a-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)`/g)]
      .map((m) => m[1]!)
      .filter((n) => /[A-Z_]/.test(n));
  if (Array.isArray(value)) return value.flatMap((v) => codeNames(v, skip));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => (skip.has(k) ? [] : codeNames(v, skip)));
  return [];
}

test('no editorial text names a field the evidence does not have, unless it says why', () => {
  assert.deepEqual(
    checkEditorialNames(site).map((f) => `${f.tool}: ${f.name} (${f.problem})`),
    [],
  );
});

test('the check reads every code-style name of the raw editorial files', () => {
  // Read with a regular expression over the raw JSON, not through the loader: a text the check
  // forgets to read (a new editorial field) leaves its names unchecked, and fails here.
  const missed: string[] = [];
  let found = 0;
  for (const agent of readdirSync(EDITORIAL)) {
    for (const file of readdirSync(join(EDITORIAL, agent))) {
      const raw = JSON.parse(readFileSync(join(EDITORIAL, agent, file), 'utf8'));
      const tool = site.tools.find((t) => t.agent === agent && t.slug === file.replace(/\.json$/, ''));
      assert.ok(tool, `${agent}/${file} belongs to a tool`);
      // Not prose: the reasons of namesNotInSchema name the very names they excuse; jobs are ids.
      const names = new Set(codeNames(raw, new Set(['namesNotInSchema', 'jobs', 'agent', 'name'])));
      const mentioned = new Set(mentionedNames(tool));
      for (const n of names) if (!mentioned.has(n)) missed.push(`${agent}/${file}: ${n}`);
      found += names.size;
    }
  }
  assert.deepEqual(missed, []);
  assert.ok(found > 0, 'the editorial files put no name in code style');
});

/** A copy of `tool` whose editorial summary also says `words`. */
const saying = (tool: ToolModel, words: string, listed: string[] = []): ToolModel => ({
  ...tool,
  editorial: {
    ...tool.editorial!,
    summary: `${tool.editorial!.summary} ${words}`,
    namesNotInSchema: [...(tool.editorial!.namesNotInSchema ?? []), ...listed.map((name) => ({ name, why: 'test' }))],
  },
});

test('a name no evidence has is reported; the same name listed under namesNotInSchema, or a real field of the tool, is not', () => {
  // A tool with editorial prose and a field whose name reads as a field name (`file_path`).
  const fieldLike = (n: string) => /^[a-z][a-zA-Z0-9]*(?:_[a-zA-Z0-9]+)*$/.test(n) && /[A-Z_]/.test(n);
  const tool = site.tools.find((t) => t.editorial && [...establishedNames(t, site)].some(fieldLike))!;
  assert.ok(tool, 'a tool with editorial prose and a field-like field');
  const field = [...establishedNames(tool, site)].find(fieldLike)!;
  // A field-like name the evidence does not have: the field with a suffix nothing else has.
  const taken = new Set([...establishedNames(tool, site), ...agentNames(site, tool.agent)]);
  let invented = `${field}_unheard`;
  while (taken.has(invented)) invented += '_x';
  // Checked alone (the check is per tool; the agent's other names come from the whole site above).
  // Only what the edit adds is compared: the tool's own text may mention names of tools left out.
  const check = (t: ToolModel) =>
    checkEditorialNames({ ...site, tools: [t] }).map((f) => `${f.tool}: ${f.name} (${f.problem})`);
  const before = new Set(check(tool));
  const findings = (t: ToolModel) => check(t).filter((f) => !before.has(f));

  assert.deepEqual(findings(saying(tool, `See \`${invented}\`.`)), [`${tool.fullName}: ${invented} (unestablished)`]);
  assert.deepEqual(findings(saying(tool, `See \`${invented}\`.`, [invented])), []);
  assert.deepEqual(findings(saying(tool, 'Nothing in code style.', [invented])), [
    `${tool.fullName}: ${invented} (listed-but-not-mentioned)`,
  ]);
  assert.deepEqual(findings(saying(tool, `See \`${field}\`.`)), []);
  assert.deepEqual(findings(saying(tool, `See \`${field}\`.`, [field])), [
    `${tool.fullName}: ${field} (listed-but-established)`,
  ]);
});
